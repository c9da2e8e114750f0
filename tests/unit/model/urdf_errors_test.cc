// Bad URDF input: every case is an InvalidArgument (NotFound for a missing
// file) whose one-line message names the problem; nothing crashes, nothing is
// printed.
#include <console_bridge/console.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/model/loader.h"

namespace moreau {
namespace {

const std::string kModels = MOREAU_MODELS_DIR;

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

constexpr char kInertia[] = R"(<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>)";

std::string Link(const std::string& name, const std::string& inertial) {
  return "<link name=\"" + name + "\">" + inertial + "</link>";
}
std::string Link(const std::string& name) {
  return Link(name, std::string("<inertial><mass value=\"1\"/>") + kInertia + "</inertial>");
}
std::string Joint(const std::string& name, const std::string& type, const std::string& parent,
                  const std::string& child, const std::string& extra = "") {
  return "<joint name=\"" + name + "\" type=\"" + type + "\"><parent link=\"" + parent +
         "\"/><child link=\"" + child + "\"/>" + extra + "</joint>";
}
std::string Robot(const std::string& body) { return "<robot name=\"r\">" + body + "</robot>"; }

// Expects LoadUrdfString(xml) to fail with InvalidArgument, a single-line
// message, and every one of `needles` in it.
void ExpectInvalid(const std::string& xml, const std::vector<std::string>& needles) {
  const auto model = LoadUrdfString(xml);
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument) << model.status();
  const std::string message(model.status().message());
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  for (const std::string& needle : needles) {
    EXPECT_NE(message.find(needle), std::string::npos) << "'" << needle << "' not in: " << message;
  }
}

TEST(UrdfErrors, EmptyInput) {
  ExpectInvalid("", {"empty input"});
  ExpectInvalid(" \n\t ", {"empty input"});
}

TEST(UrdfErrors, BinaryGarbage) {
  ExpectInvalid(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), {"not XML text", "0x1a"});
  ExpectInvalid(std::string("<robot name=\"r\">\0</robot>", 25), {"not XML text", "0x00"});
  ExpectInvalid("\xff\xfe\x80\x81 hello", {"URDF parse error"});
  ExpectInvalid("hello world", {"no XML element"});
  std::mt19937 random(12345);
  for (int trial = 0; trial < 200; ++trial) {
    std::string bytes(1 + random() % 512, '\0');
    for (char& c : bytes) c = static_cast<char>(random() % 256);
    const auto model = LoadUrdfString(bytes);
    ASSERT_FALSE(model.ok());
    EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(UrdfErrors, TruncatedFile) {
  const std::string a1 = ReadFile(kModels + "/unitree_a1/a1.urdf");
  ASSERT_FALSE(a1.empty());
  ExpectInvalid(a1.substr(0, a1.size() / 2), {"malformed or truncated XML", "line"});
  // Every cut before the closing </robot> fails cleanly.
  const size_t end = a1.rfind("</robot>");
  for (size_t cut = 0; cut < end; cut += end / 97) {
    const auto model = LoadUrdfString(a1.substr(0, cut));
    ASSERT_FALSE(model.ok()) << "cut at " << cut;
    EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(UrdfErrors, NotAUrdf) {
  ExpectInvalid("<sdf version=\"1.6\"><model name=\"m\"/></sdf>", {"expected <robot>"});
  ExpectInvalid(Robot(""), {"No link elements"});
}

TEST(UrdfErrors, MissingMass) {
  ExpectInvalid(Robot(Link("a", std::string("<inertial>") + kInertia + "</inertial>")),
                {"mass", "Link [a]"});
}

TEST(UrdfErrors, NegativeMassAndInertia) {
  ExpectInvalid(Robot(Link("a", R"(<inertial><mass value="1"/>
      <inertia ixx="-1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>)")),
                {"link 'a'", "not positive semi-definite", "principal moment -1"});
  ExpectInvalid(
      Robot(Link("a", std::string("<inertial><mass value=\"-2\"/>") + kInertia + "</inertial>")),
      {"link 'a'", "negative mass -2"});
  // Positive diagonal, negative eigenvalue: ixy too large.
  ExpectInvalid(Robot(Link("a", R"(<inertial><mass value="1"/>
      <inertia ixx="1" ixy="2" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>)")),
                {"link 'a'", "not positive semi-definite"});
}

TEST(UrdfErrors, Cycle) {
  // Each link the parent of the other: no root.
  ExpectInvalid(Robot(Link("a") + Link("b") + Joint("ab", "continuous", "a", "b") +
                      Joint("ba", "continuous", "b", "a")),
                {"kinematic loop: ", "a -> b", "b -> a"});
  ExpectInvalid(Robot(Link("a") + Joint("aa", "continuous", "a", "a")), {"kinematic loop: a -> a"});
  // A loop hanging below a proper root.
  ExpectInvalid(
      Robot(Link("r") + Link("a") + Link("b") + Link("c") + Joint("ra", "continuous", "r", "a") +
            Joint("bc", "continuous", "b", "c") + Joint("cb", "continuous", "c", "b")),
      {"kinematic loop: ", "b -> c", "c -> b"});
  // Two parents.
  ExpectInvalid(Robot(Link("a") + Link("b") + Link("c") + Joint("ac", "continuous", "a", "c") +
                      Joint("bc", "continuous", "b", "c")),
                {"link 'c' is the child of two joints", "'ac'", "'bc'"});
  ExpectInvalid(Robot(Link("a") + Link("b")), {"Two root links"});
}

TEST(UrdfErrors, NonFiniteNumbers) {
  ExpectInvalid(
      Robot(Link("a", std::string("<inertial><mass value=\"nan\"/>") + kInertia + "</inertial>")),
      {"nan", "Link [a]"});
  ExpectInvalid(Robot(Link("a") + Link("b") +
                      Joint("ab", "continuous", "a", "b", "<origin xyz=\"nan 0 0\"/>")),
                {"nan", "joint [ab]"});
  ExpectInvalid(Robot(Link("a", R"(<inertial><mass value="1"/>
      <inertia ixx="inf" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>)")),
                {"ixx", "Link [a]"});
  ExpectInvalid(
      Robot(Link("a") + Link("b") + Joint("ab", "continuous", "a", "b", "<axis xyz=\"0 nan 1\"/>")),
      {"nan", "joint [ab]"});
  ExpectInvalid(Robot(Link("a") + Link("b") +
                      Joint("ab", "revolute", "a", "b",
                            "<limit lower=\"-1\" upper=\"nan\" effort=\"1\" "
                            "velocity=\"1\"/>")),
                {"nan", "joint [ab]"});
}

TEST(UrdfErrors, UnknownAndUnsupportedJointTypes) {
  ExpectInvalid(Robot(Link("a") + Link("b") + Joint("j", "foo", "a", "b")),
                {"Joint [j] has no known type [foo]"});
  ExpectInvalid(Robot(Link("a") + Link("b") + Joint("x", "planar", "a", "b")),
                {"joint 'x': unsupported joint type 'planar'"});
  ExpectInvalid(Robot(Link("a") + Link("b") + Joint("x", "floating", "a", "b")),
                {"joint 'x': unsupported joint type 'floating'"});
}

TEST(UrdfErrors, MasslessMovingLeaf) {
  ExpectInvalid(Robot(Link("a") + Link("b", "") + Joint("j", "continuous", "a", "b")),
                {"link 'b' and everything below it has no mass"});
  // A massless fixed child does not help.
  ExpectInvalid(Robot(Link("a") + Link("b", "") + Link("c", "") +
                      Joint("j", "prismatic", "a", "b",
                            "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>") +
                      Joint("f", "fixed", "b", "c")),
                {"link 'b' and everything below it has no mass"});
  // A floating base without mass.
  ExpectInvalid(Robot(Link("a", "")), {"floating base 'a'", "no mass"});
}

TEST(UrdfErrors, ZeroJointAxis) {
  ExpectInvalid(
      Robot(Link("a") + Link("b") + Joint("j", "continuous", "a", "b", "<axis xyz=\"0 0 0\"/>")),
      {"joint 'j': zero axis"});
}

TEST(UrdfErrors, InvertedLimitsAndNegativeDamping) {
  ExpectInvalid(Robot(Link("a") + Link("b") +
                      Joint("j", "revolute", "a", "b",
                            "<limit lower=\"1\" upper=\"-1\" effort=\"1\" velocity=\"1\"/>")),
                {"joint 'j'", "lower limit 1 is above upper limit -1"});
  ExpectInvalid(Robot(Link("a") + Link("b") +
                      Joint("j", "continuous", "a", "b", "<dynamics damping=\"-0.5\"/>")),
                {"joint 'j'", "negative damping"});
}

TEST(UrdfErrors, BadGeometry) {
  ExpectInvalid(Robot(std::string("<link name=\"a\"><inertial><mass value=\"1\"/>") + kInertia +
                      "</inertial><collision><geometry><sphere radius=\"-1\"/></geometry>"
                      "</collision></link>"),
                {"link 'a'", "sphere", "negative"});
}

TEST(UrdfErrors, DuplicateNamesAndDanglingReferences) {
  ExpectInvalid(Robot(Link("a") + Link("a")), {"link 'a' is not unique"});
  ExpectInvalid(Robot(Link("b") + Joint("j", "continuous", "base", "b")),
                {"parent link [base] of joint [j] not found"});
  ExpectInvalid(Robot(Link("a") + Link("b") + Joint("floating_base", "continuous", "a", "b")),
                {"'floating_base'", "reserved"});
}

TEST(UrdfErrors, MissingFile) {
  const auto model = LoadUrdfFile("/no/such/dir/robot.urdf");
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(model.status().message().find("/no/such/dir/robot.urdf"), std::string::npos);
}

// urdfdom logs through console_bridge; the loader captures that output and
// puts back whatever handler was installed.
class RecordingHandler : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel, const char*, int) override {
    messages.push_back(text);
  }
  std::vector<std::string> messages;
};

TEST(UrdfErrors, ConsoleBridgeOutputIsCapturedAndTheHandlerRestored) {
  RecordingHandler mine;
  console_bridge::OutputHandler* const before = console_bridge::getOutputHandler();
  console_bridge::useOutputHandler(&mine);
  testing::internal::CaptureStderr();
  ExpectInvalid(Robot(Link("a") + Link("b") + Joint("j", "foo", "a", "b")), {"foo"});
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(console_bridge::getOutputHandler(), &mine);
  EXPECT_TRUE(mine.messages.empty());
  console_bridge::useOutputHandler(before);
}

TEST(UrdfErrors, ConcurrentLoadsKeepTheirOwnMessages) {
  const std::string good = Robot(Link("a"));
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      const std::string joint = absl::StrCat("j", t);
      const std::string bad = Robot(Link("a") + Link("b") + Joint(joint, "foo", "a", "b"));
      const std::string expected =
          absl::StrCat("URDF parse error: Joint [", joint, "] has no known type [foo]");
      for (int i = 0; i < 25; ++i) {
        const auto ok = LoadUrdfString(good);
        const auto error = LoadUrdfString(bad);
        if (!ok.ok() || error.ok() || error.status().message() != expected) {
          ++failures[t];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace moreau
