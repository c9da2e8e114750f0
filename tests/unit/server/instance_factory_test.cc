// InstanceFactory::FromCheckpoint: a checkpoint of a diverged instance comes
// back diverged, with its message, and refuses to step until reset; one that
// was not comes back steppable; a checkpoint under another model is refused.
// And a file round trip: a diverged simulation's checkpoint, written and read
// back, restores the flag; the observed links come back from the settings.
#include "server/instance_factory.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/model/loader.h"
#include "server/checkpoint.h"
#include "server/metrics.h"

namespace moreau::server {
namespace {

class InstanceFactoryTest : public ::testing::Test {
 protected:
  InstanceFactoryTest() : factory_(options_, &metrics_) {}

  // A checkpoint of a pendulum stepped 20 times, not diverged.
  CheckpointRecord PendulumRecord() {
    CheckpointRecord record;
    record.id = "0123456789abcdef0123456789abcdef";
    record.tenant = "team-a";
    record.source.set_builtin("pendulum");
    auto model = factory_.LoadModel(record.source);
    EXPECT_TRUE(model.ok()) << model.status();
    auto sim = sim::Simulation::Create(*model, sim::Settings{});
    EXPECT_TRUE(sim.ok()) << sim.status();
    EXPECT_TRUE((*sim)->Step(Eigen::VectorXd::Constant(1, 0.3), 20).ok());
    record.model_fingerprint = ModelFingerprint((*sim)->model());
    record.state = (*sim)->Snapshot();
    return record;
  }

  ServiceOptions options_;
  Metrics metrics_;
  InstanceFactory factory_;
};

TEST_F(InstanceFactoryTest, DivergedCheckpointComesBackDiverged) {
  CheckpointRecord record = PendulumRecord();
  record.diverged = true;
  record.diverged_message = "simulation diverged at t = 0.021 s";
  auto instance = factory_.FromCheckpoint(record);
  ASSERT_TRUE(instance.ok()) << instance.status();
  EXPECT_EQ((*instance)->id, record.id);
  EXPECT_EQ((*instance)->tenant, record.tenant);
  absl::MutexLock lock(&(*instance)->mu);
  sim::Simulation& sim = *(*instance)->sim;
  EXPECT_TRUE(sim.diverged());
  EXPECT_EQ(sim.diverged_message(), record.diverged_message);
  EXPECT_EQ(sim.Snapshot(), record.state);
  EXPECT_EQ(sim.Step(Eigen::VectorXd::Zero(1), 1).code(), absl::StatusCode::kFailedPrecondition);
  sim.Reset();
  EXPECT_TRUE(sim.Step(Eigen::VectorXd::Zero(1), 1).ok());
}

TEST_F(InstanceFactoryTest, CheckpointNotDivergedComesBackSteppable) {
  const CheckpointRecord record = PendulumRecord();
  auto instance = factory_.FromCheckpoint(record);
  ASSERT_TRUE(instance.ok()) << instance.status();
  absl::MutexLock lock(&(*instance)->mu);
  EXPECT_FALSE((*instance)->sim->diverged());
  EXPECT_TRUE((*instance)->sim->Step(Eigen::VectorXd::Zero(1), 1).ok());
}

TEST_F(InstanceFactoryTest, CheckpointOfAnotherModelIsRefused) {
  CheckpointRecord record = PendulumRecord();
  ++record.model_fingerprint;
  EXPECT_EQ(factory_.FromCheckpoint(record).status().code(), absl::StatusCode::kFailedPrecondition);
}

// What the state directory does: the diverged flag read off the simulation,
// written in the (unchanged) file format, read back, restored.
TEST_F(InstanceFactoryTest, DivergedFlagSurvivesTheFileFormat) {
  CheckpointRecord record = PendulumRecord();
  auto original = factory_.FromCheckpoint(record);
  ASSERT_TRUE(original.ok()) << original.status();
  {
    absl::MutexLock lock(&(*original)->mu);
    sim::Simulation& sim = *(*original)->sim;
    ASSERT_EQ(sim.Step(Eigen::VectorXd::Constant(1, 1e12), 10).code(),
              absl::StatusCode::kFailedPrecondition);
    ASSERT_TRUE(sim.diverged());
    record.state = sim.Snapshot();
    record.diverged = sim.diverged();
    record.diverged_message = sim.diverged_message();
  }
  auto decoded = DecodeCheckpoint(EncodeCheckpoint(record));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  auto restored = factory_.FromCheckpoint(*decoded);
  ASSERT_TRUE(restored.ok()) << restored.status();
  absl::MutexLock lock(&(*restored)->mu);
  EXPECT_TRUE((*restored)->sim->diverged());
  EXPECT_EQ((*restored)->sim->diverged_message(), record.diverged_message);
}

// The settings' observed links come back with the instance (its checkpoint
// keeps the settings), in order; a body the model lacks refuses the restore.
TEST_F(InstanceFactoryTest, ObservedLinksComeBackFromTheSettings) {
  CheckpointRecord record = PendulumRecord();
  record.settings.add_observed_links("pendulum");
  auto decoded = DecodeCheckpoint(EncodeCheckpoint(record));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  auto instance = factory_.FromCheckpoint(*decoded);
  ASSERT_TRUE(instance.ok()) << instance.status();
  {
    absl::MutexLock lock(&(*instance)->mu);
    ASSERT_EQ((*instance)->observed.size(), 1);
    EXPECT_EQ((*instance)->observed.names()[0], "pendulum");
    EXPECT_EQ((*instance)->observed.links()[0].body, 1);
  }
  record.settings.add_observed_links("world");  // fixed: not observable
  EXPECT_EQ(factory_.FromCheckpoint(record).status().code(), absl::StatusCode::kInvalidArgument);
}

// ModelSource.collision reaches the loader: "all" adds every link's shapes
// to the feet; an unknown mode is refused naming the field and the choices.
TEST_F(InstanceFactoryTest, CollisionModeFromTheSource) {
  v1::ModelSource source;
  source.set_builtin("mini_cheetah");
  auto feet = factory_.LoadModel(source);
  ASSERT_TRUE(feet.ok()) << feet.status();
  source.set_collision("all");
  auto all = factory_.LoadModel(source);
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ((*feet)->contact_points.size(), 4u);
  EXPECT_GT((*all)->contact_points.size(), (*feet)->contact_points.size());

  source.set_collision("sideways");
  auto bad = factory_.LoadModel(source);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("model.collision is 'sideways'"), std::string::npos)
      << bad.status();
  EXPECT_NE(bad.status().message().find("feet or all"), std::string::npos) << bad.status();
}

// A URDF sent to the server names a mesh file that exists on the server:
// the server does not read it; the link collides as its inertia box.
TEST_F(InstanceFactoryTest, MeshFilesAreNotReadFromAWireUrdf) {
  const std::filesystem::path stl =
      std::filesystem::path(::testing::TempDir()) / "factory_test_tetra.stl";
  {
    std::ofstream out(stl);
    out << "solid t\n";
    const char* facets[] = {"0 0 0 1 0 0 0 1 0", "0 0 0 1 0 0 0 0 1", "0 0 0 0 1 0 0 0 1",
                            "1 0 0 0 1 0 0 0 1"};
    for (const char* f : facets) {
      double v[9];
      std::sscanf(f, "%lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4],
                  &v[5], &v[6], &v[7], &v[8]);
      out << "facet normal 0 0 0\nouter loop\n";
      for (int k = 0; k < 3; ++k) {
        out << "vertex " << v[3 * k] << " " << v[3 * k + 1] << " " << v[3 * k + 2] << "\n";
      }
      out << "endloop\nendfacet\n";
    }
    out << "endsolid t\n";
  }
  v1::ModelSource source;
  source.set_urdf(R"(<robot name="r"><link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.02" izz="0.03" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><mesh filename=")" +
                  stl.string() + R"("/></geometry></collision></link></robot>)");
  source.set_base("floating");
  source.set_collision("all");
  auto model = factory_.LoadModel(source);
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ((*model)->contact_points.size(), 8u);  // the inertia box's corners, not 4 vertices
  for (const ContactPoint& c : (*model)->contact_points) {
    EXPECT_NE(c.name.find("inertia_box"), std::string::npos) << c.name;
  }
  bool warned = false;
  for (const std::string& w : (*model)->warnings) {
    warned = warned || w.find("not read") != std::string::npos;
  }
  EXPECT_TRUE(warned);

  // The same URDF loaded locally reads the mesh: its four vertices.
  LoadOptions local;
  local.base = BaseMode::kFloating;
  local.collision = CollisionMode::kAll;
  auto read = LoadUrdfString(source.urdf(), local);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ((*read)->contact_points.size(), 4u);
}

}  // namespace
}  // namespace moreau::server
