#include "bench/vs_mujoco/report.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <numbers>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "clients/json/json_writer.h"

namespace moreau::bench::vs_mujoco {
namespace {

constexpr double kDegrees = 180.0 / std::numbers::pi;

// "52.1 k" steps/s.
std::string Rate(double steps_per_s) { return absl::StrFormat("%.1f k", steps_per_s / 1e3); }

// "1 ms", "2.5 ms".
std::string Milliseconds(double dt) { return absl::StrFormat("%g ms", dt * 1e3); }

// A note on how the run ended, or "".
std::string Outcome(const RunResult& run) {
  if (run.diverged) return absl::StrFormat("diverged at %.3g s", run.steps * run.dt);
  if (Fell(run)) return "fell";
  return "";
}

// `reference`: the run the speed ratio is taken against; `feet`: the same
// configuration colliding only the feet (its share is shown), or null.
std::string SpeedCell(const RunResult& run, const RunResult* reference, const RunResult* feet) {
  std::string cell = Rate(run.steps_per_s());
  std::vector<std::string> notes;
  if (reference != nullptr && reference != &run && reference->steps_per_s() > 0.0) {
    notes.push_back(absl::StrFormat("%.2f×", run.steps_per_s() / reference->steps_per_s()));
  }
  if (feet != nullptr && feet->steps_per_s() > 0.0) {
    notes.push_back(absl::StrFormat("%.2f of feet", run.steps_per_s() / feet->steps_per_s()));
  }
  if (const std::string outcome = Outcome(run); !outcome.empty()) notes.push_back(outcome);
  if (!notes.empty()) absl::StrAppend(&cell, " (", absl::StrJoin(notes, ", "), ")");
  return cell;
}

std::string Triple(const Eigen::Vector3d& v, double scale, const char* format) {
  return absl::StrJoin(
      {absl::StrFormat(format, v.x() * scale), absl::StrFormat(format, v.y() * scale),
       absl::StrFormat(format, v.z() * scale)},
      ", ");
}

// The row of the same scenario and Δt colliding only the feet, when `row`
// collides more and the report has one.
const SpeedRow* FeetRow(const Report& report, const SpeedRow& row) {
  if (row.collision == "feet") return nullptr;
  for (const SpeedRow& other : report.rows) {
    if (other.collision == "feet" && other.scenario == row.scenario && other.dt == row.dt &&
        other.mujoco.size() == row.mujoco.size() && other.moreau.size() == row.moreau.size()) {
      return &other;
    }
  }
  return nullptr;
}

void WriteAgreementJson(const ScenarioAgreement& entry, JsonWriter& json) {
  const Agreement& a = entry.agreement;
  json.BeginObject();
  json.Key("samples").Int(a.samples);
  json.Key("trunk_pos_mae_m").Numbers(a.trunk_pos_mae_m);
  json.Key("trunk_rot_mae_deg").Numbers(a.trunk_rot_mae_deg);
  json.Key("joint_mae_deg").Number(a.joint_mae_deg);
  json.Key("contact_agreement").Number(a.contact_agreement_pct);
  json.Key("grf_mae_n").Number(a.grf_mae_n);
  json.Key("grf_mae_n_per_foot").Numbers(a.grf_mae_n_per_foot);
  json.Key("moreau_final_trunk_pos_m").Numbers(a.final_a);
  json.Key("mujoco_final_trunk_pos_m").Numbers(a.final_b);
  json.Key("final_trunk_distance_m").Number(a.final_distance_m);
  json.Key("moreau_fell").Bool(entry.moreau_fell);
  json.Key("mujoco_fell").Bool(entry.mujoco_fell);
  json.EndObject();
}

}  // namespace

const RunResult* SpeedRow::FastestMujoco() const {
  const RunResult* best = nullptr;
  for (const RunResult& run : mujoco) {
    if (best == nullptr || run.steps_per_s() > best->steps_per_s()) best = &run;
  }
  return best;
}

void WriteMarkdown(const Report& report, std::ostream& out) {
  out << absl::StrFormat(
      "Model: %s (%s); total mass Moreau %.4f kg, MuJoCo %.4f kg. Friction μ = %g in both. "
      "%g s per run, median of %d run(s), one core.\n\n",
      report.model_name, report.model_path, report.moreau_mass_kg, report.mujoco_mass_kg, report.mu,
      report.duration_s, report.repeats);

  // Speed: one row per scenario and Δt.
  if (!report.rows.empty()) {
    const SpeedRow& first = report.rows.front();
    out << "Steps per second (controller included); in brackets Moreau over the faster MuJoCo "
           "cone and, for `all`, the share of the `feet` speed.\n\n| scenario | Δt | collision |";
    for (const RunResult& run : first.mujoco) out << " MuJoCo " << run.contact << " |";
    for (const RunResult& run : first.moreau) out << " Moreau " << run.contact << " |";
    out << "\n|---|---|---|";
    for (size_t i = 0; i < first.mujoco.size() + first.moreau.size(); ++i) out << "---|";
    out << '\n';
    for (const SpeedRow& row : report.rows) {
      const RunResult* reference = row.FastestMujoco();
      const SpeedRow* feet = FeetRow(report, row);
      out << "| " << ScenarioName(row.scenario) << " | " << Milliseconds(row.dt) << " | "
          << row.collision << " |";
      for (size_t e = 0; e < row.mujoco.size(); ++e) {
        out << ' ' << SpeedCell(row.mujoco[e], nullptr, feet ? &feet->mujoco[e] : nullptr) << " |";
      }
      for (size_t e = 0; e < row.moreau.size(); ++e) {
        out << ' ' << SpeedCell(row.moreau[e], reference, feet ? &feet->moreau[e] : nullptr)
            << " |";
      }
      out << '\n';
    }
    out << '\n';
  }

  if (!report.agreement.empty()) {
    out << absl::StrFormat(
        "Agreement: Moreau %s against MuJoCo %s cone, Δt %s, sampled every %g ms; a foot is in "
        "contact when its normal force exceeds %g N.\n\n",
        report.agreement_contact, report.agreement_cone, Milliseconds(report.agreement_dt),
        report.sample_period_s * 1e3, kContactForceThreshold);
    out << "| scenario | collision | trunk position MAE x, y, z (mm) | trunk orientation MAE "
           "roll, pitch, yaw (°) | joint MAE (°) | same contact flag | normal force MAE (N) | "
           "final trunk distance (mm) |\n|---|---|---|---|---|---|---|---|\n";
    for (const ScenarioAgreement& entry : report.agreement) {
      const Agreement& a = entry.agreement;
      std::string name = ScenarioName(entry.scenario);
      if (entry.moreau_fell) absl::StrAppend(&name, " (Moreau fell)");
      if (entry.mujoco_fell) absl::StrAppend(&name, " (MuJoCo fell)");
      out << absl::StrFormat("| %s | %s | %s | %s | %.2f | %.1f %% | %.2f | %.1f |\n", name,
                             entry.collision, Triple(a.trunk_pos_mae_m, 1e3, "%.1f"),
                             Triple(a.trunk_rot_mae_deg, 1.0, "%.2f"), a.joint_mae_deg,
                             a.contact_agreement_pct, a.grf_mae_n, a.final_distance_m * 1e3);
    }
    out << "\nPaper 001 (its simulator against MuJoCo, trot): trunk position (63, 17, 4.6) mm, "
           "orientation (1.5, 1.3, 2.7)°, normal force 5.65 N.\n";
  }
}

void WriteJson(const Report& report, std::ostream& out) {
  JsonWriter json(out);
  json.BeginObject();
  json.Key("model").String(report.model_path);
  json.Key("moreau_total_mass_kg").Number(report.moreau_mass_kg);
  json.Key("mujoco_total_mass_kg").Number(report.mujoco_mass_kg);
  json.Key("mu").Number(report.mu);
  json.Key("duration_s").Number(report.duration_s);
  json.Key("repeats").Int(report.repeats);
  json.Key("sample_period_s").Number(report.sample_period_s);
  json.Key("contact_threshold_n").Number(kContactForceThreshold);

  // One entry per scenario, Δt and Moreau contact model.
  json.Key("scenarios").BeginArray();
  for (const SpeedRow& row : report.rows) {
    const RunResult* reference = row.FastestMujoco();
    for (const RunResult& run : row.moreau) {
      json.BeginObject();
      json.Key("scenario").String(ScenarioName(row.scenario));
      json.Key("dt").Number(row.dt);
      json.Key("collision").String(row.collision);
      json.Key("steps").Int(run.steps);
      json.Key("moreau_contact").String(run.contact);
      json.Key("moreau_steps_per_s").Number(run.steps_per_s());
      json.Key("moreau_diverged").Bool(run.diverged);
      json.Key("moreau_fell").Bool(Fell(run));
      if (reference != nullptr) {
        json.Key("mujoco_cone").String(reference->contact);
        json.Key("mujoco_steps_per_s").Number(reference->steps_per_s());
        json.Key("speed_ratio")
            .Number(reference->steps_per_s() > 0.0 ? run.steps_per_s() / reference->steps_per_s()
                                                   : 0.0);
      }
      json.Key("mujoco").BeginObject();
      for (const RunResult& mj : row.mujoco) {
        json.Key(mj.contact).BeginObject();
        json.Key("steps_per_s").Number(mj.steps_per_s());
        json.Key("speed_ratio")
            .Number(mj.steps_per_s() > 0.0 ? run.steps_per_s() / mj.steps_per_s() : 0.0);
        json.Key("diverged").Bool(mj.diverged);
        json.Key("fell").Bool(Fell(mj));
        json.EndObject();
      }
      json.EndObject();
      json.EndObject();
    }
  }
  json.EndArray();

  json.Key("agreement_settings").BeginObject();
  json.Key("moreau_contact").String(report.agreement_contact);
  json.Key("mujoco_cone").String(report.agreement_cone);
  json.Key("dt").Number(report.agreement_dt);
  json.EndObject();
  // "agreement" colliding the feet, "agreement_all" every geom.
  for (const char* collision : {"feet", "all"}) {
    json.Key(collision == std::string("feet") ? "agreement" : "agreement_all").BeginObject();
    for (const ScenarioAgreement& entry : report.agreement) {
      if (entry.collision != collision) continue;
      json.Key(ScenarioName(entry.scenario));
      WriteAgreementJson(entry, json);
    }
    json.EndObject();
  }
  for (const ScenarioAgreement& entry : report.agreement) {
    if (entry.scenario != Scenario::kTrot || entry.collision != "feet") continue;
    json.Key("trot");
    WriteAgreementJson(entry, json);
  }
  json.EndObject();
}

absl::Status WriteTraces(const std::string& dir, const Model& model, Scenario scenario,
                         const std::string& collision, const RunResult& moreau,
                         const RunResult& mujoco) {
  const std::string path = absl::StrCat(dir, "/", ScenarioName(scenario),
                                        collision == "feet" ? "" : "_" + collision, ".csv");
  std::ofstream out(path);
  if (!out) {
    return absl::InvalidArgumentError(
        absl::StrCat("--plots: cannot write '", path, "': ", std::strerror(errno)));
  }
  out << "time";
  for (const char* engine : {"moreau", "mujoco"}) {
    for (const char* column : {"x", "y", "z", "roll", "pitch", "yaw"}) {
      out << ',' << engine << '_' << column;
    }
    for (const int k : FootSlots(model)) {
      out << ',' << engine << "_fn_" << model.contact_points[k].name;
    }
  }
  out << '\n';
  const size_t n = std::min(moreau.samples.size(), mujoco.samples.size());
  for (size_t i = 0; i < n; ++i) {
    out << absl::StrFormat("%.6g", moreau.samples[i].t);
    for (const RunResult* run : {&moreau, &mujoco}) {
      const Sample& s = run->samples[i];
      const Eigen::Vector3d rpy = RollPitchYaw(s.trunk_quaternion) * kDegrees;
      out << absl::StrFormat(",%.9g,%.9g,%.9g,%.6g,%.6g,%.6g", s.trunk_position.x(),
                             s.trunk_position.y(), s.trunk_position.z(), rpy.x(), rpy.y(), rpy.z());
      for (Eigen::Index k = 0; k < s.foot_normal_force.size(); ++k) {
        out << absl::StrFormat(",%.6g", s.foot_normal_force[k]);
      }
    }
    out << '\n';
  }
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("--plots: error writing '", path, "'"));
  return absl::OkStatus();
}

}  // namespace moreau::bench::vs_mujoco
