#include "clients/cli/dynamics_command.h"

#include <Eigen/Core>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "clients/cli/flag_specs.h"
#include "clients/cli/model_flags.h"
#include "clients/cli/state_flags.h"
#include "clients/cli/text_format.h"
#include "clients/json/json_writer.h"
#include "engine/contact/contact_witness.h"
#include "engine/contact/terrain.h"
#include "engine/dynamics/aba.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/energy.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/rnea.h"
#include "engine/util/status_macros.h"

namespace moreau::cli {
namespace {

struct ContactTerms {
  std::string name;  // unique among the model's contact points
  Vec3 position;     // world
  Matrix3Xd J;       // 3 × nv, world linear velocity = J v
};

// Everything the command reports, at one state.
struct DynamicsTerms {
  Eigen::MatrixXd M;     // nv × nv (CRBA)
  Eigen::VectorXd c;     // nv, Coriolis and centrifugal terms
  Eigen::VectorXd g;     // nv, gravity terms
  Eigen::VectorXd qacc;  // nv, forward dynamics (ABA)
  std::vector<ContactTerms> contacts;
  Vec3 center_of_mass;  // world
  double kinetic_energy = 0.0;
  double potential_energy = 0.0;
};

// Contact point names, with "#2", "#3", … appended to repeats (a link with
// several contact spheres) so that they can key a JSON object.
std::vector<std::string> UniqueContactNames(const Model& model) {
  std::vector<std::string> names;
  std::map<std::string, int> seen;
  for (const ContactPoint& point : model.contact_points) {
    const int count = ++seen[point.name];
    names.push_back(count == 1 ? point.name : absl::StrCat(point.name, "#", count));
  }
  return names;
}

DynamicsTerms Evaluate(const Model& model, const StateInput& state) {
  Data data = MakeData(model);
  DynamicsTerms terms;
  terms.M = Crba(model, data, state.q);
  terms.c = ComputeCoriolis(model, data, state.q, state.v);
  terms.g = ComputeGravity(model, data, state.q);
  terms.qacc = Aba(model, data, state.q, state.v, state.tau);
  // At the witness points on the flat ground (a sphere's or rim's lowest
  // point, as the step finds it).
  contact::WitnessJacobians(model, contact::Terrain(), state.q, data);
  const std::vector<std::string> names = UniqueContactNames(model);
  for (size_t k = 0; k < names.size() && k < data.contact_J.size(); ++k) {
    terms.contacts.push_back({names[k], data.contact_position[k], data.contact_J[k]});
  }
  ForwardKinematics(model, data, state.q, state.v);
  terms.center_of_mass = CenterOfMass(model, data);
  terms.kinetic_energy = KineticEnergy(model, data);
  terms.potential_energy = PotentialEnergy(model, data);
  return terms;
}

// A label per velocity coordinate: the joint name, with the component for
// multi-DOF joints ("floating_base.vx", …, "floating_base.wz").
std::vector<std::string> DofLabels(const Model& model) {
  static constexpr const char* kFreeComponents[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
  std::vector<std::string> labels(model.nv);
  for (const Joint& joint : model.joints) {
    for (int k = 0; k < joint.nv; ++k) {
      const int dof = joint.v_index + k;
      if (dof < 0 || dof >= model.nv) continue;
      if (joint.nv == 1) {
        labels[dof] = joint.name;
      } else if (joint.type == JointType::kFree && k < 6) {
        labels[dof] = absl::StrCat(joint.name, ".", kFreeComponents[k]);
      } else {
        labels[dof] = absl::StrCat(joint.name, "[", k, "]");
      }
    }
  }
  return labels;
}

void WriteJson(const Model& model, const StateInput& state, const DynamicsTerms& terms,
               const std::vector<std::string>& warnings, std::ostream& out) {
  JsonWriter json(out);
  json.BeginObject();
  json.Key("model").String(model.name);
  json.Key("nq").Int(model.nq);
  json.Key("nv").Int(model.nv);
  json.Key("joint_names").Strings(model.JointNames());
  json.Key("q").Numbers(state.q);
  json.Key("v").Numbers(state.v);
  json.Key("tau").Numbers(state.tau);
  json.Key("M").Matrix(terms.M);
  json.Key("c").Numbers(terms.c);
  json.Key("g").Numbers(terms.g);
  json.Key("qacc").Numbers(terms.qacc);
  json.Key("contact_jacobians").BeginObject();
  for (const ContactTerms& contact : terms.contacts) json.Key(contact.name).Matrix(contact.J);
  json.EndObject();
  json.Key("contact_positions").BeginObject();
  for (const ContactTerms& contact : terms.contacts) {
    json.Key(contact.name).Numbers(contact.position);
  }
  json.EndObject();
  json.Key("center_of_mass").Numbers(terms.center_of_mass);
  json.Key("kinetic_energy").Number(terms.kinetic_energy);
  json.Key("potential_energy").Number(terms.potential_energy);
  json.Key("warnings").Strings(warnings);
  json.EndObject();
}

void WriteText(const Model& model, const StateInput& state, const DynamicsTerms& terms,
               std::ostream& out) {
  out << "model: " << model.name << "  nq: " << model.nq << "  nv: " << model.nv << '\n'
      << kStateConventions << '\n'
      << "q = " << FormatVector(state.q) << "\n\n";

  const std::vector<std::string> labels = DofLabels(model);
  Table vectors({"dof", "v", "tau", "c", "g", "qacc"});
  for (int i = 0; i < model.nv; ++i) {
    vectors.AddRow({labels[i], FormatNumber(state.v[i]), FormatNumber(state.tau[i]),
                    FormatNumber(terms.c[i]), FormatNumber(terms.g[i]),
                    FormatNumber(terms.qacc[i])});
  }
  vectors.Print(out);

  out << '\n';
  PrintMatrix(out, "M", terms.M, labels);

  out << "\ncontact points (" << terms.contacts.size() << "):\n";
  for (const ContactTerms& contact : terms.contacts) {
    PrintMatrix(out,
                absl::StrCat(contact.name, " at ", FormatVector(contact.position),
                             " (world), Jacobian of its world velocity"),
                contact.J, {"x", "y", "z"});
  }

  out << "\ncentre of mass: " << FormatVector(terms.center_of_mass) << " (world)\n"
      << "kinetic energy: " << FormatNumber(terms.kinetic_energy) << " J\n"
      << "potential energy: " << FormatNumber(terms.potential_energy) << " J\n";
}

absl::Status RunDynamics(const Invocation& invocation) {
  MOREAU_ASSIGN_OR_RETURN(const std::shared_ptr<const Model> model,
                          LoadModelFromFlags(invocation.args[0], invocation.flags.model));
  std::vector<std::string>& warnings = *invocation.warnings;
  warnings.insert(warnings.end(), model->warnings.begin(), model->warnings.end());
  MOREAU_ASSIGN_OR_RETURN(const StateInput state,
                          StateFromFlags(*model, invocation.flags.state, &warnings));
  const DynamicsTerms terms = Evaluate(*model, state);
  if (invocation.flags.common.json) {
    WriteJson(*model, state, terms, warnings, *invocation.out);
  } else {
    WriteText(*model, state, terms, *invocation.out);
  }
  return absl::OkStatus();
}

}  // namespace

const Command& DynamicsCommand() {
  static const Command* const command = new Command{
      .name = "dynamics",
      .synopsis = "MODEL [--q Q,...] [--v V,...] [--tau TAU,...] [--json]",
      .summary = "evaluate M(q), c(q,v), g(q), forward dynamics and contact Jacobians",
      .description =
          "Evaluates, at the state given by --q and --v, the joint-space "
          "inertia M (CRBA), the Coriolis/centrifugal terms c and the gravity "
          "terms g (RNEA), the acceleration qacc under the generalized forces "
          "--tau (ABA), and for every contact point its world position and "
          "the 3 x nv Jacobian of its world-frame linear velocity.\n"
          "\n"
          "A floating base's quaternion is normalized, with a warning if it "
          "was not unit.",
      .notes = kStateConventions,
      .flags = {kQFlagSpec, kVFlagSpec, kTauFlagSpec, kJsonFlagSpec, kBaseFlagSpec,
                kContactLinksFlagSpec, kCollisionFlagSpec, kCollideLinksFlagSpec,
                kExcludeLinksFlagSpec},
      .min_args = 1,
      .max_args = 1,
      .run = &RunDynamics,
  };
  return *command;
}

}  // namespace moreau::cli
