// The state directory: a pass writes only the instances that changed since
// their last checkpoint; Forget removes files; RestoreAll hands back every
// good checkpoint and skips the others; one directory serves one process; an
// unwritable directory fails the pass without stopping it.
#include "server/checkpoint_store.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

namespace moreau::server {
namespace {

class CheckpointStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One directory per test: ctest runs the tests in parallel.
    dir_ = ::testing::TempDir() + "/moreau_checkpoint_store_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
           std::to_string(getpid());
    std::filesystem::remove_all(dir_);
  }

  // A box instance as CreateInstances builds it.
  std::shared_ptr<Instance> AddBox(const std::string& id) {
    auto model = LoadBuiltin("box");
    EXPECT_TRUE(model.ok());
    auto sim = sim::Simulation::Create(*model, sim::Settings{});
    EXPECT_TRUE(sim.ok());
    auto instance = std::make_shared<Instance>(id, std::move(*sim));
    auto source = std::make_shared<v1::ModelSource>();
    source->set_builtin("box");
    instance->source = std::move(source);
    EXPECT_TRUE(registry_.AddAll({instance}).ok());
    return instance;
  }

  static void Step(Instance& instance, int steps) {
    absl::MutexLock lock(&instance.mu);
    ASSERT_TRUE(instance.sim->Step(Eigen::VectorXd::Zero(instance.sim->model().nv), steps).ok());
  }

  std::string Path(const std::string& id) const { return dir_ + "/" + id + ".ckpt"; }

  std::string dir_;
  Metrics metrics_;
  Registry registry_{16};
};

TEST_F(CheckpointStoreTest, APassWritesOnlyWhatChanged) {
  CheckpointStore store({dir_, absl::ZeroDuration()}, &metrics_);
  ASSERT_TRUE(store.Open().ok());
  auto a = AddBox("aaaa");
  auto b = AddBox("bbbb");
  CheckpointPass pass = store.CheckpointChanged(registry_);
  EXPECT_EQ(pass.written, 2);
  EXPECT_EQ(pass.failed, 0);
  EXPECT_TRUE(std::filesystem::exists(Path("aaaa")));
  EXPECT_TRUE(std::filesystem::exists(Path("bbbb")));

  pass = store.CheckpointChanged(registry_);
  EXPECT_EQ(pass.written, 0);
  EXPECT_EQ(pass.unchanged, 2);

  Step(*a, 3);
  pass = store.CheckpointChanged(registry_);
  EXPECT_EQ(pass.written, 1);
  EXPECT_EQ(pass.unchanged, 1);

  {
    absl::MutexLock lock(&b->mu);
    b->sim->MarkDiverged("diverged");
  }
  pass = store.CheckpointChanged(registry_);
  EXPECT_EQ(pass.written, 1);
  auto record = DecodeCheckpoint(*ReadWholeFile(Path("bbbb")));
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_TRUE(record->diverged);
  EXPECT_EQ(record->diverged_message, "diverged");
  EXPECT_EQ(record->source.builtin(), "box");
  {
    absl::MutexLock lock(&a->mu);
    record = DecodeCheckpoint(*ReadWholeFile(Path("aaaa")));
    ASSERT_TRUE(record.ok());
    EXPECT_EQ(record->state, a->sim->Snapshot());
    EXPECT_EQ(record->model_fingerprint, ModelFingerprint(a->sim->model()));
  }
}

TEST_F(CheckpointStoreTest, ForgetRemovesTheFilesOfRemovedInstances) {
  CheckpointStore store({dir_, absl::ZeroDuration()}, &metrics_);
  ASSERT_TRUE(store.Open().ok());
  AddBox("aaaa");
  AddBox("bbbb");
  ASSERT_EQ(store.CheckpointChanged(registry_).written, 2);
  ASSERT_NE(registry_.Remove("aaaa"), nullptr);
  store.Forget({"aaaa", "never-written"});
  EXPECT_FALSE(std::filesystem::exists(Path("aaaa")));
  EXPECT_TRUE(std::filesystem::exists(Path("bbbb")));
  // A later pass does not bring it back.
  EXPECT_EQ(store.CheckpointChanged(registry_).unchanged, 1);
  EXPECT_FALSE(std::filesystem::exists(Path("aaaa")));
}

TEST_F(CheckpointStoreTest, RestoreAllAdoptsGoodFilesAndSkipsTheRest) {
  {
    CheckpointStore store({dir_, absl::ZeroDuration()}, &metrics_);
    ASSERT_TRUE(store.Open().ok());
    AddBox("aaaa");
    AddBox("bbbb");
    AddBox("cccc");
    ASSERT_EQ(store.CheckpointChanged(registry_).written, 3);
  }
  std::ofstream(dir_ + "/notes.txt") << "not a checkpoint";
  std::filesystem::copy_file(Path("cccc"), Path("dddd"));  // named after another id
  std::ofstream(dir_ + "/.eeee.ckpt.tmp") << "an interrupted write";

  CheckpointStore store({dir_, absl::ZeroDuration()}, &metrics_);
  ASSERT_TRUE(store.Open().ok());
  std::map<std::string, CheckpointRecord> adopted;
  const int restored = store.RestoreAll([&](const CheckpointRecord& record) {
    if (record.id == "bbbb") return absl::FailedPreconditionError("refused");
    adopted[record.id] = record;
    return absl::OkStatus();
  });
  EXPECT_EQ(restored, 2);
  ASSERT_EQ(adopted.size(), 2u);
  EXPECT_TRUE(adopted.contains("aaaa"));
  EXPECT_TRUE(adopted.contains("cccc"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/.eeee.ckpt.tmp"));
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/notes.txt"));  // left for the operator
}

TEST_F(CheckpointStoreTest, RestoredInstancesAreNotWrittenAgainUntilTheyChange) {
  {
    CheckpointStore store({dir_, absl::ZeroDuration()}, &metrics_);
    ASSERT_TRUE(store.Open().ok());
    AddBox("aaaa");
    ASSERT_EQ(store.CheckpointChanged(registry_).written, 1);
  }
  CheckpointStore store({dir_, absl::ZeroDuration()}, &metrics_);
  ASSERT_TRUE(store.Open().ok());
  EXPECT_EQ(store.RestoreAll([](const CheckpointRecord&) { return absl::OkStatus(); }), 1);
  // The registry still holds the same instance (same state): nothing to write.
  const CheckpointPass pass = store.CheckpointChanged(registry_);
  EXPECT_EQ(pass.written, 0);
  EXPECT_EQ(pass.unchanged, 1);
}

TEST_F(CheckpointStoreTest, OneDirectoryServesOneProcess) {
  CheckpointStore first({dir_, absl::ZeroDuration()}, &metrics_);
  ASSERT_TRUE(first.Open().ok());
  CheckpointStore second({dir_, absl::ZeroDuration()}, &metrics_);
  const absl::Status status = second.Open();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("in use by another moreaud"), std::string::npos) << status;
}

TEST_F(CheckpointStoreTest, AnUnwritableDirectoryFailsThePassAndTheNextOneRetries) {
  CheckpointStore store({dir_, absl::ZeroDuration()}, &metrics_);
  ASSERT_TRUE(store.Open().ok());
  AddBox("aaaa");
  AddBox("bbbb");
  std::filesystem::rename(dir_, dir_ + ".moved");
  std::ofstream(dir_) << "a file where the directory was";
  CheckpointPass pass = store.CheckpointChanged(registry_);
  EXPECT_EQ(pass.written, 0);
  EXPECT_EQ(pass.failed, 2);
  EXPECT_NE(pass.first_error.find(dir_), std::string::npos) << pass.first_error;
  // Once the directory is back, the same instances are written.
  std::filesystem::remove(dir_);
  std::filesystem::rename(dir_ + ".moved", dir_);
  pass = store.CheckpointChanged(registry_);
  EXPECT_EQ(pass.written, 2);
  EXPECT_EQ(pass.failed, 0);
}

}  // namespace
}  // namespace moreau::server
