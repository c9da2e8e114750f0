// The checkpoint file format: a round trip keeps every field; every
// truncation, flipped byte, foreign file and unknown version is refused with
// the reason; the model fingerprint tells models apart; files are written
// atomically.
#include "server/checkpoint.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"

namespace moreau::server {
namespace {

using ::absl::StatusCode;

CheckpointRecord SampleRecord() {
  auto model = LoadBuiltin("mini_cheetah");
  EXPECT_TRUE(model.ok());
  auto sim = sim::Simulation::Create(*model, sim::Settings{});
  EXPECT_TRUE(sim.ok());
  EXPECT_TRUE((*sim)->Step(Eigen::VectorXd::Zero((*model)->nv), 25).ok());
  CheckpointRecord record;
  record.id = "0123456789abcdef0123456789abcdef";
  record.tenant = "team-a";
  record.source.set_builtin("mini_cheetah");
  record.source.set_base("floating");
  record.settings.set_contact_model("hertz");
  record.settings.set_dt(1e-4);
  for (double g : {0.0, 0.0, -3.71}) record.settings.add_gravity(g);
  record.model_fingerprint = ModelFingerprint((*sim)->model());
  record.state = (*sim)->Snapshot();
  record.diverged = true;
  record.diverged_message = "non-finite state at t = 0.025";
  return record;
}

// Bytes with the CRC at the end recomputed, for headers edited on purpose.
std::string Resealed(std::string bytes) {
  const uint32_t crc = Crc32c(std::string_view(bytes).substr(0, bytes.size() - 4));
  std::memcpy(bytes.data() + bytes.size() - 4, &crc, 4);
  return bytes;
}

TEST(Checkpoint, Crc32cMatchesRfc3720TestVectors) {
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);              // the check value
  EXPECT_EQ(Crc32c(std::string(32, '\0')), 0x8A9136AAu);    // RFC 3720 § B.4
  EXPECT_EQ(Crc32c(std::string(32, '\xff')), 0x62A8AB43u);  // RFC 3720 § B.4
}

TEST(Checkpoint, RoundTripKeepsEveryField) {
  const CheckpointRecord record = SampleRecord();
  auto decoded = DecodeCheckpoint(EncodeCheckpoint(record));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->id, record.id);
  EXPECT_EQ(decoded->tenant, record.tenant);
  EXPECT_EQ(decoded->source.SerializeAsString(), record.source.SerializeAsString());
  EXPECT_EQ(decoded->settings.SerializeAsString(), record.settings.SerializeAsString());
  EXPECT_EQ(decoded->model_fingerprint, record.model_fingerprint);
  EXPECT_EQ(decoded->state_version, sim::kStateFormatVersion);
  EXPECT_EQ(decoded->state, record.state);
  EXPECT_TRUE(decoded->diverged);
  EXPECT_EQ(decoded->diverged_message, record.diverged_message);
}

TEST(Checkpoint, EveryTruncationIsRefusedAsTruncated) {
  const std::string bytes = EncodeCheckpoint(SampleRecord());
  for (size_t n = 0; n < bytes.size(); ++n) {
    auto decoded = DecodeCheckpoint(std::string_view(bytes).substr(0, n));
    ASSERT_EQ(decoded.status().code(), StatusCode::kDataLoss) << n;
    ASSERT_NE(decoded.status().message().find("truncated"), std::string::npos)
        << n << ": " << decoded.status();
  }
}

TEST(Checkpoint, EveryFlippedByteIsRefused) {
  const std::string bytes = EncodeCheckpoint(SampleRecord());
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string corrupt = bytes;
    corrupt[i] = static_cast<char>(corrupt[i] ^ 0x01);
    auto decoded = DecodeCheckpoint(corrupt);
    ASSERT_FALSE(decoded.ok()) << "byte " << i;
    // Past the fixed header, the checksum catches it.
    if (i >= 32) {
      ASSERT_NE(decoded.status().message().find("checksum mismatch"), std::string::npos)
          << i << ": " << decoded.status();
    }
  }
}

TEST(Checkpoint, ForeignFilesAreNotCheckpoints) {
  for (const std::string& foreign : {std::string("hello, this is a text file\n"), std::string("X"),
                                     SampleRecord().state /* a bare state blob */}) {
    auto decoded = DecodeCheckpoint(foreign);
    EXPECT_EQ(decoded.status().code(), StatusCode::kDataLoss);
    EXPECT_NE(decoded.status().message().find("not a moreaud checkpoint"), std::string::npos)
        << decoded.status();
  }
}

TEST(Checkpoint, TrailingBytesAreRefused) {
  auto decoded = DecodeCheckpoint(EncodeCheckpoint(SampleRecord()) + "xx");
  EXPECT_EQ(decoded.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(decoded.status().message().find("2 trailing bytes"), std::string::npos)
      << decoded.status();
}

TEST(Checkpoint, UnknownFormatVersionIsRefusedNamingIt) {
  std::string bytes = EncodeCheckpoint(SampleRecord());
  const uint32_t version = kCheckpointFormatVersion + 1;
  std::memcpy(bytes.data() + 8, &version, 4);
  auto decoded = DecodeCheckpoint(Resealed(bytes));
  EXPECT_EQ(decoded.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(decoded.status().message().find("format version 2"), std::string::npos)
      << decoded.status();
}

TEST(Checkpoint, UnsupportedStateVersionIsRefusedNamingIt) {
  std::string bytes = EncodeCheckpoint(SampleRecord());
  const uint32_t version = 99;
  std::memcpy(bytes.data() + 12, &version, 4);
  auto decoded = DecodeCheckpoint(Resealed(bytes));
  EXPECT_EQ(decoded.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(decoded.status().message().find("state version 99"), std::string::npos)
      << decoded.status();
}

TEST(Checkpoint, MalformedIdIsRefused) {
  CheckpointRecord record = SampleRecord();
  record.id = "../escape";
  auto decoded = DecodeCheckpoint(EncodeCheckpoint(record));
  EXPECT_EQ(decoded.status().code(), StatusCode::kDataLoss);
}

TEST(Checkpoint, ModelFingerprintTellsModelsApart) {
  auto cheetah = LoadBuiltin("mini_cheetah");
  auto again = LoadBuiltin("mini_cheetah");
  auto box = LoadBuiltin("box");
  ASSERT_TRUE(cheetah.ok() && again.ok() && box.ok());
  const uint64_t base = ModelFingerprint(**cheetah);
  EXPECT_EQ(ModelFingerprint(**again), base);
  EXPECT_NE(ModelFingerprint(**box), base);
  Model heavier = **cheetah;
  heavier.inertia[2].mass += 1e-9;
  EXPECT_NE(ModelFingerprint(heavier), base);
  Model on_mars = **cheetah;
  on_mars.gravity.z() = -3.71;
  EXPECT_NE(ModelFingerprint(on_mars), base);
  Model damped = **cheetah;
  damped.joints[3].damping += 0.1;
  EXPECT_NE(ModelFingerprint(damped), base);
}

TEST(Checkpoint, IdsThatCanNameFiles) {
  EXPECT_TRUE(IsCheckpointableId("0123456789abcdef0123456789abcdef"));
  EXPECT_TRUE(IsCheckpointableId("run-7_B"));
  EXPECT_FALSE(IsCheckpointableId(""));
  EXPECT_FALSE(IsCheckpointableId(".hidden"));
  EXPECT_FALSE(IsCheckpointableId("a/b"));
  EXPECT_FALSE(IsCheckpointableId(".."));
  EXPECT_FALSE(IsCheckpointableId(std::string(129, 'a')));
}

class CheckpointFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    // One directory per test: ctest runs the tests in parallel.
    dir_ = ::testing::TempDir() + "/moreau_checkpoint_files_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
           std::to_string(getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  std::string dir_;
};

TEST_F(CheckpointFiles, WriteFileAtomicallyReplacesTheFileAndLeavesNoTemporary) {
  ASSERT_TRUE(WriteFileAtomically(dir_, "a.ckpt", "first").ok());
  ASSERT_TRUE(WriteFileAtomically(dir_, "a.ckpt", "second, longer").ok());
  auto read = ReadWholeFile(dir_ + "/a.ckpt");
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, "second, longer");
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().filename(), "a.ckpt");
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST_F(CheckpointFiles, WriteIntoAMissingDirectoryNamesThePath) {
  const std::string missing = dir_ + "/missing";
  const absl::Status status = WriteFileAtomically(missing, "a.ckpt", "x");
  EXPECT_EQ(status.code(), StatusCode::kUnavailable);
  EXPECT_NE(status.message().find(missing + "/.a.ckpt.tmp"), std::string::npos) << status;
  EXPECT_EQ(ReadWholeFile(missing + "/a.ckpt").status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace moreau::server
