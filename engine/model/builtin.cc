// Built-in models (loader.h): the shipped Mini Cheetah, biped and UR10 URDFs
// and small test mechanisms, written here as URDF so they take the same path
// as files. The mechanisms follow the test models of models/ (Drake's
// pendulum, double pendulum and acrobot, Bullet's cart-pole, sphere and
// Drake's box) with consistent, positive-definite inertias and no hidden
// offsets.
#include <algorithm>
#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/model/embedded.h"
#include "engine/model/loader.h"
#include "engine/model/loop_closures.h"

namespace moreau {
namespace {

// A 1 kg bob 1 m below a pivot at the world origin, swinging about y. The bob
// is a solid sphere of radius 0.05 m (I = 2/5 m r² = 0.001) so that M > 0.
constexpr std::string_view kPendulum = R"(<?xml version="1.0"?>
<robot name="pendulum">
  <link name="world"/>
  <joint name="hinge" type="continuous">
    <parent link="world"/>
    <child link="pendulum"/>
    <axis xyz="0 1 0"/>
  </joint>
  <link name="pendulum">
    <inertial>
      <origin xyz="0 0 -1"/>
      <mass value="1"/>
      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/>
    </inertial>
  </link>
</robot>
)";

// Two massless 1 m links with a 1 kg bob (solid sphere r = 0.05 m) at each
// end, both joints about y, hanging along −z from the world origin.
constexpr std::string_view kDoublePendulum = R"(<?xml version="1.0"?>
<robot name="double_pendulum">
  <link name="world"/>
  <joint name="shaft1" type="continuous">
    <parent link="world"/>
    <child link="link1"/>
    <axis xyz="0 1 0"/>
  </joint>
  <link name="link1">
    <inertial>
      <origin xyz="0 0 -1"/>
      <mass value="1"/>
      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/>
    </inertial>
  </link>
  <joint name="shaft2" type="continuous">
    <parent link="link1"/>
    <child link="link2"/>
    <origin xyz="0 0 -1"/>
    <axis xyz="0 1 0"/>
  </joint>
  <link name="link2">
    <inertial>
      <origin xyz="0 0 -1"/>
      <mass value="1"/>
      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/>
    </inertial>
  </link>
</robot>
)";

// A 1 kg cart (box 0.5 × 0.5 × 0.2 m) sliding along x on the world, with a
// 0.1 kg, 1 m pole (box 0.05 × 0.05 × 1 m) hinged about y, upright at q = 0.
// Uniform-box inertias: I = m (b² + c²) / 12. Limits as in Bullet's file.
constexpr std::string_view kCartpole = R"(<?xml version="1.0"?>
<robot name="cartpole">
  <link name="world"/>
  <joint name="slider_to_cart" type="prismatic">
    <parent link="world"/>
    <child link="cart"/>
    <axis xyz="1 0 0"/>
    <limit effort="1000" lower="-15" upper="15" velocity="5"/>
  </joint>
  <link name="cart">
    <inertial>
      <mass value="1"/>
      <inertia ixx="0.024166666666666666" ixy="0" ixz="0" iyy="0.024166666666666666" iyz="0"
               izz="0.041666666666666664"/>
    </inertial>
  </link>
  <joint name="cart_to_pole" type="continuous">
    <parent link="cart"/>
    <child link="pole"/>
    <axis xyz="0 1 0"/>
  </joint>
  <link name="pole">
    <inertial>
      <origin xyz="0 0 0.5"/>
      <mass value="0.1"/>
      <inertia ixx="0.008354166666666666" ixy="0" ixz="0" iyy="0.008354166666666666" iyz="0"
               izz="4.1666666666666665e-05"/>
    </inertial>
  </link>
</robot>
)";

// Drake's acrobot (AcrobotParameters, multibody/benchmarks/acrobot): m1 = m2 =
// 1 kg, l1 = 1 m, lc1 = 0.5 m, lc2 = 1 m, Ic1 = 0.083, Ic2 = 0.33 kg m²,
// b1 = b2 = 0.1 N m s, axes along y, with Drake's 0.15 m offsets in y.
constexpr std::string_view kAcrobot = R"(<?xml version="1.0"?>
<robot name="acrobot">
  <link name="world"/>
  <joint name="ShoulderJoint" type="continuous">
    <parent link="world"/>
    <child link="Link1"/>
    <origin xyz="0 0.15 0"/>
    <axis xyz="0 1 0"/>
    <dynamics damping="0.1"/>
  </joint>
  <link name="Link1">
    <inertial>
      <origin xyz="0 0 -0.5"/>
      <mass value="1"/>
      <inertia ixx="0.083" ixy="0" ixz="0" iyy="0.083" iyz="0" izz="5e-7"/>
    </inertial>
  </link>
  <joint name="ElbowJoint" type="continuous">
    <parent link="Link1"/>
    <child link="Link2"/>
    <origin xyz="0 0.15 -1"/>
    <axis xyz="0 1 0"/>
    <dynamics damping="0.1"/>
  </joint>
  <link name="Link2">
    <inertial>
      <origin xyz="0 0 -1"/>
      <mass value="1"/>
      <inertia ixx="0.33" ixy="0" ixz="0" iyy="0.33" iyz="0" izz="5e-7"/>
    </inertial>
  </link>
</robot>
)";

// A free 1 kg solid sphere of radius 0.1 m (I = 2/5 m r² = 0.004); its
// collision sphere is its contact point.
constexpr std::string_view kSphere = R"(<?xml version="1.0"?>
<robot name="sphere">
  <link name="sphere">
    <inertial>
      <mass value="1"/>
      <inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.004"/>
    </inertial>
    <collision>
      <geometry>
        <sphere radius="0.1"/>
      </geometry>
    </collision>
  </link>
</robot>
)";

// A free 1 kg box 0.1 × 0.2 × 0.3 m (Drake's box.urdf), I = m (b² + c²) / 12.
constexpr std::string_view kBox = R"(<?xml version="1.0"?>
<robot name="box">
  <link name="box">
    <inertial>
      <mass value="1"/>
      <inertia ixx="0.010833333333333334" ixy="0" ixz="0" iyy="0.008333333333333333" iyz="0"
               izz="0.004166666666666667"/>
    </inertial>
    <collision>
      <geometry>
        <box size="0.1 0.2 0.3"/>
      </geometry>
    </collision>
  </link>
</robot>
)";

// A planar parallelogram four-bar linkage in the x-z plane, every joint about
// y, fixed base: ground pivots A = (0, 0, 0) and D = (0.5, 0, 0); crank A→B
// (a = 0.3 m, 1 kg uniform rod), coupler B→C (b = 0.5 m, 2 kg), rocker C→D
// (c = 0.3 m, 0.5 kg). The tree is world → crank → coupler → rocker (three
// continuous joints); a revolute cut joint (Model::loop_closures) pins the
// rocker's end to D. At q = 0 the crank hangs straight down, the coupler is
// level and the loop is closed; the closed loop has one DOF, q = (θ, −θ, θ)
// (the coupler translates), a compound pendulum with I = 0.225 kg m² and
// gravity moment 0.825 kg m · g (see tests/unit/sim/four_bar_test.cc).
constexpr std::string_view kFourBar = R"(<?xml version="1.0"?>
<robot name="four_bar">
  <link name="world"/>
  <joint name="crank_joint" type="continuous">
    <parent link="world"/>
    <child link="crank"/>
    <axis xyz="0 1 0"/>
  </joint>
  <link name="crank">
    <inertial>
      <origin xyz="0 0 -0.15"/>
      <mass value="1"/>
      <inertia ixx="0.0075" ixy="0" ixz="0" iyy="0.0075" iyz="0" izz="0.0001"/>
    </inertial>
  </link>
  <joint name="coupler_joint" type="continuous">
    <parent link="crank"/>
    <child link="coupler"/>
    <origin xyz="0 0 -0.3"/>
    <axis xyz="0 1 0"/>
  </joint>
  <link name="coupler">
    <inertial>
      <origin xyz="0.25 0 0"/>
      <mass value="2"/>
      <inertia ixx="0.0001" ixy="0" ixz="0" iyy="0.041666666666666664" iyz="0"
               izz="0.041666666666666664"/>
    </inertial>
  </link>
  <joint name="rocker_joint" type="continuous">
    <parent link="coupler"/>
    <child link="rocker"/>
    <origin xyz="0.5 0 0"/>
    <axis xyz="0 1 0"/>
  </joint>
  <link name="rocker">
    <inertial>
      <origin xyz="0 0 0.15"/>
      <mass value="0.5"/>
      <inertia ixx="0.00375" ixy="0" ixz="0" iyy="0.00375" iyz="0" izz="0.0001"/>
    </inertial>
  </link>
</robot>
)";

// The four-bar's cut joint: the rocker's far end (0, 0, c) on the ground
// pivot D, axes along y.
absl::StatusOr<std::shared_ptr<const Model>> FourBar(std::shared_ptr<const Model> tree) {
  auto model = std::make_shared<Model>(*tree);
  LoopClosure cut;
  cut.name = "rocker_ground";
  cut.body_a = model->BodyIndex("rocker");
  cut.point_a = Vec3(0.0, 0.0, 0.3);
  cut.axis_a = Vec3::UnitY();
  cut.body_b = 0;
  cut.point_b = Vec3(0.5, 0.0, 0.0);
  cut.axis_b = Vec3::UnitY();
  model->loop_closures.push_back(cut);
  if (absl::Status status = ValidateLoopClosures(*model); !status.ok()) return status;
  return std::shared_ptr<const Model>(std::move(model));
}

struct Builtin {
  std::string_view name;
  std::string_view (*urdf)();
  // Contact links used when the caller names none (comma-separated; empty:
  // the loader's default, the leaf links' spheres).
  std::string_view contact_links = {};
};

constexpr std::array<Builtin, 10> kBuiltins = {{
    {"mini_cheetah", &embedded::MiniCheetahUrdf},
    {"pendulum", [] { return kPendulum; }},
    {"double_pendulum", [] { return kDoublePendulum; }},
    {"cartpole", [] { return kCartpole; }},
    {"acrobot", [] { return kAcrobot; }},
    {"sphere", [] { return kSphere; }},
    {"box", [] { return kBox; }},
    // The box feet's corners are the contacts (four per sole touch the ground).
    {"biped", &embedded::BipedUrdf, "l_foot,r_foot"},
    {"four_bar", [] { return kFourBar; }},
    // A fixed-base arm; its meshes are compiled in too (builtin_meshes.h).
    {"ur10", &embedded::Ur10Urdf},
}};

const Builtin* FindBuiltin(std::string_view name) {
  for (const Builtin& b : kBuiltins) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> BuiltinModelNames() {
  std::vector<std::string> names;
  for (const Builtin& b : kBuiltins) names.emplace_back(b.name);
  return names;
}

absl::StatusOr<std::shared_ptr<const Model>> LoadBuiltin(std::string_view name,
                                                         const LoadOptions& options) {
  const Builtin* builtin = FindBuiltin(name);
  if (builtin == nullptr) {
    return absl::NotFoundError(absl::StrCat("unknown built-in model '", std::string(name),
                                            "' (known: ", absl::StrJoin(BuiltinModelNames(), ", "),
                                            ")"));
  }
  if (name == "four_bar") {
    auto tree = LoadUrdfString(builtin->urdf(), options);
    if (!tree.ok()) return tree.status();
    return FourBar(*std::move(tree));
  }
  if (options.contact_links.empty() && !builtin->contact_links.empty()) {
    LoadOptions with_links = options;
    std::string_view rest = builtin->contact_links;
    while (!rest.empty()) {
      const size_t comma = std::min(rest.find(','), rest.size());
      with_links.contact_links.emplace_back(rest.substr(0, comma));
      rest.remove_prefix(std::min(comma + 1, rest.size()));
    }
    return LoadUrdfString(builtin->urdf(), with_links);
  }
  return LoadUrdfString(builtin->urdf(), options);
}

absl::StatusOr<std::shared_ptr<const Model>> LoadModel(std::string_view name_or_path,
                                                       const LoadOptions& options) {
  if (FindBuiltin(name_or_path) != nullptr) {
    return LoadBuiltin(name_or_path, options);
  }
  const std::string path(name_or_path);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return absl::NotFoundError(absl::StrCat("unknown model '", path, "': not a built-in (",
                                            absl::StrJoin(BuiltinModelNames(), ", "),
                                            ") and no such file"));
  }
  return LoadUrdfFile(path, options);
}

}  // namespace moreau
