#include "tests/unit/model/limit_urdfs.h"

#include "absl/strings/str_cat.h"

namespace moreau::testing {
namespace {

constexpr char kInertial[] =
    R"(<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>)";

}  // namespace

std::string ChainUrdf(int links, int spheres) {
  std::string xml = "<robot name=\"chain\">";
  for (int i = 0; i < links; ++i) {
    absl::StrAppend(&xml, "<link name=\"l", i, "\">", kInertial);
    for (int s = 0; i == links - 1 && s < spheres; ++s) {
      absl::StrAppend(&xml, "<collision><origin xyz=\"0 0 ", 0.01 * s,
                      "\"/><geometry><sphere radius=\"0.01\"/></geometry></collision>");
    }
    absl::StrAppend(&xml, "</link>");
  }
  for (int i = 1; i < links; ++i) {
    absl::StrAppend(&xml, "<joint name=\"j", i, "\" type=\"revolute\"><parent link=\"l", i - 1,
                    "\"/><child link=\"l", i, "\"/><axis xyz=\"0 0 1\"/></joint>");
  }
  return xml + "</robot>";
}

std::string NestedUrdf(int depth) {
  std::string xml = absl::StrCat("<robot name=\"r\"><link name=\"a\">", kInertial);
  for (int d = 2; d < depth; ++d) xml += "<x>";
  for (int d = 2; d < depth; ++d) xml += "</x>";
  return xml + "</link></robot>";
}

}  // namespace moreau::testing
