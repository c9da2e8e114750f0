// Whole-body collision (docs/collision.md) against answers by hand: a box
// dropped on a face, an edge and a corner comes to rest on a face; a box on
// an incline slides at g(sin θ − μ cos θ) and sticks when μ > tan θ; a solid
// cylinder rolls down an incline at (2/3) g sin θ; a mesh cube (an STL
// written here) behaves as the box.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

namespace moreau::sim {
namespace {

constexpr double kG = 9.81;
constexpr double kMass = 1.0;
constexpr double kSide = 0.2;  // the cube's side

std::string CubeInertia() {
  const double I = kMass * kSide * kSide / 6.0;
  return "<inertial><mass value=\"1\"/><inertia ixx=\"" + std::to_string(I) + "\" iyy=\"" +
         std::to_string(I) + "\" izz=\"" + std::to_string(I) +
         "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>";
}

// A 0.2 m cube of 1 kg, its collision a box.
std::string BoxUrdf() {
  return "<robot name=\"cube\"><link name=\"cube\">" + CubeInertia() +
         "<collision><geometry><box size=\"0.2 0.2 0.2\"/></geometry></collision></link></robot>";
}

// The same cube with an STL mesh of half side 1 scaled by 0.1 (binary STL:
// the 12 triangles of the cube's faces).
std::string WriteMeshCube() {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("moreau_collision_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::vector<Vec3> corners;
  for (int c = 0; c < 8; ++c)
    corners.emplace_back((c & 1) ? 1 : -1, (c & 2) ? 1 : -1, (c & 4) ? 1 : -1);
  // Two triangles per face: the corners with coordinate a = ±1.
  std::vector<std::array<int, 3>> triangles;
  for (int a = 0; a < 3; ++a) {
    for (int s = 0; s < 2; ++s) {
      std::vector<int> face;
      for (int c = 0; c < 8; ++c) {
        if (((c >> a) & 1) == s) face.push_back(c);
      }
      triangles.push_back({face[0], face[1], face[3]});
      triangles.push_back({face[0], face[3], face[2]});
    }
  }
  std::string stl(80, ' ');
  const uint32_t n = static_cast<uint32_t>(triangles.size());
  stl.append(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : triangles) {
    float record[12] = {0, 0, 0};
    for (int v = 0; v < 3; ++v) {
      for (int i = 0; i < 3; ++i) record[3 + 3 * v + i] = static_cast<float>(corners[t[v]][i]);
    }
    stl.append(reinterpret_cast<const char*>(record), sizeof(record));
    stl.append(2, '\0');
  }
  std::ofstream(dir / "cube.stl", std::ios::binary) << stl;
  const std::string urdf =
      "<robot name=\"mesh_cube\"><link name=\"cube\">" + CubeInertia() +
      "<collision><geometry><mesh filename=\"cube.stl\" scale=\"0.1 0.1 0.1\"/></geometry>"
      "</collision></link></robot>";
  std::ofstream(dir / "mesh_cube.urdf") << urdf;
  return (dir / "mesh_cube.urdf").string();
}

// A solid cylinder of radius 0.1 m, length 0.2 m, 2 kg, its axis along the
// link's y axis.
constexpr double kRadius = 0.1;
std::string CylinderUrdf() {
  const double m = 2.0, r = kRadius, l = 0.2;
  const double side = m * (3 * r * r + l * l) / 12, axial = m * r * r / 2;
  return "<robot name=\"roller\"><link name=\"roller\"><inertial><mass value=\"2\"/><inertia "
         "ixx=\"" +
         std::to_string(side) + "\" iyy=\"" + std::to_string(axial) + "\" izz=\"" +
         std::to_string(side) +
         "\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial><collision><origin rpy=\"1.5707963267948966 "
         "0 "
         "0\"/><geometry><cylinder radius=\"0.1\" length=\"0.2\"/></geometry></collision></link>"
         "</robot>";
}

std::shared_ptr<const Model> LoadAll(const std::string& urdf_or_path, bool is_path = false) {
  LoadOptions options;
  options.collision = CollisionMode::kAll;
  auto m = is_path ? LoadUrdfFile(urdf_or_path, options) : LoadUrdfString(urdf_or_path, options);
  EXPECT_TRUE(m.ok()) << m.status();
  return *m;
}

// Hertz drops: 0.05 ms steps (the impacts of a corner reach several mm of
// depth, where the law is stiffest) and 5 s to settle.
constexpr double kHertzDrop = 5e-5;
constexpr double kHertzSettle = 5.0;

const ContactModel kModels[] = {ContactModel::kMoreauJor,    ContactModel::kMoreauSor,
                                ContactModel::kSpringDamper, ContactModel::kHertz,
                                ContactModel::kMicro,        ContactModel::kLeastConstraint,
                                ContactModel::kMicroMacro};

double StepFor(ContactModel cm) { return IsHardContact(cm) || IsQpContact(cm) ? 1e-3 : 1e-4; }

// Hertz friction stepped implicitly (a true stick regime, box_friction_test)
// or explicitly (Table I).
Settings SettingsFor(ContactModel cm, double mu, bool implicit_hertz_friction = true) {
  Settings s;
  s.contact = DefaultContactSettings(cm);
  s.dt = StepFor(cm);
  if (auto* moreau = std::get_if<MoreauSettings>(&s.contact)) moreau->law.mu = mu;
  if (auto* sd = std::get_if<SpringDamperSettings>(&s.contact)) sd->law.mu = mu;
  if (auto* micro = std::get_if<MicroSettings>(&s.contact)) micro->law.mu = mu;
  if (auto* hertz = std::get_if<HertzSettings>(&s.contact)) {
    // Friction stepped implicitly: a true stick regime (box_friction_test).
    hertz->law.implicit_friction = implicit_hertz_friction;
    hertz->law.mu_static = mu;
    hertz->law.mu_dynamic = mu;
  }
  if (auto* least = std::get_if<LeastConstraintSettings>(&s.contact)) least->params.mu = mu;
  if (auto* mm = std::get_if<MicroMacroSettings>(&s.contact)) {
    mm->params.membrane.mu = mu;
    mm->params.mu_static = mu;
    mm->params.mu_kinetic = mu;
  }
  return s;
}

// The penetration a contact model allows a 1 kg cube resting on four
// corners: 1 mm for hard contact and least-constraint; for the force laws and
// micro-macro's membrane twice the static deflection under m g / 4 per corner
// (spring c_N, micro and membrane k, Hertz δ₀ (f / (K δ₀))^(1/e)), at least
// 1 mm.
double PenetrationTolerance(const Settings& s, double load_per_contact) {
  double deflection = 0.0;
  if (const auto* sd = std::get_if<SpringDamperSettings>(&s.contact)) {
    deflection = load_per_contact / sd->law.normal_stiffness;
  }
  if (const auto* micro = std::get_if<MicroSettings>(&s.contact)) {
    deflection = load_per_contact / micro->law.stiffness;
  }
  if (const auto* hertz = std::get_if<HertzSettings>(&s.contact)) {
    // f = K δ₀ (δ/δ₀)^e (hertz.h: K is the secant stiffness at δ₀).
    deflection = hertz->law.reference_depth *
                 std::pow(load_per_contact / (hertz->law.stiffness * hertz->law.reference_depth),
                          1.0 / hertz->law.exponent);
  }
  if (const auto* mm = std::get_if<MicroMacroSettings>(&s.contact)) {
    deflection = load_per_contact / mm->params.membrane.stiffness;
  }
  return std::max(1e-3, 2.0 * deflection);
}

void SetPose(Simulation& sim, const Vec3& p, const Mat3& R, const Eigen::VectorXd& v6) {
  State s = sim.state();
  s.q.head<3>() = p;
  const Eigen::Quaterniond quat(R);
  s.q.segment<4>(3) << quat.w(), quat.x(), quat.y(), quat.z();
  s.v = v6;
  ASSERT_TRUE(sim.SetState(s).ok());
}

Mat3 Rot(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

void DropAndExpectRestOnAFace(const std::shared_ptr<const Model>& model, const char* label) {
  // Face, edge (45° about x, off by 5° so the fall has a side), corner (a
  // body diagonal near vertical, off by a few degrees).
  const struct {
    const char* name;
    Mat3 R;
  } drops[] = {
      {"face", Mat3::Identity()},
      {"edge", Rot(std::numbers::pi / 4 + 0.09, Vec3::UnitX())},
      {"corner", Rot(std::atan(1 / std::sqrt(2.0)) + 0.05, Vec3::UnitY()) *
                     Rot(std::numbers::pi / 4 + 0.03, Vec3::UnitX())},
  };
  for (ContactModel cm : kModels) {
    for (const auto& drop : drops) {
      SCOPED_TRACE(std::string(label) + " " + ContactModelName(cm) + " on a " + drop.name);
      Settings settings = SettingsFor(cm, 0.8);
      if (cm == ContactModel::kHertz) settings.dt = kHertzDrop;
      auto sim = Simulation::Create(model, settings);
      ASSERT_TRUE(sim.ok()) << sim.status();
      // Lowest corner 5 cm above the ground.
      double lowest = 0.0;
      for (const ContactPoint& c : model->contact_points) {
        lowest = std::min(lowest, (drop.R * c.position).z());
      }
      SetPose(**sim, Vec3(0, 0, 0.05 - lowest), drop.R, Eigen::VectorXd::Zero(6));
      const Eigen::VectorXd tau = Eigen::VectorXd::Zero(6);
      // Hertz's light damping (c_max = 10 N s/m, 001 Table I) lets the box
      // bounce and rock for about 4 s after an edge or corner landing.
      const double duration = cm == ContactModel::kHertz ? kHertzSettle : 2.0;
      ASSERT_TRUE((*sim)->Step(tau, static_cast<int>(duration / settings.dt)).ok());
      const State& s = (*sim)->state();
      EXPECT_LT(s.v.norm(), 1e-2);
      // A face down: some body axis vertical within 1°.
      const Mat3 R = Eigen::Quaterniond(s.q[3], s.q[4], s.q[5], s.q[6]).toRotationMatrix();
      EXPECT_GT(R.row(2).cwiseAbs().maxCoeff(), std::cos(std::numbers::pi / 180));
      const double penetration = (*sim)->contacts().max_penetration;
      EXPECT_LE(penetration, PenetrationTolerance(settings, kMass * kG / 4));
      EXPECT_NEAR(s.q[2], 0.5 * kSide, PenetrationTolerance(settings, kMass * kG / 4));
      std::printf("[ measured ] %s %s on a %s: penetration %.4f mm, |v| %.2e\n", label,
                  ContactModelName(cm), drop.name, 1e3 * penetration, s.v.norm());
    }
  }
}

TEST(Collision, BoxDroppedOnAFaceAnEdgeAndACornerRestsOnAFace) {
  DropAndExpectRestOnAFace(LoadAll(BoxUrdf()), "box");
}

TEST(Collision, MeshCubeDroppedRestsOnAFaceAsTheBox) {
  const auto model = LoadAll(WriteMeshCube(), /*is_path=*/true);
  ASSERT_EQ(model->contact_points.size(), 8u);
  EXPECT_TRUE(model->warnings.empty());
  DropAndExpectRestOnAFace(model, "mesh cube");
}

// Downhill acceleration of the centre of mass over 1 s after 0.1 s of
// settling, on an incline of θ about y.
double DownhillAcceleration(const std::shared_ptr<const Model>& model, Settings settings,
                            double theta, const Mat3& body_on_incline, double height,
                            double* moved = nullptr) {
  auto terrain = contact::Terrain::Incline(theta, Vec3::UnitY(), Vec3::Zero());
  EXPECT_TRUE(terrain.ok());
  settings.terrain = *terrain;
  auto sim = Simulation::Create(model, settings);
  EXPECT_TRUE(sim.ok()) << sim.status();
  const Mat3 R = Rot(theta, Vec3::UnitY());
  const Vec3 n = R * Vec3::UnitZ();
  const Vec3 down = -Vec3::UnitZ();
  const Vec3 downhill = (down - down.dot(n) * n).normalized();
  SetPose(**sim, n * height, R * body_on_incline, Eigen::VectorXd::Zero(6));
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(6);
  EXPECT_TRUE((*sim)->Step(tau, static_cast<int>(0.1 / settings.dt)).ok());
  const double v0 = (*sim)->state().v.head<3>().dot(downhill);
  const Vec3 x0 = (*sim)->state().q.head<3>();
  EXPECT_TRUE((*sim)->Step(tau, static_cast<int>(1.0 / settings.dt)).ok());
  const double v1 = (*sim)->state().v.head<3>().dot(downhill);
  if (moved != nullptr) *moved = ((*sim)->state().q.head<3>() - x0).norm();
  return v1 - v0;
}

TEST(Collision, BoxSlidesAtCoulombAccelerationAndSticksWhenMuExceedsTanTheta) {
  const double theta = std::numbers::pi / 6;
  const auto box = LoadAll(BoxUrdf());
  const auto mesh = LoadAll(WriteMeshCube(), /*is_path=*/true);
  for (const auto& [model, label] : {std::pair{box, "box"}, std::pair{mesh, "mesh cube"}}) {
    for (ContactModel cm : kModels) {
      SCOPED_TRACE(std::string(label) + " " + ContactModelName(cm));
      const double mu = 0.3;
      const double expected = kG * (std::sin(theta) - mu * std::cos(theta));
      const double a =
          DownhillAcceleration(model, SettingsFor(cm, mu), theta, Mat3::Identity(), 0.5 * kSide);
      EXPECT_NEAR(a, expected, 0.02 * expected);
      double moved = 0.0;
      DownhillAcceleration(model, SettingsFor(cm, 0.8), theta, Mat3::Identity(), 0.5 * kSide,
                           &moved);
      EXPECT_LT(moved, 1e-3);
      std::printf(
          "[ measured ] %s %s: slides at %.4f m/s² (expected %.4f, %+.2f %%), "
          "sticks moving %.4f mm\n",
          label, ContactModelName(cm), a, expected, 100 * (a / expected - 1), 1e3 * moved);
    }
  }
}

// Rolling needs a contact that moves over the body: the impulse laws and
// Hertz (velocity-based friction) roll. Spring-damper and micro hold a stick
// anchor fixed in the world while the rim's witness point moves on: the
// anchor spring then brakes the cylinder (docs/collision.md).
TEST(Collision, SolidCylinderRollsAtTwoThirdsGSinTheta) {
  const double theta = 20.0 * std::numbers::pi / 180;
  const double expected = 2.0 / 3.0 * kG * std::sin(theta);
  const auto roller = LoadAll(CylinderUrdf());
  ASSERT_EQ(roller->contact_points.size(), 8u);
  for (ContactModel cm : {ContactModel::kMoreauJor, ContactModel::kMoreauSor, ContactModel::kHertz,
                          ContactModel::kLeastConstraint, ContactModel::kMicroMacro}) {
    SCOPED_TRACE(ContactModelName(cm));
    const double a =
        DownhillAcceleration(roller, SettingsFor(cm, 0.8), theta, Mat3::Identity(), kRadius);
    EXPECT_NEAR(a, expected, 0.02 * expected);
    std::printf("[ measured ] cylinder %s: rolls at %.4f m/s² (expected %.4f, %+.2f %%)\n",
                ContactModelName(cm), a, expected, 100 * (a / expected - 1));
  }
}

}  // namespace
}  // namespace moreau::sim
