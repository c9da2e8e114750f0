#include "tests/unit/control/synthetic_quadruped.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/model/loader.h"

namespace moreau::testing {
namespace {

constexpr double kGravity = 9.81;

// <inertial> of a solid box of mass m and size (x, y, z) centred at `origin`.
std::string BoxInertial(double m, double x, double y, double z, const std::string& origin) {
  return absl::StrFormat(
      "    <inertial>\n      <origin xyz=\"%s\" rpy=\"0 0 0\"/>\n      <mass value=\"%.6g\"/>\n"
      "      <inertia ixx=\"%.6g\" ixy=\"0\" ixz=\"0\" iyy=\"%.6g\" iyz=\"0\" izz=\"%.6g\"/>\n"
      "    </inertial>\n",
      origin, m, m * (y * y + z * z) / 12.0, m * (x * x + z * z) / 12.0,
      m * (x * x + y * y) / 12.0);
}

std::string BoxVisual(double x, double y, double z, const std::string& origin) {
  return absl::StrFormat(
      "    <visual>\n      <origin xyz=\"%s\" rpy=\"0 0 0\"/>\n"
      "      <geometry><box size=\"%.6g %.6g %.6g\"/></geometry>\n    </visual>\n",
      origin, x, y, z);
}

std::string Joint(const std::string& name, const std::string& parent, const std::string& child,
                  const std::string& origin, const char* axis, double lower, double upper,
                  double effort) {
  return absl::StrFormat(
      "  <joint name=\"%s\" type=\"revolute\">\n    <origin xyz=\"%s\" rpy=\"0 0 0\"/>\n"
      "    <parent link=\"%s\"/>\n    <child link=\"%s\"/>\n    <axis xyz=\"%s\"/>\n"
      "    <limit effort=\"%.6g\" lower=\"%.6g\" upper=\"%.6g\" velocity=\"30\"/>\n  </joint>\n",
      name, origin, parent, child, axis, effort, lower, upper);
}

}  // namespace

SyntheticQuadruped SyntheticQuadrupedOfMass(double mass) {
  SyntheticQuadruped spec;
  const double s = std::cbrt(mass / spec.mass);
  spec.name = absl::StrFormat("synthetic_%gkg", mass);
  spec.mass = mass;
  spec.thigh *= s;
  spec.shank *= s;
  spec.trunk_length *= s;
  spec.trunk_width *= s;
  spec.trunk_height *= s;
  spec.hip_offset *= s;
  spec.foot_radius *= s;
  return spec;
}

std::string SyntheticQuadrupedUrdf(const SyntheticQuadruped& q) {
  const double m_abduction = q.abduction_mass_fraction * q.mass;
  const double m_thigh = q.thigh_mass_fraction * q.mass;
  const double m_shank = q.shank_mass_fraction * q.mass;
  const double m_foot = 0.05 * m_shank;
  const double m_trunk = q.mass - 4.0 * (m_abduction + m_thigh + m_shank + m_foot);
  const double effort =
      q.effort_limit > 0.0 ? q.effort_limit : q.mass * kGravity * (q.thigh + q.shank) / 2.0;
  const double link = 0.1 * (q.thigh + q.shank);  // a link's cross-section
  std::string urdf = absl::StrCat("<?xml version=\"1.0\"?>\n<robot name=\"", q.name, "\">\n");
  absl::StrAppend(&urdf, "  <link name=\"trunk\">\n",
                  BoxVisual(q.trunk_length, q.trunk_width, q.trunk_height, "0 0 0"),
                  absl::StrFormat("    <collision>\n      <origin xyz=\"0 0 0\" rpy=\"0 0 0\"/>\n"
                                  "      <geometry><box size=\"%.6g %.6g %.6g\"/></geometry>\n"
                                  "    </collision>\n",
                                  q.trunk_length, q.trunk_width, q.trunk_height),
                  BoxInertial(m_trunk, q.trunk_length, q.trunk_width, q.trunk_height, "0 0 0"),
                  "  </link>\n");
  for (const char* leg : {"FR", "FL", "RR", "RL"}) {
    const double x = leg[0] == 'F' ? 0.5 * q.trunk_length : -0.5 * q.trunk_length;
    const double side = leg[1] == 'L' ? 1.0 : -1.0;
    const double y = side * 0.5 * q.trunk_width;
    const std::string name(leg);
    // Abduction about +x at the trunk's corner; its link reaches out to the leg plane.
    absl::StrAppend(
        &urdf,
        Joint(name + "_hip_joint", "trunk", name + "_hip", absl::StrFormat("%.6g %.6g 0", x, y),
              "1 0 0", -0.8, 0.8, effort),
        "  <link name=\"", name, "_hip\">\n",
        BoxVisual(link, q.hip_offset, link, absl::StrFormat("0 %.6g 0", side * 0.5 * q.hip_offset)),
        BoxInertial(m_abduction, link, q.hip_offset, link,
                    absl::StrFormat("0 %.6g 0", side * 0.5 * q.hip_offset)),
        "  </link>\n");
    // Hip about +y in the leg plane; the thigh hangs down.
    absl::StrAppend(
        &urdf,
        Joint(name + "_thigh_joint", name + "_hip", name + "_thigh",
              absl::StrFormat("0 %.6g 0", side * q.hip_offset), "0 1 0", -1.05, 4.19, effort),
        "  <link name=\"", name, "_thigh\">\n",
        BoxVisual(link, 0.7 * link, q.thigh, absl::StrFormat("0 0 %.6g", -0.5 * q.thigh)),
        BoxInertial(m_thigh, link, 0.7 * link, q.thigh,
                    absl::StrFormat("0 0 %.6g", -0.5 * q.thigh)),
        "  </link>\n");
    // Knee about +y, bending backward (negative angles), the A1's range.
    absl::StrAppend(
        &urdf,
        Joint(name + "_calf_joint", name + "_thigh", name + "_calf",
              absl::StrFormat("0 0 %.6g", -q.thigh), "0 1 0", -2.7, -0.5, effort),
        "  <link name=\"", name, "_calf\">\n",
        BoxVisual(0.6 * link, 0.5 * link, q.shank, absl::StrFormat("0 0 %.6g", -0.5 * q.shank)),
        BoxInertial(m_shank, 0.6 * link, 0.5 * link, q.shank,
                    absl::StrFormat("0 0 %.6g", -0.5 * q.shank)),
        "  </link>\n");
    // The foot: a sphere (the contact point) at the shank's end.
    const double r = q.foot_radius;
    const double i_foot = 0.4 * m_foot * r * r;
    absl::StrAppend(
        &urdf, "  <joint name=\"", name, "_foot_fixed\" type=\"fixed\">\n",
        absl::StrFormat("    <origin xyz=\"0 0 %.6g\" rpy=\"0 0 0\"/>\n", -q.shank),
        "    <parent link=\"", name, "_calf\"/>\n    <child link=\"", name, "_foot\"/>\n",
        "  </joint>\n  <link name=\"", name, "_foot\">\n",
        absl::StrFormat("    <collision>\n      <origin xyz=\"0 0 0\" rpy=\"0 0 0\"/>\n"
                        "      <geometry><sphere radius=\"%.6g\"/></geometry>\n    </collision>\n"
                        "    <inertial>\n      <origin xyz=\"0 0 0\" rpy=\"0 0 0\"/>\n"
                        "      <mass value=\"%.6g\"/>\n      <inertia ixx=\"%.6g\" ixy=\"0\" "
                        "ixz=\"0\" iyy=\"%.6g\" iyz=\"0\" izz=\"%.6g\"/>\n    </inertial>\n",
                        r, m_foot, i_foot, i_foot, i_foot),
        "  </link>\n");
  }
  absl::StrAppend(&urdf, "</robot>\n");
  return urdf;
}

absl::StatusOr<std::shared_ptr<const Model>> LoadSyntheticQuadruped(
    const SyntheticQuadruped& spec) {
  return LoadUrdfString(SyntheticQuadrupedUrdf(spec));
}

}  // namespace moreau::testing
