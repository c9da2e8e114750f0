#include "tests/unit/contact/test_bodies.h"

namespace moreau::contact::testing {

Model FloatingBody(double mass, const Mat3& inertia, const std::vector<ContactPoint>& points) {
  Model m;
  m.name = "floating_body";
  m.floating_base = true;
  m.nq = 7;
  m.nv = 6;
  m.nbodies = 2;
  m.body_names = {"world", "body"};
  m.parent = {-1, 0};
  m.body_joint = {-1, 0};
  m.joint_type = {JointType::kFree, JointType::kFree};
  m.joint_axis = {Vec3::UnitZ(), Vec3::UnitZ()};
  m.q_index = {0, 0};
  m.v_index = {0, 0};
  m.X_tree = {Transform::Identity(), Transform::Identity()};
  m.X_tree_pure_translation = {1, 1};
  m.inertia = {Inertia::Zero(), Inertia::FromMassComInertia(mass, Vec3::Zero(), inertia)};
  m.merged_links = {{}, {"body"}};
  Joint j;
  j.name = "root";
  j.type = JointType::kFree;
  j.body = 1;
  j.q_index = 0;
  j.v_index = 0;
  j.nq = 7;
  j.nv = 6;
  m.joints = {j};
  m.contact_points = points;
  m.q_default = FreeQ(Vec3::Zero());
  return m;
}

Model SphereModel(double radius, double mass) {
  const double I = 0.4 * mass * radius * radius;
  ContactPoint cp;
  cp.name = "body";
  cp.body = 1;
  cp.position = Vec3::Zero();
  cp.radius = radius;
  return FloatingBody(mass, I * Mat3::Identity(), {cp});
}

Eigen::VectorXd FreeQ(const Vec3& position, const Eigen::Quaterniond& orientation) {
  Eigen::VectorXd q(7);
  q << position, orientation.w(), orientation.x(), orientation.y(), orientation.z();
  return q;
}

Contact PointContact(const Terrain& terrain, const Vec3& centre, double radius,
                     const Vec3& velocity) {
  Contact c;
  const TerrainQuery t = terrain.Query(centre);
  c.gap = t.distance - radius;
  c.active = c.gap <= 0.0;
  c.normal = t.normal;
  TangentBasis(c.normal, c.t1, c.t2);
  c.position = centre - radius * c.normal;
  c.velocity = velocity;
  c.gamma_N = c.normal.dot(velocity);
  c.gamma_T = Eigen::Vector2d(c.t1.dot(velocity), c.t2.dot(velocity));
  return c;
}

Contact Ground(const Vec3& p, const Vec3& vel) { return PointContact(Terrain(), p, 0.0, vel); }

}  // namespace moreau::contact::testing
