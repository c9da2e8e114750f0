#include "engine/model/model.h"

#include <string>
#include <vector>

#include "engine/util/enum_table.h"

namespace moreau {

namespace {

constexpr EnumEntry<JointType> kJointTypes[] = {{JointType::kFree, "free"},
                                                {JointType::kRevolute, "revolute"},
                                                {JointType::kPrismatic, "prismatic"}};

constexpr EnumEntry<GeomType> kGeomTypes[] = {{GeomType::kSphere, "sphere"},
                                              {GeomType::kBox, "box"},
                                              {GeomType::kCylinder, "cylinder"},
                                              {GeomType::kMesh, "mesh"}};

constexpr EnumEntry<ContactWitness> kContactWitnesses[] = {
    {ContactWitness::kFixed, "fixed"},
    {ContactWitness::kSphereBottom, "sphere_bottom"},
    {ContactWitness::kRim, "rim"}};

}  // namespace

const char* JointTypeName(JointType type) { return EnumName(kJointTypes, type); }

const char* JointTypeName(const Joint& joint) {
  if (joint.type == JointType::kRevolute && joint.continuous) {
    return "continuous";
  }
  return JointTypeName(joint.type);
}

const char* GeomTypeName(GeomType type) { return EnumName(kGeomTypes, type); }

const char* ContactWitnessName(ContactWitness witness) {
  return EnumName(kContactWitnesses, witness);
}

double Model::TotalMass() const {
  double mass = 0.0;
  for (const Inertia& body_inertia : inertia) mass += body_inertia.mass;
  return mass;
}

// A body's name is its first URDF link; a link merged into a body by a fixed
// joint (merged_links) resolves to that body too.
int Model::BodyIndex(const std::string& body_name) const {
  for (int i = 0; i < static_cast<int>(body_names.size()); ++i) {
    if (body_names[i] == body_name) return i;
  }
  for (int i = 0; i < static_cast<int>(merged_links.size()); ++i) {
    for (const std::string& link : merged_links[i]) {
      if (link == body_name) return i;
    }
  }
  return -1;
}

int Model::JointIndex(const std::string& joint_name) const {
  for (int i = 0; i < static_cast<int>(joints.size()); ++i) {
    if (joints[i].name == joint_name) return i;
  }
  return -1;
}

std::vector<std::string> Model::JointNames() const {
  std::vector<std::string> names;
  names.reserve(joints.size());
  for (const Joint& joint : joints) names.push_back(joint.name);
  return names;
}

void UpdateArmature(Model& model) {
  model.armature = Eigen::VectorXd::Zero(model.nv);
  for (const Actuator& actuator : model.actuators) {
    const Joint& joint = model.joints[actuator.joint];
    // 002 §IV-C: a rotor turning N times faster than the joint adds N²·I_rotor.
    model.armature[joint.v_index] = actuator.gear * actuator.gear * actuator.rotor_inertia;
  }
}

}  // namespace moreau
