// moreau_vs_mujoco: Moreau and MuJoCo 2.2.2 side by side on the same robot
// (the same URDF file) under the same controllers at the same rates — speed
// (steps/s on one core, same Δt, same number of steps) and agreement (trunk
// pose, joint angles, contact flags and normal forces). See BENCHMARKS.md.
//
//   moreau_vs_mujoco [--model A1.urdf] [--dt 0.001,0.0025] [--duration 10]
//       [--scenarios drop,stand,trot,limp] [--collision feet,all]
//       [--contacts moreau-jor,…] [--cones …] [--json] [--plots DIR]
//
// The markdown report (or the JSON one with --json) goes to stdout, progress
// lines to stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bench/vs_mujoco/metrics.h"
#include "bench/vs_mujoco/moreau_engine.h"
#include "bench/vs_mujoco/mujoco_engine.h"
#include "bench/vs_mujoco/report.h"
#include "bench/vs_mujoco/scenario.h"
#include "engine/model/loader.h"
#include "engine/sim/settings.h"
#include "engine/util/status_macros.h"

ABSL_FLAG(std::string, model, MOREAU_VS_MUJOCO_DEFAULT_MODEL,
          "URDF file of a floating-base robot with 3-joint legs and sphere feet, loaded by both "
          "engines");
ABSL_FLAG(std::string, dt, "0.001,0.0025", "time steps (s), comma-separated");
ABSL_FLAG(double, duration, 10.0, "simulated time of every run (s)");
ABSL_FLAG(std::string, scenarios, "drop,stand,trot,limp", "scenarios, comma-separated");
ABSL_FLAG(std::string, collision, "feet,all",
          "what touches the ground, in both engines, comma-separated: feet (the foot spheres) "
          "or all (every collision geom of the robot)");
ABSL_FLAG(std::string, contacts, "moreau-jor,moreau-sor,spring-damper,hertz,micro",
          "Moreau contact models, comma-separated");
ABSL_FLAG(std::string, cones, "pyramidal,elliptic", "MuJoCo friction cones, comma-separated");
ABSL_FLAG(std::string, agreement_contact, "moreau-sor",
          "the Moreau contact model compared with MuJoCo for agreement (one of --contacts)");
ABSL_FLAG(std::string, agreement_cone, "elliptic",
          "the MuJoCo cone compared for agreement (one of --cones)");
ABSL_FLAG(double, mu, 0.8, "friction coefficient of every contact, both engines");
ABSL_FLAG(double, sample, 0.01, "sample period of the recorded traces (s)");
ABSL_FLAG(int, repeats, 1, "runs of each configuration; the median by steps/s is reported");
ABSL_FLAG(bool, json, false, "write the JSON report instead of markdown");
ABSL_FLAG(std::string, plots, "",
          "folder for the traces (<scenario>.csv) and plots (<scenario>.png); created if needed");

namespace moreau::bench::vs_mujoco {
namespace {

struct Options {
  std::string model;
  std::vector<double> dts;
  double duration = 0.0;
  std::vector<Scenario> scenarios;
  std::vector<CollisionMode> collisions;
  std::vector<std::string> contacts;
  std::vector<Cone> cones;
  std::string agreement_contact;
  Cone agreement_cone = Cone::kElliptic;
  double mu = 0.0;
  double sample = 0.0;
  int repeats = 1;
  bool json = false;
  std::string plots;
};

std::vector<std::string> SplitList(const std::string& text) {
  return absl::StrSplit(text, ',', absl::SkipWhitespace());
}

absl::Status Invalid(absl::string_view flag, absl::string_view value, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("--", flag, " ", value, ": ", why));
}

absl::StatusOr<Options> OptionsFromFlags() {
  Options o;
  o.model = absl::GetFlag(FLAGS_model);
  if (!std::filesystem::is_regular_file(o.model)) {
    return Invalid("model", o.model, "no such file");
  }
  for (const std::string& item : SplitList(absl::GetFlag(FLAGS_dt))) {
    double dt = 0.0;
    if (!absl::SimpleAtod(item, &dt) || !(dt > 0.0 && dt <= 0.1)) {
      return Invalid("dt", item, "each time step must be a number in (0, 0.1] s");
    }
    o.dts.push_back(dt);
  }
  if (o.dts.empty()) return Invalid("dt", "''", "give at least one time step");
  o.duration = absl::GetFlag(FLAGS_duration);
  if (!(std::isfinite(o.duration) && o.duration > 0.0)) {
    return Invalid("duration", absl::StrCat(o.duration), "must be a number of seconds > 0");
  }
  for (const std::string& item : SplitList(absl::GetFlag(FLAGS_scenarios))) {
    absl::StatusOr<Scenario> scenario = ParseScenario(item);
    if (!scenario.ok()) return Invalid("scenarios", item, scenario.status().message());
    o.scenarios.push_back(*scenario);
  }
  if (o.scenarios.empty()) return Invalid("scenarios", "''", "give at least one scenario");
  for (const std::string& item : SplitList(absl::GetFlag(FLAGS_collision))) {
    absl::StatusOr<CollisionMode> collision = ParseCollisionMode(item);
    if (!collision.ok()) return Invalid("collision", item, collision.status().message());
    if (std::find(o.collisions.begin(), o.collisions.end(), *collision) == o.collisions.end()) {
      o.collisions.push_back(*collision);
    }
  }
  if (o.collisions.empty()) return Invalid("collision", "''", "give feet, all or both");
  for (const std::string& item : SplitList(absl::GetFlag(FLAGS_contacts))) {
    absl::StatusOr<sim::ContactModel> contact = sim::ParseContactModel(item);
    if (!contact.ok()) return Invalid("contacts", item, contact.status().message());
    o.contacts.push_back(item);
  }
  if (o.contacts.empty()) return Invalid("contacts", "''", "give at least one contact model");
  for (const std::string& item : SplitList(absl::GetFlag(FLAGS_cones))) {
    absl::StatusOr<Cone> cone = ParseCone(item);
    if (!cone.ok()) return Invalid("cones", item, cone.status().message());
    o.cones.push_back(*cone);
  }
  if (o.cones.empty()) return Invalid("cones", "''", "give at least one cone");
  o.agreement_contact = absl::GetFlag(FLAGS_agreement_contact);
  if (std::find(o.contacts.begin(), o.contacts.end(), o.agreement_contact) == o.contacts.end()) {
    return Invalid("agreement_contact", o.agreement_contact, "is not among --contacts");
  }
  absl::StatusOr<Cone> cone = ParseCone(absl::GetFlag(FLAGS_agreement_cone));
  if (!cone.ok())
    return Invalid("agreement_cone", absl::GetFlag(FLAGS_agreement_cone), cone.status().message());
  if (std::find(o.cones.begin(), o.cones.end(), *cone) == o.cones.end()) {
    return Invalid("agreement_cone", ConeName(*cone), "is not among --cones");
  }
  o.agreement_cone = *cone;
  o.mu = absl::GetFlag(FLAGS_mu);
  if (!(std::isfinite(o.mu) && o.mu >= 0.0)) {
    return Invalid("mu", absl::StrCat(o.mu), "must be finite and >= 0");
  }
  o.sample = absl::GetFlag(FLAGS_sample);
  if (!(std::isfinite(o.sample) && o.sample > 0.0)) {
    return Invalid("sample", absl::StrCat(o.sample), "must be a number of seconds > 0");
  }
  o.repeats = absl::GetFlag(FLAGS_repeats);
  if (o.repeats < 1) return Invalid("repeats", absl::StrCat(o.repeats), "must be >= 1");
  o.json = absl::GetFlag(FLAGS_json);
  o.plots = absl::GetFlag(FLAGS_plots);
  return o;
}

// The repetition with the median steps/s.
RunResult Median(std::vector<RunResult> runs) {
  std::sort(runs.begin(), runs.end(), [](const RunResult& a, const RunResult& b) {
    return a.steps_per_s() < b.steps_per_s();
  });
  return std::move(runs[runs.size() / 2]);
}

void Progress(Scenario scenario, CollisionMode collision, const RunResult& run) {
  std::cerr << absl::StrFormat(
      "vs_mujoco: %-5s %-4s dt=%g ms %-6s %-13s %7d steps in %.3f s: %.1f k "
      "steps/s%s%s\n",
      ScenarioName(scenario), CollisionModeName(collision), run.dt * 1e3, run.engine, run.contact,
      run.steps, run.wall_s, run.steps_per_s() / 1e3, run.diverged ? ", diverged: " : "",
      run.error);
}

// Runs the plotting script on the traces in `dir`; a failure is a warning.
void Plot(const std::string& dir) {
  const pid_t pid = fork();
  if (pid == 0) {
    execl(MOREAU_VS_MUJOCO_PYTHON, MOREAU_VS_MUJOCO_PYTHON, MOREAU_VS_MUJOCO_PLOT_SCRIPT,
          dir.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::cerr << "vs_mujoco: warning: the plots were not drawn (" << MOREAU_VS_MUJOCO_PYTHON << " "
              << MOREAU_VS_MUJOCO_PLOT_SCRIPT << " " << dir << " failed); the traces are in " << dir
              << "\n";
  }
}

// The speed rows of one collision mode: every scenario at every Δt, each
// engine configuration made once per row and the repetitions interleaved so
// that a slow spell of the machine hits all of them alike.
absl::Status RunSpeedRows(const Options& options, CollisionMode collision,
                          const std::shared_ptr<const Model>& model,
                          const std::shared_ptr<const MujocoModel>& mujoco_model, Report& report) {
  for (const Scenario scenario : options.scenarios) {
    for (const double dt : options.dts) {
      const RunOptions run_options{
          .dt = dt, .duration = options.duration, .sample_period = options.sample};
      // Both engines run the scenario's controller from this one definition.
      const sim::ControllerSettings controller = ScenarioController(scenario);
      std::vector<std::unique_ptr<EngineAdapter>> engines;
      for (const Cone cone : options.cones) {
        MOREAU_ASSIGN_OR_RETURN(
            std::unique_ptr<MujocoEngine> engine,
            MujocoEngine::Create(mujoco_model, model, dt, cone, options.mu, controller));
        engines.push_back(std::move(engine));
      }
      for (const std::string& contact : options.contacts) {
        MOREAU_ASSIGN_OR_RETURN(const sim::Settings settings,
                                MoreauSettings(contact, dt, options.mu, controller));
        MOREAU_ASSIGN_OR_RETURN(std::unique_ptr<MoreauEngine> engine,
                                MoreauEngine::Create(model, settings));
        engines.push_back(std::move(engine));
      }
      std::vector<std::vector<RunResult>> runs(engines.size());
      for (int r = 0; r < options.repeats; ++r) {
        for (size_t e = 0; e < engines.size(); ++e) {
          MOREAU_ASSIGN_OR_RETURN(RunResult run,
                                  RunScenario(scenario, *model, *engines[e], run_options));
          Progress(scenario, collision, run);
          runs[e].push_back(std::move(run));
        }
      }
      SpeedRow row{.scenario = scenario,
                   .dt = dt,
                   .collision = CollisionModeName(collision),
                   .mujoco = {},
                   .moreau = {}};
      for (size_t e = 0; e < engines.size(); ++e) {
        (e < options.cones.size() ? row.mujoco : row.moreau).push_back(Median(std::move(runs[e])));
      }
      report.rows.push_back(std::move(row));
    }
  }
  return absl::OkStatus();
}

// Agreement at the smallest Δt, per scenario, of the rows of `collision`
// (and their traces with --plots).
absl::Status AddAgreement(const Options& options, CollisionMode collision, const Model& model,
                          Report& report) {
  const std::string name = CollisionModeName(collision);
  for (const SpeedRow& row : report.rows) {
    if (row.dt != report.agreement_dt || row.collision != name) continue;
    const RunResult* moreau = nullptr;
    const RunResult* mujoco = nullptr;
    for (const RunResult& run : row.moreau) {
      if (run.contact == report.agreement_contact) moreau = &run;
    }
    for (const RunResult& run : row.mujoco) {
      if (run.contact == report.agreement_cone) mujoco = &run;
    }
    if (moreau == nullptr || mujoco == nullptr) continue;
    report.agreement.push_back({.scenario = row.scenario,
                                .collision = name,
                                .agreement = Compare(*moreau, *mujoco),
                                .moreau_fell = Fell(*moreau),
                                .mujoco_fell = Fell(*mujoco)});
    if (!options.plots.empty()) {
      MOREAU_RETURN_IF_ERROR(
          WriteTraces(options.plots, model, row.scenario, name, *moreau, *mujoco));
    }
  }
  return absl::OkStatus();
}

absl::Status Run(const Options& options) {
  Report report;
  report.model_path = options.model;
  report.mu = options.mu;
  report.duration_s = options.duration;
  report.sample_period_s = options.sample;
  report.repeats = options.repeats;
  report.agreement_contact = options.agreement_contact;
  report.agreement_cone = ConeName(options.agreement_cone);
  report.agreement_dt = *std::min_element(options.dts.begin(), options.dts.end());
  if (!options.plots.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.plots, error);
    if (error) return Invalid("plots", options.plots, error.message());
  }

  for (const CollisionMode collision : options.collisions) {
    LoadOptions load;
    load.collision = collision;
    MOREAU_ASSIGN_OR_RETURN(std::shared_ptr<const Model> model, LoadUrdfFile(options.model, load));
    MOREAU_ASSIGN_OR_RETURN(std::shared_ptr<const MujocoModel> mujoco_model,
                            MujocoModel::Load(options.model, *model, collision));
    std::cerr << absl::StrFormat(
        "vs_mujoco: %s, collision %s: total mass Moreau %.6f kg, MuJoCo %.6f kg; %d joints, "
        "%d feet matched, %d geoms touch the ground (Moreau: %d contact slots)\n",
        options.model, CollisionModeName(collision), model->TotalMass(), mujoco_model->TotalMass(),
        model->nu(), mujoco_model->foot_geom.size(), mujoco_model->robot_geoms.size(),
        model->contact_points.size());
    report.model_name = model->name;
    report.moreau_mass_kg = model->TotalMass();
    report.mujoco_mass_kg = mujoco_model->TotalMass();
    MOREAU_RETURN_IF_ERROR(RunSpeedRows(options, collision, model, mujoco_model, report));
    MOREAU_RETURN_IF_ERROR(AddAgreement(options, collision, *model, report));
  }
  if (!options.plots.empty()) Plot(options.plots);

  if (options.json) {
    WriteJson(report, std::cout);
  } else {
    WriteMarkdown(report, std::cout);
  }
  std::cout.flush();
  if (!std::cout) return absl::InternalError("error writing the report to stdout");
  return absl::OkStatus();
}

}  // namespace
}  // namespace moreau::bench::vs_mujoco

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Moreau against MuJoCo on the same robot and controllers: speed and agreement.\n"
      "  moreau_vs_mujoco [--model URDF] [--dt 0.001,0.0025] [--duration 10] "
      "[--scenarios drop,stand,trot] [--json] [--plots DIR]");
  const std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() > 1) {
    std::cerr << "moreau_vs_mujoco: unexpected argument '" << positional[1]
              << "' (all options are --flags; see --help)\n";
    return 2;
  }
  const absl::StatusOr<moreau::bench::vs_mujoco::Options> options =
      moreau::bench::vs_mujoco::OptionsFromFlags();
  if (!options.ok()) {
    std::cerr << "moreau_vs_mujoco: " << options.status().message() << "\n";
    return 2;
  }
  const absl::Status status = moreau::bench::vs_mujoco::Run(*options);
  if (!status.ok()) {
    std::cerr << "moreau_vs_mujoco: " << status.message() << "\n";
    return 1;
  }
  return 0;
}
