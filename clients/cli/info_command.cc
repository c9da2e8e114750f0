#include "clients/cli/info_command.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "clients/cli/flag_specs.h"
#include "clients/cli/model_flags.h"
#include "clients/cli/text_format.h"
#include "clients/json/json_writer.h"
#include "engine/control/legs.h"
#include "engine/control/tuning.h"
#include "engine/util/status_macros.h"

namespace moreau::cli {
namespace {

std::string BodyName(const Model& model, int body) {
  if (body >= 0 && body < static_cast<int>(model.body_names.size())) {
    return model.body_names[body];
  }
  return absl::StrCat("#", body);
}

std::vector<std::string> MergedLinks(const Model& model, int body) {
  if (body >= 0 && body < static_cast<int>(model.merged_links.size())) {
    return model.merged_links[body];
  }
  return {};
}

std::string JointName(const Model& model, int joint) {
  if (joint >= 0 && joint < static_cast<int>(model.joints.size())) {
    return model.joints[joint].name;
  }
  return absl::StrCat("#", joint);
}

// N²·I_rotor of the actuator's joint (Model::armature), 0 when unknown.
double ReflectedInertia(const Model& model, const Actuator& actuator) {
  if (actuator.joint < 0 || actuator.joint >= static_cast<int>(model.joints.size())) return 0.0;
  const int v = model.joints[actuator.joint].v_index;
  return v >= 0 && v < model.armature.size() ? model.armature[v] : 0.0;
}

// Moving bodies: 1 … nbodies−1 (body 0 is the world).
int BodyCount(const Model& model) { return static_cast<int>(model.body_names.size()); }

// The stand/trot tuning the controllers would run on `model` (tuning.h):
// the tuning, or why the model has none (no 3-joint legs, out of reach).
struct ControllerInfo {
  control::Tuning requested = control::Tuning::kAuto;
  absl::StatusOr<control::ControllerTuning> tuning = absl::UnknownError("not tuned");
  bool trot = false;  // four legs at the corners: the trot runs too
  control::LegLayout layout;
};

ControllerInfo DescribeController(const Model& model, control::Tuning requested) {
  ControllerInfo info;
  info.requested = requested;
  absl::StatusOr<control::LegLayout> layout = control::FindLegs(model);
  if (!layout.ok()) {
    info.tuning = layout.status();
    return info;
  }
  info.layout = *std::move(layout);
  info.trot = control::CheckTrotLayout(model, info.layout).ok();
  control::ControllerOptions options;
  options.tuning = requested;
  info.tuning = control::TuneController(model, info.layout, options, info.trot);
  return info;
}

// The step the stiffness cap is shown for: 000's 2.5 ms.
constexpr double kCapDt = 2.5e-3;

absl::Status RunInfo(const Invocation& invocation) {
  MOREAU_ASSIGN_OR_RETURN(const std::shared_ptr<const Model> model,
                          LoadModelFromFlags(invocation.args[0], invocation.flags.model));
  invocation.warnings->insert(invocation.warnings->end(), model->warnings.begin(),
                              model->warnings.end());
  control::Tuning tuning = control::Tuning::kAuto;
  if (!invocation.flags.sim.tuning.empty()) {
    absl::StatusOr<control::Tuning> parsed = control::ParseTuning(invocation.flags.sim.tuning);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--tuning: ", parsed.status().message()));
    }
    tuning = *parsed;
  }
  if (invocation.flags.common.json) {
    WriteInfoJson(*model, *invocation.out, tuning);
  } else {
    WriteInfoText(*model, *invocation.out, tuning);
  }
  return absl::OkStatus();
}

// The shape's axes in the body frame as a unit quaternion (w, x, y, z).
Eigen::Vector4d Quaternion(const Mat3& rotation) {
  const Eigen::Quaterniond q(rotation);
  return Eigen::Vector4d(q.w(), q.x(), q.y(), q.z());
}

// The fields a collision shape and a visual one share, as JSON members.
void ShapeJson(const Model& model, const Shape& shape, JsonWriter& json) {
  json.Key("link").String(shape.link);
  json.Key("body").String(BodyName(model, shape.body));
  json.Key("shape").String(GeomTypeName(shape.type));
  json.Key("size").Numbers(shape.size);
  if (shape.type == GeomType::kMesh) json.Key("mesh").String(shape.mesh);
}

// A shape's size as the text report prints it: the mesh and its scale, or
// the primitive's dimensions.
std::string ShapeSize(const Shape& shape) {
  if (shape.type == GeomType::kMesh) {
    return absl::StrCat(shape.mesh, " scale ", FormatVector(shape.size));
  }
  return FormatVector(shape.size);
}

std::string VisualColour(const VisualShape& shape) {
  std::string colour =
      shape.rgba ? FormatVector(Eigen::Map<const Eigen::Vector4d>(shape.rgba->data())) : "none";
  if (!shape.material.empty()) colour = absl::StrCat(shape.material, " ", colour);
  return colour;
}

// The number of contact slots of geometry `geom` (contact_points[k].geom).
int SlotCount(const Model& model, int geom) {
  int count = 0;
  for (const ContactPoint& c : model.contact_points) count += c.geom == geom ? 1 : 0;
  return count;
}

}  // namespace

void WriteInfoJson(const Model& model, std::ostream& out, control::Tuning requested) {
  JsonWriter json(out);
  json.BeginObject();
  json.Key("name").String(model.name);
  json.Key("nq").Int(model.nq);
  json.Key("nv").Int(model.nv);
  json.Key("floating_base").Bool(model.floating_base);
  json.Key("total_mass").Number(model.TotalMass());
  json.Key("gravity").Numbers(model.gravity);

  // Moving bodies; body 0, the world, is not one of them.
  json.Key("bodies").BeginArray();
  for (int i = 1; i < BodyCount(model); ++i) json.String(model.body_names[i]);
  json.EndArray();
  json.Key("world_links").Strings(MergedLinks(model, 0));
  json.Key("body_details").BeginArray();
  for (int i = 1; i < BodyCount(model); ++i) {
    json.BeginObject();
    json.Key("name").String(model.body_names[i]);
    json.Key("parent").String(
        BodyName(model, i < static_cast<int>(model.parent.size()) ? model.parent[i] : -1));
    json.Key("merged_links").Strings(MergedLinks(model, i));
    if (i < static_cast<int>(model.inertia.size())) {
      const Inertia& inertia = model.inertia[i];
      json.Key("mass").Number(inertia.mass);
      json.Key("com").Numbers(inertia.CenterOfMass());
      json.Key("inertia_com").Matrix(inertia.InertiaAboutCom());
    }
    json.EndObject();
  }
  json.EndArray();

  json.Key("joints").BeginArray();
  for (const Joint& joint : model.joints) {
    json.BeginObject();
    json.Key("name").String(joint.name);
    json.Key("type").String(JointTypeName(joint));
    json.Key("body").String(BodyName(model, joint.body));
    json.Key("q_index").Int(joint.q_index);
    json.Key("v_index").Int(joint.v_index);
    json.Key("nq").Int(joint.nq);
    json.Key("nv").Int(joint.nv);
    if (joint.type != JointType::kFree) {
      json.Key("axis").Numbers(joint.axis);
      // null: no limit (±∞ has no JSON spelling).
      json.Key("limits").BeginObject();
      json.Key("lower").Number(joint.limits.lower);
      json.Key("upper").Number(joint.limits.upper);
      json.Key("velocity").Number(joint.limits.velocity);
      json.Key("effort").Number(joint.limits.effort);
      json.EndObject();
      json.Key("damping").Number(joint.damping);
      json.Key("friction").Number(joint.friction);
    }
    json.EndObject();
  }
  json.EndArray();

  json.Key("contact_points").BeginArray();
  for (const ContactPoint& point : model.contact_points) {
    json.BeginObject();
    json.Key("name").String(point.name);
    json.Key("body").String(BodyName(model, point.body));
    json.Key("position").Numbers(point.position);
    json.Key("radius").Number(point.radius);
    json.Key("foot").Bool(point.foot);
    json.Key("witness").String(ContactWitnessName(point.witness));
    json.EndObject();
  }
  json.EndArray();

  // Every link's collision geometry and how many contact slots it has.
  json.Key("collision").BeginArray();
  for (int g = 0; g < static_cast<int>(model.geoms.size()); ++g) {
    json.BeginObject();
    ShapeJson(model, model.geoms[g], json);
    json.Key("slots").Int(SlotCount(model, g));
    json.EndObject();
  }
  json.EndArray();

  // Every link's visual shapes (URDF <visual>), pose in the body frame.
  json.Key("visual").BeginArray();
  for (const VisualShape& shape : model.visual_shapes) {
    json.BeginObject();
    ShapeJson(model, shape, json);
    json.Key("position").Numbers(shape.position);
    json.Key("rotation").Numbers(Quaternion(shape.rotation));
    json.Key("material").String(shape.material);
    json.Key("rgba");
    if (shape.rgba) {
      json.Numbers(std::vector<double>(shape.rgba->begin(), shape.rgba->end()));
    } else {
      json.Null();
    }
    json.EndObject();
  }
  json.EndArray();

  json.Key("actuators").BeginArray();
  for (const Actuator& actuator : model.actuators) {
    json.BeginObject();
    json.Key("name").String(actuator.name);
    json.Key("joint").String(JointName(model, actuator.joint));
    json.Key("gear").Number(actuator.gear);
    json.Key("rotor_inertia").Number(actuator.rotor_inertia);
    json.Key("armature").Number(ReflectedInertia(model, actuator));
    json.Key("effort_limit").Number(actuator.effort_limit);
    json.EndObject();
  }
  json.EndArray();

  // The stand/trot tuning (tuning.h); "available": false with the reason
  // when the model has no 3-joint legs or the pose is out of reach.
  const ControllerInfo controller = DescribeController(model, requested);
  json.Key("controller").BeginObject();
  json.Key("requested_tuning").String(control::TuningName(requested));
  json.Key("available").Bool(controller.tuning.ok());
  if (!controller.tuning.ok()) {
    json.Key("reason").String(controller.tuning.status().message());
  } else {
    const control::ControllerTuning& t = *controller.tuning;
    json.Key("tuning").String(control::TuningName(t.tuning));
    json.Key("trot").Bool(controller.trot);
    json.Key("leg_length").Number(t.leg_length);
    json.Key("stand_fraction").Number(t.stand_fraction);
    json.Key("stand_height").Number(t.stand_height);
    json.Key("step_length").Number(t.gait.step_length);
    json.Key("step_height").Number(t.gait.step_height);
    json.Key("frequency_hz").Number(t.gait.frequency_hz);
    json.Key("weight_feedforward").Bool(t.weight_feedforward);
    json.Key("joints").BeginArray();
    for (int a = 0; a < model.nu(); ++a) {
      json.BeginObject();
      json.Key("actuator").String(model.actuators[a].name);
      json.Key("pose").Number(t.q_stand[a]);
      json.Key("lever").Number(t.lever[a]);
      json.Key("kp").Number(t.kp[a]);
      json.Key("kd").Number(t.kd[a]);
      if (t.tuning == control::Tuning::kDerived && a < t.inertia.size()) {
        json.Key("kp_cap_2_5ms").Number(control::StiffnessCap(t.inertia[a], kCapDt));
      }
      json.EndObject();
    }
    json.EndArray();
  }
  json.EndObject();

  json.Key("warnings").Strings(model.warnings);
  json.EndObject();
}

void WriteInfoText(const Model& model, std::ostream& out, control::Tuning requested) {
  out << "model: " << model.name << '\n'
      << "nq: " << model.nq << "  nv: " << model.nv
      << "  floating base: " << (model.floating_base ? "yes" : "no")
      << "  total mass: " << FormatNumber(model.TotalMass()) << " kg\n"
      << "gravity: " << FormatVector(model.gravity) << " m/s^2\n";

  out << "\nbodies (" << std::max(BodyCount(model) - 1, 0) << "):\n";
  Table bodies({"#", "name", "parent", "mass", "merged links"});
  for (int i = 1; i < BodyCount(model); ++i) {
    const int parent = i < static_cast<int>(model.parent.size()) ? model.parent[i] : -1;
    const double mass = i < static_cast<int>(model.inertia.size()) ? model.inertia[i].mass : 0.0;
    bodies.AddRow({absl::StrCat(i), model.body_names[i], BodyName(model, parent),
                   FormatNumber(mass), absl::StrJoin(MergedLinks(model, i), ", ")});
  }
  bodies.Print(out);
  const std::vector<std::string> world_links = MergedLinks(model, 0);
  if (!world_links.empty()) {
    out << "  welded to the world: " << absl::StrJoin(world_links, ", ") << '\n';
  }

  out << "\njoints (" << model.joints.size() << "):\n";
  Table joints({"name", "type", "body", "q", "v", "axis", "lower", "upper", "velocity", "effort"});
  for (const Joint& joint : model.joints) {
    if (joint.type == JointType::kFree) {
      joints.AddRow({joint.name, JointTypeName(joint), BodyName(model, joint.body),
                     absl::StrCat(joint.q_index, "-", joint.q_index + joint.nq - 1),
                     absl::StrCat(joint.v_index, "-", joint.v_index + joint.nv - 1), "", "", "", "",
                     ""});
      continue;
    }
    joints.AddRow({joint.name, JointTypeName(joint), BodyName(model, joint.body),
                   absl::StrCat(joint.q_index), absl::StrCat(joint.v_index),
                   FormatVector(joint.axis), FormatNumber(joint.limits.lower),
                   FormatNumber(joint.limits.upper), FormatNumber(joint.limits.velocity),
                   FormatNumber(joint.limits.effort)});
  }
  joints.Print(out);

  out << "\ncontact points (" << model.contact_points.size() << "):\n";
  Table contacts({"name", "body", "position (body frame)", "radius"});
  for (const ContactPoint& point : model.contact_points) {
    contacts.AddRow({point.name, BodyName(model, point.body), FormatVector(point.position),
                     FormatNumber(point.radius)});
  }
  contacts.Print(out);

  out << "\ncollision geometry (" << model.geoms.size() << " shapes, "
      << model.contact_points.size() << " contact slots):\n";
  Table shapes({"link", "body", "shape", "size", "slots"});
  for (int g = 0; g < static_cast<int>(model.geoms.size()); ++g) {
    const Geom& geom = model.geoms[g];
    shapes.AddRow({geom.link, BodyName(model, geom.body), GeomTypeName(geom.type), ShapeSize(geom),
                   absl::StrCat(SlotCount(model, g))});
  }
  shapes.Print(out);

  out << "\nvisual shapes (" << model.visual_shapes.size() << "):\n";
  Table visuals({"link", "body", "shape", "size", "position (body frame)", "colour"});
  for (const VisualShape& shape : model.visual_shapes) {
    visuals.AddRow({shape.link, BodyName(model, shape.body), GeomTypeName(shape.type),
                    ShapeSize(shape), FormatVector(shape.position), VisualColour(shape)});
  }
  visuals.Print(out);

  out << "\nactuators (" << model.nu() << "):\n";
  Table actuators({"name", "joint", "gear", "rotor inertia", "reflected", "effort limit"});
  for (const Actuator& actuator : model.actuators) {
    actuators.AddRow({actuator.name, JointName(model, actuator.joint), FormatNumber(actuator.gear),
                      FormatNumber(actuator.rotor_inertia),
                      FormatNumber(ReflectedInertia(model, actuator)),
                      FormatNumber(actuator.effort_limit)});
  }
  actuators.Print(out);

  const ControllerInfo controller = DescribeController(model, requested);
  out << "\ncontroller tuning (stand" << (controller.trot ? ", trot" : "") << "; --tuning "
      << control::TuningName(requested) << "):\n";
  if (!controller.tuning.ok()) {
    out << "  none: " << controller.tuning.status().message() << '\n';
    return;
  }
  const control::ControllerTuning& t = *controller.tuning;
  const bool derived = t.tuning == control::Tuning::kDerived;
  out << "  tuning: " << control::TuningName(t.tuning)
      << "  leg length: " << FormatNumber(t.leg_length)
      << " m  standing height: " << FormatNumber(t.stand_height) << " m (legs at "
      << FormatNumber(t.stand_fraction) << " of their length)\n"
      << "  step height: " << FormatNumber(t.gait.step_height)
      << " m  step length: " << FormatNumber(t.gait.step_length)
      << " m  frequency: " << FormatNumber(t.gait.frequency_hz) << " Hz"
      << "  weight feed-forward: " << (t.weight_feedforward ? "on" : "off") << '\n';
  std::vector<std::string> header = {"actuator", "pose (rad)", "lever (m)", "kp", "kd"};
  if (derived) header.push_back("kp cap at 2.5 ms");
  Table gains(header);
  for (int a = 0; a < model.nu(); ++a) {
    std::vector<std::string> row = {model.actuators[a].name, FormatNumber(t.q_stand[a]),
                                    FormatNumber(t.lever[a]), FormatNumber(t.kp[a]),
                                    FormatNumber(t.kd[a])};
    if (derived) {
      row.push_back(a < t.inertia.size() ? FormatNumber(control::StiffnessCap(t.inertia[a], kCapDt))
                                         : "");
    }
    gains.AddRow(row);
  }
  gains.Print(out);
}

const Command& InfoCommand() {
  static const Command* const command = new Command{
      .name = "info",
      .synopsis =
          "MODEL [--json] [--base auto|fixed|floating] [--contact-links "
          "LINK,...] [--collision feet|all] [--collide-links LINK,...] "
          "[--exclude-links LINK,...] [--tuning auto|paper-001|derived]",
      .summary =
          "describe a model: sizes, bodies, joints, mass, contacts, collision and visual "
          "shapes, actuators, controller tuning",
      .description =
          "Loads MODEL (a built-in name or a URDF file path) and prints nq, "
          "nv, whether the base floats, the total mass, the bodies (with the "
          "links merged into each by fixed joints), the joints (type, q and v "
          "index, limits), the contact points, each link's collision shapes with "
          "their number of contact slots, its visual shapes (URDF <visual>: shape, "
          "size or mesh, pose in the body frame, material colour), the actuators and the "
          "stand/trot "
          "controller tuning --tuning chooses (docs/controllers.md: pose, k_p, k_d per "
          "joint, standing and step height, weight feed-forward). The loader's "
          "warnings go to stderr (and into the JSON report).",
      .notes = "",
      .flags = {kJsonFlagSpec, kBaseFlagSpec, kContactLinksFlagSpec, kCollisionFlagSpec,
                kCollideLinksFlagSpec, kExcludeLinksFlagSpec, kTuningFlagSpec},
      .min_args = 1,
      .max_args = 1,
      .run = &RunInfo,
  };
  return *command;
}

}  // namespace moreau::cli
