// Every client-controlled size has a limit, checked before the work it
// bounds, through a real moreaud: one request just over a limit gets the
// exact code and a message naming the value, the limit and the server flag;
// one at the limit is accepted; a bystander instance, stepped throughout, ends
// bit for bit where an in-process simulation given the same actions does.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/model/loader.h"
#include "engine/model/xml_scan.h"
#include "tests/unit/model/limit_urdfs.h"
#include "engine/sim/simulation.h"
#include "tests/integration/bystander_test.h"

namespace moreau::testing {
namespace {

using ::absl::StatusCode;

v1::ModelSource Urdf(const std::string& xml) {
  v1::ModelSource source;
  source.set_urdf(xml);
  return source;
}

v1::Settings HeightfieldSettings(int nx, int ny, int heights) {
  v1::Settings settings;
  v1::Terrain::Heightfield* h = settings.mutable_terrain()->mutable_heightfield();
  h->add_origin(-1.0);
  h->add_origin(-1.0);
  h->add_origin(0.0);
  h->set_cell_size(0.1);
  h->set_nx(nx);
  h->set_ny(ny);
  for (int k = 0; k < heights; ++k) h->add_heights(0.0);
  return settings;
}

// The limits of the server under test, each small enough to reach cheaply.
const std::vector<std::string> kLimitFlags = {"--max-instances",
                                              "32",
                                              "--max-urdf-bytes",
                                              "20000",
                                              "--max-xml-depth",
                                              "10",
                                              "--max-xml-elements",
                                              "300",
                                              "--max-links",
                                              "6",
                                              "--max-joints",
                                              "5",
                                              "--max-contact-points",
                                              "3",
                                              "--max-heightfield-nodes",
                                              "100",
                                              "--max-batch",
                                              "3",
                                              "--max-create",
                                              "4",
                                              "--max-sessions",
                                              "2",
                                              "--max-watches",
                                              "2"};

class ServiceLimitsTest : public BystanderTest {
 protected:
  std::vector<std::string> ServerFlags() const override { return kLimitFlags; }

  // GetModel of `xml` is accepted.
  void ExpectModel(const std::string& xml) {
    const auto spec = client().GetModel(Urdf(xml));
    EXPECT_TRUE(spec.ok()) << spec.status();
  }
  // GetModel and CreateInstances of `xml` both fail with INVALID_ARGUMENT
  // naming every needle.
  void ExpectRefused(const std::string& xml, const std::vector<std::string>& needles) {
    ExpectError(client().GetModel(Urdf(xml)).status(), StatusCode::kInvalidArgument, needles);
    v1::CreateInstancesRequest request;
    *request.mutable_model() = Urdf(xml);
    request.set_count(1);
    ExpectError(client().CreateInstances(request).status(), StatusCode::kInvalidArgument, needles);
  }

};

TEST_F(ServiceLimitsTest, UrdfBytes) {
  std::string xml = ChainUrdf(2);
  xml.resize(20000, ' ');  // whitespace after </robot>
  ExpectModel(xml);
  StepBystander();
  xml += ' ';
  ExpectRefused(xml, {"URDF is 20001 bytes, at most 20000 (the server's --max-urdf-bytes)"});
}

TEST_F(ServiceLimitsTest, XmlDepth) {
  ExpectModel(NestedUrdf(10));
  StepBystander();
  ExpectRefused(NestedUrdf(11), {"11 deep", "at most 10 (the server's --max-xml-depth)"});
}

TEST_F(ServiceLimitsTest, XmlElements) {
  // ChainUrdf(2) padded with empty elements (which urdfdom ignores) to 300.
  std::string body = ChainUrdf(2);
  const auto counts = model_internal::ScanXml(body, 64);
  ASSERT_TRUE(counts.ok()) << counts.status();
  std::string padding;
  for (int64_t k = counts->elements; k < 300; ++k) padding += "<x/>";
  const std::string at_limit = body.substr(0, body.size() - 8) + padding + "</robot>";
  ExpectModel(at_limit);
  StepBystander();
  const std::string over = body.substr(0, body.size() - 8) + padding + "<x/></robot>";
  ExpectRefused(over, {"URDF has 301 XML elements, at most 300 (the server's --max-xml-elements)"});
}

TEST_F(ServiceLimitsTest, LinksAndJoints) {
  ExpectModel(ChainUrdf(6));  // 6 links, 5 joints
  StepBystander();
  ExpectRefused(ChainUrdf(7), {"URDF has 7 links, at most 6 (the server's --max-links)"});
  // A sixth joint (a second parent for l5): counted before the tree is checked.
  std::string six_joints = ChainUrdf(6);
  six_joints.insert(six_joints.size() - 8,
                    "<joint name=\"extra\" type=\"fixed\"><parent link=\"l0\"/>"
                    "<child link=\"l5\"/></joint>");
  ExpectRefused(six_joints, {"URDF has 6 joints, at most 5 (the server's --max-joints)"});
}

TEST_F(ServiceLimitsTest, ContactPoints) {
  ExpectModel(ChainUrdf(2, 3));
  StepBystander();
  ExpectRefused(ChainUrdf(2, 4), {"4 contact points, at most 3 (the server's --max-contact-points)"});
}

TEST_F(ServiceLimitsTest, HeightfieldNodes) {
  auto at_limit = client().CreateBuiltin("sphere", 1, HeightfieldSettings(10, 10, 100));
  ASSERT_TRUE(at_limit.ok()) << at_limit.status();
  StepBystander();
  ExpectError(
      client().CreateBuiltin("sphere", 1, HeightfieldSettings(10, 11, 110)).status(),
      StatusCode::kInvalidArgument,
      {"nx * ny = 10 * 11 = 110 nodes, at most 100 (the server's --max-heightfield-nodes)"});
  // More heights than the limit, whatever nx and ny say.
  ExpectError(client().CreateBuiltin("sphere", 1, HeightfieldSettings(2, 2, 101)).status(),
              StatusCode::kInvalidArgument,
              {"101 heights, at most 100 (the server's --max-heightfield-nodes)"});
}

TEST_F(ServiceLimitsTest, CreateCount) {
  auto four = client().CreateBuiltin("box", 4);
  ASSERT_TRUE(four.ok()) << four.status();
  EXPECT_EQ(four->instance_ids_size(), 4);
  StepBystander();
  ExpectError(client().CreateBuiltin("box", 5).status(), StatusCode::kInvalidArgument,
              {"[1, 4]", "(the server's --max-create), got 5"});
}

TEST_F(ServiceLimitsTest, StepBatchRows) {
  auto boxes = client().CreateBuiltin("box", 4);
  ASSERT_TRUE(boxes.ok()) << boxes.status();
  v1::StepBatchRequest request;
  for (int i = 0; i < 3; ++i) {
    *request.add_steps() = MakeStep(boxes->instance_ids(i), Eigen::VectorXd(), 1);
  }
  auto three = client().StepBatch(request);
  ASSERT_TRUE(three.ok()) << three.status();
  for (const v1::Observation& obs : three->observations()) EXPECT_EQ(obs.status().code(), 0);
  StepBystander();
  *request.add_steps() = MakeStep(boxes->instance_ids(3), Eigen::VectorXd(), 1);
  ExpectError(client().StepBatch(request).status(), StatusCode::kInvalidArgument,
              {"StepBatch has 4 instances, at most 3 (the server's --max-batch)"});
}

TEST_F(ServiceLimitsTest, OpenSessions) {
  std::vector<std::unique_ptr<client::Client::Session>> open;
  for (int k = 0; k < 2; ++k) {
    open.push_back(client().OpenSession());
    ASSERT_TRUE(open.back()->Send(MakeStep(bystander_, Eigen::VectorXd::Zero(12), 1)));
    v1::Observation obs;
    ASSERT_TRUE(open.back()->Receive(&obs));
    EXPECT_EQ(obs.status().code(), 0);
    ASSERT_TRUE(local_->StepAction(Eigen::VectorXd::Zero(12), 1).ok());
  }
  auto third = client().OpenSession();
  third->Send(MakeStep(bystander_, Eigen::VectorXd::Zero(12), 1));
  v1::Observation obs;
  EXPECT_FALSE(third->Receive(&obs));
  ExpectError(third->Close(), StatusCode::kResourceExhausted,
              {"2 open Session streams, at most 2 (the server's --max-sessions)"});
  StepBystander();
  // A closed session frees its place (once the server has seen it end).
  ASSERT_TRUE(open.back()->Close().ok());
  open.pop_back();
  bool reopened = false;
  for (const absl::Time give_up = absl::Now() + absl::Seconds(10);
       !reopened && absl::Now() < give_up;) {
    auto again = client().OpenSession();
    if (again->Send(MakeStep(bystander_, Eigen::VectorXd::Zero(12), 1)) && again->Receive(&obs)) {
      reopened = true;
      ASSERT_TRUE(local_->StepAction(Eigen::VectorXd::Zero(12), 1).ok());
      EXPECT_TRUE(again->Close().ok());
    } else {
      again->Close().IgnoreError();
      absl::SleepFor(absl::Milliseconds(20));
    }
  }
  EXPECT_TRUE(reopened);
  for (auto& session : open) EXPECT_TRUE(session->Close().ok());
}

TEST_F(ServiceLimitsTest, OpenWatches) {
  std::vector<std::unique_ptr<client::Client::WatchStream>> open;
  for (int k = 0; k < 2; ++k) {
    open.push_back(client().Watch(bystander_, 100.0));
    v1::WatchFrame frame;
    ASSERT_TRUE(open.back()->Read(&frame));
  }
  auto third = client().Watch(bystander_, 100.0);
  v1::WatchFrame frame;
  EXPECT_FALSE(third->Read(&frame));
  ExpectError(third->Finish(), StatusCode::kResourceExhausted,
              {"2 open Watch streams, at most 2 (the server's --max-watches)"});
  StepBystander();
  // A cancelled watch frees its place (once the server has seen it end).
  open.back()->Cancel();
  while (open.back()->Read(&frame)) {
  }
  open.back()->Finish().IgnoreError();
  open.pop_back();
  bool reopened = false;
  for (const absl::Time give_up = absl::Now() + absl::Seconds(10);
       !reopened && absl::Now() < give_up;) {
    auto again = client().Watch(bystander_, 100.0);
    if (again->Read(&frame)) {
      reopened = true;
      again->Cancel();
      while (again->Read(&frame)) {
      }
    } else {
      absl::SleepFor(absl::Milliseconds(20));
    }
    again->Finish().IgnoreError();
  }
  EXPECT_TRUE(reopened);
  for (auto& watch : open) {
    watch->Cancel();
    while (watch->Read(&frame)) {
    }
    watch->Finish().IgnoreError();
  }
}

// The text that crashed moreaud (TinyXML recursed once per level and ran out
// of stack) is refused by a server with default limits, which serves on.
TEST(ServiceLimitsDefaultsTest, DeeplyNestedUrdfIsRefused) {
  LiveServer server = StartServer();
  ASSERT_NE(server.client, nullptr);
  std::string deep = "<robot name=\"r\">";
  for (int i = 0; i < 200000; ++i) deep += "<a>";
  deep += "</robot>";
  const auto spec = server.client->GetModel(Urdf(deep));
  EXPECT_EQ(spec.status().code(), StatusCode::kInvalidArgument) << spec.status();
  EXPECT_NE(spec.status().message().find("at most 64 (the server's --max-xml-depth)"),
            std::string::npos)
      << spec.status();
  EXPECT_TRUE(server.client->ListModels().ok());
  EXPECT_TRUE(server.client->GetModel(Urdf(ChainUrdf(3))).ok());
}

}  // namespace
}  // namespace moreau::testing
