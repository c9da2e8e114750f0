#include "engine/sim/make_controller.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/control/tuning.h"
#include "engine/control/velocity_trot.h"

namespace moreau::sim {

absl::StatusOr<std::unique_ptr<control::Controller>> MakeSimulationController(const Model& model,
                                                                              const Settings& s) {
  const ControllerSettings& c = s.controller;
  absl::StatusOr<std::unique_ptr<control::Controller>> made;
  if (c.kind == ControllerKind::kNone) return std::unique_ptr<control::Controller>();
  // "trot": deadbeat joint rows (id-constraint) get the velocity trot.
  const bool velocity = RunsVelocityTrot(c.kind, s.control.mode);
  if (velocity && s.control.mode == ControlMode::kTorque) {
    made = absl::InvalidArgumentError(
        "it drives the joints by targets only: needs a control mode other than torque");
  } else if (velocity) {
    // Its targets for the mode's time constant.
    control::VelocityTrotOptions options = c.velocity_trot;
    options.id_time_constant_s = s.control.id_time_constant;
    absl::StatusOr<std::unique_ptr<control::VelocityTrot>> trot =
        control::VelocityTrot::Create(model, options);
    if (trot.ok()) return std::unique_ptr<control::Controller>(*std::move(trot));
    made = trot.status();
  } else {
    const bool trot = c.kind == ControllerKind::kTrot || c.kind == ControllerKind::kPdTrot;
    const char* name = trot ? "trot" : ControllerKindName(c.kind);
    control::ControllerOptions options = c.options;
    // Steered by commands, every robot gets the derived tuning: 001's Mini
    // Cheetah constants (auto's choice for it) do not hold sideways steps.
    if (s.control.mode == ControlMode::kCommand && options.tuning == control::Tuning::kAuto) {
      options.tuning = control::Tuning::kDerived;
    }
    made = control::MakeController(name, model, options);
    if (made.ok()) return made;
    // MakeController names the controller it built ("trot" for pd-trot):
    // the message below names the kind chosen in the Settings instead.
    absl::string_view message = made.status().message();
    absl::ConsumePrefix(&message, absl::StrCat("controller '", name, "': "));
    made = absl::InvalidArgumentError(message);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("controller '", ControllerKindName(c.kind), "': ", made.status().message()));
}

}  // namespace moreau::sim
