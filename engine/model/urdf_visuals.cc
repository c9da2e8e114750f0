#include "engine/model/urdf_visuals.h"

#include <tinyxml.h>
#include <urdf_model/pose.h>

#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "engine/util/clip_text.h"

namespace moreau::model_internal {
namespace {

using Rgba = std::array<double, 4>;

// Warnings past this many are counted in one last line: a hostile document
// of malformed visuals must not make a spec of warnings.
constexpr int kMaxWarnings = 20;

// The most bytes of the document a warning quotes: warnings do not grow
// with it.
constexpr size_t kMaxQuoted = 80;

std::string Quote(const std::string& text) {
  return absl::StrCat("'", ClipText(text, kMaxQuoted), "'");
}

std::string AttributeOf(const TiXmlElement& element, const char* name) {
  const char* value = element.Attribute(name);
  return value != nullptr ? value : "";
}

// The whitespace-separated numbers of `text`: exactly `count` finite ones,
// each ≥ 0 when `non_negative`; InvalidArgument quoting `field` otherwise.
absl::StatusOr<std::vector<double>> Numbers(absl::string_view field, const std::string& text,
                                            size_t count, bool non_negative) {
  std::vector<double> values;
  for (absl::string_view word :
       absl::StrSplit(text, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty())) {
    double x = 0.0;
    if (!absl::SimpleAtod(word, &x) || !std::isfinite(x) || (non_negative && x < 0.0)) {
      values.clear();
      break;
    }
    values.push_back(x);
  }
  if (values.size() == count) return values;
  return absl::InvalidArgumentError(
      absl::StrCat(field, " ", Quote(text), " is not ", count == 1 ? "a" : absl::StrCat(count),
                   " finite number", count == 1 ? "" : "s", non_negative ? " ≥ 0" : ""));
}

// The <color rgba> of a <material>; nullopt when it has no <color>.
absl::StatusOr<std::optional<Rgba>> ReadColor(const TiXmlElement& material) {
  const TiXmlElement* color = material.FirstChildElement("color");
  if (color == nullptr) return std::nullopt;
  if (color->Attribute("rgba") == nullptr) {
    return absl::InvalidArgumentError("<color> has no rgba");
  }
  absl::StatusOr<std::vector<double>> values =
      Numbers("color rgba", AttributeOf(*color, "rgba"), 4, /*non_negative=*/true);
  if (!values.ok()) return values.status();
  Rgba rgba;
  for (size_t k = 0; k < 4; ++k) {
    if ((*values)[k] > 1.0) {
      return absl::InvalidArgumentError(
          absl::StrCat("color rgba ", Quote(AttributeOf(*color, "rgba")), " is not in [0, 1]"));
    }
    rgba[k] = (*values)[k];
  }
  return std::optional<Rgba>(rgba);
}

// The pose of the visual's <origin> in the link frame: R from roll, pitch,
// yaw about the fixed x, y, z axes (R = Rz(y) Ry(p) Rx(r)), computed as
// urdfdom does for collisions (link_tree.cc), so that equal origins give
// equal poses.
absl::Status ReadOrigin(const TiXmlElement& visual, VisualShape& shape) {
  const TiXmlElement* origin = visual.FirstChildElement("origin");
  if (origin == nullptr) return absl::OkStatus();
  std::vector<double> xyz = {0.0, 0.0, 0.0};
  std::vector<double> rpy = {0.0, 0.0, 0.0};
  if (origin->Attribute("xyz") != nullptr) {
    absl::StatusOr<std::vector<double>> read =
        Numbers("origin xyz", AttributeOf(*origin, "xyz"), 3, /*non_negative=*/false);
    if (!read.ok()) return read.status();
    xyz = *std::move(read);
  }
  if (origin->Attribute("rpy") != nullptr) {
    absl::StatusOr<std::vector<double>> read =
        Numbers("origin rpy", AttributeOf(*origin, "rpy"), 3, /*non_negative=*/false);
    if (!read.ok()) return read.status();
    rpy = *std::move(read);
  }
  urdf::Rotation rotation;
  rotation.setFromRPY(rpy[0], rpy[1], rpy[2]);
  shape.rotation = Eigen::Quaterniond(rotation.w, rotation.x, rotation.y, rotation.z)
                       .normalized()
                       .toRotationMatrix();
  shape.position = Vec3(xyz[0], xyz[1], xyz[2]);
  return absl::OkStatus();
}

absl::Status ReadGeometry(const TiXmlElement& visual, VisualShape& shape) {
  const TiXmlElement* geometry = visual.FirstChildElement("geometry");
  if (geometry == nullptr) return absl::InvalidArgumentError("no <geometry>");
  const TiXmlElement* element = geometry->FirstChildElement();
  if (element == nullptr) return absl::InvalidArgumentError("<geometry> is empty");
  const std::string& kind = element->ValueStr();
  const auto number = [&](const char* attribute, size_t count,
                          bool non_negative) -> absl::StatusOr<std::vector<double>> {
    if (element->Attribute(attribute) == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("<", kind, "> has no ", attribute));
    }
    return Numbers(absl::StrCat(kind, " ", attribute), AttributeOf(*element, attribute), count,
                   non_negative);
  };
  if (kind == "box") {
    absl::StatusOr<std::vector<double>> size = number("size", 3, true);
    if (!size.ok()) return size.status();
    shape.type = GeomType::kBox;
    shape.size = Vec3((*size)[0], (*size)[1], (*size)[2]);
  } else if (kind == "sphere") {
    absl::StatusOr<std::vector<double>> radius = number("radius", 1, true);
    if (!radius.ok()) return radius.status();
    shape.type = GeomType::kSphere;
    shape.size = Vec3((*radius)[0], 0.0, 0.0);
  } else if (kind == "cylinder") {
    absl::StatusOr<std::vector<double>> radius = number("radius", 1, true);
    if (!radius.ok()) return radius.status();
    absl::StatusOr<std::vector<double>> length = number("length", 1, true);
    if (!length.ok()) return length.status();
    shape.type = GeomType::kCylinder;
    shape.size = Vec3((*radius)[0], (*length)[0], 0.0);
  } else if (kind == "mesh") {
    shape.type = GeomType::kMesh;
    shape.mesh = AttributeOf(*element, "filename");
    if (shape.mesh.empty()) return absl::InvalidArgumentError("<mesh> has no filename");
    shape.size = Vec3::Ones();
    if (element->Attribute("scale") != nullptr) {
      absl::StatusOr<std::vector<double>> scale = number("scale", 3, false);
      if (!scale.ok()) return scale.status();
      shape.size = Vec3((*scale)[0], (*scale)[1], (*scale)[2]);
    }
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("geometry <", ClipText(kind, kMaxQuoted),
                     "> is not supported (box, sphere, cylinder or mesh)"));
  }
  return absl::OkStatus();
}

// Calls f(link name, visual element, its 1-based place in the link) for
// every <visual> of every named <link> child of `robot`, in document order.
template <typename F>
void ForEachVisual(const TiXmlElement& robot, F f) {
  for (const TiXmlElement* link = robot.FirstChildElement("link"); link != nullptr;
       link = link->NextSiblingElement("link")) {
    const std::string name = AttributeOf(*link, "name");
    if (name.empty()) continue;  // urdfdom refuses the document
    int place = 0;
    for (const TiXmlElement* visual = link->FirstChildElement("visual"); visual != nullptr;
         visual = visual->NextSiblingElement("visual")) {
      f(name, *visual, ++place);
    }
  }
}

class WarningList {
 public:
  explicit WarningList(std::vector<std::string>& out) : out_(out) {}
  ~WarningList() {
    if (dropped_ > 0) {
      out_.push_back(absl::StrCat(dropped_, " more warnings about visuals not shown"));
    }
  }
  void Add(std::string warning) {
    if (shown_ < kMaxWarnings) {
      out_.push_back(std::move(warning));
      ++shown_;
    } else {
      ++dropped_;
    }
  }

 private:
  std::vector<std::string>& out_;
  int shown_ = 0;
  int dropped_ = 0;
};

}  // namespace

UrdfVisuals ReadUrdfVisuals(const TiXmlElement& robot) {
  UrdfVisuals out;
  {
    WarningList warnings(out.warnings);
    // <material>s of the robot: name → colour (unset: a texture, or a
    // malformed colour).
    std::map<std::string, std::optional<Rgba>> robot_materials;
    for (const TiXmlElement* material = robot.FirstChildElement("material"); material != nullptr;
         material = material->NextSiblingElement("material")) {
      const std::string name = AttributeOf(*material, "name");
      if (name.empty()) {
        warnings.Add("a <material> of the robot has no name: ignored");
        continue;
      }
      absl::StatusOr<std::optional<Rgba>> color = ReadColor(*material);
      if (!color.ok()) {
        warnings.Add(
            absl::StrCat("material ", Quote(name), ": ", color.status().message(), ": no colour"));
      }
      const auto [it, added] =
          robot_materials.emplace(name, color.ok() ? *color : std::optional<Rgba>());
      if (!added) {
        warnings.Add(absl::StrCat("material ", Quote(name),
                                  " is defined twice in the robot: the first one is used"));
      }
    }
    // Colours that visuals give a material name, the first of each name.
    std::map<std::string, Rgba> visual_colors;
    ForEachVisual(robot, [&](const std::string&, const TiXmlElement& visual, int) {
      const TiXmlElement* material = visual.FirstChildElement("material");
      if (material == nullptr || AttributeOf(*material, "name").empty()) return;
      absl::StatusOr<std::optional<Rgba>> color = ReadColor(*material);
      if (color.ok() && color->has_value()) {
        visual_colors.emplace(AttributeOf(*material, "name"), **color);
      }
    });

    ForEachVisual(robot, [&](const std::string& link, const TiXmlElement& visual, int place) {
      const std::string visual_name = AttributeOf(visual, "name");
      const std::string where =
          absl::StrCat("link ", Quote(link), ", visual ",
                       visual_name.empty() ? absl::StrCat(place) : Quote(visual_name));
      VisualShape shape;
      shape.link = link;
      absl::Status read = ReadGeometry(visual, shape);
      if (read.ok()) read = ReadOrigin(visual, shape);
      if (!read.ok()) {
        warnings.Add(absl::StrCat(where, ": ", read.message(), ": not drawn"));
        return;
      }
      if (const TiXmlElement* material = visual.FirstChildElement("material");
          material != nullptr) {
        shape.material = AttributeOf(*material, "name");
        absl::StatusOr<std::optional<Rgba>> color = ReadColor(*material);
        if (!color.ok()) {
          warnings.Add(
              absl::StrCat(where, ": ", color.status().message(), ": drawn without colour"));
        } else if (color->has_value()) {
          shape.rgba = *color;
        } else if (!shape.material.empty()) {
          if (const auto named = robot_materials.find(shape.material);
              named != robot_materials.end()) {
            shape.rgba = named->second;
          } else if (const auto given = visual_colors.find(shape.material);
                     given != visual_colors.end()) {
            shape.rgba = given->second;
          } else {
            warnings.Add(absl::StrCat(where, ": material ", Quote(shape.material),
                                      " is not defined: drawn without colour"));
          }
        }
      }
      out.shapes.push_back(std::move(shape));
    });
  }
  return out;
}

}  // namespace moreau::model_internal
