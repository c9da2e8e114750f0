// moreau_control_bench: paper 002's experiments (§IV, Tables I–II) repeated
// on Moreau — for each (scenario, control mode) the largest stable time step,
// the tracking error there, and the wall time of 5 s simulated.
//
// Scenarios (--scenarios):
//   ur10         the UR10 arm (models/ur10) following a sinusoid on
//                every joint: q_ref,j(t) = q_c,j + A sin(2π f t + j π/6),
//                A = 0.3 rad, f = 0.5 Hz, around q_c = the default pose (the
//                --ur10_* flags; the report repeats them).
//   ur10_geared  the same arm with a transmission on every joint (002 §IV-C):
//                gear N = --gear, rotor inertia I_rotor = --rotor_inertia, so
//                N²·I_rotor on M's diagonal (Settings::transmission). Run with
//                --geared_modes (PD by default, as in 002 Table II).
//   trot         the built-in Mini Cheetah trotting (engine/control trot
//                controller, 001 §6.2) on flat ground, hard contact
//                (moreau-sor), with the Mini Cheetah's effort limits 17/17/26
//                N m (--trot_effort_limits; the shipped URDF has none) in every
//                mode, and the time constants --trot_id_time_constant (id) and
//                --trot_id_constraint_time_constant (id-constraint). Under
//                id-constraint the legs run the velocity trot instead
//                (engine/control/velocity_trot.h; --trot_id_constraint_controller,
//                the --vtrot_* flags): its targets are q + Δt q̇_d with time
//                constant 0, its gait (frequency, speed, duty factor, start
//                delay) is its own, and the stance phases of the slip measure
//                are its gait's.
// Every scenario solves its contacts and joint rows by SOR at α = --prox_alpha
// with up to --prox_max_iterations sweeps.
// Control modes (--modes): names for sim::ParseControlMode ("pd", "id",
// "id-constraint", …); a name this build does not know becomes an entry with
// an "error" in the report, the other modes still run.
//
// Every step the action is the joint targets at the end of the step,
// q_ref(t + Δt), held for one step (Simulation::StepAction, one sub-step). The
// trot runs inside the simulation (sim::Settings::controller, "pd-trot" or
// under id-constraint "velocity-trot"): a zero action, its targets for
// t + Δt (State::controller_command) are the reference.
//
// Largest stable Δt (002 §IV): start at --dt_start, double until unstable or
// --dt_max (then try --dt_max itself), then --bisections bisections between
// the last stable and the first unstable step. If --dt_start is unstable, it
// halves down to dt_start / 64 first. "Stable" over --duration s: no
// divergence (Simulation::StepAction error), tracking error (mean absolute
// joint error over joints and steps) below --error_threshold, and for the
// trot the base above --min_height_fraction of the stand height and tilted
// less than --max_tilt_deg at every step.
//
// At the largest stable Δt: tracking error, wall time of the run (median of
// --repeats runs), steps/s; for the trot also the stance-foot slip and the
// forward distance of the base: per stance (one stance phase of a leg's gait
// after the start delay), the slip (travel while in contact), the
// displacement from the first touchdown, the contact closures, and the
// per-segment slip reported before (stance_slip.h); max, median and 90th
// percentile over stances.
//
// --trot_log FILE writes, for the first trot run, a CSV row per step and foot:
// gait phase, contact state, normal and friction force (and its ratio to
// μ f_N), tangential velocity, stance travel, the leg's joint-row impulses
// over τ_max Δt (±1: saturated), desired and reached joint velocities, prox
// sweeps and convergence, contact point and base height.
//
// Progress goes to stderr, the JSON report to stdout or --json FILE.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "bench/control/stance_slip.h"
#include "clients/json/json_writer.h"
#include "engine/control/controller.h"
#include "engine/control/gait.h"
#include "engine/control/legs.h"
#include "engine/control/pd.h"
#include "engine/control/velocity_trot.h"
#include "engine/model/loader.h"
#include "engine/sim/actuation.h"
#include "engine/sim/settings.h"
#include "engine/sim/simulation.h"

ABSL_FLAG(std::string, scenarios, "ur10,ur10_geared,trot",
          "Comma-separated scenarios: ur10, ur10_geared, trot.");
ABSL_FLAG(std::string, modes, "pd,id,id-constraint",
          "Comma-separated control modes (sim::ParseControlMode names) for ur10 and trot.");
ABSL_FLAG(std::string, geared_modes, "pd", "Control modes for ur10_geared.");
ABSL_FLAG(std::string, ur10_urdf, MOREAU_MODELS_DIR "/ur10/ur10_robot.urdf", "The UR10 URDF.");
ABSL_FLAG(double, duration, 5.0, "Simulated time per run (s).");
ABSL_FLAG(double, dt_start, 1e-3, "First time step of the search (s).");
ABSL_FLAG(double, dt_max, 0.1, "Largest time step tried (s).");
ABSL_FLAG(int, bisections, 5, "Bisections between the last stable and first unstable step.");
ABSL_FLAG(int, repeats, 3, "Runs at the largest stable step; the wall time is their median.");
ABSL_FLAG(double, error_threshold, 0.2,
          "Stable only if the mean absolute joint tracking error is below this (rad).");
ABSL_FLAG(double, min_height_fraction, 0.5,
          "trot: stable only if the base stays above this fraction of the stand height.");
ABSL_FLAG(double, max_tilt_deg, 45.0, "trot: stable only if the base tilts less than this.");
ABSL_FLAG(double, ur10_amplitude, 0.3, "ur10: sinusoid amplitude A on every joint (rad).");
ABSL_FLAG(double, ur10_frequency, 0.5, "ur10: sinusoid frequency f on every joint (Hz).");
ABSL_FLAG(double, ur10_kp, 1000.0, "ur10: PD stiffness k_p (N m/rad), every joint.");
ABSL_FLAG(double, ur10_kd, 20.0, "ur10: PD damping k_d (N m s/rad), every joint.");
ABSL_FLAG(double, geared_kp, 600.0, "ur10_geared: PD stiffness k_p (N m/rad).");
ABSL_FLAG(double, geared_kd, 20.0, "ur10_geared: PD damping k_d (N m s/rad).");
ABSL_FLAG(double, gear, 100.0, "ur10_geared: gear ratio N of every joint.");
ABSL_FLAG(double, rotor_inertia, 5e-5,
          "ur10_geared: rotor inertia I_rotor (kg m^2, motor side) of every joint.");
ABSL_FLAG(double, trot_kp, 40.0, "trot: PD stiffness k_p (N m/rad); 001 Table I: 40.");
ABSL_FLAG(double, trot_kd, 1.0, "trot: PD damping k_d (N m s/rad); 001 Table I: 1.");
ABSL_FLAG(double, trot_id_time_constant, 0.2,
          "trot, mode id: time constant T (s) of the desired joint velocity "
          "(target - q) / max(dt, T). On the floating base `id` needs T > 0: its contact forces "
          "are the last step's (T = 0.1: stable to 2.2 ms, 0.2: 6.5 ms, 0.4: 9 ms, with growing "
          "tracking error).");
ABSL_FLAG(double, trot_id_constraint_time_constant, 0.0,
          "trot, mode id-constraint: the time constant T (s); 0 reaches the targets at the end "
          "of each step.");
ABSL_FLAG(std::string, trot_effort_limits, "17,17,26",
          "trot: effort limits (N m) of each leg's ab/ad, hip and knee actuators, for every "
          "control mode: the Mini Cheetah's (Katz et al. 2019); the shipped URDF has none. They "
          "bound the id-constraint joint rows' impulses at tau_max dt. Empty: the URDF's.");
ABSL_FLAG(double, prox_alpha, 1.0,
          "Prox relaxation alpha of every scenario (000: 0.6). The id-constraint joint rows "
          "couple strongly with the stance feet; alpha = 1 converges in far fewer sweeps.");
ABSL_FLAG(int, prox_max_iterations, 1000, "Prox sweep cap of every scenario.");
ABSL_FLAG(std::string, trot_log, "",
          "trot: write a CSV per step and foot of the first trot run to this file (use with one "
          "dt): gait phase, contact, normal and friction force, tangential velocity, stance "
          "travel, joint-row impulses over tau_max dt, desired and reached joint velocities, prox "
          "sweeps and convergence.");
ABSL_FLAG(std::string, trot_id_constraint_controller, "velocity",
          "trot, mode id-constraint: 'velocity' (engine/control/velocity_trot.h: stance legs from "
          "one commanded base twist with the feet's contact points still, world-frame swing with "
          "contact-triggered touchdown) or 'trot' (001's PD-tuned trot, as the other modes).");
ABSL_FLAG(double, vtrot_frequency, moreau::control::VelocityTrotOptions{}.frequency_hz,
          "velocity trot: gait frequency f (Hz).");
ABSL_FLAG(double, vtrot_speed, moreau::control::VelocityTrotOptions{}.forward_velocity,
          "velocity trot: forward speed (m/s); the step length is v beta / f.");
ABSL_FLAG(double, vtrot_step_height, moreau::control::VelocityTrotOptions{}.step_height,
          "velocity trot: swing apex (m).");
ABSL_FLAG(double, vtrot_approach, moreau::control::VelocityTrotOptions{}.approach_s,
          "velocity trot: time (s) planned for the swing's final approach to the ground.");
ABSL_FLAG(double, vtrot_approach_height, moreau::control::VelocityTrotOptions{}.approach_height,
          "velocity trot: height (m) above the ground where the final approach starts.");
ABSL_FLAG(double, vtrot_approach_time_constant,
          moreau::control::VelocityTrotOptions{}.approach_time_constant_s,
          "velocity trot: the final approach descends at height / this (s), at least the "
          "touchdown speed.");
ABSL_FLAG(double, vtrot_landing_fraction, moreau::control::VelocityTrotOptions{}.landing_fraction,
          "velocity trot: fraction of the swing at which the foot reaches the ground.");
ABSL_FLAG(double, vtrot_touchdown_speed, moreau::control::VelocityTrotOptions{}.touchdown_speed,
          "velocity trot: the swing foot's descent speed at and after touchdown (m/s).");
ABSL_FLAG(double, vtrot_attitude_time_constant,
          moreau::control::VelocityTrotOptions{}.attitude_time_constant_s,
          "velocity trot: roll/pitch correction time constant (s).");
ABSL_FLAG(double, vtrot_height_time_constant,
          moreau::control::VelocityTrotOptions{}.height_time_constant_s,
          "velocity trot: height correction time constant (s).");
ABSL_FLAG(double, vtrot_swing_time_constant,
          moreau::control::VelocityTrotOptions{}.swing_time_constant_s,
          "velocity trot: swing foot position feedback time constant (s).");
ABSL_FLAG(std::string, json, "", "Write the JSON report to this file instead of stdout.");

namespace moreau::bench {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  for (absl::string_view piece : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    out.emplace_back(piece);
  }
  return out;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The nearest-rank p-quantile (p ∈ (0, 1]).
double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<size_t>(std::ceil(p * static_cast<double>(values.size())));
  return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

// One scenario: the model, the settings besides dt and the control mode, and
// the reference.
struct Scenario {
  std::string name;
  std::shared_ptr<const Model> model;
  sim::Settings settings;
  bool trot = false;
  // ur10: q_ref,j(t) = center_j + amplitude sin(2π frequency t + phase_j).
  Eigen::VectorXd center;
  Eigen::VectorXd phase;
  double amplitude = 0.0;
  double frequency = 0.0;
  double stand_height = 0.0;  // trot
  // Settings::control.id_time_constant in the modes id and id-constraint.
  double id_time_constant = 0.0;
  double id_constraint_time_constant = 0.0;
  control::ControllerOptions trot_options;
  // trot, id-constraint: VelocityTrot instead of the "trot" controller.
  bool velocity_trot = false;
  control::VelocityTrotOptions velocity_options;
};

// What one run of `duration` seconds at one Δt measured.
struct RunResult {
  bool stable = false;
  std::string reason;  // why not stable
  double mae = 0.0;    // mean absolute joint error (rad)
  double wall_s = 0.0;
  int64_t steps = 0;
  double simulated_s = 0.0;
  // trot: per stance (see the top of the file), max / median / 90th percentile
  double slip_max = 0.0;
  double slip_median = 0.0;
  double slip_p90 = 0.0;
  double displacement_max = 0.0;
  double displacement_median = 0.0;
  double displacement_p90 = 0.0;
  double closures_mean = 0.0;
  int closures_max = 0;
  double segment_slip_max = 0.0;
  double segment_slip_p90 = 0.0;
  int segments = 0;
  int stances = 0;
  double forward_m = 0.0;
  double min_height = 0.0;
  double max_tilt_deg = 0.0;
};

double TiltDegrees(const Eigen::VectorXd& q) {
  // The angle between the base z axis and the world z axis.
  const Eigen::Quaterniond quat(q[3], q[4], q[5], q[6]);
  const double c = std::clamp(quat.normalized().toRotationMatrix()(2, 2), -1.0, 1.0);
  return std::acos(c) * 180.0 / std::numbers::pi;
}

absl::StatusOr<RunResult> Run(const Scenario& scenario, sim::ControlMode mode, double dt,
                              double duration) {
  sim::Settings settings = scenario.settings;
  settings.dt = dt;
  settings.control.mode = mode;
  if (mode == sim::ControlMode::kId) settings.control.id_time_constant = scenario.id_time_constant;
  if (mode == sim::ControlMode::kIdConstraint) {
    settings.control.id_time_constant = scenario.id_constraint_time_constant;
  }
  // The trot runs inside the simulation (Settings::controller); under
  // id-constraint the velocity trot (--trot_id_constraint_controller).
  const bool velocity_trot =
      scenario.trot && scenario.velocity_trot && mode == sim::ControlMode::kIdConstraint;
  if (scenario.trot) {
    settings.controller.kind =
        velocity_trot ? sim::ControllerKind::kVelocityTrot : sim::ControllerKind::kPdTrot;
    settings.controller.options = scenario.trot_options;
    // The id mode's lagging joints would read as leg sag (ControllerOptions).
    if (mode == sim::ControlMode::kId) settings.controller.options.swing_clearance = false;
    settings.controller.velocity_trot = scenario.velocity_options;
  }
  absl::StatusOr<std::unique_ptr<sim::Simulation>> created =
      sim::Simulation::Create(scenario.model, settings);
  if (!created.ok()) return created.status();
  sim::Simulation& simulation = **created;
  const Model& model = simulation.model();
  const Eigen::Index nu = model.nu();
  const int64_t steps = std::max<int64_t>(1, std::llround(duration / dt));

  Eigen::VectorXd target(nu);
  Eigen::VectorXd positions(nu);
  if (!scenario.trot) {
    // The arm starts on the reference: q_ref(0), q̇_ref(0).
    sim::State start = simulation.state();
    const double w = 2.0 * std::numbers::pi * scenario.frequency;
    for (Eigen::Index j = 0; j < nu; ++j) {
      const Joint& joint = model.joints[model.actuators[static_cast<size_t>(j)].joint];
      start.q[joint.q_index] =
          scenario.center[j] + scenario.amplitude * std::sin(scenario.phase[j]);
      start.v[joint.v_index] = scenario.amplitude * w * std::cos(scenario.phase[j]);
    }
    if (absl::Status status = simulation.SetState(start); !status.ok()) return status;
  }
  const size_t ncontacts = model.contact_points.size();
  // trot: each foot's phase offset in the gait (gait.h: leg phase ψ = φ + offset).
  std::vector<double> phase_offset(ncontacts, 0.0);
  if (scenario.trot) {
    absl::StatusOr<control::LegLayout> layout = control::FindLegs(model);
    if (!layout.ok()) return layout.status();
    for (const control::Leg& leg : layout->legs) {
      phase_offset[static_cast<size_t>(leg.foot)] = control::TrotPhaseOffset(leg);
    }
  }
  // The gait whose stance phases the slip measure follows.
  control::GaitParams gait_phases;
  double start_delay_s = scenario.trot_options.start_delay_s;
  if (velocity_trot) {
    gait_phases.duty_factor = scenario.velocity_options.duty_factor;
    start_delay_s = scenario.velocity_options.start_delay_s;
  }
  // The trot's action: none (the controller alone drives the joints).
  const Eigen::VectorXd no_action = Eigen::VectorXd::Zero(nu);
  std::vector<StanceTracker> trackers(ncontacts);
  StanceStats stats;
  // --trot_log (the first trot run): per foot, its leg's actuators.
  std::vector<std::array<int, 3>> foot_actuators(ncontacts, {0, 0, 0});
  std::ofstream log;
  static bool logged = false;
  if (scenario.trot && !logged && !absl::GetFlag(FLAGS_trot_log).empty()) {
    logged = true;
    absl::StatusOr<control::LegLayout> layout = control::FindLegs(model);
    if (!layout.ok()) return layout.status();
    for (const control::Leg& leg : layout->legs)
      foot_actuators[static_cast<size_t>(leg.foot)] = leg.actuator;
    log.open(absl::GetFlag(FLAGS_trot_log));
    if (!log) {
      return absl::InvalidArgumentError(
          absl::StrCat("--trot_log: cannot write '", absl::GetFlag(FLAGS_trot_log), "'"));
    }
    log << "t,foot,psi,gait_stance,closed,active,gap,fn,ft,ft_over_mufn,vt,slip,row0,row1,row2,"
           "vdes0,vdes1,vdes2,v0,v1,v2,prox_iterations,prox_converged,px,py,pz,base_z,base_vz\n";
  }
  Eigen::VectorXd q_before(model.nq);

  RunResult result;
  result.stable = true;
  const double x0 = model.floating_base ? simulation.state().q[0] : 0.0;
  result.min_height = model.floating_base ? simulation.state().q[2] : 0.0;
  double error_sum = 0.0;
  const Clock::time_point start = Clock::now();
  int64_t k = 0;
  for (; k < steps; ++k) {
    const double t = simulation.state().time;
    const double t_next = t + dt;
    if (log.is_open()) q_before = simulation.state().q;
    if (!scenario.trot) {
      const double w = 2.0 * std::numbers::pi * scenario.frequency;
      for (Eigen::Index j = 0; j < nu; ++j) {
        target[j] =
            scenario.center[j] + scenario.amplitude * std::sin(w * t_next + scenario.phase[j]);
      }
    }
    const absl::Status status = simulation.StepAction(scenario.trot ? no_action : target, 1);
    if (!status.ok()) {
      result.stable = false;
      result.reason = std::string(status.message());
      break;
    }
    // The trot's targets of this step: the controller's command.
    if (scenario.trot) target = simulation.state().controller_command.head(nu);
    control::ActuatorPositions(model, simulation.state().q, positions);
    error_sum += (positions - target).cwiseAbs().mean();

    if (scenario.trot) {
      const Eigen::VectorXd& q = simulation.state().q;
      result.min_height = std::min(result.min_height, q[2]);
      result.max_tilt_deg = std::max(result.max_tilt_deg, TiltDegrees(q));
      const std::vector<contact::Contact>& contacts = simulation.contacts().contacts;
      const sim::State& state = simulation.state();
      for (size_t c = 0; c < ncontacts && c < contacts.size(); ++c) {
        const contact::Contact& contact = contacts[c];
        // The gait has the leg in stance, after the trot's start delay (the
        // drop from the default pose has landed); a swing foot that brushes
        // the ground is not in stance.
        const double psi = control::WrapPhase(state.controller.phase + phase_offset[c]);
        const bool stance_phase = state.time > start_delay_s && control::InStance(gait_phases, psi);
        const bool closed = contact.active && contact.NormalForce() > 0.0;
        TrackStance(stance_phase, closed, contact.position.head<2>(), trackers[c], stats);
        if (!log.is_open()) continue;
        const double fn = contact.NormalForce();
        const double ft = contact.active ? (contact.force - fn * contact.normal).norm() : 0.0;
        const double mu = std::get<sim::MoreauSettings>(settings.contact).law.mu;
        log << t << ',' << c << ',' << psi << ',' << stance_phase << ',' << closed << ','
            << contact.active << ',' << contact.gap << ',' << fn << ',' << ft << ','
            << (fn > 0.0 ? ft / (mu * fn) : 0.0) << ',' << contact.velocity.head<2>().norm() << ','
            << trackers[c].slip;
        const std::array<int, 3>& legs = foot_actuators[c];
        for (int a : legs) {
          const double bound = model.actuators[static_cast<size_t>(a)].effort_limit * dt;
          const size_t row = static_cast<size_t>(a);
          log << ','
              << (row < state.bilateral_impulses.size() ? state.bilateral_impulses[row] / bound
                                                        : 0.0);
        }
        for (int a : legs) {
          const Joint& joint = model.joints[model.actuators[static_cast<size_t>(a)].joint];
          log << ',' << (target[a] - q_before[joint.q_index]) / dt;
        }
        for (int a : legs) {
          log << ','
              << state.v[model.joints[model.actuators[static_cast<size_t>(a)].joint].v_index];
        }
        log << ',' << simulation.last_report().solver_iterations << ','
            << simulation.last_report().solver_converged << ',' << contact.position.x() << ','
            << contact.position.y() << ',' << contact.position.z() << ',' << state.q[2] << ','
            << state.v[2] << '\n';
      }
    }
  }
  result.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  result.steps = k;
  result.simulated_s = simulation.state().time;
  result.mae = k > 0 ? error_sum / static_cast<double>(k) : 0.0;
  if (scenario.trot) {
    // Stances still open at the end count as they are.
    for (StanceTracker& tracker : trackers) {
      TrackStance(false, false, Eigen::Vector2d::Zero(), tracker, stats);
    }
    auto max_of = [](const std::vector<double>& v) {
      return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
    };
    result.stances = static_cast<int>(stats.slip.size());
    result.slip_max = max_of(stats.slip);
    result.slip_median = Median(stats.slip);
    result.slip_p90 = Percentile(stats.slip, 0.9);
    result.displacement_max = max_of(stats.displacement);
    result.displacement_median = Median(stats.displacement);
    result.displacement_p90 = Percentile(stats.displacement, 0.9);
    for (int closures : stats.closures) {
      result.closures_mean += closures;
      result.closures_max = std::max(result.closures_max, closures);
    }
    if (!stats.closures.empty()) result.closures_mean /= static_cast<double>(stats.closures.size());
    result.segments = static_cast<int>(stats.segment_slip.size());
    result.segment_slip_max = max_of(stats.segment_slip);
    result.segment_slip_p90 = Percentile(stats.segment_slip, 0.9);
    result.forward_m = simulation.state().q[0] - x0;
  }
  const double threshold = absl::GetFlag(FLAGS_error_threshold);
  if (result.stable && !(result.mae < threshold)) {
    result.stable = false;
    result.reason = absl::StrCat("tracking error ", result.mae, " rad ≥ ", threshold, " rad");
  }
  if (result.stable && scenario.trot) {
    const double min_height = absl::GetFlag(FLAGS_min_height_fraction) * scenario.stand_height;
    if (result.min_height < min_height) {
      result.stable = false;
      result.reason = absl::StrCat("base height ", result.min_height, " m < ", min_height, " m");
    } else if (result.max_tilt_deg > absl::GetFlag(FLAGS_max_tilt_deg)) {
      result.stable = false;
      result.reason = absl::StrCat("base tilt ", result.max_tilt_deg, " deg > ",
                                   absl::GetFlag(FLAGS_max_tilt_deg), " deg");
    }
  }
  return result;
}

struct SearchStep {
  double dt = 0.0;
  RunResult run;
};

struct Entry {
  std::string scenario;
  std::string mode;
  std::string error;  // unknown mode, load failure, or no stable step
  std::vector<SearchStep> search;
  std::optional<SearchStep> best;
  std::vector<double> wall_s;  // the --repeats runs at best.dt
};

Entry Evaluate(const Scenario& scenario, const std::string& mode_name) {
  Entry entry;
  entry.scenario = scenario.name;
  entry.mode = mode_name;
  const absl::StatusOr<sim::ControlMode> mode = sim::ParseControlMode(mode_name);
  if (!mode.ok()) {
    entry.error = std::string(mode.status().message());
    std::cerr << scenario.name << " / " << mode_name << ": " << entry.error << "\n";
    return entry;
  }
  const double duration = absl::GetFlag(FLAGS_duration);
  const double dt_max = absl::GetFlag(FLAGS_dt_max);
  auto try_dt = [&](double dt) -> std::optional<RunResult> {
    absl::StatusOr<RunResult> run = Run(scenario, *mode, dt, duration);
    if (!run.ok()) {
      entry.error = std::string(run.status().message());
      return std::nullopt;
    }
    std::cerr << scenario.name << " / " << mode_name << "  dt " << dt
              << " s: " << (run->stable ? "stable" : "unstable") << ", error " << run->mae << " rad"
              << (run->stable ? "" : "  (" + run->reason + ")") << "\n";
    entry.search.push_back({dt, *run});
    return *run;
  };

  std::optional<SearchStep> stable;
  std::optional<double> unstable;
  double dt = absl::GetFlag(FLAGS_dt_start);
  // Double until unstable or at the cap.
  while (true) {
    const std::optional<RunResult> run = try_dt(dt);
    if (!run.has_value()) return entry;
    if (!run->stable) {
      unstable = dt;
      break;
    }
    stable = SearchStep{dt, *run};
    if (dt >= dt_max) break;
    dt = std::min(2.0 * dt, dt_max);
  }
  // The first step unstable: halve down to dt_start / 64.
  const double dt_floor = absl::GetFlag(FLAGS_dt_start) / 64.0;
  while (!stable.has_value()) {
    dt = 0.5 * *unstable;
    if (dt < dt_floor) break;
    const std::optional<RunResult> run = try_dt(dt);
    if (!run.has_value()) return entry;
    if (run->stable) {
      stable = SearchStep{dt, *run};
    } else {
      unstable = dt;
    }
  }
  if (!stable.has_value()) {
    entry.error = absl::StrCat("no stable step down to ", dt_floor, " s");
    return entry;
  }
  // Bisect between the last stable and the first unstable step.
  if (unstable.has_value() && *unstable > stable->dt) {
    for (int b = 0; b < absl::GetFlag(FLAGS_bisections); ++b) {
      const double mid = 0.5 * (stable->dt + *unstable);
      const std::optional<RunResult> run = try_dt(mid);
      if (!run.has_value()) return entry;
      if (run->stable) {
        stable = SearchStep{mid, *run};
      } else {
        unstable = mid;
      }
    }
  }
  entry.best = stable;
  entry.wall_s.push_back(stable->run.wall_s);
  for (int r = 1; r < absl::GetFlag(FLAGS_repeats); ++r) {
    absl::StatusOr<RunResult> run = Run(scenario, *mode, stable->dt, duration);
    if (run.ok()) entry.wall_s.push_back(run->wall_s);
  }
  std::cerr << scenario.name << " / " << mode_name << ": largest stable dt " << stable->dt
            << " s, error " << stable->run.mae << " rad, wall " << Median(entry.wall_s) << " s\n";
  return entry;
}

// moreau-sor with the --prox_alpha and --prox_max_iterations flags.
sim::MoreauSettings ProxSettings() {
  sim::MoreauSettings moreau;
  moreau.prox.method = contact::ProxMethod::kSor;
  moreau.prox.alpha = absl::GetFlag(FLAGS_prox_alpha);
  moreau.prox.max_iterations = absl::GetFlag(FLAGS_prox_max_iterations);
  return moreau;
}

absl::StatusOr<Scenario> MakeUr10(bool geared) {
  Scenario s;
  s.name = geared ? "ur10_geared" : "ur10";
  absl::StatusOr<std::shared_ptr<const Model>> model = LoadUrdfFile(absl::GetFlag(FLAGS_ur10_urdf));
  if (!model.ok()) return model.status();
  s.model = *model;
  s.settings.contact = ProxSettings();
  s.settings.control.gains.kp = absl::GetFlag(geared ? FLAGS_geared_kp : FLAGS_ur10_kp);
  s.settings.control.gains.kd = absl::GetFlag(geared ? FLAGS_geared_kd : FLAGS_ur10_kd);
  if (geared) {
    s.settings.transmission.gear = absl::GetFlag(FLAGS_gear);
    s.settings.transmission.rotor_inertia = absl::GetFlag(FLAGS_rotor_inertia);
  }
  const Eigen::Index nu = s.model->nu();
  s.center.resize(nu);
  control::ActuatorPositions(*s.model, s.model->q_default, s.center);
  s.phase.resize(nu);
  for (Eigen::Index j = 0; j < nu; ++j)
    s.phase[j] = static_cast<double>(j) * std::numbers::pi / 6.0;
  s.amplitude = absl::GetFlag(FLAGS_ur10_amplitude);
  s.frequency = absl::GetFlag(FLAGS_ur10_frequency);
  return s;
}

absl::StatusOr<Scenario> MakeTrot() {
  Scenario s;
  s.name = "trot";
  s.trot = true;
  absl::StatusOr<std::shared_ptr<const Model>> model = LoadBuiltin("mini_cheetah");
  if (!model.ok()) return model.status();
  const std::vector<std::string> limits = SplitList(absl::GetFlag(FLAGS_trot_effort_limits));
  if (limits.empty()) {
    s.model = *model;
  } else {
    if (limits.size() != 3) {
      return absl::InvalidArgumentError("--trot_effort_limits takes three numbers (N m)");
    }
    auto limited = std::make_shared<Model>(**model);
    for (int a = 0; a < limited->nu(); ++a) {
      double limit = 0.0;
      if (!absl::SimpleAtod(limits[a % 3], &limit) || !(limit > 0.0)) {
        return absl::InvalidArgumentError(
            absl::StrCat("--trot_effort_limits: '", limits[a % 3], "' is not a positive number"));
      }
      limited->actuators[a].effort_limit = limit;
    }
    s.model = std::move(limited);
  }
  s.settings.contact = ProxSettings();
  s.id_time_constant = absl::GetFlag(FLAGS_trot_id_time_constant);
  s.id_constraint_time_constant = absl::GetFlag(FLAGS_trot_id_constraint_time_constant);
  s.settings.control.gains.kp = absl::GetFlag(FLAGS_trot_kp);
  s.settings.control.gains.kd = absl::GetFlag(FLAGS_trot_kd);
  s.trot_options.gains = s.settings.control.gains;
  const std::string id_constraint_controller = absl::GetFlag(FLAGS_trot_id_constraint_controller);
  if (id_constraint_controller != "velocity" && id_constraint_controller != "trot") {
    return absl::InvalidArgumentError(absl::StrCat("--trot_id_constraint_controller: '",
                                                   id_constraint_controller,
                                                   "' (expected velocity or trot)"));
  }
  s.velocity_trot = id_constraint_controller == "velocity";
  control::VelocityTrotOptions& vo = s.velocity_options;
  vo.frequency_hz = absl::GetFlag(FLAGS_vtrot_frequency);
  vo.forward_velocity = absl::GetFlag(FLAGS_vtrot_speed);
  vo.step_height = absl::GetFlag(FLAGS_vtrot_step_height);
  vo.landing_fraction = absl::GetFlag(FLAGS_vtrot_landing_fraction);
  vo.touchdown_speed = absl::GetFlag(FLAGS_vtrot_touchdown_speed);
  vo.approach_s = absl::GetFlag(FLAGS_vtrot_approach);
  vo.approach_height = absl::GetFlag(FLAGS_vtrot_approach_height);
  vo.approach_time_constant_s = absl::GetFlag(FLAGS_vtrot_approach_time_constant);
  vo.attitude_time_constant_s = absl::GetFlag(FLAGS_vtrot_attitude_time_constant);
  vo.height_time_constant_s = absl::GetFlag(FLAGS_vtrot_height_time_constant);
  vo.swing_time_constant_s = absl::GetFlag(FLAGS_vtrot_swing_time_constant);
  absl::StatusOr<control::LegLayout> layout = control::FindLegs(*s.model);
  if (!layout.ok()) return layout.status();
  s.stand_height = control::DefaultStandHeight(*layout);
  return s;
}

void WriteScenario(JsonWriter& json, const Scenario& s) {
  json.Key(s.name).BeginObject();
  json.Key("model").String(s.model->name);
  json.Key("contact").String(sim::ContactModelName(sim::ModelOf(s.settings.contact)));
  json.Key("kp").Number(s.settings.control.gains.kp);
  json.Key("kd").Number(s.settings.control.gains.kd);
  json.Key("id_time_constant_s").Number(s.id_time_constant);
  json.Key("id_constraint_time_constant_s").Number(s.id_constraint_time_constant);
  const contact::ProxParams& prox = std::get<sim::MoreauSettings>(s.settings.contact).prox;
  json.Key("prox_alpha").Number(prox.alpha);
  json.Key("prox_max_iterations").Int(prox.max_iterations);
  std::vector<double> effort_limits;
  for (const Actuator& a : s.model->actuators) effort_limits.push_back(a.effort_limit);
  json.Key("effort_limits").Numbers(effort_limits);
  if (s.trot) {
    json.Key("controller").String("trot (001 §6.2), targets at t + dt");
    json.Key("stand_height_m").Number(s.stand_height);
    json.Key("trot_frequency_hz").Number(s.trot_options.trot_frequency_hz);
    json.Key("forward_velocity_mps").Number(s.trot_options.forward_velocity);
    if (s.velocity_trot) {
      const control::VelocityTrotOptions& vo = s.velocity_options;
      json.Key("id_constraint_controller")
          .String("velocity trot (engine/control/velocity_trot.h), targets q + max(dt, T) qd_d");
      json.Key("velocity_trot").BeginObject();
      json.Key("frequency_hz").Number(vo.frequency_hz);
      json.Key("duty_factor").Number(vo.duty_factor);
      json.Key("forward_velocity_mps").Number(vo.forward_velocity);
      json.Key("step_length_m").Number(vo.forward_velocity * vo.duty_factor / vo.frequency_hz);
      json.Key("step_height_m").Number(vo.step_height);
      json.Key("landing_fraction").Number(vo.landing_fraction);
      json.Key("touchdown_speed_mps").Number(vo.touchdown_speed);
      json.Key("approach_s").Number(vo.approach_s);
      json.Key("approach_height_m").Number(vo.approach_height);
      json.Key("approach_time_constant_s").Number(vo.approach_time_constant_s);
      json.Key("height_time_constant_s").Number(vo.height_time_constant_s);
      json.Key("attitude_time_constant_s").Number(vo.attitude_time_constant_s);
      json.Key("yaw_time_constant_s").Number(vo.yaw_time_constant_s);
      json.Key("swing_time_constant_s").Number(vo.swing_time_constant_s);
      json.EndObject();
    }
  } else {
    json.Key("urdf").String(absl::GetFlag(FLAGS_ur10_urdf));
    json.Key("reference")
        .String("q_ref,j(t) = center_j + amplitude sin(2 pi frequency t + phase_j)");
    json.Key("amplitude_rad").Number(s.amplitude);
    json.Key("frequency_hz").Number(s.frequency);
    json.Key("center_rad").Numbers(s.center);
    json.Key("phase_rad").Numbers(s.phase);
    json.Key("gear").Number(s.settings.transmission.gear > 0.0 ? s.settings.transmission.gear
                                                               : 1.0);
    json.Key("rotor_inertia_kg_m2").Number(s.settings.transmission.rotor_inertia);
    json.Key("reflected_inertia_kg_m2")
        .Number(s.settings.transmission.gear * s.settings.transmission.gear *
                s.settings.transmission.rotor_inertia);
  }
  json.EndObject();
}

void WriteSlip(JsonWriter& json, const RunResult& r) {
  json.Key("stances").Int(r.stances);
  json.Key("slip_max_m").Number(r.slip_max);
  json.Key("slip_median_m").Number(r.slip_median);
  json.Key("slip_p90_m").Number(r.slip_p90);
  json.Key("stance_displacement_max_m").Number(r.displacement_max);
  json.Key("stance_displacement_median_m").Number(r.displacement_median);
  json.Key("stance_displacement_p90_m").Number(r.displacement_p90);
  json.Key("contact_closures_per_stance_mean").Number(r.closures_mean);
  json.Key("contact_closures_per_stance_max").Int(r.closures_max);
  json.Key("closed_segments").Int(r.segments);
  json.Key("segment_slip_max_m").Number(r.segment_slip_max);
  json.Key("segment_slip_p90_m").Number(r.segment_slip_p90);
  json.Key("forward_distance_m").Number(r.forward_m);
}

void WriteRun(JsonWriter& json, const RunResult& r, bool trot) {
  json.Key("stable").Bool(r.stable);
  if (!r.stable) json.Key("reason").String(r.reason);
  json.Key("tracking_mae_rad").Number(r.mae);
  json.Key("steps").Int(r.steps);
  json.Key("simulated_s").Number(r.simulated_s);
  json.Key("wall_s").Number(r.wall_s);
  if (trot) {
    WriteSlip(json, r);
    json.Key("min_base_height_m").Number(r.min_height);
    json.Key("max_tilt_deg").Number(r.max_tilt_deg);
  }
}

void WriteEntry(JsonWriter& json, const Entry& e, bool trot) {
  json.BeginObject();
  json.Key("scenario").String(e.scenario);
  json.Key("mode").String(e.mode);
  if (!e.error.empty()) json.Key("error").String(e.error);
  if (e.best.has_value()) {
    const RunResult& r = e.best->run;
    const double wall = Median(e.wall_s);
    json.Key("max_stable_dt_s").Number(e.best->dt);
    json.Key("tracking_mae_rad").Number(r.mae);
    json.Key("wall_s_median").Number(wall);
    json.Key("wall_s_runs")
        .Numbers(Eigen::Map<const Eigen::VectorXd>(e.wall_s.data(),
                                                   static_cast<Eigen::Index>(e.wall_s.size())));
    json.Key("steps").Int(r.steps);
    json.Key("steps_per_s").Number(static_cast<double>(r.steps) / std::max(wall, 1e-9));
    json.Key("realtime_factor").Number(r.simulated_s / std::max(wall, 1e-9));
    if (trot) WriteSlip(json, r);
  }
  json.Key("search").BeginArray();
  for (const SearchStep& s : e.search) {
    json.BeginObject();
    json.Key("dt_s").Number(s.dt);
    WriteRun(json, s.run, trot);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
}

int Main() {
  std::vector<Scenario> scenarios;
  std::vector<Entry> entries;
  std::vector<std::string> errors;
  for (const std::string& name : SplitList(absl::GetFlag(FLAGS_scenarios))) {
    absl::StatusOr<Scenario> scenario;
    if (name == "ur10" || name == "ur10_geared") {
      scenario = MakeUr10(name == "ur10_geared");
    } else if (name == "trot") {
      scenario = MakeTrot();
    } else {
      std::cerr << "unknown scenario '" << name << "' (expected ur10, ur10_geared or trot)\n";
      return 2;
    }
    if (!scenario.ok()) {
      std::cerr << name << ": " << scenario.status().message() << "\n";
      return 1;
    }
    scenarios.push_back(std::move(*scenario));
  }
  for (const Scenario& scenario : scenarios) {
    const std::string modes =
        absl::GetFlag(scenario.name == "ur10_geared" ? FLAGS_geared_modes : FLAGS_modes);
    for (const std::string& mode : SplitList(modes)) entries.push_back(Evaluate(scenario, mode));
  }

  std::ostringstream text;
  {
    JsonWriter json(text);
    json.BeginObject();
    json.Key("paper").String("002 §IV, Tables I-II");
    json.Key("duration_s").Number(absl::GetFlag(FLAGS_duration));
    json.Key("dt_start_s").Number(absl::GetFlag(FLAGS_dt_start));
    json.Key("dt_max_s").Number(absl::GetFlag(FLAGS_dt_max));
    json.Key("bisections").Int(absl::GetFlag(FLAGS_bisections));
    json.Key("repeats").Int(absl::GetFlag(FLAGS_repeats));
    json.Key("error_threshold_rad").Number(absl::GetFlag(FLAGS_error_threshold));
    json.Key("min_height_fraction").Number(absl::GetFlag(FLAGS_min_height_fraction));
    json.Key("max_tilt_deg").Number(absl::GetFlag(FLAGS_max_tilt_deg));
    json.Key("scenarios").BeginObject();
    for (const Scenario& s : scenarios) WriteScenario(json, s);
    json.EndObject();
    json.Key("results").BeginArray();
    for (const Entry& e : entries) WriteEntry(json, e, e.scenario == "trot");
    json.EndArray();
    json.EndObject();
  }
  const std::string path = absl::GetFlag(FLAGS_json);
  if (path.empty()) {
    std::cout << text.str();
  } else {
    std::ofstream file(path);
    file << text.str();
    if (!file) {
      std::cerr << "--json: cannot write '" << path << "'\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace
}  // namespace moreau::bench

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return moreau::bench::Main();
}
