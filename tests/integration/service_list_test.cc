// What a dashboard reads from and sends to a real moreaud: ListInstances
// (fields, pages, errors, never waiting for a step), the body shapes of
// ModelSpec, and the "command" control mode that steers a server-side trot.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

class ServiceListTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = StartServer({"--max_substeps", "1000000"});
    ASSERT_NE(server_.client, nullptr);
  }
  client::Client& client() { return *server_.client; }
  LiveServer server_;
};

TEST_F(ServiceListTest, ListInstances_DescribesEachInstance) {
  const double before_create = absl::ToUnixMicros(absl::Now()) * 1e-6;
  v1::Settings settings;
  settings.set_contact_model("spring-damper");
  settings.set_dt(0.002);
  settings.mutable_controller()->set_kind("stand");
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse made,
                              client().CreateBuiltin("mini_cheetah", 1, settings));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ListInstancesResponse fresh, client().ListInstances());
  ASSERT_EQ(fresh.instances_size(), 1);
  const v1::InstanceInfo& info = fresh.instances(0);
  EXPECT_EQ(info.instance_id(), made.instance_ids(0));
  EXPECT_EQ(info.model(), "mini_cheetah");
  EXPECT_EQ(info.tenant(), "");
  EXPECT_EQ(info.contact_model(), "spring-damper");
  EXPECT_EQ(info.controller(), "stand");
  EXPECT_EQ(info.time(), 0.0);
  EXPECT_EQ(info.steps(), 0);
  EXPECT_EQ(info.status().code(), 0);
  EXPECT_EQ(info.watchers(), 0);
  EXPECT_GE(info.created_unix_s(), before_create - 1.0);
  EXPECT_LE(info.created_unix_s(), absl::ToUnixMicros(absl::Now()) * 1e-6 + 1.0);
  EXPECT_EQ(info.last_stepped_unix_s(), 0.0);
  EXPECT_EQ(fresh.next_page_token(), "");
  EXPECT_EQ(fresh.total(), 1);

  ASSERT_TRUE(client().Step(made.instance_ids(0), Eigen::VectorXd::Zero(12), 25).ok());
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ListInstancesResponse stepped, client().ListInstances());
  ASSERT_EQ(stepped.instances_size(), 1);
  EXPECT_EQ(stepped.instances(0).steps(), 25);
  EXPECT_DOUBLE_EQ(stepped.instances(0).time(), 0.05);
  EXPECT_GE(stepped.instances(0).last_stepped_unix_s(), info.created_unix_s());
}

TEST_F(ServiceListTest, ListInstances_PagesThroughEveryInstanceOnceInIdOrder) {
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse made,
                              client().CreateBuiltin("pendulum", 5));
  std::vector<std::string> expected(made.instance_ids().begin(), made.instance_ids().end());
  std::sort(expected.begin(), expected.end());
  std::vector<std::string> seen;
  std::string token;
  int pages = 0;
  do {
    MOREAU_ASSERT_OK_AND_ASSIGN(v1::ListInstancesResponse page, client().ListInstances(2, token));
    EXPECT_EQ(page.total(), 5);
    EXPECT_LE(page.instances_size(), 2);
    for (const v1::InstanceInfo& info : page.instances()) seen.push_back(info.instance_id());
    token = page.next_page_token();
    ASSERT_LT(++pages, 10);
  } while (!token.empty());
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(seen, expected);
}

TEST_F(ServiceListTest, ListInstances_RefusesABadPageSizeOrToken) {
  for (int bad : {-1, 1001}) {
    const absl::Status status = client().ListInstances(bad).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(status.message().find("page_size must be in [0, 1000]"), std::string::npos) << status;
  }
  const absl::Status status = client().ListInstances(0, "../../etc/passwd").status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("page_token"), std::string::npos) << status;
}

TEST_F(ServiceListTest, ListInstances_ShowsADivergedInstance) {
  v1::Settings settings;
  settings.set_contact_model("spring-damper");
  settings.set_dt(0.01);
  (*settings.mutable_contact_parameters())["substeps"] = 1;  // one explicit update: unstable
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse made,
                              client().CreateBuiltin("mini_cheetah", 1, settings));
  EXPECT_FALSE(client().Step(made.instance_ids(0), Eigen::VectorXd::Zero(12), 200).ok());
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ListInstancesResponse listed, client().ListInstances());
  ASSERT_EQ(listed.instances_size(), 1);
  EXPECT_EQ(listed.instances(0).status().code(),
            static_cast<int>(absl::StatusCode::kFailedPrecondition));
  EXPECT_NE(listed.instances(0).status().message().find("diverged"), std::string::npos);
}

TEST_F(ServiceListTest, ListInstances_DoesNotWaitForAStepInProgress) {
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse made,
                              client().CreateBuiltin("mini_cheetah", 1));
  absl::Notification stepped;
  std::thread stepper([&] {
    // Several seconds of stepping on any machine.
    (void)client().Step(made.instance_ids(0), Eigen::VectorXd::Zero(12), 200000);
    stepped.Notify();
  });
  absl::SleepFor(absl::Milliseconds(200));  // the step holds the instance
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ListInstancesResponse listed, client().ListInstances());
  EXPECT_FALSE(stepped.HasBeenNotified()) << "the step ended before the listing";
  ASSERT_EQ(listed.instances_size(), 1);
  EXPECT_EQ(listed.instances(0).steps(), 0);  // as the step found it
  stepped.WaitForNotification();
  stepper.join();
}

// A URDF of one floating box link (mass 2, a uniform box's inertia) with a
// rotated box collision, a cylinder and a mesh.
constexpr char kShapesUrdf[] = R"(<robot name="shapes">
  <link name="base">
    <inertial><mass value="2"/>
      <inertia ixx="0.021666666666666667" iyy="0.016666666666666666" izz="0.008333333333333333"
               ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0.1 0.2 0.3" rpy="0 0 1.5707963267948966"/>
      <geometry><box size="0.1 0.2 0.3"/></geometry></collision>
    <collision><origin xyz="0 0 -0.2"/><geometry><cylinder radius="0.05" length="0.4"/></geometry></collision>
    <collision><geometry><mesh filename="package://robot/meshes/shell.stl" scale="2 2 2"/></geometry></collision>
  </link>
</robot>)";

TEST_F(ServiceListTest, ModelSpec_CarriesEveryBodysShapesAndInertiaBox) {
  v1::ModelSource source;
  source.set_urdf(kShapesUrdf);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ModelSpec spec, client().GetModel(source));
  ASSERT_EQ(spec.shapes_size(), 3);
  const v1::ShapeSpec& box = spec.shapes(0);
  EXPECT_EQ(box.type(), "box");
  EXPECT_EQ(box.link(), "base");
  EXPECT_EQ(spec.body_names(box.body()), "base");
  EXPECT_EQ(std::vector<double>(box.size().begin(), box.size().end()),
            (std::vector<double>{0.1, 0.2, 0.3}));
  EXPECT_EQ(std::vector<double>(box.position().begin(), box.position().end()),
            (std::vector<double>{0.1, 0.2, 0.3}));
  ASSERT_EQ(box.rotation_size(), 4);  // a quarter turn about z
  EXPECT_NEAR(box.rotation(0), std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(box.rotation(3), std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(box.rotation(1), 0.0, 1e-12);
  EXPECT_EQ(spec.shapes(1).type(), "cylinder");
  EXPECT_EQ(std::vector<double>(spec.shapes(1).size().begin(), spec.shapes(1).size().end()),
            (std::vector<double>{0.05, 0.4}));
  EXPECT_EQ(spec.shapes(2).type(), "mesh");
  EXPECT_EQ(spec.shapes(2).mesh(), "package://robot/meshes/shell.stl");
  EXPECT_EQ(std::vector<double>(spec.shapes(2).size().begin(), spec.shapes(2).size().end()),
            (std::vector<double>{2, 2, 2}));

  // Bodies: the world, then the box, whose inertia box is the 0.1 × 0.2 × 0.3 box.
  ASSERT_EQ(spec.bodies_size(), spec.body_names_size());
  EXPECT_EQ(spec.bodies(0).parent(), -1);
  const v1::BodySpec& base = spec.bodies(1);
  EXPECT_EQ(base.name(), "base");
  EXPECT_EQ(base.parent(), 0);
  EXPECT_DOUBLE_EQ(base.mass(), 2.0);
  ASSERT_EQ(base.inertia_box_size_size(), 3);
  std::vector<double> sides(base.inertia_box_size().begin(), base.inertia_box_size().end());
  std::sort(sides.begin(), sides.end());
  EXPECT_NEAR(sides[0], 0.1, 1e-9);
  EXPECT_NEAR(sides[1], 0.2, 1e-9);
  EXPECT_NEAR(sides[2], 0.3, 1e-9);
  EXPECT_EQ(base.inertia_box_rotation_size(), 4);
}

TEST_F(ServiceListTest, ModelSpec_OfEveryBuiltinHasAShapeOrInertiaBoxForEveryMovingBody) {
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ListModelsResponse models, client().ListModels());
  for (const v1::ModelSpec& spec : models.models()) {
    SCOPED_TRACE(spec.name());
    ASSERT_EQ(spec.bodies_size(), spec.body_names_size());
    for (int b = 1; b < spec.bodies_size(); ++b) {
      const bool shaped = std::any_of(spec.shapes().begin(), spec.shapes().end(),
                                      [b](const v1::ShapeSpec& s) { return s.body() == b; });
      EXPECT_TRUE(shaped || spec.bodies(b).inertia_box_size_size() == 3) << spec.body_names(b);
    }
  }
}

TEST_F(ServiceListTest, CommandMode_TheActionIsTheTrotsCommand) {
  v1::Settings settings;
  settings.set_control_mode("command");
  settings.mutable_controller()->set_kind("trot");
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse made,
                              client().CreateBuiltin("mini_cheetah", 1, settings));
  const v1::Spec& spec = made.spec();
  EXPECT_EQ(spec.control_mode(), "command");
  EXPECT_EQ(spec.action().name(), "command");
  ASSERT_EQ(spec.action().size(), 3);
  EXPECT_EQ(std::vector<std::string>(spec.action().labels().begin(), spec.action().labels().end()),
            (std::vector<std::string>{"forward_velocity", "lateral_velocity", "yaw_rate"}));
  ASSERT_EQ(spec.action_lower_size(), 3);
  EXPECT_LT(spec.action_lower(0), 0.0);
  EXPECT_GT(spec.action_upper(0), 0.3);
  EXPECT_EQ(spec.action_upper(2), 0.5);
  // 4 s forward at 0.3 m/s: the robot walks forward.
  MOREAU_ASSERT_OK_AND_ASSIGN(
      v1::Observation walked,
      client().Step(made.instance_ids(0), Eigen::Vector3d(0.3, 0, 0), 4000));
  EXPECT_GT(walked.q(0), 0.4);
  EXPECT_GT(walked.q(2), 0.15);
  const absl::Status wrong =
      client().Step(made.instance_ids(0), Eigen::VectorXd::Zero(12), 1).status();
  EXPECT_EQ(wrong.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.message().find("expected 3"), std::string::npos) << wrong;
  // Without a controller there is nothing to command.
  v1::Settings alone;
  alone.set_control_mode("command");
  const absl::Status refused = client().CreateBuiltin("mini_cheetah", 1, alone).status();
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("needs the controller stand, trot or pd-trot, got none"),
            std::string::npos)
      << refused;
}

}  // namespace
}  // namespace moreau::testing
