#include "server/convert.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/control/pd.h"
#include "engine/dynamics/data.h"
#include "engine/model/collision_geometry.h"
#include "engine/spatial/quaternion.h"
#include "engine/util/status_macros.h"

namespace moreau::server {
absl::StatusOr<LoadOptions> LoadOptionsFromProto(const v1::ModelSource& source) {
  LoadOptions options;
  if (source.base() == "floating") {
    options.base = BaseMode::kFloating;
  } else if (source.base() == "fixed") {
    options.base = BaseMode::kFixed;
  } else if (!source.base().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("model.base is '", source.base(), "', expected floating, fixed or empty"));
  }
  options.contact_links.assign(source.contact_links().begin(), source.contact_links().end());
  if (!source.collision().empty()) {
    absl::StatusOr<CollisionMode> collision = ParseCollisionMode(source.collision());
    if (!collision.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("model.collision is '", source.collision(),
                                                     "', expected ", CollisionModeNames()));
    }
    options.collision = *collision;
  }
  options.collide_links.assign(source.collide_links().begin(), source.collide_links().end());
  options.exclude_links.assign(source.exclude_links().begin(), source.exclude_links().end());
  options.read_mesh_files = false;
  return options;
}

namespace {

// Appends R as a unit quaternion w, x, y, z.
void AddQuaternion(const Mat3& R, google::protobuf::RepeatedField<double>* out) {
  const Eigen::Quaterniond quaternion(R);
  out->Add(quaternion.w());
  out->Add(quaternion.x());
  out->Add(quaternion.y());
  out->Add(quaternion.z());
}

// A collision shape (Geom) or a visual one (VisualShape): the fields they share.
void FillShapeSpec(const Shape& g, const char* role, v1::ShapeSpec* shape) {
  shape->set_body(g.body);
  shape->set_link(g.link);
  shape->set_type(GeomTypeName(g.type));
  switch (g.type) {
    case GeomType::kSphere:
      shape->add_size(g.size.x());
      break;
    case GeomType::kCylinder:
      shape->add_size(g.size.x());
      shape->add_size(g.size.y());
      break;
    case GeomType::kBox:
    case GeomType::kMesh:
      shape->mutable_size()->Add(g.size.data(), g.size.data() + 3);
      break;
  }
  shape->mutable_position()->Add(g.position.data(), g.position.data() + 3);
  AddQuaternion(g.rotation, shape->mutable_rotation());
  if (g.type == GeomType::kMesh) shape->set_mesh(g.mesh);
  shape->set_role(role);
}

void FillVisualShapeSpec(const VisualShape& v, v1::ShapeSpec* shape) {
  FillShapeSpec(v, "visual", shape);
  if (v.rgba) shape->mutable_rgba()->Add(v.rgba->begin(), v.rgba->end());
}

void FillBodySpec(const Model& model, int b, v1::BodySpec* body) {
  body->set_name(model.body_names[b]);
  body->set_parent(model.parent[b]);
  const spatial::Inertia& inertia = model.inertia[b];
  body->set_mass(inertia.mass);
  if (!(inertia.mass > 0.0)) return;
  const Vec3 com = inertia.CenterOfMass();
  body->mutable_com()->Add(com.data(), com.data() + 3);
  if (const auto box = model_internal::InertiaBox(inertia)) {
    body->mutable_inertia_box_size()->Add(box->size.data(), box->size.data() + 3);
    AddQuaternion(box->rotation, body->mutable_inertia_box_rotation());
  }
}

}  // namespace

void FillModelSpec(const Model& model, v1::ModelSpec* spec) {
  spec->set_name(model.name);
  spec->set_nq(model.nq);
  spec->set_nv(model.nv);
  spec->set_floating_base(model.floating_base);
  spec->set_total_mass(model.TotalMass());
  for (const std::string& name : model.body_names) spec->add_body_names(name);
  for (const Joint& j : model.joints) {
    v1::JointSpec* js = spec->add_joints();
    js->set_name(j.name);
    js->set_type(JointTypeName(j.type));
    js->set_q_index(j.q_index);
    js->set_v_index(j.v_index);
    js->set_lower(j.limits.lower);
    js->set_upper(j.limits.upper);
    js->set_velocity_limit(j.limits.velocity);
    js->set_effort_limit(j.limits.effort);
    js->set_damping(j.damping);
    js->set_friction(j.friction);
  }
  for (const Actuator& a : model.actuators) {
    v1::ActuatorSpec* as = spec->add_actuators();
    as->set_name(a.name);
    as->set_joint(model.joints[a.joint].name);
    as->set_gear(a.gear);
    as->set_rotor_inertia(a.rotor_inertia);
    as->set_effort_limit(a.effort_limit);
  }
  for (const ContactPoint& c : model.contact_points) {
    v1::ContactPointSpec* cs = spec->add_contact_points();
    cs->set_body(model.body_names[c.body]);
    cs->mutable_position()->Add(c.position.data(), c.position.data() + 3);
    cs->set_radius(c.radius);
  }
  spec->mutable_q_default()->Add(model.q_default.data(), model.q_default.data() + model.nq);
  for (const std::string& w : model.warnings) spec->add_warnings(w);
  for (const Geom& g : model.geoms) FillShapeSpec(g, "collision", spec->add_shapes());
  for (const VisualShape& v : model.visual_shapes) {
    FillVisualShapeSpec(v, spec->add_visual_shapes());
  }
  for (int b = 0; b < model.nbodies; ++b) FillBodySpec(model, b, spec->add_bodies());
}

namespace {

void AddArray(v1::Spec* spec, const char* name, int size, const char* unit,
              const std::vector<std::string>& labels = {}) {
  v1::ArraySpec* a = spec->add_observation();
  a->set_name(name);
  a->set_size(size);
  a->set_unit(unit);
  for (const std::string& l : labels) a->add_labels(l);
}

}  // namespace

void FillSpec(const sim::Simulation& simulation, const ObservedLinks& observed, v1::Spec* spec) {
  const Model& model = simulation.model();
  const sim::Settings& settings = simulation.settings();
  const int nu = model.nu();
  const int nc = static_cast<int>(model.contact_points.size());
  std::vector<std::string> actuators;
  for (const Actuator& a : model.actuators) actuators.push_back(a.name);
  std::vector<std::string> contacts;
  for (const ContactPoint& c : model.contact_points) contacts.push_back(model.body_names[c.body]);
  AddArray(spec, "time", 1, "s");
  AddArray(spec, "q", model.nq, "m, rad (base: m and unit quaternion wxyz)");
  AddArray(spec, "v", model.nv, "m/s, rad/s");
  AddArray(spec, "joint_positions", nu, "rad or m", actuators);
  AddArray(spec, "joint_velocities", nu, "rad/s or m/s", actuators);
  AddArray(spec, "joint_torques", nu, "N m or N", actuators);
  if (model.floating_base) {
    AddArray(spec, "base_pose", 7, "m, unit quaternion", {"x", "y", "z", "qw", "qx", "qy", "qz"});
    AddArray(spec, "base_twist", 6, "m/s (world), rad/s (base)",
             {"vx", "vy", "vz", "wx", "wy", "wz"});
  }
  AddArray(spec, "contact_normal_forces", nc, "N", contacts);
  AddArray(spec, "contact_flags", nc, "bool", contacts);
  AddArray(spec, "solver_iterations", 1, "sweeps");
  if (observed.size() > 0) {
    std::vector<std::string> coordinates;
    for (const std::string& link : observed.names()) {
      for (const char* axis : {"x", "y", "z"}) coordinates.push_back(absl::StrCat(link, "/", axis));
    }
    AddArray(spec, "link_positions", 3 * observed.size(), "m (world)", coordinates);
  }
  spec->set_control_mode(sim::ControlModeName(settings.control.mode));
  v1::ArraySpec* action = spec->mutable_action();
  if (settings.control.mode == sim::ControlMode::kCommand) {
    // The controller's command, element by element.
    const auto elements = simulation.controller()->CommandElements();
    action->set_name("command");
    action->set_size(static_cast<int>(elements.size()));
    std::vector<std::string> units;
    for (const control::CommandElement& e : elements) {
      action->add_labels(e.name);
      units.push_back(absl::StrCat(e.name, ": ", e.unit));
      spec->add_action_lower(e.lower);
      spec->add_action_upper(e.upper);
    }
    action->set_unit(absl::StrJoin(units, ", "));
  } else {
    // pd, id and id-constraint take joint position targets, torque torques.
    const bool targets = settings.control.mode != sim::ControlMode::kTorque;
    action->set_name(targets ? "joint_position_targets" : "joint_torques");
    action->set_size(nu);
    action->set_unit(targets ? "rad or m" : "N m or N");
    for (const Actuator& a : model.actuators) {
      action->add_labels(a.name);
      const JointLimits& limits = model.joints[a.joint].limits;
      spec->add_action_lower(targets ? limits.lower : -a.effort_limit);
      spec->add_action_upper(targets ? limits.upper : a.effort_limit);
    }
  }
  spec->set_dt(settings.dt);
  FillModelSpec(model, spec->mutable_model());
}

void FillBodyPoses(const Model& model, const std::vector<Transform>& X_0,
                   google::protobuf::RepeatedPtrField<v1::BodyPose>* poses) {
  for (int i = 1; i < model.nbodies; ++i) {
    const Transform& X = X_0[i];  // i_X_0: E = i_R_0, r = body origin in world
    double wxyz[4];
    spatial::QuatToWxyz(Eigen::Quaterniond(Mat3(X.E.transpose())).normalized(), wxyz);
    v1::BodyPose* pose = poses->Add();
    pose->set_name(model.body_names[i]);
    pose->mutable_position()->Add(X.r.data(), X.r.data() + 3);
    pose->mutable_quaternion()->Add(wxyz, wxyz + 4);
  }
}

void WriteObservationArrays(const sim::Simulation& sim, const ObservationArrays& out) {
  const Model& m = sim.model();
  const sim::State& s = sim.state();
  if (out.q != nullptr) std::copy(s.q.data(), s.q.data() + m.nq, out.q);
  if (out.v != nullptr) std::copy(s.v.data(), s.v.data() + m.nv, out.v);
  const Eigen::VectorXd& tau = sim.applied_torques();
  const int nu = m.nu();
  for (int a = 0; a < nu; ++a) {
    const Joint& j = m.joints[m.actuators[a].joint];
    if (out.joint_positions != nullptr) out.joint_positions[a] = s.q[j.q_index];
    if (out.joint_velocities != nullptr) out.joint_velocities[a] = s.v[j.v_index];
    if (out.joint_torques != nullptr) out.joint_torques[a] = tau[j.v_index];
  }
  if (m.floating_base && out.base_pose != nullptr) {
    std::copy(s.q.data(), s.q.data() + 7, out.base_pose);
  }
  if (m.floating_base && out.base_twist != nullptr) {
    std::copy(s.v.data(), s.v.data() + 6, out.base_twist);
  }
  const contact::ContactSet& contacts = sim.contacts();
  for (int k = 0; k < contacts.capacity(); ++k) {
    const contact::Contact& c = contacts.contacts[k];
    if (out.contact_normal_forces != nullptr) out.contact_normal_forces[k] = c.NormalForce();
    if (out.contact_flags != nullptr) out.contact_flags[k] = c.active;
  }
}

void FillObservation(const sim::Simulation& sim, ObservedLinks& observed, v1::Observation* obs,
                     ObservationFields fields) {
  using F = ObservationField;
  const Model& m = sim.model();
  const sim::State& s = sim.state();
  const int nu = m.nu();
  const int nc = sim.contacts().capacity();
  const int base = m.floating_base ? 1 : 0;
  // `array` sized `size` and its data when `field` is asked for, else emptied
  // and nullptr.
  const auto sized = [&](F field, auto* array, int size, auto zero) {
    if (!fields.has(field)) {
      array->Clear();
      return static_cast<decltype(array->mutable_data())>(nullptr);
    }
    array->Resize(size, zero);
    return array->mutable_data();
  };
  if (fields.has(F::kTime)) obs->set_time(s.time);
  if (fields.has(F::kSteps)) obs->set_steps(static_cast<int64_t>(s.steps));
  ObservationArrays out;
  out.q = sized(F::kQ, obs->mutable_q(), m.nq, 0.0);
  out.v = sized(F::kV, obs->mutable_v(), m.nv, 0.0);
  out.joint_positions = sized(F::kJointPositions, obs->mutable_joint_positions(), nu, 0.0);
  out.joint_velocities = sized(F::kJointVelocities, obs->mutable_joint_velocities(), nu, 0.0);
  out.joint_torques = sized(F::kJointTorques, obs->mutable_joint_torques(), nu, 0.0);
  out.base_pose = sized(F::kBasePose, obs->mutable_base_pose(), 7 * base, 0.0);
  out.base_twist = sized(F::kBaseTwist, obs->mutable_base_twist(), 6 * base, 0.0);
  out.contact_normal_forces =
      sized(F::kContactNormalForces, obs->mutable_contact_normal_forces(), nc, 0.0);
  out.contact_flags = sized(F::kContactFlags, obs->mutable_contact_flags(), nc, false);
  WriteObservationArrays(sim, out);
  if (fields.has(F::kSolverIterations)) {
    obs->set_solver_iterations(sim.last_report().solver_iterations);
  }
  if (fields.has(F::kSolverConverged)) {
    obs->set_solver_converged(sim.last_report().solver_converged);
  }
  if (double* links =
          sized(F::kLinkPositions, obs->mutable_link_positions(), 3 * observed.size(), 0.0)) {
    observed.Write(s, links);
  }
}

void ToEigen(const google::protobuf::RepeatedField<double>& in, Eigen::VectorXd& out) {
  out.resize(in.size());
  for (int i = 0; i < in.size(); ++i) out[i] = in[i];
}

void SetStatus(const absl::Status& status, v1::Status* out) {
  out->set_code(static_cast<int>(status.code()));
  out->set_message(std::string(status.message()));
}

}  // namespace moreau::server
