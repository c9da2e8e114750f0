#include "server/wire_settings.h"

#include <numbers>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "engine/contact/terrain_generators.h"
#include "engine/sim/contact_parameters.h"
#include "engine/sim/controller_parameters.h"
#include "engine/util/status_macros.h"

namespace moreau::server {
namespace {

absl::Status ApplyContactParameters(const v1::Settings& proto, sim::Settings& s) {
  for (const auto& [name, value] : proto.contact_parameters()) {
    MOREAU_RETURN_IF_ERROR(sim::SetContactParameter(s, name, value));
  }
  return absl::OkStatus();
}

absl::StatusOr<Vec3> Vec3From(const google::protobuf::RepeatedField<double>& in,
                              const char* field) {
  if (in.size() != 3) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " has ", in.size(), " entries, expected 3"));
  }
  return Vec3(in[0], in[1], in[2]);
}

absl::Status Prefixed(const absl::Status& status, std::string_view prefix) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat(std::string(prefix), status.message()));
}

absl::StatusOr<contact::Terrain> TerrainFromProto(const v1::Terrain& t,
                                                  const contact::HeightfieldLimits& limits) {
  switch (t.kind_case()) {
    case v1::Terrain::KIND_NOT_SET:
      return contact::Terrain();
    case v1::Terrain::kFlat:
      return contact::Terrain::Plane(Vec3::UnitZ(), t.flat().height());
    case v1::Terrain::kIncline: {
      Vec3 axis = Vec3::UnitX();
      if (t.incline().axis_size() > 0) {
        MOREAU_ASSIGN_OR_RETURN(axis, Vec3From(t.incline().axis(), "terrain.incline.axis"));
      }
      return contact::Terrain::Incline(t.incline().angle_deg() * std::numbers::pi / 180.0, axis);
    }
    case v1::Terrain::kHeightfield: {
      const auto& h = t.heightfield();
      MOREAU_ASSIGN_OR_RETURN(Vec3 origin, Vec3From(h.origin(), "terrain.heightfield.origin"));
      // Before the heights are copied.
      MOREAU_RETURN_IF_ERROR(
          contact::Terrain::CheckHeightfieldSize(h.nx(), h.ny(), h.heights_size(), limits));
      return contact::Terrain::Heightfield(origin, h.cell_size(), h.nx(), h.ny(),
                                           {h.heights().begin(), h.heights().end()}, limits);
    }
    case v1::Terrain::kRough: {
      const auto& r = t.rough();
      absl::StatusOr<contact::Terrain> rough = r.has_seed()
                                                   ? contact::RoughTerrain(r.amplitude(), r.seed())
                                                   : contact::RoughTerrain(r.amplitude());
      if (!rough.ok()) return Prefixed(rough.status(), "rough: ");
      return rough;
    }
    case v1::Terrain::kHeightfieldCsv: {
      absl::StatusOr<contact::Terrain> csv =
          contact::HeightfieldFromCsv(t.heightfield_csv().text(), limits);
      if (!csv.ok()) return Prefixed(csv.status(), "heightfield_csv: ");
      return csv;
    }
  }
  return absl::InvalidArgumentError("unknown terrain kind");
}

}  // namespace

absl::StatusOr<sim::ControllerSettings> ControllerFromProto(const v1::ControllerSettings& proto,
                                                            sim::ControlMode mode) {
  sim::ControllerSettings c;
  if (!proto.kind().empty()) {
    absl::StatusOr<sim::ControllerKind> kind = sim::ParseControllerKind(proto.kind());
    if (!kind.ok()) return Prefixed(kind.status(), "controller.kind: ");
    c.kind = *kind;
  }
  if (proto.period_steps() < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "controller.period_steps must be ≥ 0 (0 → 1: every step), got ", proto.period_steps()));
  }
  if (proto.period_steps() > 0) c.period_steps = proto.period_steps();
  // By name, so the order of the map does not matter: each name sets its own field.
  for (const auto& [name, value] : proto.parameters()) {
    MOREAU_RETURN_IF_ERROR(
        Prefixed(sim::SetControllerParameter(c, mode, name, value), "controller.parameters: "));
  }
  return c;
}

absl::StatusOr<sim::Settings> SettingsFromProto(const v1::Settings& proto,
                                                const contact::HeightfieldLimits& limits) {
  sim::Settings s;
  if (proto.dt() != 0.0) s.dt = proto.dt();
  if (!proto.contact_model().empty()) {
    MOREAU_ASSIGN_OR_RETURN(const sim::ContactModel model,
                            sim::ParseContactModel(proto.contact_model()));
    s.contact = sim::DefaultContactSettings(model);
  }
  if (!proto.integrator().empty()) {
    MOREAU_ASSIGN_OR_RETURN(const step::Integrator integrator,
                            sim::ParseIntegrator(proto.integrator()));
    // The force laws' only; the other models step by their own scheme.
    if (step::Integrator* own = sim::ForceLawIntegrator(s.contact)) *own = integrator;
  }
  MOREAU_RETURN_IF_ERROR(ApplyContactParameters(proto, s));
  if (!proto.control_mode().empty()) {
    MOREAU_ASSIGN_OR_RETURN(s.control.mode, sim::ParseControlMode(proto.control_mode()));
  }
  if (proto.has_kp()) s.control.gains.kp = proto.kp();
  if (proto.has_kd()) s.control.gains.kd = proto.kd();
  if (proto.has_id_time_constant()) s.control.id_time_constant = proto.id_time_constant();
  if (!proto.loop_solver().empty()) {
    MOREAU_ASSIGN_OR_RETURN(const step::LoopSolver solver,
                            sim::ParseLoopSolver(proto.loop_solver()));
    // Hard contact's only: Simulation::Create rejects a closed chain under the others.
    if (auto* moreau = std::get_if<sim::MoreauSettings>(&s.contact)) moreau->loop_solver = solver;
  }
  s.transmission.gear = proto.gear();
  s.transmission.rotor_inertia = proto.rotor_inertia();
  if (proto.gravity_size() > 0) {
    MOREAU_ASSIGN_OR_RETURN(s.gravity, Vec3From(proto.gravity(), "gravity"));
  }
  if (proto.has_controller()) {
    MOREAU_ASSIGN_OR_RETURN(s.controller, ControllerFromProto(proto.controller(), s.control.mode));
  }
  auto terrain = TerrainFromProto(proto.terrain(), limits);
  if (!terrain.ok()) return Prefixed(terrain.status(), "terrain: ");
  s.terrain = std::move(*terrain);
  // Validated once more, in full, by Simulation::Create.
  MOREAU_RETURN_IF_ERROR(sim::Validate(s));
  return s;
}

}  // namespace moreau::server
