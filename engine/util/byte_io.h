// Little-endian byte writing and bounds-checked reading for the binary formats
// a client or a disk can hand back: state blobs and checkpoints.
#ifndef MOREAU_ENGINE_UTIL_BYTE_IO_H_
#define MOREAU_ENGINE_UTIL_BYTE_IO_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace moreau {

static_assert(std::endian::native == std::endian::little,
              "binary formats are little-endian; add byte swapping for big-endian hosts");

// Appends fixed-width values and length-prefixed strings to a byte string.
class ByteWriter {
 public:
  void Bytes(const void* p, size_t n) { out_.append(static_cast<const char*>(p), n); }
  void U8(uint8_t x) { Bytes(&x, sizeof x); }
  void U32(uint32_t x) { Bytes(&x, sizeof x); }
  void U64(uint64_t x) { Bytes(&x, sizeof x); }
  void F64(double x) { Bytes(&x, sizeof x); }
  // A 32-bit length, then the bytes.
  void Str(std::string_view s) {
    U32(static_cast<uint32_t>(s.size()));
    Bytes(s.data(), s.size());
  }
  const std::string& bytes() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what ByteWriter wrote; every read returns false, reading nothing, when
// fewer bytes remain than it needs.
class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}
  bool Bytes(void* p, size_t n) {
    if (in_.size() - pos_ < n) return false;
    std::memcpy(p, in_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  bool U8(uint8_t& x) { return Bytes(&x, sizeof x); }
  bool U32(uint32_t& x) { return Bytes(&x, sizeof x); }
  bool U64(uint64_t& x) { return Bytes(&x, sizeof x); }
  bool F64(double& x) { return Bytes(&x, sizeof x); }
  bool Str(std::string& s) {
    const size_t start = pos_;
    uint32_t n = 0;
    if (!U32(n) || in_.size() - pos_ < n) {
      pos_ = start;
      return false;
    }
    s.assign(in_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  bool AtEnd() const { return pos_ == in_.size(); }
  size_t Remaining() const { return in_.size() - pos_; }

 private:
  std::string_view in_;
  size_t pos_ = 0;
};

}  // namespace moreau

#endif  // MOREAU_ENGINE_UTIL_BYTE_IO_H_
