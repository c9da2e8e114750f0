// The Python in-process engine's call layer (clients/python/native) over a
// real in-process server (server/in_process_server.h): unary calls and their
// errors, a deadline, streams read and written from outside gRPC's threads,
// cancellation, and a server shut down under an open stream.
#include "clients/python/native/local_calls.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "moreau/v1/simulator.grpc.pb.h"
#include "server/in_process_server.h"

namespace moreau::local {
namespace {

constexpr char kCreate[] = "/moreau.v1.Simulator/CreateInstances";
constexpr char kStep[] = "/moreau.v1.Simulator/Step";
constexpr char kSession[] = "/moreau.v1.Simulator/Session";
constexpr char kWatch[] = "/moreau.v1.Simulator/Watch";
constexpr absl::Duration kWait = absl::Seconds(30);

class LocalCallsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server::ServiceOptions options;
    options.worker_threads = 1;
    auto started = server::InProcessServer::Start(options, 1 << 20);
    ASSERT_TRUE(started.ok()) << started.status();
    server_ = *std::move(started);
    stub_ = std::make_unique<grpc::GenericStub>(server_->channel());
  }

  // A pendulum instance's id.
  std::string CreatePendulum() {
    v1::CreateInstancesRequest request;
    request.mutable_model()->set_builtin("pendulum");
    request.set_count(1);
    auto call = UnaryCall::Start(*stub_, kCreate, request.SerializeAsString(), std::nullopt);
    EXPECT_TRUE(call->Wait(kWait));
    EXPECT_EQ(call->status().code, 0) << call->status().message;
    v1::CreateInstancesResponse response;
    EXPECT_TRUE(response.ParseFromString(call->ResponseBytes()));
    return response.instance_ids_size() == 1 ? response.instance_ids(0) : "";
  }

  static std::string StepBytes(const std::string& id, int substeps) {
    v1::StepRequest step;
    step.set_instance_id(id);
    step.add_action(0.0);
    step.set_substeps(substeps);
    return step.SerializeAsString();
  }

  std::unique_ptr<server::InProcessServer> server_;
  std::unique_ptr<grpc::GenericStub> stub_;
};

TEST_F(LocalCallsTest, UnaryCallsReturnRepliesAndTheServersErrors) {
  const std::string id = CreatePendulum();
  auto ok = UnaryCall::Start(*stub_, kStep, StepBytes(id, 10), std::nullopt);
  ASSERT_TRUE(ok->Wait(kWait));
  ASSERT_EQ(ok->status().code, 0) << ok->status().message;
  v1::StepResponse reply;
  ASSERT_TRUE(reply.ParseFromString(ok->ResponseBytes()));
  EXPECT_EQ(reply.observation().steps(), 10);

  auto missing = UnaryCall::Start(*stub_, kStep, StepBytes("nope", 1), std::nullopt);
  ASSERT_TRUE(missing->Wait(kWait));
  EXPECT_EQ(missing->status().code, grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(missing->status().message.find("nope"), std::string::npos);

  auto garbage = UnaryCall::Start(*stub_, kStep, "\xff\xff\xff", std::nullopt);
  ASSERT_TRUE(garbage->Wait(kWait));
  EXPECT_NE(garbage->status().code, 0);

  auto unknown = UnaryCall::Start(*stub_, "/moreau.v1.Simulator/Fly", "", std::nullopt);
  ASSERT_TRUE(unknown->Wait(kWait));
  EXPECT_EQ(unknown->status().code, grpc::StatusCode::UNIMPLEMENTED);
}

TEST_F(LocalCallsTest, ADeadlineEndsALongCall) {
  const std::string id = CreatePendulum();
  auto call = UnaryCall::Start(*stub_, kStep, StepBytes(id, 10000), /*timeout_s=*/1e-6);
  ASSERT_TRUE(call->Wait(kWait));
  EXPECT_EQ(call->status().code, grpc::StatusCode::DEADLINE_EXCEEDED);
}

TEST_F(LocalCallsTest, ASessionStreamStepsAndEndsWhenWritesAreDone) {
  const std::string id = CreatePendulum();
  auto stream = StreamCall::Open(*stub_, kSession, std::nullopt);
  for (int k = 1; k <= 3; ++k) {
    v1::SessionRequest request;
    request.mutable_step()->ParseFromString(StepBytes(id, 5));
    ASSERT_TRUE(stream->Write(request.SerializeAsString()));
    std::optional<std::string> reply = stream->Read(kWait);
    ASSERT_TRUE(reply.has_value());
    v1::SessionResponse response;
    ASSERT_TRUE(response.ParseFromString(*reply));
    EXPECT_EQ(response.observation().steps(), 5 * k);
  }
  stream->WritesDone();
  EXPECT_FALSE(stream->Write("late"));
  EXPECT_FALSE(stream->Read(kWait).has_value());
  EXPECT_TRUE(stream->ended());
  EXPECT_EQ(stream->Finish().code, 0);
}

TEST_F(LocalCallsTest, AWatchIsOneWriteThenFramesUntilCancelled) {
  const std::string id = CreatePendulum();
  auto stream = StreamCall::Open(*stub_, kWatch, std::nullopt);
  v1::WatchRequest request;
  request.set_instance_id(id);
  request.set_rate_hz(100.0);
  ASSERT_TRUE(stream->Write(request.SerializeAsString()));
  stream->WritesDone();
  // The current state at once, then the state as the instance steps.
  std::optional<std::string> frame = stream->Read(kWait);
  ASSERT_TRUE(frame.has_value());
  v1::WatchFrame parsed;
  ASSERT_TRUE(parsed.ParseFromString(*frame));
  EXPECT_EQ(parsed.steps(), 0);
  auto step = UnaryCall::Start(*stub_, kStep, StepBytes(id, 20), std::nullopt);
  ASSERT_TRUE(step->Wait(kWait));
  for (int k = 0; k < 100 && parsed.steps() == 0; ++k) {
    frame = stream->Read(kWait);
    ASSERT_TRUE(frame.has_value());
    ASSERT_TRUE(parsed.ParseFromString(*frame));
  }
  EXPECT_EQ(parsed.steps(), 20);
  EXPECT_FALSE(stream->ended());
  stream->Cancel();
  while (stream->Read(kWait).has_value()) {
  }
  EXPECT_EQ(stream->Finish().code, grpc::StatusCode::CANCELLED);
}

TEST_F(LocalCallsTest, AWatchOfAnUnknownInstanceEndsWithItsError) {
  auto stream = StreamCall::Open(*stub_, kWatch, std::nullopt);
  v1::WatchRequest request;
  request.set_instance_id("nope");
  ASSERT_TRUE(stream->Write(request.SerializeAsString()));
  EXPECT_FALSE(stream->Read(kWait).has_value());
  const CallStatus status = stream->Finish();
  EXPECT_EQ(status.code, grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(status.message.find("nope"), std::string::npos);
}

TEST_F(LocalCallsTest, ClosingTheServerEndsAnOpenStream) {
  const std::string id = CreatePendulum();
  auto stream = StreamCall::Open(*stub_, kSession, std::nullopt);
  server_.reset();  // ends the open streams, then shuts down
  EXPECT_FALSE(stream->Read(kWait).has_value());
  EXPECT_NE(stream->Finish().code, 0);
  EXPECT_FALSE(stream->Write("late"));
}

}  // namespace
}  // namespace moreau::local
