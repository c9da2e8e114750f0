// InstanceFactory::FromCheckpoint: a checkpoint of a diverged instance comes
// back diverged, with its message, and refuses to step until reset; one that
// was not comes back steppable; a checkpoint under another model is refused.
// And a file round trip: a diverged simulation's checkpoint, written and read
// back, restores the flag; the observed links come back from the settings.
#include "server/instance_factory.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace moreau::server
