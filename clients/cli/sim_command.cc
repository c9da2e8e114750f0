#include "clients/cli/sim_command.h"

#include <unistd.h>

#include <Eigen/Core>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "clients/cli/action_replay.h"
#include "clients/cli/command_status.h"
#include "clients/cli/flag_specs.h"
#include "clients/cli/model_flags.h"
#include "clients/cli/sim_flags.h"
#include "clients/cli/state_flags.h"
#include "clients/cli/text_format.h"
#include "clients/json/json_writer.h"
#include "engine/contact/contact_set.h"
#include "engine/control/controller.h"
#include "engine/control/legs.h"
#include "engine/control/push.h"
#include "engine/sim/controller_parameters.h"
#include "engine/sim/simulation.h"
#include "engine/sim/state.h"
#include "engine/util/status_macros.h"

namespace moreau::cli {
namespace {

using Clock = std::chrono::steady_clock;
using Pose7 = Eigen::Matrix<double, 7, 1>;

// The robot fell when its base dropped below this fraction of its initial
// height or tilted more than kFallTilt from upright.
constexpr double kFallHeightFraction = 1.0 / 3.0;
constexpr double kFallTiltDegrees = 60.0;

// The progress line appears for runs expected to take longer than this (s of
// wall time), once the estimate has settled for kProgressDelay, and is redrawn
// every kProgressInterval.
constexpr double kProgressMinRun = 2.0;
constexpr double kProgressDelay = 0.5;
constexpr double kProgressInterval = 0.1;

double Seconds(Clock::duration duration) { return std::chrono::duration<double>(duration).count(); }

// [x, y, z, qw, qx, qy, qz] of a floating base; the origin and identity for a
// fixed base.
Pose7 BasePose(const Model& model, const Eigen::VectorXd& q) {
  Pose7 pose;
  if (model.floating_base && !model.joints.empty() &&
      model.joints[0].q_index + 7 <= static_cast<int>(q.size())) {
    pose = q.segment<7>(model.joints[0].q_index);
  } else {
    pose << 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0;
  }
  return pose;
}

// Angle (degrees) between the base z axis and the world z axis.
// Cosine of the angle between the base's z axis and the world's.
double CosTilt(const Pose7& pose) {
  const double x = pose[4];
  const double y = pose[5];
  const double norm2 = pose.tail<4>().squaredNorm();
  return norm2 > 0.0 ? 1.0 - 2.0 * (x * x + y * y) / norm2 : 1.0;
}

double TiltDegrees(const Pose7& pose) {
  return std::acos(std::clamp(CosTilt(pose), -1.0, 1.0)) * 180.0 / std::numbers::pi;
}

// Contact point names, with "#2", "#3", … appended to repeats (a link with
// several contact spheres), as `moreau dynamics` names them.
std::vector<std::string> UniqueContactNames(const Model& model) {
  std::vector<std::string> names;
  std::map<std::string, int> seen;
  for (const ContactPoint& point : model.contact_points) {
    const int count = ++seen[point.name];
    names.push_back(count == 1 ? point.name : absl::StrCat(point.name, "#", count));
  }
  return names;
}

// The joints with coordinates of their own (not the floating base).
std::vector<const Joint*> ActuatedJoints(const Model& model) {
  std::vector<const Joint*> joints;
  for (const Joint& joint : model.joints) {
    if (joint.type != JointType::kFree && joint.nq == 1 && joint.nv == 1) joints.push_back(&joint);
  }
  return joints;
}

// What the run measures, updated after every step.
class RunMetrics {
 public:
  RunMetrics(const Model& model, const Eigen::VectorXd& q0)
      : floating_(model.floating_base),
        initial_height_(BasePose(model, q0)[2]),
        touchdown_(model.contact_points.size(), Vec3::Zero()),
        in_contact_(model.contact_points.size(), false) {}

  void AfterStep(const sim::Simulation& simulation) {
    const sim::StepReport& report = simulation.last_report();
    if (report.solver_iterations > 0) {
      ++solver_runs_;
      solver_iterations_sum_ += report.solver_iterations;
      solver_iterations_max_ = std::max(solver_iterations_max_, report.solver_iterations);
      if (!report.solver_converged) ++solver_unconverged_;
    }

    const std::vector<contact::Contact>& contacts = simulation.contacts().contacts;
    for (size_t k = 0; k < contacts.size() && k < touchdown_.size(); ++k) {
      const contact::Contact& contact = contacts[k];
      max_penetration_ = std::max(max_penetration_, -contact.gap);
      if (!contact.active) {
        in_contact_[k] = false;
        continue;
      }
      if (!in_contact_[k]) {
        in_contact_[k] = true;
        touchdown_[k] = contact.position;
        continue;
      }
      // Travel along the terrain since touchdown: the displacement without
      // its component along the normal.
      const Vec3 travel = contact.position - touchdown_[k];
      const Vec3 tangential = travel - travel.dot(contact.normal) * contact.normal;
      // The largest squared distance: its square root at the end is the
      // largest distance, one sqrt per run instead of one per contact and step.
      max_foot_slip_squared_ = std::max(max_foot_slip_squared_, tangential.squaredNorm());
    }

    if (floating_ && !fall_time_.has_value()) {
      const Pose7 pose = BasePose(simulation.model(), simulation.state().q);
      if (initial_height_ > 0.0 && pose[2] < kFallHeightFraction * initial_height_) {
        fall_time_ = simulation.state().time;
        fall_reason_ = absl::StrCat("base height ", FormatNumber(pose[2]), " m below 1/3 of ",
                                    FormatNumber(initial_height_), " m");
      } else if (CosTilt(pose) < cos_fall_tilt_ && TiltDegrees(pose) > kFallTiltDegrees) {
        fall_time_ = simulation.state().time;
        fall_reason_ = absl::StrCat("tilt ", FormatNumber(TiltDegrees(pose)), " deg > ",
                                    FormatNumber(kFallTiltDegrees), " deg");
      }
    }
  }

  double solver_iterations_mean() const {
    return solver_runs_ > 0 ? static_cast<double>(solver_iterations_sum_) / solver_runs_ : 0.0;
  }
  int solver_iterations_max() const { return solver_iterations_max_; }
  int64_t solver_runs() const { return solver_runs_; }
  int64_t solver_unconverged() const { return solver_unconverged_; }
  double max_penetration() const { return max_penetration_; }
  double max_foot_slip() const { return std::sqrt(max_foot_slip_squared_); }
  bool fell() const { return fall_time_.has_value(); }
  double fall_time() const { return fall_time_.value_or(0.0); }
  const std::string& fall_reason() const { return fall_reason_; }

 private:
  bool floating_;
  double initial_height_;
  // Just above cos(kFallTiltDegrees): the tilt (an acos) is computed only for
  // poses that may exceed it.
  double cos_fall_tilt_ = std::cos(kFallTiltDegrees * std::numbers::pi / 180.0) + 1e-9;
  int64_t solver_runs_ = 0;  // steps in which the solver ran (contacts closed)
  int64_t solver_iterations_sum_ = 0;
  int solver_iterations_max_ = 0;
  int64_t solver_unconverged_ = 0;
  double max_penetration_ = 0.0;
  double max_foot_slip_squared_ = 0.0;
  std::vector<Vec3> touchdown_;  // per contact point: position at touchdown
  std::vector<bool> in_contact_;
  std::optional<double> fall_time_;
  std::string fall_reason_;
};

// A CSV field, quoted when it holds a separator, a quote or a line break.
std::string CsvField(absl::string_view text) {
  if (text.find_first_of(",\"\r\n") == absl::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char ch : text) {
    if (ch == '"') quoted += '"';
    quoted += ch;
  }
  quoted += '"';
  return quoted;
}

// The --out file: a header, then one row per logged step.
class CsvLog {
 public:
  static absl::StatusOr<std::unique_ptr<CsvLog>> Open(const std::string& path, const Model& model) {
    std::FILE* file = std::fopen(path.c_str(), "w");
    if (file == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("--out: cannot open '", path, "' for writing: ", std::strerror(errno)));
    }
    auto log = std::unique_ptr<CsvLog>(new CsvLog(path, file, model));
    log->WriteHeader(model);
    return log;
  }

  ~CsvLog() {
    if (file_ != nullptr) std::fclose(file_);
  }
  CsvLog(const CsvLog&) = delete;
  CsvLog& operator=(const CsvLog&) = delete;

  void Row(const sim::Simulation& simulation, const Eigen::VectorXd& tau) {
    const sim::State& state = simulation.state();
    line_.clear();
    Append(state.time);
    const Pose7 pose = BasePose(simulation.model(), state.q);
    for (int i = 0; i < 7; ++i) Append(pose[i]);
    for (const Joint* joint : joints_) Append(state.q[joint->q_index]);
    for (const Joint* joint : joints_) Append(state.v[joint->v_index]);
    for (const Joint* joint : joints_) Append(tau[joint->v_index]);
    const std::vector<contact::Contact>& contacts = simulation.contacts().contacts;
    for (size_t k = 0; k < num_contacts_; ++k) {
      Append(k < contacts.size() ? contacts[k].NormalForce() : 0.0);
    }
    line_.back() = '\n';
    std::fwrite(line_.data(), 1, line_.size(), file_);
    ++rows_;
  }

  // Flushes and closes the file; an error names the path.
  absl::Status Close() {
    const bool failed = std::ferror(file_) != 0;
    const int error = errno;
    const bool close_failed = std::fclose(file_) != 0;
    file_ = nullptr;
    if (failed || close_failed) {
      return absl::InternalError(absl::StrCat("--out: error writing '", path_,
                                              "': ", std::strerror(close_failed ? errno : error)));
    }
    return absl::OkStatus();
  }

  int64_t rows() const { return rows_; }

 private:
  CsvLog(std::string path, std::FILE* file, const Model& model)
      : path_(std::move(path)),
        file_(file),
        joints_(ActuatedJoints(model)),
        num_contacts_(model.contact_points.size()) {}

  void WriteHeader(const Model& model) {
    std::vector<std::string> columns = {"time",    "base_x",  "base_y",  "base_z",
                                        "base_qw", "base_qx", "base_qy", "base_qz"};
    for (const char* prefix : {"q_", "v_", "tau_"}) {
      for (const Joint* joint : joints_) columns.push_back(absl::StrCat(prefix, joint->name));
    }
    for (const std::string& name : UniqueContactNames(model)) {
      columns.push_back(absl::StrCat("fn_", name));
    }
    line_.clear();
    for (const std::string& column : columns) absl::StrAppend(&line_, CsvField(column), ",");
    line_.back() = '\n';
    std::fwrite(line_.data(), 1, line_.size(), file_);
  }

  void Append(double value) {
    char buffer[32];
    const int size = std::snprintf(buffer, sizeof(buffer), "%.10g,", value);
    line_.append(buffer, static_cast<size_t>(std::clamp(size, 0, 31)));
  }

  std::string path_;
  std::FILE* file_;
  std::vector<const Joint*> joints_;
  size_t num_contacts_;
  std::string line_;
  int64_t rows_ = 0;
};

// The "\rsim: 45% …" line on stderr.
class Progress {
 public:
  // forced: --progress (any run, any output); automatic: stderr is a
  // terminal and the report is text (only runs longer than kProgressMinRun).
  Progress(bool forced, bool automatic, int64_t steps, double duration)
      : forced_(forced), automatic_(automatic), steps_(steps), duration_(duration) {}

  void Start() { start_ = last_ = Clock::now(); }

  // After `done` steps, at simulated time t.
  void Update(int64_t done, double t) {
    if ((!forced_ && !automatic_) || (done & 15) != 0) return;
    const Clock::time_point now = Clock::now();
    if (Seconds(now - last_) < kProgressInterval) return;
    const double elapsed = Seconds(now - start_);
    const double fraction = static_cast<double>(done) / static_cast<double>(steps_);
    if (!shown_ && !forced_ &&
        (elapsed < kProgressDelay || elapsed / std::max(fraction, 1e-9) < kProgressMinRun)) {
      return;
    }
    last_ = now;
    Draw(done, t, elapsed);
  }

  // Ends the line (drawn once more at the final count) if it was shown.
  void Finish(int64_t done, double t) {
    if (!shown_ && !forced_) return;
    Draw(done, t, Seconds(Clock::now() - start_));
    std::cerr << '\n' << std::flush;
  }

 private:
  void Draw(int64_t done, double t, double elapsed) {
    const double fraction = static_cast<double>(done) / static_cast<double>(steps_);
    const double rate = elapsed > 0.0 ? static_cast<double>(done) / elapsed : 0.0;
    std::string line =
        absl::StrFormat("\rsim: %3d%% t=%.2f s of %s s, %.0f steps/s",
                        static_cast<int>(100.0 * fraction), t, FormatNumber(duration_), rate);
    if (done < steps_ && rate > 0.0) {
      absl::StrAppendFormat(&line, ", ETA %.0f s", static_cast<double>(steps_ - done) / rate);
    }
    const size_t length = line.size();
    if (length < width_) line.append(width_ - length, ' ');
    width_ = std::max(width_, length);
    std::cerr << line << std::flush;
    shown_ = true;
  }

  bool forced_;
  bool automatic_;
  int64_t steps_;
  double duration_;
  Clock::time_point start_;
  Clock::time_point last_;
  bool shown_ = false;
  size_t width_ = 0;  // longest line so far, to blank its tail
};

// The controller kind the run uses: --controller, except that "stand" on a
// model without 3-joint legs falls back to "zero" (with a warning).
absl::StatusOr<sim::ControllerKind> ChooseController(const std::string& name, const Model& model,
                                                     std::vector<std::string>* warnings) {
  absl::StatusOr<sim::ControllerKind> kind = sim::ParseControllerKind(name);
  if (!kind.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--controller ", name, ": ", kind.status().message()));
  }
  if (*kind == sim::ControllerKind::kStand) {
    const absl::StatusOr<control::LegLayout> legs = control::FindLegs(model);
    if (!legs.ok()) {
      warnings->push_back(absl::StrCat("--controller stand: ", legs.status().message(),
                                       "; falling back to --controller zero"));
      return sim::ControllerKind::kZero;
    }
  }
  return *kind;
}

// What the report shows.
struct SimResult {
  std::string model;
  std::string controller;
  int64_t steps = 0;
  double time = 0.0;  // simulated, s
  double wall_s = 0.0;
  Pose7 final_pose;
  bool floating = false;
  int force_law_substeps = 1;  // Simulation::force_law_substeps
  bool diverged = false;
  std::string divergence;  // the Step error
  int64_t csv_rows = 0;
};

double PerSecond(double count, double wall_s) { return count / std::max(wall_s, 1e-9); }

// The force law's integrator; semi-implicit Euler under the other models,
// which step by their own scheme.
step::Integrator IntegratorOf(const sim::ContactSettings& contact) {
  const step::Integrator* integrator = sim::ForceLawIntegrator(contact);
  return integrator != nullptr ? *integrator : step::Integrator::kSemiImplicitEuler;
}

// Hard contact's loop solver; prox (the default) under the other models.
step::LoopSolver LoopSolverOf(const sim::ContactSettings& contact) {
  const auto* moreau = std::get_if<sim::MoreauSettings>(&contact);
  return moreau != nullptr ? moreau->loop_solver : step::LoopSolver::kProx;
}

void WriteJson(const SimOptions& options, const SimResult& result, const RunMetrics& metrics,
               std::ostream& out) {
  JsonWriter json(out);
  json.BeginObject();
  json.Key("model").String(result.model);
  json.Key("contact").String(sim::ContactModelName(sim::ModelOf(options.settings.contact)));
  json.Key("integrator").String(sim::IntegratorName(IntegratorOf(options.settings.contact)));
  json.Key("dt").Number(options.settings.dt);
  json.Key("force_law_substeps").Int(result.force_law_substeps);
  json.Key("gear").Number(options.settings.transmission.gear);
  json.Key("rotor_inertia").Number(options.settings.transmission.rotor_inertia);
  // "torque" when the controller's own PD torques drive the joints.
  json.Key("control").String(sim::ControlModeName(options.settings.control.mode));
  json.Key("id_time_constant").Number(options.settings.control.id_time_constant);
  json.Key("loop_solver").String(sim::LoopSolverName(LoopSolverOf(options.settings.contact)));
  json.Key("weight_feedforward").Bool(options.weight_feedforward);
  json.Key("duration").Number(options.duration);
  json.Key("steps").Int(result.steps);
  json.Key("wall_s").Number(result.wall_s);
  json.Key("steps_per_s").Number(PerSecond(static_cast<double>(result.steps), result.wall_s));
  json.Key("realtime_factor").Number(PerSecond(result.time, result.wall_s));
  json.Key("solver_iterations_mean").Number(metrics.solver_iterations_mean());
  json.Key("solver_iterations_max").Int(metrics.solver_iterations_max());
  json.Key("max_penetration_m").Number(metrics.max_penetration());
  json.Key("max_foot_slip_m").Number(metrics.max_foot_slip());
  json.Key("final_base_pose").Numbers(result.final_pose);
  json.Key("fell").Bool(metrics.fell());
  json.Key("diverged").Bool(result.diverged);
  json.EndObject();
}

std::string Millimetres(double metres) { return absl::StrCat(FormatNumber(1e3 * metres), " mm"); }

void WriteText(const SimOptions& options, const SimResult& result, const RunMetrics& metrics,
               std::ostream& out) {
  const sim::Settings& settings = options.settings;
  const sim::ContactModel contact = sim::ModelOf(settings.contact);
  const bool hard = sim::IsHardContact(contact);
  out << "model: " << result.model << "  contact: " << sim::ContactModelName(contact);
  if (!hard) out << "  integrator: " << sim::IntegratorName(IntegratorOf(settings.contact));
  out << "  dt: " << FormatNumber(settings.dt) << " s";
  if (result.force_law_substeps > 1) {
    out << " (" << result.force_law_substeps << " explicit updates of dt/"
        << result.force_law_substeps << " per step: docs/physics.md#explicit-sub-steps)";
  }
  out << '\n';
  if (settings.transmission.active()) {
    out << "transmission: gear " << FormatNumber(settings.transmission.gear) << "  rotor inertia "
        << FormatNumber(settings.transmission.rotor_inertia) << " kg m^2  (0: the model's)\n";
  }
  out << "controller: " << result.controller << "  terrain: " << options.terrain << '\n';
  if (options.push.has_value()) {
    const control::Push& push = *options.push;
    out << "push: " << FormatVector(push.force_world)
        << " N (world) from t = " << FormatNumber(push.start_s) << " s for "
        << FormatNumber(push.duration_s) << " s\n";
  }
  out << "simulated: " << FormatNumber(result.time) << " s of " << FormatNumber(options.duration)
      << " s in " << result.steps << " steps\n"
      << "wall time: " << FormatNumber(result.wall_s) << " s  ("
      << FormatNumber(PerSecond(static_cast<double>(result.steps), result.wall_s))
      << " steps/s, realtime factor " << FormatNumber(PerSecond(result.time, result.wall_s))
      << ")\n";
  if (hard) {
    out << "solver iterations: mean " << FormatNumber(metrics.solver_iterations_mean()) << ", max "
        << metrics.solver_iterations_max() << " (over the " << metrics.solver_runs()
        << " steps with contacts";
    if (metrics.solver_unconverged() > 0) {
      out << "; " << metrics.solver_unconverged() << " stopped at the iteration cap";
    }
    out << ")\n";
  }
  out << "max penetration: " << Millimetres(metrics.max_penetration()) << '\n'
      << "max foot slip: " << Millimetres(metrics.max_foot_slip()) << '\n';
  if (result.floating) {
    out << "final base pose: position " << FormatVector(result.final_pose.head<3>())
        << " m, quaternion (w, x, y, z) " << FormatVector(result.final_pose.tail<4>()) << ", tilt "
        << FormatNumber(TiltDegrees(result.final_pose)) << " deg\n";
    out << "fell: ";
    if (metrics.fell()) {
      out << "yes, at t = " << FormatNumber(metrics.fall_time()) << " s (" << metrics.fall_reason()
          << ")\n";
    } else {
      out << "no\n";
    }
  } else {
    out << "final base pose: fixed base\n"
        << "fell: no (fixed base)\n";
  }
  if (result.diverged) out << "diverged: yes (" << result.divergence << ")\n";
  if (!options.out.empty()) {
    out << "csv: " << options.out << " (" << result.csv_rows << " rows)\n";
  }
}

absl::Status RunSim(const Invocation& invocation) {
  const FlagValues& flags = invocation.flags;
  std::vector<std::string>& warnings = *invocation.warnings;
  MOREAU_ASSIGN_OR_RETURN(const std::shared_ptr<const Model> model,
                          LoadModelFromFlags(invocation.args[0], flags.model));
  warnings.insert(warnings.end(), model->warnings.begin(), model->warnings.end());
  MOREAU_ASSIGN_OR_RETURN(
      const SimOptions options,
      SimOptionsFromFlags(flags.sim, flags.settings, invocation.flags_given, &warnings));
  MOREAU_ASSIGN_OR_RETURN(const StateInput initial, StateFromFlags(*model, flags.state, &warnings));

  // The controller runs inside the simulation's step (Settings::controller):
  // the --settings file's, or --controller's; --actions replays actions
  // without --controller's (the file's still runs, the actions added to its
  // torques or targets as on the service).
  sim::Settings settings = options.settings;
  // Under --control-mode command the actions are --controller's commands.
  const bool commands = settings.control.mode == sim::ControlMode::kCommand;
  if ((options.actions.empty() || commands) && !options.controller_from_file) {
    settings.controller = sim::ControllerSettings();
    MOREAU_ASSIGN_OR_RETURN(settings.controller.kind,
                            ChooseController(options.controller, *model, &warnings));
  }
  if (options.weight_feedforward) settings.controller.options.weight_feedforward = true;
  if (options.tuning.has_value()) settings.controller.options.tuning = *options.tuning;
  for (const auto& [name, value] : options.controller_parameters) {
    const absl::Status status =
        sim::SetControllerParameter(settings.controller, settings.control.mode, name, value);
    if (!status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--controller-parameters: ", status.message()));
    }
  }
  absl::StatusOr<std::unique_ptr<sim::Simulation>> created =
      sim::Simulation::Create(model, settings);
  if (!created.ok()) {
    // "controller 'trot': …" (the model cannot run it) names the flag.
    absl::string_view message = created.status().message();
    const std::string prefix =
        absl::StrCat("controller '", sim::ControllerKindName(settings.controller.kind), "': ");
    if (settings.controller.kind != sim::ControllerKind::kNone &&
        absl::ConsumePrefix(&message, prefix)) {
      return absl::InvalidArgumentError(
          options.controller_from_file
              ? absl::StrCat("--settings ", flags.settings.file, ": ", created.status().message())
              : absl::StrCat("--controller ", options.controller, ": ", message));
    }
    return created.status();
  }
  std::unique_ptr<sim::Simulation> simulation = *std::move(created);
  sim::State start = simulation->state();
  start.q = initial.q;
  start.v = initial.v;
  MOREAU_RETURN_IF_ERROR(simulation->SetState(start));
  const Model& m = simulation->model();
  if (m.contact_points.empty()) {
    warnings.push_back(absl::StrCat("model '", m.name,
                                    "' has no contact points (sphere collision geoms): nothing "
                                    "touches the ground"));
  }

  std::vector<Eigen::VectorXd> actions;
  int64_t steps = options.steps;
  if (!options.actions.empty()) {
    MOREAU_ASSIGN_OR_RETURN(actions, ReadActionsCsv(options.actions, simulation->action_size()));
    steps = static_cast<int64_t>(actions.size()) * options.action_substeps;
  }
  std::unique_ptr<CsvLog> csv;
  if (!options.out.empty()) {
    MOREAU_ASSIGN_OR_RETURN(csv, CsvLog::Open(options.out, m));
  }

  const double dt = options.settings.dt;
  // Without --actions the controller alone drives the joints: a zero action
  // (under --control-mode command: the zero command, a trot in place).
  const Eigen::VectorXd no_action = Eigen::VectorXd::Zero(simulation->action_size());
  std::vector<Force> f_ext(static_cast<size_t>(m.nbodies), Force::Zero());
  RunMetrics metrics(m, simulation->state().q);
  Progress progress(options.progress, !flags.common.json && isatty(STDERR_FILENO) == 1, steps,
                    static_cast<double>(steps) * dt);
  absl::Status step_status;

  progress.Start();
  const Clock::time_point start_time = Clock::now();
  int64_t done = 0;
  while (done < steps) {
    const double t = simulation->state().time;
    const std::vector<Force>* external = nullptr;
    if (options.push.has_value() && options.push->Active(t)) {
      std::fill(f_ext.begin(), f_ext.end(), Force::Zero());
      control::ApplyPush(*options.push, t, m, f_ext, simulation->data());
      external = &f_ext;
    }
    // The server's Step path: the action held, τ recomputed every step.
    const Eigen::VectorXd& action =
        actions.empty() ? no_action : actions[done / options.action_substeps];
    step_status = simulation->StepAction(action, 1, external);
    if (!step_status.ok()) break;
    ++done;
    metrics.AfterStep(*simulation);
    if (csv != nullptr && done % options.csv_every == 0) {
      csv->Row(*simulation, simulation->applied_torques());
    }
    progress.Update(done, simulation->state().time);
  }
  const double wall_s = Seconds(Clock::now() - start_time);
  progress.Finish(done, simulation->state().time);

  // A step that fails keeps the last good state: a divergence (non-finite or
  // exploding state) or a numerical breakdown, both FailedPrecondition.
  if (!step_status.ok() && !absl::IsFailedPrecondition(step_status)) return step_status;
  SimResult result;
  result.model = m.name;
  const std::string controller_name =
      simulation->controller() != nullptr ? std::string(simulation->controller()->Name()) : "";
  result.controller =
      commands           ? absl::StrCat(controller_name,
                                        " (commands: ", actions.empty() ? "zero" : options.actions, ")")
      : !actions.empty() ? absl::StrCat("actions (", options.actions, ")")
      : options.control_targets
          ? absl::StrCat(controller_name, " (targets through --control ",
                         sim::ControlModeName(options.settings.control.mode), ")")
          : controller_name;
  result.steps = done;
  result.time = simulation->state().time;
  result.wall_s = wall_s;
  result.final_pose = BasePose(m, simulation->state().q);
  result.floating = m.floating_base;
  result.force_law_substeps = simulation->force_law_substeps();
  result.diverged = !step_status.ok();
  result.divergence = std::string(step_status.message());
  if (csv != nullptr) {
    result.csv_rows = csv->rows();
    MOREAU_RETURN_IF_ERROR(csv->Close());
  }
  if (!result.diverged && metrics.solver_unconverged() > 0) {
    warnings.push_back(absl::StrCat("the contact solver stopped at its iteration cap in ",
                                    metrics.solver_unconverged(), " of ", metrics.solver_runs(),
                                    " steps with contacts"));
  }

  if (!flags.common.state_out.empty()) {
    std::ofstream file(flags.common.state_out, std::ios::binary);
    const std::string blob = simulation->Snapshot();
    file.write(blob.data(), static_cast<std::streamsize>(blob.size()));
    if (!file) {
      return absl::InternalError(
          absl::StrCat("--state-out: cannot write '", flags.common.state_out, "'"));
    }
  }
  if (flags.common.json) {
    WriteJson(options, result, metrics, *invocation.out);
  } else {
    WriteText(options, result, metrics, *invocation.out);
  }
  if (result.diverged) return WithReport(step_status);
  return absl::OkStatus();
}

}  // namespace

const Command& SimCommand() {
  static const Command* const command = new Command{
      .name = "sim",
      .synopsis =
          "MODEL [--settings FILE] [--contact-model M] [--integrator I] [--dt S] [--duration S] "
          "[--controller C] [--push T0,DURATION,FX,FY,FZ] [--terrain T] [--mu M] [--out FILE.csv] "
          "[--json] [...]",
      .summary = "simulate in-process with a controller; report cost and outcome",
      .description =
          "Simulates MODEL for --duration seconds in steps of --dt with the chosen contact "
          "model, starting at rest in the model's default configuration (or at --q, --v). The "
          "controller runs at the simulation rate: every step it computes the joint torques "
          "from the current state, then the simulation advances one step.\n"
          "\n"
          "The report gives the run's cost (wall time of the stepping loop, steps per second, "
          "realtime factor, contact solver iterations) and outcome (final base pose, the "
          "deepest penetration, the largest foot slip, whether the robot fell). A simulation "
          "that diverges stops there: the report of the run up to it is printed, then the "
          "error, and the exit status is 1.\n"
          "\n"
          "A progress line is shown on stderr for runs over about 2 s when stderr is a "
          "terminal and the report is text, or always with --progress.",
      .notes =
          "Report (--json keys):\n"
          "  model, contact, integrator, dt, duration   the run's settings (duration as given)\n"
          "  gear, rotor_inertia     --gear, --rotor-inertia (0: the model's transmissions)\n"
          "  steps                   steps done (fewer than duration / dt if it diverged)\n"
          "  wall_s                  wall time of the stepping loop (s), loading excluded\n"
          "  steps_per_s, realtime_factor   steps / wall_s, simulated time / wall_s\n"
          "  solver_iterations_mean, solver_iterations_max\n"
          "                          prox sweeps per step, over the steps in which the\n"
          "                          hard-contact solver ran (0 for the force laws)\n"
          "  max_penetration_m       max over the run and the contact points of max(0, -gap)\n"
          "  max_foot_slip_m         the largest tangential travel of a contact point from\n"
          "                          where it touched down, during one uninterrupted contact\n"
          "  final_base_pose         [x, y, z, qw, qx, qy, qz]; a fixed base: [0,0,0,1,0,0,0]\n"
          "  fell                    the base dropped below 1/3 of its initial height or tilted\n"
          "                          more than 60 deg at some time (false for a fixed base)\n"
          "  diverged                the simulation diverged (exit status 1)\n"
          "\n"
          "CSV (--out): columns time, base_x, base_y, base_z, base_qw, base_qx, base_qy,\n"
          "base_qz, q_<joint>..., v_<joint>..., tau_<joint>... (the torque applied during the\n"
          "step ending at that time), fn_<contact point>... (normal force, N; 0 when open);\n"
          "one row after every --csv-every-th step, no row for t = 0.\n",
      .flags = {kSettingsFileFlagSpec,
                kContactModelFlagSpec,
                kIntegratorFlagSpec,
                kDtFlagSpec,
                kDurationFlagSpec,
                kControllerFlagSpec,
                kControllerParametersFlagSpec,
                kWeightFeedforwardFlagSpec,
                kTuningFlagSpec,
                kPushFlagSpec,
                kTerrainFlagSpec,
                kMuFlagSpec,
                kContactParametersFlagSpec,
                kOutFlagSpec,
                kCsvEveryFlagSpec,
                kProgressFlagSpec,
                kJsonFlagSpec,
                kActionsFlagSpec,
                kActionSubstepsFlagSpec,
                kControlModeFlagSpec,
                kStateOutFlagSpec,
                kQFlagSpec,
                kVFlagSpec,
                kBaseFlagSpec,
                kContactLinksFlagSpec,
                kCollisionFlagSpec,
                kCollideLinksFlagSpec,
                kExcludeLinksFlagSpec,
                kGearFlagSpec,
                kRotorInertiaFlagSpec,
                kIdTimeConstantFlagSpec,
                kLoopSolverFlagSpec},
      .min_args = 1,
      .max_args = 1,
      .run = &RunSim,
  };
  return *command;
}

}  // namespace moreau::cli
