// The URDF size limits (urdf_limits.h) and the scan that checks them before
// any XML parser runs (xml_scan.h): each limit holds at its value and fails
// one past it with a LimitError naming the value, the limit and the flag;
// text nested far deeper than TinyXML's recursion can take fails cleanly.
#include <gtest/gtest.h>
#include <tinyxml.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/model/loader.h"
#include "engine/model/xml_scan.h"
#include "tests/unit/model/limit_urdfs.h"

namespace moreau {
namespace {

using model_internal::CheckUrdfText;
using model_internal::ScanXml;
using testing::ChainUrdf;
using testing::NestedUrdf;

constexpr char kInertial[] =
    R"(<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>)";

void ExpectLimit(const absl::Status& status, const std::vector<std::string>& needles) {
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_TRUE(IsLimitError(status)) << status;
  for (const std::string& needle : needles) {
    EXPECT_NE(status.message().find(needle), std::string::npos)
        << "'" << needle << "' not in: " << status.message();
  }
}

LoadOptions WithLimits(const UrdfLimits& limits) {
  LoadOptions options;
  options.limits = limits;
  return options;
}

TEST(UrdfLimits, DefaultsLoadEveryShippedRobot) {
  for (const char* path :
       {"/unitree_a1/a1.urdf", "/ur10/ur10_robot.urdf", "/mini_cheetah/mini_cheetah.urdf",
        "/acrobot/acrobot.urdf", "/cartpole/cartpole.urdf", "/pendulum/Pendulum.urdf",
        "/double_pendulum/double_pendulum.urdf", "/box/box.urdf", "/sphere/sphere2.urdf"}) {
    const auto model = LoadUrdfFile(std::string(MOREAU_MODELS_DIR) + path);
    EXPECT_TRUE(model.ok()) << path << ": " << model.status();
  }
}

TEST(UrdfLimits, DeepNestingFailsBeforeTheParser) {
  // 200000 levels: far past what TinyXML's recursive parser survives on an
  // 8 MB stack.
  std::string deep = "<robot name=\"r\">";
  for (int i = 0; i < 200000; ++i) deep += "<a>";
  deep += "</robot>";
  const auto model = LoadUrdfString(deep);
  ASSERT_FALSE(model.ok());
  ExpectLimit(model.status(), {"65 deep", "at most 64", "the server's --max-xml-depth"});
}

TEST(UrdfLimits, DepthAtTheLimitLoads) {
  UrdfLimits limits;
  limits.max_depth = 10;
  const auto at_limit = LoadUrdfString(NestedUrdf(10), WithLimits(limits));
  EXPECT_TRUE(at_limit.ok()) << at_limit.status();
  const auto model = LoadUrdfString(NestedUrdf(11), WithLimits(limits));
  ASSERT_FALSE(model.ok());
  ExpectLimit(model.status(), {"11 deep", "at most 10", "--max-xml-depth"});
  // An empty element counts as a level too.
  const std::string empty_leaf = "<robot name=\"r\"><link name=\"a\"><x/></link></robot>";
  limits.max_depth = 2;  // reached at <link>, exceeded at <x/>
  ExpectLimit(LoadUrdfString(empty_leaf, WithLimits(limits)).status(), {"3 deep"});
}

TEST(UrdfLimits, ElementCount) {
  const std::string xml = ChainUrdf(3);
  const auto counts = ScanXml(xml, 64);
  ASSERT_TRUE(counts.ok()) << counts.status();
  UrdfLimits limits;
  limits.max_elements = counts->elements;
  EXPECT_TRUE(LoadUrdfString(xml, WithLimits(limits)).ok());
  limits.max_elements = counts->elements - 1;
  ExpectLimit(LoadUrdfString(xml, WithLimits(limits)).status(),
              {absl::StrCat("URDF has ", counts->elements, " XML elements, at most ",
                            counts->elements - 1, " (the server's --max-xml-elements)")});
}

TEST(UrdfLimits, LinksAndJoints) {
  UrdfLimits limits;
  limits.max_links = 4;
  limits.max_joints = 3;
  EXPECT_TRUE(LoadUrdfString(ChainUrdf(4), WithLimits(limits)).ok());
  ExpectLimit(LoadUrdfString(ChainUrdf(5), WithLimits(limits)).status(),
              {"URDF has 5 links, at most 4 (the server's --max-links)"});
  limits.max_links = 10;
  ExpectLimit(LoadUrdfString(ChainUrdf(5), WithLimits(limits)).status(),
              {"URDF has 4 joints, at most 3 (the server's --max-joints)"});
  // Only children of <robot> count: a <link> nested elsewhere is not a link.
  const std::string nested_links =
      absl::StrCat("<robot name=\"r\"><link name=\"a\">", kInertial,
                   "<link/><link/><link/><link/><link/></link></robot>");
  limits.max_links = 1;
  const auto nested = LoadUrdfString(nested_links, WithLimits(limits));
  EXPECT_TRUE(nested.ok()) << nested.status();
}

TEST(UrdfLimits, Bytes) {
  std::string xml = ChainUrdf(2);
  UrdfLimits limits;
  limits.max_bytes = static_cast<int64_t>(xml.size());
  EXPECT_TRUE(LoadUrdfString(xml, WithLimits(limits)).ok());
  xml += "\n";
  ExpectLimit(LoadUrdfString(xml, WithLimits(limits)).status(),
              {absl::StrCat("URDF is ", xml.size(), " bytes, at most ", xml.size() - 1,
                            " (the server's --max-urdf-bytes)")});
}

TEST(UrdfLimits, FileOverTheByteLimitIsNotRead) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("moreau_urdf_limits_test_" + std::to_string(getpid()) + ".urdf"))
                               .string();
  {
    std::ofstream file(path);
    file << ChainUrdf(2);
  }
  UrdfLimits limits;
  limits.max_bytes = 16;
  const auto model = LoadUrdfFile(path, WithLimits(limits));
  ASSERT_FALSE(model.ok());
  ExpectLimit(model.status(), {path, "at most 16", "--max-urdf-bytes"});
  limits.max_bytes = 1 << 20;
  EXPECT_TRUE(LoadUrdfFile(path, WithLimits(limits)).ok());
  std::remove(path.c_str());
}

TEST(UrdfLimits, ContactPoints) {
  UrdfLimits limits;
  limits.max_contact_points = 3;
  const auto three = LoadUrdfString(ChainUrdf(2, 3), WithLimits(limits));
  ASSERT_TRUE(three.ok()) << three.status();
  EXPECT_EQ((*three)->contact_points.size(), 3u);
  ExpectLimit(LoadUrdfString(ChainUrdf(2, 4), WithLimits(limits)).status(),
              {"4 contact points, at most 3 (the server's --max-contact-points)"});
}

TEST(UrdfLimits, MalformedTextIsAParseErrorNotALimit) {
  for (const std::string& xml : {
           std::string("<robot name=\"r\"><link name=a/></robot>"),       // unquoted value
           std::string("<robot name=\"r\"><link name=\"<a\"/></robot>"),  // '<' in a value
           std::string("<robot name=\"r\"><!-- no end"),                  // open comment
           std::string("<robot name=\"r\"><![CDATA[ no end"),             // open CDATA
           std::string("<robot name=\"r\"><link name=\"a\"></robot>"),    // mismatched end tag
           std::string("<robot name=\"r\"><link name=\"\xf0\x9f\"/></robot>"),  // cut UTF-8
           std::string("<robot name=\"r\">\xed\xa0\x80</robot>"),               // a surrogate
           std::string("<?xml version=\"1.0\" encoding=\"x y\"?><robot/>"),
           std::string("<?pi > ?><robot/>"), std::string("<robot name=\"r\">< link/></robot>"),
           // A character reference TinyXML would read up to a later "#65;",
           // swallowing the </s> between.
           std::string("<r><s>t&#65{</s>u&#65;</r>"), std::string("<r a=\"&#\" b=\"1;\"/>"),
           std::string("<r>&#x;</r>"), std::string("<r>&#X41;</r>"), std::string("<r>&#65</r>"),
           std::string("<r>&#0;</r>"),               // not an XML character
           std::string("<r>&#xD800;</r>"),           // a surrogate
           std::string("<r>&#99999999999999;</r>"),  // beyond U+10FFFF
       }) {
    const auto status = ScanXml(xml, 64).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << xml;
    EXPECT_FALSE(IsLimitError(status)) << xml;
    EXPECT_NE(status.message().find("URDF parse error"), std::string::npos) << status;
  }
}

// The depth TinyXML builds, measured without recursion.
int DomDepth(const TiXmlNode* root) {
  int max_depth = 0;
  std::vector<std::pair<const TiXmlNode*, int>> stack = {{root, 0}};
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    if (node->ToElement() != nullptr && depth > max_depth) max_depth = depth;
    for (const TiXmlNode* child = node->FirstChild(); child != nullptr;
         child = child->NextSibling()) {
      stack.emplace_back(child, node->ToElement() != nullptr || node == root ? depth + 1 : depth);
    }
  }
  return max_depth;
}

TEST(UrdfLimits, ScanMeasuresWhatTinyXmlBuilds) {
  for (const std::string& xml : {
           ChainUrdf(3, 2),
           NestedUrdf(12),
           std::string("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- <a><a><a> -->"
                       "<!DOCTYPE robot><robot name=\"r\"><![CDATA[<b><b>]]><x a='>'><y/></x>"
                       "<?pi c ?></robot>"),
           std::string("<r a=\"&#x41;&amp;\xc3\xa9\"><s>t&lt;u</s></r>"),
           std::string("<r a=\"&#65;&#x1F600;&#x10FFFF;\">&#9;&#x0041;&&#66;<s>&amp;</s></r>"),
       }) {
    const auto counts = ScanXml(xml, 64);
    ASSERT_TRUE(counts.ok()) << counts.status() << "\n" << xml;
    TiXmlDocument doc;
    doc.Parse(xml.c_str(), nullptr, TIXML_ENCODING_UTF8);
    EXPECT_LE(DomDepth(&doc), counts->max_depth) << xml;
  }
}

}  // namespace
}  // namespace moreau
