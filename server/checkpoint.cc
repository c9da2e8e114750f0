#include "server/checkpoint.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "engine/sim/state.h"
#include "engine/util/byte_io.h"

namespace moreau::server {
namespace {

constexpr char kMagic[8] = {'M', 'O', 'R', 'E', 'A', 'U', 'C', 'K'};
constexpr size_t kHeaderSize = 32;
constexpr size_t kTrailerSize = 4;  // the CRC

// CRC-32C: the Castagnoli polynomial 0x1EDC6F41, reflected (0x82F63B78),
// initial value and final XOR 0xFFFFFFFF (RFC 3720 § B.4), one table lookup
// per byte.
constexpr std::array<uint32_t, 256> MakeCrc32cTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    table[i] = c;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kCrc32cTable = MakeCrc32cTable();

// FNV-1a, 64 bits (Fowler, Noll, Vo: offset basis 14695981039346656037,
// prime 1099511628211).
class Fnv1a {
 public:
  void Bytes(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    for (size_t i = 0; i < n; ++i) hash_ = (hash_ ^ b[i]) * 1099511628211ull;
  }
  void I64(int64_t x) { Bytes(&x, sizeof x); }
  void F64(double x) { Bytes(&x, sizeof x); }
  void Str(std::string_view s) {
    I64(static_cast<int64_t>(s.size()));
    Bytes(s.data(), s.size());
  }
  template <typename Derived>
  void Dense(const Eigen::DenseBase<Derived>& m) {
    I64(m.rows());
    I64(m.cols());
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      for (Eigen::Index r = 0; r < m.rows(); ++r) F64(m(r, c));
    }
  }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 14695981039346656037ull;
};

std::string ErrnoText(int error) { return std::strerror(error); }

absl::Status SystemError(const char* what, const std::string& path, int error) {
  const std::string message = absl::StrCat(what, " ", path, ": ", ErrnoText(error));
  return error == ENOSPC || error == EDQUOT ? absl::ResourceExhaustedError(message)
                                            : absl::UnavailableError(message);
}

}  // namespace

uint32_t Crc32c(std::string_view bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (const char ch : bytes) {
    crc = kCrc32cTable[(crc ^ static_cast<uint8_t>(ch)) & 0xFFu] ^ (crc >> 8);
  }
  return crc ^ 0xFFFFFFFFu;
}

std::string EncodeCheckpoint(const CheckpointRecord& record) {
  ByteWriter payload;
  payload.Str(record.id);
  payload.Str(record.tenant);
  payload.Str(record.source.SerializeAsString());
  payload.Str(record.settings.SerializeAsString());
  payload.Str(record.state);
  payload.Str(record.diverged_message);
  payload.U8(record.diverged ? 1 : 0);

  ByteWriter file;
  file.Bytes(kMagic, sizeof kMagic);
  file.U32(kCheckpointFormatVersion);
  file.U32(sim::kStateFormatVersion);
  file.U64(record.model_fingerprint);
  file.U64(payload.bytes().size());
  file.Bytes(payload.bytes().data(), payload.bytes().size());
  file.U32(Crc32c(file.bytes()));
  return file.Take();
}

absl::StatusOr<CheckpointRecord> DecodeCheckpoint(std::string_view bytes) {
  // A file too short for the magic is a truncated checkpoint when what it
  // holds starts the magic, else a foreign file.
  const size_t magic_bytes = std::min(bytes.size(), sizeof kMagic);
  if (magic_bytes > 0 && std::memcmp(bytes.data(), kMagic, magic_bytes) != 0) {
    return absl::DataLossError("not a moreaud checkpoint (bad magic)");
  }
  if (bytes.size() < kHeaderSize + kTrailerSize) {
    return absl::DataLossError(absl::StrCat("truncated: ", bytes.size(),
                                            " bytes, shorter than the ", kHeaderSize + kTrailerSize,
                                            "-byte minimum"));
  }
  ByteReader header(bytes.substr(sizeof kMagic, kHeaderSize - sizeof kMagic));
  uint32_t format_version = 0, state_version = 0;
  uint64_t fingerprint = 0, payload_size = 0;
  header.U32(format_version);
  header.U32(state_version);
  header.U64(fingerprint);
  header.U64(payload_size);
  if (format_version != kCheckpointFormatVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        "checkpoint format version ", format_version,
        " is not supported (this server reads version ", kCheckpointFormatVersion, ")"));
  }
  const uint64_t available = bytes.size() - kHeaderSize - kTrailerSize;
  if (payload_size > available) {
    return absl::DataLossError(absl::StrCat("truncated: ", bytes.size(), " bytes of ",
                                            kHeaderSize + kTrailerSize + payload_size));
  }
  if (payload_size < available) {
    return absl::DataLossError(
        absl::StrCat(available - payload_size, " trailing bytes after the checksum"));
  }
  const size_t covered = kHeaderSize + payload_size;
  uint32_t stored_crc = 0;
  std::memcpy(&stored_crc, bytes.data() + covered, sizeof stored_crc);
  const uint32_t crc = Crc32c(bytes.substr(0, covered));
  if (crc != stored_crc) {
    return absl::DataLossError(absl::StrCat("checksum mismatch (CRC-32C ", absl::Hex(crc),
                                            ", stored ", absl::Hex(stored_crc),
                                            "): the file is corrupt"));
  }
  if (state_version < 1 || state_version > sim::kStateFormatVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        "state version ", state_version, " is not supported (this server reads versions 1 to ",
        sim::kStateFormatVersion, ")"));
  }

  CheckpointRecord record;
  record.model_fingerprint = fingerprint;
  record.state_version = state_version;
  ByteReader payload(bytes.substr(kHeaderSize, payload_size));
  std::string source, settings;
  uint8_t diverged = 0;
  if (!payload.Str(record.id) || !payload.Str(record.tenant) || !payload.Str(source) ||
      !payload.Str(settings) || !payload.Str(record.state) ||
      !payload.Str(record.diverged_message) || !payload.U8(diverged) || !payload.AtEnd() ||
      diverged > 1) {
    return absl::DataLossError("malformed payload (field sizes do not add up)");
  }
  if (!record.source.ParseFromString(source)) {
    return absl::DataLossError("the model source does not parse");
  }
  if (!record.settings.ParseFromString(settings)) {
    return absl::DataLossError("the settings do not parse");
  }
  if (!IsCheckpointableId(record.id)) {
    return absl::DataLossError(absl::StrCat("malformed instance id '", record.id, "'"));
  }
  record.diverged = diverged == 1;
  return record;
}

uint64_t ModelFingerprint(const Model& m) {
  Fnv1a h;
  h.I64(m.floating_base ? 1 : 0);
  h.I64(m.nq);
  h.I64(m.nv);
  h.I64(m.nbodies);
  for (int i = 0; i < m.nbodies; ++i) {
    const size_t b = static_cast<size_t>(i);
    h.I64(m.parent[b]);
    h.I64(m.body_joint[b]);
    h.I64(static_cast<int64_t>(m.joint_type[b]));
    h.Dense(m.joint_axis[b]);
    h.I64(m.q_index[b]);
    h.I64(m.v_index[b]);
    h.Dense(m.X_tree[b].E);
    h.Dense(m.X_tree[b].r);
    h.F64(m.inertia[b].mass);
    h.Dense(m.inertia[b].h);
    h.Dense(m.inertia[b].Ibar);
  }
  h.I64(static_cast<int64_t>(m.joints.size()));
  for (const Joint& j : m.joints) {
    h.Str(j.name);
    h.I64(static_cast<int64_t>(j.type));
    h.I64(j.continuous ? 1 : 0);
    h.I64(j.body);
    h.I64(j.q_index);
    h.I64(j.v_index);
    h.I64(j.nq);
    h.I64(j.nv);
    h.Dense(j.axis);
    h.I64(j.limits.has_position_limits ? 1 : 0);
    h.F64(j.limits.lower);
    h.F64(j.limits.upper);
    h.F64(j.limits.velocity);
    h.F64(j.limits.effort);
    h.F64(j.damping);
    h.F64(j.friction);
  }
  h.I64(static_cast<int64_t>(m.nu()));
  for (const Actuator& a : m.actuators) {
    h.Str(a.name);
    h.I64(a.joint);
    h.F64(a.gear);
    h.F64(a.rotor_inertia);
    h.F64(a.effort_limit);
  }
  h.I64(static_cast<int64_t>(m.geoms.size()));
  for (const Geom& g : m.geoms) {
    h.I64(g.body);
    h.I64(static_cast<int64_t>(g.type));
    h.Dense(g.rotation);
    h.Dense(g.position);
    h.Dense(g.size);
  }
  h.I64(static_cast<int64_t>(m.contact_points.size()));
  for (const ContactPoint& c : m.contact_points) {
    h.Str(c.name);
    h.I64(c.body);
    h.Dense(c.position);
    h.F64(c.radius);
  }
  h.I64(static_cast<int64_t>(m.loop_closures.size()));
  for (const LoopClosure& l : m.loop_closures) {
    h.I64(static_cast<int64_t>(l.type));
    h.I64(l.body_a);
    h.I64(l.body_b);
    h.Dense(l.point_a);
    h.Dense(l.point_b);
    h.Dense(l.axis_a);
    h.Dense(l.axis_b);
  }
  h.Dense(m.armature);
  h.Dense(m.gravity);
  h.Dense(m.q_default);
  h.F64(m.default_base_height);
  return h.value();
}

bool IsCheckpointableId(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  for (const char c : id) {
    const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string TemporaryName(const std::string& name) { return absl::StrCat(".", name, ".tmp"); }

absl::Status WriteAndRename(const std::string& dir, const std::string& name,
                            std::string_view bytes) {
  const std::string tmp = absl::StrCat(dir, "/", TemporaryName(name));
  const std::string path = absl::StrCat(dir, "/", name);
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return SystemError("cannot create", tmp, errno);
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      close(fd);
      unlink(tmp.c_str());
      return SystemError("cannot write", tmp, error);
    }
    written += static_cast<size_t>(n);
  }
  // fsync before the rename: the new name must never point at unwritten data.
  if (fsync(fd) != 0) {
    const int error = errno;
    close(fd);
    unlink(tmp.c_str());
    return SystemError("cannot fsync", tmp, error);
  }
  if (close(fd) != 0) {
    const int error = errno;
    unlink(tmp.c_str());
    return SystemError("cannot close", tmp, error);
  }
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    unlink(tmp.c_str());
    return SystemError("cannot rename to", path, error);
  }
  return absl::OkStatus();
}

absl::Status SyncDirectory(const std::string& dir) {
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return SystemError("cannot open directory", dir, errno);
  const int rc = fsync(fd);
  const int error = errno;
  close(fd);
  if (rc != 0) return SystemError("cannot fsync directory", dir, error);
  return absl::OkStatus();
}

absl::Status WriteFileAtomically(const std::string& dir, const std::string& name,
                                 std::string_view bytes) {
  if (absl::Status s = WriteAndRename(dir, name, bytes); !s.ok()) return s;
  return SyncDirectory(dir);
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return SystemError("cannot open", path, errno);
  std::string out;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      return SystemError("cannot read", path, error);
    }
    if (n == 0) break;
    out.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return out;
}

}  // namespace moreau::server
