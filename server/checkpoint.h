// Checkpoint files: one instance — id, tenant, model source, settings, state,
// diverged flag — in a versioned, checksummed byte format, and the file I/O
// that writes them atomically (POSIX: temporary file, fsync, rename, fsync of
// the directory) so that a crash leaves either the old file or the new one.
//
// Layout (integers little-endian):
//   offset  size
//        0     8  magic "MOREAUCK"
//        8     4  format version (kCheckpointFormatVersion)
//       12     4  state version: sim::kStateFormatVersion of the state blob
//       16     8  model fingerprint (ModelFingerprint of the simulation's model)
//       24     8  payload size P
//       32     P  payload: id, tenant, ModelSource, Settings (protobuf bytes),
//                 state blob, diverged message, each a u32 size then bytes;
//                 then the diverged flag (u8)
//   32 + P     4  CRC-32C (Castagnoli, RFC 3720 § B.4) of bytes [0, 32 + P)
#ifndef MOREAU_SERVER_CHECKPOINT_H_
#define MOREAU_SERVER_CHECKPOINT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/model/model.h"
#include "moreau/v1/simulator.pb.h"

namespace moreau::server {

inline constexpr uint32_t kCheckpointFormatVersion = 1;
// A checkpoint's file name: the instance id and this suffix.
inline constexpr char kCheckpointSuffix[] = ".ckpt";

struct CheckpointRecord {
  std::string id;
  std::string tenant;  // "" when the server runs without tokens
  v1::ModelSource source;
  v1::Settings settings;
  uint64_t model_fingerprint = 0;
  uint32_t state_version = 0;  // filled by DecodeCheckpoint
  std::string state;           // sim::Simulation::Snapshot()
  bool diverged = false;
  std::string diverged_message;
};

// The file's bytes (state_version is written as sim::kStateFormatVersion).
std::string EncodeCheckpoint(const CheckpointRecord& record);

// The record in `bytes`; DATA_LOSS for a foreign file (bad magic), a
// truncated one, trailing bytes or a checksum mismatch; FAILED_PRECONDITION
// for a format or state version this server does not read. The message says
// which, with the sizes or versions involved.
absl::StatusOr<CheckpointRecord> DecodeCheckpoint(std::string_view bytes);

// A 64-bit FNV-1a hash of everything in `model` that the dynamics read (tree,
// placements, inertias, joints and their limits, actuators, contact points,
// geoms, loop closures, armature, gravity, default pose): a checkpoint taken
// under one model restores only under a model with the same fingerprint.
uint64_t ModelFingerprint(const Model& model);

// CRC-32C (Castagnoli) of `bytes`, as iSCSI computes it (RFC 3720 § B.4).
uint32_t Crc32c(std::string_view bytes);

// Whether `id` may name a checkpoint file: 1 to 128 characters of
// [0-9A-Za-z_-] (no path separators, no leading dot).
bool IsCheckpointableId(std::string_view id);

// Writes `bytes` to dir/name through dir/.name.tmp: write, fsync, rename.
// The rename is durable once the directory is synced (SyncDirectory).
// The message names the path and the system error.
absl::Status WriteAndRename(const std::string& dir, const std::string& name,
                            std::string_view bytes);
// fsync of the directory itself, so that renames and removals in it survive a
// power loss.
absl::Status SyncDirectory(const std::string& dir);
// WriteAndRename then SyncDirectory.
absl::Status WriteFileAtomically(const std::string& dir, const std::string& name,
                                 std::string_view bytes);
// The whole file.
absl::StatusOr<std::string> ReadWholeFile(const std::string& path);
// The temporary name WriteAndRename uses for `name`.
std::string TemporaryName(const std::string& name);

}  // namespace moreau::server

#endif  // MOREAU_SERVER_CHECKPOINT_H_
