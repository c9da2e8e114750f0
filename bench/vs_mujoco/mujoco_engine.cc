#include "bench/vs_mujoco/mujoco_engine.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/sim/make_controller.h"
#include "engine/util/status_macros.h"

namespace moreau::bench::vs_mujoco {
namespace {

// Names of what the comparison adds to the robot.
constexpr char kWorldLink[] = "moreau_vs_mujoco_world";
constexpr char kRootJoint[] = "moreau_vs_mujoco_root";
constexpr char kFloorGeom[] = "moreau_vs_mujoco_floor";

// Moreau and MuJoCo agree on lengths and masses to the digits URDF gives.
constexpr double kPositionTolerance = 1e-6;  // m
constexpr double kMassTolerance = 1e-6;      // relative

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError(absl::StrCat("cannot read '", path, "'"));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Removes every <tag …>…</tag> and <tag …/> element (not nested in itself).
std::string StripElements(std::string text, const std::string& tag) {
  const std::string open = "<" + tag;
  const std::string close = "</" + tag + ">";
  size_t pos = 0;
  while ((pos = text.find(open, pos)) != std::string::npos) {
    const char next = pos + open.size() < text.size() ? text[pos + open.size()] : '\0';
    if (next != ' ' && next != '>' && next != '/' && next != '\n' && next != '\t') {
      pos += open.size();  // a longer tag name, e.g. <visualization
      continue;
    }
    const size_t tag_end = text.find('>', pos);
    if (tag_end == std::string::npos) break;
    size_t end = tag_end + 1;
    if (text[tag_end - 1] != '/') {
      const size_t close_pos = text.find(close, tag_end);
      if (close_pos == std::string::npos) break;
      end = close_pos + close.size();
    }
    text.erase(pos, end - pos);
  }
  return text;
}

// Removes every <!-- … --> comment.
std::string StripComments(std::string text) {
  size_t pos = 0;
  while ((pos = text.find("<!--", pos)) != std::string::npos) {
    const size_t end = text.find("-->", pos + 4);
    text.erase(pos, end == std::string::npos ? std::string::npos : end + 3 - pos);
  }
  return text;
}

// Owns a heap-allocated MuJoCo virtual file system (the struct is ~2 MB).
class Vfs {
 public:
  Vfs() : vfs_(new mjVFS) { mj_defaultVFS(vfs_.get()); }
  ~Vfs() { mj_deleteVFS(vfs_.get()); }
  Vfs(const Vfs&) = delete;
  Vfs& operator=(const Vfs&) = delete;

  absl::Status Add(const std::string& name, const std::string& contents) {
    if (mj_makeEmptyFileVFS(vfs_.get(), name.c_str(), static_cast<int>(contents.size())) != 0) {
      return absl::InternalError(absl::StrCat("MuJoCo VFS: cannot add '", name, "'"));
    }
    const int index = mj_findFileVFS(vfs_.get(), name.c_str());
    std::memcpy(vfs_->filedata[index], contents.data(), contents.size());
    return absl::OkStatus();
  }
  const mjVFS* get() const { return vfs_.get(); }

 private:
  std::unique_ptr<mjVFS> vfs_;
};

absl::StatusOr<mjModel*> LoadXml(const std::string& name, const std::string& contents,
                                 const std::string& what) {
  Vfs vfs;
  if (absl::Status status = vfs.Add(name, contents); !status.ok()) return status;
  char error[1024] = "";
  mjModel* m = mj_loadXML(name.c_str(), vfs.get(), error, sizeof(error));
  if (m == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("MuJoCo cannot compile ", what, ": ", error));
  }
  return m;
}

// The URDF text MuJoCo compiles: visuals dropped, compiler options set, and
// the root link given a floating joint to an added massless world link.
absl::StatusOr<std::string> PrepareUrdf(const std::string& urdf, const std::string& path,
                                        const std::string& root_link) {
  std::string text = StripElements(StripComments(urdf), "visual");
  text = StripElements(std::move(text), "gazebo");
  if (text.find(absl::StrCat("<child link=\"", root_link, "\"")) != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": the floating link '", root_link,
                     "' has a parent joint in the file (a 'world' root link); the MuJoCo side "
                     "needs a URDF whose root link floats"));
  }
  const size_t robot = text.find("<robot");
  const size_t robot_end = robot == std::string::npos ? robot : text.find('>', robot);
  if (robot_end == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": no <robot> element"));
  }
  const std::string added = absl::StrCat(
      "\n<mujoco><compiler discardvisual=\"true\" fusestatic=\"true\" "
      "inertiafromgeom=\"false\" strippath=\"true\"/></mujoco>\n<link name=\"",
      kWorldLink, "\"/>\n<joint name=\"", kRootJoint, "\" type=\"floating\"><parent link=\"",
      kWorldLink, "\"/><child link=\"", root_link, "\"/></joint>\n");
  text.insert(robot_end + 1, added);
  return text;
}

// MuJoCo saves the last compiled model only to a file: a private temporary one.
absl::StatusOr<std::string> SaveLastXml(const mjModel* m) {
  char path[] = "/tmp/moreau_vs_mujoco_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return absl::InternalError("cannot create a temporary file for MuJoCo's MJCF");
  close(fd);
  char error[1024] = "";
  const int ok = mj_saveLastXML(path, m, error, sizeof(error));
  absl::StatusOr<std::string> text = ReadFile(path);
  std::remove(path);
  if (ok == 0) return absl::InternalError(absl::StrCat("MuJoCo cannot save its MJCF: ", error));
  return text;
}

// Body masses and inertias of `from` (matched by name) into `to`, then
// MuJoCo's derived constants recomputed.
absl::Status CopyInertias(const mjModel* from, mjModel* to) {
  for (int b = 1; b < from->nbody; ++b) {
    const char* name = mj_id2name(from, mjOBJ_BODY, b);
    const int id = name == nullptr ? -1 : mj_name2id(to, mjOBJ_BODY, name);
    if (id < 0) {
      return absl::InternalError(absl::StrCat("MuJoCo's MJCF lost body ", name ? name : "?"));
    }
    to->body_mass[id] = from->body_mass[b];
    for (int i = 0; i < 3; ++i) {
      to->body_ipos[3 * id + i] = from->body_ipos[3 * b + i];
      to->body_inertia[3 * id + i] = from->body_inertia[3 * b + i];
    }
    for (int i = 0; i < 4; ++i) to->body_iquat[4 * id + i] = from->body_iquat[4 * b + i];
  }
  mjData* d = mj_makeData(to);
  mj_setConst(to, d);
  mj_deleteData(d);
  return absl::OkStatus();
}

// With whole-body collision: the robot's MuJoCo geoms are Moreau's geometry
// (Model::geoms), as many of each kind.
absl::Status CheckSameGeoms(const std::string& urdf_path, const Model& model, const mjModel* mj,
                            const std::vector<int>& robot_geoms) {
  int moreau_count[4] = {0, 0, 0, 0};  // sphere, box, cylinder, mesh
  int mujoco_count[4] = {0, 0, 0, 0};
  for (const Geom& geom : model.geoms) ++moreau_count[static_cast<int>(geom.type)];
  for (const int g : robot_geoms) {
    switch (mj->geom_type[g]) {
      case mjGEOM_SPHERE:
        ++mujoco_count[0];
        break;
      case mjGEOM_BOX:
        ++mujoco_count[1];
        break;
      case mjGEOM_CYLINDER:
        ++mujoco_count[2];
        break;
      case mjGEOM_MESH:
        ++mujoco_count[3];
        break;
      default:
        return absl::InvalidArgumentError(absl::StrCat(urdf_path, ": MuJoCo geom ", g,
                                                       " is of type ", mj->geom_type[g],
                                                       ", not one Moreau collides"));
    }
  }
  if (!std::equal(moreau_count, moreau_count + 4, mujoco_count)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: whole-body collision needs the same geoms in both engines; spheres, boxes, "
        "cylinders, meshes: Moreau %d, %d, %d, %d; MuJoCo %d, %d, %d, %d",
        urdf_path, moreau_count[0], moreau_count[1], moreau_count[2], moreau_count[3],
        mujoco_count[0], mujoco_count[1], mujoco_count[2], mujoco_count[3]));
  }
  return absl::OkStatus();
}

}  // namespace

const char* ConeName(Cone cone) { return cone == Cone::kPyramidal ? "pyramidal" : "elliptic"; }

absl::StatusOr<Cone> ParseCone(absl::string_view name) {
  if (name == "pyramidal") return Cone::kPyramidal;
  if (name == "elliptic") return Cone::kElliptic;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown MuJoCo cone '", name, "' (pyramidal or elliptic)"));
}

absl::StatusOr<std::shared_ptr<const MujocoModel>> MujocoModel::Load(const std::string& urdf_path,
                                                                     const Model& model,
                                                                     CollisionMode collision) {
  if (!model.floating_base || model.nbodies < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat(urdf_path, ": the comparison needs a floating-base robot"));
  }
  absl::StatusOr<std::string> urdf = ReadFile(urdf_path);
  if (!urdf.ok()) return urdf.status();
  absl::StatusOr<std::string> prepared = PrepareUrdf(*urdf, urdf_path, model.body_names[1]);
  if (!prepared.ok()) return prepared.status();

  // URDF → MJCF, then the ground plane, then the final model.
  absl::StatusOr<mjModel*> from_urdf = LoadXml("robot.urdf", *prepared, urdf_path);
  if (!from_urdf.ok()) return from_urdf.status();
  absl::StatusOr<std::string> mjcf = SaveLastXml(*from_urdf);
  if (!mjcf.ok()) {
    mj_deleteModel(*from_urdf);
    return mjcf.status();
  }
  const size_t worldbody = mjcf->find("<worldbody>");
  if (worldbody == std::string::npos) return absl::InternalError("MuJoCo's MJCF has no worldbody");
  mjcf->insert(worldbody + std::strlen("<worldbody>"),
               absl::StrCat("\n<geom name=\"", kFloorGeom, "\" type=\"plane\" size=\"0 0 1\"/>"));
  absl::StatusOr<mjModel*> m = LoadXml("robot.xml", *mjcf, urdf_path + " (as MJCF)");
  if (!m.ok()) {
    mj_deleteModel(*from_urdf);
    return m.status();
  }
  auto result = std::shared_ptr<MujocoModel>(new MujocoModel(*m));
  mjModel* mj = *m;
  // The saved MJCF leaves out the inertia of a body that fused links (the
  // floating base), which the reload would then derive from its geoms: copy
  // every body's inertia from the URDF compile.
  const absl::Status inertia = CopyInertias(*from_urdf, mj);
  mj_deleteModel(*from_urdf);
  if (!inertia.ok()) return inertia;

  // Joints by name.
  const int free = mj_name2id(mj, mjOBJ_JOINT, kRootJoint);
  if (free < 0 || mj->jnt_type[free] != mjJNT_FREE) {
    return absl::InternalError("MuJoCo did not make the root joint a free joint");
  }
  result->free_qpos = mj->jnt_qposadr[free];
  result->free_dof = mj->jnt_dofadr[free];
  for (size_t j = 1; j < model.joints.size(); ++j) {
    const Joint& joint = model.joints[j];
    const int id = mj_name2id(mj, mjOBJ_JOINT, joint.name.c_str());
    const int type = joint.type == JointType::kPrismatic ? mjJNT_SLIDE : mjJNT_HINGE;
    if (id < 0 || mj->jnt_type[id] != type) {
      return absl::InvalidArgumentError(absl::StrCat(urdf_path, ": joint '", joint.name,
                                                     "' has no ", JointTypeName(joint.type),
                                                     " counterpart in MuJoCo's model"));
    }
    double effort = JointLimits::kInf;
    for (const Actuator& actuator : model.actuators) {
      if (actuator.joint == static_cast<int>(j)) effort = actuator.effort_limit;
    }
    result->joint_q.push_back(joint.q_index);
    result->joint_v.push_back(joint.v_index);
    result->joint_qpos.push_back(mj->jnt_qposadr[id]);
    result->joint_dof.push_back(mj->jnt_dofadr[id]);
    result->effort.push_back(effort);
  }
  if (mj->njnt != static_cast<int>(model.joints.size())) {
    return absl::InvalidArgumentError(absl::StrFormat("%s: MuJoCo has %d joints, Moreau %d",
                                                      urdf_path, mj->njnt, model.joints.size()));
  }

  // Moreau's joints are ideal: no limits, damping, dry friction or rotor inertia.
  for (int j = 0; j < mj->njnt; ++j) mj->jnt_limited[j] = 0;
  for (int i = 0; i < mj->nv; ++i) {
    mj->dof_damping[i] = 0.0;
    mj->dof_frictionloss[i] = 0.0;
    mj->dof_armature[i] = 0.0;
  }

  // Feet: the sphere on the same body at the same place, of the same radius.
  result->floor_geom = mj_name2id(mj, mjOBJ_GEOM, kFloorGeom);
  for (const int k : FootSlots(model)) {
    const ContactPoint& point = model.contact_points[k];
    const std::string& body_name = model.body_names[point.body];
    const int body = mj_name2id(mj, mjOBJ_BODY, body_name.c_str());
    int found = -1;
    for (int g = 0; g < mj->ngeom && body >= 0; ++g) {
      if (mj->geom_bodyid[g] != body || mj->geom_type[g] != mjGEOM_SPHERE) continue;
      const Eigen::Map<const Eigen::Vector3d> pos(mj->geom_pos + 3 * g);
      if ((pos - point.position).norm() < kPositionTolerance &&
          std::abs(mj->geom_size[3 * g] - point.radius) < kPositionTolerance) {
        found = g;
      }
    }
    if (found < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(urdf_path, ": contact sphere of link '", point.name, "' (body '", body_name,
                       "') has no sphere geom at the same place in MuJoCo's model"));
    }
    result->foot_geom.push_back(found);
  }
  if (collision == CollisionMode::kAll) {
    for (int g = 0; g < mj->ngeom; ++g) {
      if (g != result->floor_geom) result->robot_geoms.push_back(g);
    }
    MOREAU_RETURN_IF_ERROR(CheckSameGeoms(urdf_path, model, mj, result->robot_geoms));
  } else {
    result->robot_geoms = result->foot_geom;
  }
  // Those geoms touch the ground and nothing else: a geom pair collides when
  // contype of one & conaffinity of the other ≠ 0.
  for (int g = 0; g < mj->ngeom; ++g) {
    mj->geom_contype[g] = 0;
    mj->geom_conaffinity[g] = 0;
  }
  for (const int g : result->robot_geoms) mj->geom_contype[g] = 1;
  mj->geom_contype[result->floor_geom] = 1;
  mj->geom_conaffinity[result->floor_geom] = 1;

  const double moreau_mass = model.TotalMass();
  if (std::abs(result->TotalMass() - moreau_mass) > kMassTolerance * std::max(1.0, moreau_mass)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: total mass differs: Moreau %.6f kg, MuJoCo %.6f kg", urdf_path,
                        moreau_mass, result->TotalMass()));
  }
  return std::shared_ptr<const MujocoModel>(std::move(result));
}

MujocoModel::~MujocoModel() { mj_deleteModel(m_); }

double MujocoModel::TotalMass() const {
  double mass = 0.0;
  for (int b = 0; b < m_->nbody; ++b) mass += m_->body_mass[b];
  return mass;
}

absl::StatusOr<std::unique_ptr<MujocoEngine>> MujocoEngine::Create(
    std::shared_ptr<const MujocoModel> mujoco_model, std::shared_ptr<const Model> model, double dt,
    Cone cone, double mu, const sim::ControllerSettings& controller) {
  if (!(dt > 0.0 && std::isfinite(dt))) {
    return absl::InvalidArgumentError(absl::StrCat("dt must be > 0, got ", dt));
  }
  if (!(mu >= 0.0 && std::isfinite(mu))) {
    return absl::InvalidArgumentError(absl::StrCat("mu must be finite and >= 0, got ", mu));
  }
  // The controller Moreau's simulation would run under torque control.
  sim::Settings settings;
  settings.dt = dt;
  settings.control.mode = sim::ControlMode::kTorque;
  settings.controller = controller;
  MOREAU_RETURN_IF_ERROR(sim::Validate(settings));
  MOREAU_ASSIGN_OR_RETURN(std::unique_ptr<control::Controller> made,
                          sim::MakeSimulationController(*model, settings));
  mjModel* m = mj_copyModel(nullptr, mujoco_model->mj());
  m->opt.timestep = dt;
  m->opt.cone = cone == Cone::kPyramidal ? mjCONE_PYRAMIDAL : mjCONE_ELLIPTIC;
  m->opt.gravity[0] = model->gravity.x();
  m->opt.gravity[1] = model->gravity.y();
  m->opt.gravity[2] = model->gravity.z();
  // MuJoCo uses the larger of the two geoms' coefficients: both get μ.
  for (const int g : mujoco_model->robot_geoms) m->geom_friction[3 * g] = mu;
  m->geom_friction[3 * mujoco_model->floor_geom] = mu;
  return std::unique_ptr<MujocoEngine>(new MujocoEngine(std::move(mujoco_model), std::move(model),
                                                        m, cone, std::move(made),
                                                        controller.period_steps));
}

MujocoEngine::MujocoEngine(std::shared_ptr<const MujocoModel> mujoco_model,
                           std::shared_ptr<const Model> model, mjModel* m, Cone cone,
                           std::unique_ptr<control::Controller> controller, int period_steps)
    : map_(std::move(mujoco_model)),
      model_(std::move(model)),
      m_(m),
      d_(mj_makeData(m)),
      cone_(cone),
      q_(Eigen::VectorXd::Zero(model_->nq)),
      v_(Eigen::VectorXd::Zero(model_->nv)),
      tau_(Eigen::VectorXd::Zero(model_->nv)),
      controller_(std::move(controller)),
      period_steps_(period_steps) {}

MujocoEngine::~MujocoEngine() {
  mj_deleteData(d_);
  mj_deleteModel(m_);
}

absl::Status MujocoEngine::Reset(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  if (q.size() != model_->nq || v.size() != model_->nv) {
    return absl::InvalidArgumentError(
        absl::StrFormat("state sizes (%d, %d) do not fit the model (nq %d, nv %d)", q.size(),
                        v.size(), model_->nq, model_->nv));
  }
  mj_resetData(m_, d_);
  for (int i = 0; i < 7; ++i) d_->qpos[map_->free_qpos + i] = q[i];
  for (int i = 0; i < 6; ++i) d_->qvel[map_->free_dof + i] = v[i];
  for (size_t j = 0; j < map_->joint_q.size(); ++j) {
    d_->qpos[map_->joint_qpos[j]] = q[map_->joint_q[j]];
    d_->qvel[map_->joint_dof[j]] = v[map_->joint_v[j]];
  }
  d_->time = 0.0;
  mj_forward(m_, d_);
  state_ = control::ControllerState{};
  tau_.setZero();
  steps_ = 0;
  return absl::OkStatus();
}

void MujocoEngine::ReadState() {
  for (int i = 0; i < 7; ++i) q_[i] = d_->qpos[map_->free_qpos + i];
  for (int i = 0; i < 6; ++i) v_[i] = d_->qvel[map_->free_dof + i];
  for (size_t j = 0; j < map_->joint_q.size(); ++j) {
    q_[map_->joint_q[j]] = d_->qpos[map_->joint_qpos[j]];
    v_[map_->joint_v[j]] = d_->qvel[map_->joint_dof[j]];
  }
}

bool MujocoEngine::Diverged() const {
  // MuJoCo resets the data (and counts a warning) when the state or the
  // acceleration goes bad.
  return d_->warning[mjWARN_BADQPOS].number > 0 || d_->warning[mjWARN_BADQVEL].number > 0 ||
         d_->warning[mjWARN_BADQACC].number > 0;
}

absl::Status MujocoEngine::Advance(int steps) {
  // The control period Δt_c = period_steps Δt, as sim::Simulation runs it.
  const double dt = period_steps_ * m_->opt.timestep;
  for (int i = 0; i < steps; ++i) {
    if (controller_ != nullptr && steps_ % period_steps_ == 0) {
      ReadState();
      controller_->Compute(*model_, d_->time, dt, q_, v_, state_, tau_);
    }
    for (size_t j = 0; j < map_->joint_v.size(); ++j) {
      const double limit = map_->effort[j];
      d_->qfrc_applied[map_->joint_dof[j]] = std::clamp(tau_[map_->joint_v[j]], -limit, limit);
    }
    mj_step(m_, d_);
    if (Diverged()) {
      return absl::FailedPreconditionError(
          absl::StrFormat("MuJoCo (%s cone) diverged at t = %g s", ConeName(cone_), d_->time));
    }
  }
  return absl::OkStatus();
}

void MujocoEngine::Record(Sample& sample) const {
  sample.t = d_->time;
  const double* pose = d_->qpos + map_->free_qpos;
  sample.trunk_position = Eigen::Vector3d(pose[0], pose[1], pose[2]);
  sample.trunk_quaternion = Eigen::Vector4d(pose[3], pose[4], pose[5], pose[6]);
  sample.joints.resize(model_->nu());
  for (int a = 0; a < model_->nu(); ++a) {
    // joint_q is in Moreau joint order (joints 1…); actuators name joints.
    const int joint = model_->actuators[a].joint;
    sample.joints[static_cast<Eigen::Index>(a)] = d_->qpos[map_->joint_qpos[joint - 1]];
  }
  const int feet = static_cast<int>(map_->foot_geom.size());
  sample.foot_normal_force = Eigen::VectorXd::Zero(feet);
  for (int i = 0; i < d_->ncon; ++i) {
    const mjContact& contact = d_->contact[i];
    for (int k = 0; k < feet; ++k) {
      if (contact.geom1 != map_->foot_geom[k] && contact.geom2 != map_->foot_geom[k]) continue;
      mjtNum force[6];
      mj_contactForce(m_, d_, i, force);  // contact frame: normal first
      sample.foot_normal_force[k] += force[0];
    }
  }
}

}  // namespace moreau::bench::vs_mujoco
