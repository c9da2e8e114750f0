#include "engine/model/mesh_file.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace moreau::model_internal {
namespace {

namespace fs = std::filesystem;

bool Exists(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

absl::Status BadMesh(const std::string& path, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("mesh file '", path, "': ", what));
}

// Three numbers from the words after `first` on a line ("v x y z", "vertex x y z").
bool ParseXyz(const std::vector<absl::string_view>& words, size_t first, Vec3& out) {
  if (words.size() < first + 3) return false;
  for (int i = 0; i < 3; ++i) {
    double x = 0.0;
    if (!absl::SimpleAtod(words[first + i], &x) || !std::isfinite(x)) return false;
    out[i] = x;
  }
  return true;
}

absl::StatusOr<std::vector<Vec3>> ReadTextVertices(const std::string& path, const std::string& text,
                                                   absl::string_view keyword) {
  std::vector<Vec3> vertices;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    const std::vector<absl::string_view> words = absl::StrSplit(
        absl::StripAsciiWhitespace(line), absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    if (words.empty() || words[0] != keyword) continue;
    Vec3 v;
    if (!ParseXyz(words, 1, v)) {
      return BadMesh(path, absl::StrCat("line ", line_number, ": expected '", keyword,
                                        " x y z' with finite numbers"));
    }
    vertices.push_back(v);
  }
  return vertices;
}

absl::StatusOr<std::vector<Vec3>> ReadBinaryStl(const std::string& path, const std::string& data,
                                                uint32_t triangles) {
  std::vector<Vec3> vertices;
  vertices.reserve(3 * static_cast<size_t>(triangles));
  for (uint32_t t = 0; t < triangles; ++t) {
    // 50 bytes per triangle: normal (3 floats), 3 vertices (3 floats each),
    // attribute count (uint16); little-endian IEEE floats.
    const char* record = data.data() + 84 + 50 * static_cast<size_t>(t);
    for (int v = 0; v < 3; ++v) {
      float xyz[3];
      std::memcpy(xyz, record + 12 + 12 * v, sizeof(xyz));
      const Vec3 p(xyz[0], xyz[1], xyz[2]);
      if (!p.allFinite()) {
        return BadMesh(path, absl::StrCat("triangle ", t, " has a non-finite vertex"));
      }
      vertices.push_back(p);
    }
  }
  return vertices;
}

}  // namespace

std::string ResolveMeshPath(std::string_view filename_std, const std::string& directory) {
  absl::string_view filename(filename_std.data(), filename_std.size());
  const fs::path dir = directory.empty() ? fs::path(".") : fs::path(directory);
  if (absl::ConsumePrefix(&filename, "file://")) return std::string(filename);
  if (absl::ConsumePrefix(&filename, "package://")) {
    const size_t slash = filename.find('/');
    const std::string package(filename.substr(0, slash));
    const std::string rest(slash == absl::string_view::npos ? absl::string_view()
                                                            : filename.substr(slash + 1));
    std::error_code ec;
    fs::path ancestor = fs::absolute(dir, ec);
    for (int depth = 0; depth < 64 && !ancestor.empty(); ++depth) {
      if (ancestor.filename() == package && Exists(ancestor / rest)) {
        return (ancestor / rest).string();
      }
      if (Exists(ancestor / package / rest)) return (ancestor / package / rest).string();
      if (ancestor == ancestor.parent_path()) break;
      ancestor = ancestor.parent_path();
    }
    return (dir / rest).string();
  }
  const fs::path p{std::string(filename)};
  if (p.is_absolute()) return p.string();
  return (dir / p).string();
}

absl::StatusOr<std::vector<Vec3>> ReadMeshVertices(const std::string& path) {
  std::error_code ec;
  if (!Exists(path)) {
    return absl::NotFoundError(absl::StrCat("mesh file '", path, "': no such file"));
  }
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec || size > static_cast<std::uintmax_t>(kMaxMeshFileBytes)) {
    return BadMesh(path, absl::StrCat("larger than ", kMaxMeshFileBytes, " bytes"));
  }
  std::ifstream file(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << file.rdbuf();
  if (!file) return BadMesh(path, "cannot read");
  const std::string data = buffer.str();
  const std::string extension = absl::AsciiStrToLower(fs::path(path).extension().string());
  absl::StatusOr<std::vector<Vec3>> vertices;
  if (extension == ".obj") {
    vertices = ReadTextVertices(path, data, "v");
  } else if (extension == ".stl") {
    uint32_t triangles = 0;
    if (data.size() >= 84) std::memcpy(&triangles, data.data() + 80, sizeof(triangles));
    if (data.size() >= 84 && data.size() == 84 + 50 * static_cast<uint64_t>(triangles)) {
      vertices = ReadBinaryStl(path, data, triangles);
    } else if (absl::StartsWith(absl::StripLeadingAsciiWhitespace(data), "solid")) {
      vertices = ReadTextVertices(path, data, "vertex");
    } else {
      return BadMesh(path, "neither a binary STL (84 + 50 n bytes) nor an ASCII STL ('solid')");
    }
  } else {
    return BadMesh(
        path, absl::StrCat("unsupported mesh format '", extension, "' (expected .stl or .obj)"));
  }
  if (!vertices.ok()) return vertices.status();
  if (vertices->empty()) return BadMesh(path, "no vertex");
  return vertices;
}

}  // namespace moreau::model_internal
