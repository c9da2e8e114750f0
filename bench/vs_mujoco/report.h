// Output of the comparison: the markdown tables, the --json report and the
// trace files (CSV) that the plots are drawn from.
#ifndef MOREAU_BENCH_VS_MUJOCO_REPORT_H_
#define MOREAU_BENCH_VS_MUJOCO_REPORT_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bench/vs_mujoco/metrics.h"
#include "bench/vs_mujoco/scenario.h"
#include "engine/model/model.h"

namespace moreau::bench::vs_mujoco {

// One scenario at one time step: every engine configuration's run (the
// median-speed repetition of each).
struct SpeedRow {
  Scenario scenario = Scenario::kDrop;
  double dt = 0.0;
  std::string collision;          // "feet" or "all", in both engines
  std::vector<RunResult> mujoco;  // one per MuJoCo cone
  std::vector<RunResult> moreau;  // one per Moreau contact model

  // The MuJoCo run with the most steps/s (the ratio's denominator), or null.
  const RunResult* FastestMujoco() const;
};

struct ScenarioAgreement {
  Scenario scenario = Scenario::kDrop;
  std::string collision;
  Agreement agreement;
  bool moreau_fell = false;
  bool mujoco_fell = false;
};

struct Report {
  std::string model_path;
  std::string model_name;
  double moreau_mass_kg = 0.0;
  double mujoco_mass_kg = 0.0;
  double mu = 0.0;
  double duration_s = 0.0;
  double sample_period_s = 0.0;
  int repeats = 1;
  std::vector<SpeedRow> rows;
  // Agreement: Moreau `agreement_contact` against MuJoCo `agreement_cone` at
  // `agreement_dt`, per scenario.
  std::string agreement_contact;
  std::string agreement_cone;
  double agreement_dt = 0.0;
  std::vector<ScenarioAgreement> agreement;
};

void WriteMarkdown(const Report& report, std::ostream& out);
void WriteJson(const Report& report, std::ostream& out);

// DIR/<scenario>.csv (collision "feet"; otherwise DIR/<scenario>_<collision>.csv):
// time, then per engine (moreau_, mujoco_) the trunk
// position (x, y, z, m), orientation (roll, pitch, yaw, deg) and the normal
// force of every foot (fn_<link>, N). An error names the file.
absl::Status WriteTraces(const std::string& dir, const Model& model, Scenario scenario,
                         const std::string& collision, const RunResult& moreau,
                         const RunResult& mujoco);

}  // namespace moreau::bench::vs_mujoco

#endif  // MOREAU_BENCH_VS_MUJOCO_REPORT_H_
