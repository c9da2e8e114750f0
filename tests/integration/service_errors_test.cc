// Bad input of every kind gets the right gRPC code and a message naming the
// problem, while the other instances step on untouched (docs/service.md,
// Conventions). A bystander instance is stepped throughout and compared, bit for
// bit, with an in-process simulation given the same actions.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <limits>
#include <ostream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "tests/integration/bystander_test.h"

namespace moreau::testing {
namespace {

using ::absl::StatusCode;

class ServiceErrorsTest : public BystanderTest {
 protected:
  std::vector<std::string> ServerFlags() const override {
    return {"--max_instances", "6", "--max_substeps", "1000", "--max_batch", "4",
            "--max_message_bytes", "65536"};
  }
};

TEST_F(ServiceErrorsTest, UnknownInstanceId) {
  StepBystander();
  ExpectError(
      client().Step("0123456789abcdef0123456789abcdef", Eigen::VectorXd::Zero(12), 1).status(),
      StatusCode::kNotFound, "0123456789abcdef0123456789abcdef");
  ExpectError(client().GetState("x").status(), StatusCode::kNotFound, "'x'");
  v1::QueryRequest q;
  q.set_instance_id("y");
  ExpectError(client().Query(q).status(), StatusCode::kNotFound, "'y'");
  v1::ResetRequest r;
  r.set_instance_id("z");
  ExpectError(client().Reset(r).status(), StatusCode::kNotFound, "'z'");
  ExpectError(client().SetState("w", "").status(), StatusCode::kNotFound, "'w'");
}

TEST_F(ServiceErrorsTest, UnknownModel) {
  StepBystander();
  ExpectError(client().CreateBuiltin("robocop", 1).status(), StatusCode::kInvalidArgument,
              "robocop");
  v1::CreateInstancesRequest none;
  none.set_count(1);
  ExpectError(client().CreateInstances(none).status(), StatusCode::kInvalidArgument, "model");
}

TEST_F(ServiceErrorsTest, MalformedUrdf) {
  v1::CreateInstancesRequest request;
  request.set_count(1);
  request.mutable_model()->set_urdf("<robot name='r'><link name='a'><inertial><mass value='-1'/>");
  ExpectError(client().CreateInstances(request).status(), StatusCode::kInvalidArgument,
              "malformed URDF");
  request.mutable_model()->set_urdf(R"(<robot name="r"><link name="a"><inertial>
      <mass value="-1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
      </inertial></link></robot>)");
  ExpectError(client().CreateInstances(request).status(), StatusCode::kInvalidArgument, "a");
  StepBystander();
}

TEST_F(ServiceErrorsTest, BadSettings) {
  v1::Settings settings;
  settings.set_contact_model("jelly");
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "jelly");
  settings.Clear();
  settings.set_dt(-1.0);
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "dt");
  settings.Clear();
  (*settings.mutable_contact_parameters())["stiffness"] = 1.0;  // not a moreau-sor parameter
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "stiffness");
  settings.Clear();
  (*settings.mutable_contact_parameters())["mu"] = -0.5;
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "mu");
  settings.Clear();
  settings.set_control_mode("telepathy");
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "telepathy");
  settings.Clear();
  settings.set_gear(-3.0);
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "transmission gear");
  settings.Clear();
  settings.set_rotor_inertia(std::numeric_limits<double>::infinity());
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "rotor_inertia");
  StepBystander();
}

// Settings.controller: each bad field is refused at CreateInstances with a
// message naming it, and so is a controller the model or the control mode
// cannot run; the server serves on.
TEST_F(ServiceErrorsTest, BadControllerSettings) {
  v1::Settings settings;
  settings.mutable_controller()->set_kind("moonwalk");
  ExpectError(client().CreateBuiltin("mini_cheetah", 1, settings).status(),
              StatusCode::kInvalidArgument, {"moonwalk", "velocity-trot"});
  settings.Clear();
  settings.mutable_controller()->set_kind("stand");
  settings.mutable_controller()->set_period_steps(-2);
  ExpectError(client().CreateBuiltin("mini_cheetah", 1, settings).status(),
              StatusCode::kInvalidArgument, "controller.period_steps must be ≥ 0");
  settings.Clear();
  settings.mutable_controller()->set_kind("stand");
  (*settings.mutable_controller()->mutable_parameters())["stiffness"] = 1.0;
  ExpectError(client().CreateBuiltin("mini_cheetah", 1, settings).status(),
              StatusCode::kInvalidArgument,
              {"unknown parameter 'stiffness'", "kp, kd, stand_height, stable_pd"});
  settings.Clear();
  settings.mutable_controller()->set_kind("trot");
  (*settings.mutable_controller()->mutable_parameters())["kd"] =
      std::numeric_limits<double>::infinity();
  ExpectError(client().CreateBuiltin("mini_cheetah", 1, settings).status(),
              StatusCode::kInvalidArgument, "'kd' is inf, expected a finite number");
  settings.Clear();
  settings.mutable_controller()->set_kind("trot");
  (*settings.mutable_controller()->mutable_parameters())["kp"] = -1.0;
  ExpectError(client().CreateBuiltin("mini_cheetah", 1, settings).status(),
              StatusCode::kInvalidArgument, "kp = -1");
  settings.Clear();
  settings.mutable_controller()->set_kind("none");
  (*settings.mutable_controller()->mutable_parameters())["kp"] = 1.0;
  ExpectError(client().CreateBuiltin("mini_cheetah", 1, settings).status(),
              StatusCode::kInvalidArgument, "controller 'none' takes no parameters");
  // The velocity trot drives the joints by targets only.
  settings.Clear();
  settings.mutable_controller()->set_kind("velocity-trot");
  ExpectError(client().CreateBuiltin("mini_cheetah", 1, settings).status(),
              StatusCode::kInvalidArgument, "control mode other than torque");
  // Models the controllers cannot drive: no legs (a pendulum, a box).
  settings.Clear();
  settings.mutable_controller()->set_kind("stand");
  ExpectError(client().CreateBuiltin("double_pendulum", 1, settings).status(),
              StatusCode::kInvalidArgument, "controller 'stand'");
  settings.mutable_controller()->set_kind("trot");
  ExpectError(client().CreateBuiltin("box", 1, settings).status(), StatusCode::kInvalidArgument,
              "controller 'trot'");
  StepBystander();
  // A good controller is still served after the bad ones.
  settings.mutable_controller()->set_kind("stand");
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 1, settings));
  EXPECT_TRUE(client().Step(created.instance_ids(0), Eigen::VectorXd::Zero(12), 10).ok());
  StepBystander();
}

TEST_F(ServiceErrorsTest, WrongActionSize) {
  StepBystander();
  ExpectError(client().Step(bystander_, Eigen::VectorXd::Zero(11), 1).status(),
              StatusCode::kInvalidArgument, "size 11, expected 12");
}

TEST_F(ServiceErrorsTest, NanAndInfActions) {
  Eigen::VectorXd action = Eigen::VectorXd::Zero(12);
  action[3] = std::numeric_limits<double>::quiet_NaN();
  ExpectError(client().Step(bystander_, action, 1).status(), StatusCode::kInvalidArgument,
              "action[3]");
  StepBystander();
  action[3] = -std::numeric_limits<double>::infinity();
  ExpectError(client().Step(bystander_, action, 1).status(), StatusCode::kInvalidArgument,
              "action[3]");
  // In a batch the bad entry fails alone.
  auto other = client().CreateBuiltin("mini_cheetah", 1);
  ASSERT_TRUE(other.ok());
  v1::StepBatchRequest batch;
  *batch.add_steps() = MakeStep(other->instance_ids(0), action, 1);
  *batch.add_steps() = MakeStep("missing", Eigen::VectorXd::Zero(12), 1);
  auto response = client().StepBatch(batch);
  ASSERT_TRUE(response.ok()) << response.status();
  EXPECT_EQ(response->observations(0).status().code(),
            static_cast<int>(StatusCode::kInvalidArgument));
  EXPECT_EQ(response->observations(1).status().code(), static_cast<int>(StatusCode::kNotFound));
  StepBystander();
}

TEST_F(ServiceErrorsTest, SubstepsOverTheLimit) {
  ExpectError(client().Step(bystander_, Eigen::VectorXd::Zero(12), 1001).status(),
              StatusCode::kInvalidArgument, "--max_substeps");
  v1::StepBatchRequest batch;
  *batch.add_steps() = MakeStep(bystander_, Eigen::VectorXd::Zero(12), 5000);
  ExpectError(client().StepBatch(batch).status(), StatusCode::kInvalidArgument, "substeps");
  StepBystander();
}

TEST_F(ServiceErrorsTest, DuplicateInstanceInBatch) {
  v1::StepBatchRequest batch;
  *batch.add_steps() = MakeStep(bystander_, Eigen::VectorXd::Zero(12), 1);
  *batch.add_steps() = MakeStep(bystander_, Eigen::VectorXd::Zero(12), 1);
  ExpectError(client().StepBatch(batch).status(), StatusCode::kInvalidArgument, "twice");
  StepBystander();
}

TEST_F(ServiceErrorsTest, UnknownObservationFieldInBatch) {
  v1::StepBatchRequest batch;
  batch.set_packed(true);
  *batch.add_steps() = MakeStep(bystander_, Eigen::VectorXd::Zero(12), 1);
  batch.add_observation_fields("q");
  batch.add_observation_fields("joint_angles");
  ExpectError(client().StepBatch(batch).status(), StatusCode::kInvalidArgument,
              {"observation_fields[1]", "'joint_angles'", "joint_positions"});
  batch.set_packed(false);
  batch.set_observation_fields(1, "");
  ExpectError(client().StepBatch(batch).status(), StatusCode::kInvalidArgument,
              "observation_fields[1]: ''");
  StepBystander();
}

TEST_F(ServiceErrorsTest, OversizedMessage) {
  v1::CreateInstancesRequest request;
  request.set_count(1);
  request.mutable_model()->set_urdf(std::string(100000, ' '));  // > 64 KiB
  const absl::Status status = client().CreateInstances(request).status();
  EXPECT_EQ(status.code(), StatusCode::kResourceExhausted) << status;
  StepBystander();
}

TEST_F(ServiceErrorsTest, OneInstanceTooMany) {
  ASSERT_TRUE(client().CreateBuiltin("sphere", 5).ok());  // 6 with the bystander
  ExpectError(client().CreateBuiltin("sphere", 1).status(), StatusCode::kResourceExhausted,
              "at most 6");
  StepBystander();
}

// Two CreateInstances racing for the last places: at most --max_instances
// live, whichever call registers first (the capacity is checked again when the
// instances are added, after the model was built).
TEST_F(ServiceErrorsTest, RacingCreatesNeverExceedTheLimit) {
  for (int round = 0; round < 5; ++round) {
    std::vector<absl::StatusOr<v1::CreateInstancesResponse>> results(2,
                                                                     absl::UnknownError("not run"));
    std::vector<std::thread> threads;
    for (int k = 0; k < 2; ++k) {
      threads.emplace_back([this, &results, k] {
        results[static_cast<size_t>(k)] = client().CreateBuiltin("mini_cheetah", 5);
      });
    }
    for (std::thread& t : threads) t.join();
    std::vector<std::string> ids;
    for (const auto& result : results) {
      if (result.ok()) {
        ids.insert(ids.end(), result->instance_ids().begin(), result->instance_ids().end());
      } else {
        ExpectError(result.status(), StatusCode::kResourceExhausted, "at most 6");
      }
    }
    EXPECT_EQ(ids.size(), 5u) << "round " << round;
    ASSERT_TRUE(client().DestroyInstances(ids).ok());
  }
  StepBystander();
}

TEST_F(ServiceErrorsTest, CorruptStateBlobKeepsTheState) {
  StepBystander();
  auto state = client().GetState(bystander_);
  ASSERT_TRUE(state.ok());
  std::string blob = state->state().data();
  ExpectError(client().SetState(bystander_, blob.substr(0, blob.size() / 2)).status(),
              StatusCode::kInvalidArgument, "");
  ExpectError(client().SetState(bystander_, "garbage").status(), StatusCode::kInvalidArgument, "");
}

TEST_F(ServiceErrorsTest, DivergedInstanceReportsItAndResets) {
  v1::Settings settings;
  auto created = client().CreateBuiltin("pendulum", 1, settings);
  ASSERT_TRUE(created.ok()) << created.status();
  const std::string id = created->instance_ids(0);
  // An absurd torque spins the pendulum past the divergence speed.
  const absl::Status diverged = client().Step(id, Eigen::VectorXd::Constant(1, 1e12), 10).status();
  ExpectError(diverged, StatusCode::kFailedPrecondition, "diverged");
  ExpectError(client().Step(id, Eigen::VectorXd::Zero(1), 1).status(),
              StatusCode::kFailedPrecondition, "Reset");
  StepBystander();
  v1::ResetRequest reset;
  reset.set_instance_id(id);
  ASSERT_TRUE(client().Reset(reset).ok());
  auto after = client().Step(id, Eigen::VectorXd::Zero(1), 10);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->steps(), 10);
}

// ------------------------------------------------------------ every check --
// One case per check of the request validation (service, settings, contact
// parameters, terrain, model loader, state blobs): a request that only that
// check rejects, the exact code and a word of the message naming the field.
// Loosening any one check lets its request through or changes its message,
// and its case fails; the bystander must stay untouched throughout.

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A call of the service that is expected to fail, given the client and the
// bystander's id.
using Call = std::function<absl::Status(client::Client&, const std::string&)>;

struct Rejected {
  std::string name;
  Call call;
  StatusCode code;
  std::string needle;
};

void PrintTo(const Rejected& rejected, std::ostream* os) { *os << rejected.name; }

Rejected Invalid(std::string name, Call call, std::string needle) {
  return {std::move(name), std::move(call), StatusCode::kInvalidArgument, std::move(needle)};
}

// CreateInstances of one built-in `model` with settings made by `fill`.
Call CreateWith(std::string model, std::function<void(v1::Settings&)> fill) {
  return [model = std::move(model), fill = std::move(fill)](client::Client& c, const std::string&) {
    v1::Settings settings;
    fill(settings);
    return c.CreateBuiltin(model, 1, settings).status();
  };
}

// A box with `contact` and the given contact parameters.
Call ContactParams(std::string contact, std::vector<std::pair<std::string, double>> params) {
  return CreateWith("box",
                    [contact = std::move(contact), params = std::move(params)](v1::Settings& s) {
                      s.set_contact_model(contact);
                      for (const auto& [name, value] : params)
                        (*s.mutable_contact_parameters())[name] = value;
                    });
}
Call ContactParam(std::string contact, std::string name, double value) {
  return ContactParams(std::move(contact), {{std::move(name), value}});
}

// CreateInstances of a model source.
Call CreateFrom(v1::ModelSource source) {
  return [source = std::move(source)](client::Client& c, const std::string&) {
    v1::CreateInstancesRequest request;
    request.set_count(1);
    *request.mutable_model() = source;
    return c.CreateInstances(request).status();
  };
}
Call CreateUrdf(std::string urdf, std::string base = "",
                std::vector<std::string> contact_links = {}) {
  v1::ModelSource source;
  source.set_urdf(std::move(urdf));
  source.set_base(std::move(base));
  for (std::string& link : contact_links) source.add_contact_links(std::move(link));
  return CreateFrom(std::move(source));
}

// URDF pieces: a link with a unit-ish inertia and a contact sphere, a joint,
// a robot around them.
constexpr char kInertial[] =
    R"(<inertial><mass value="1"/>)"
    R"(<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>)";
constexpr char kBall[] = R"(<collision><geometry><sphere radius="0.05"/></geometry></collision>)";

std::string Link(const std::string& name, const std::string& inner) {
  return "<link name=\"" + name + "\">" + inner + "</link>";
}
std::string Link(const std::string& name) { return Link(name, std::string(kInertial) + kBall); }
std::string Joint(const std::string& name, const std::string& type, const std::string& parent,
                  const std::string& child, const std::string& inner = R"(<axis xyz="0 1 0"/>)") {
  return "<joint name=\"" + name + "\" type=\"" + type + "\"><parent link=\"" + parent +
         "\"/><child link=\"" + child + "\"/>" + inner + "</joint>";
}
std::string Robot(const std::string& body) {
  return "<?xml version=\"1.0\"?><robot name=\"r\">" + body + "</robot>";
}
// Two links and a revolute hinge (with `hinge` inside its element), then
// `more`.
std::string Arm(const std::string& hinge = R"(<axis xyz="0 1 0"/>)", const std::string& more = "") {
  return Robot(Link("base") + Link("arm") + Joint("hinge", "revolute", "base", "arm", hinge) +
               more);
}
// The arm with a SimpleTransmission holding `inner`.
std::string ArmWithTransmission(const std::string& inner) {
  return Arm(R"(<axis xyz="0 1 0"/>)",
             "<transmission name=\"t\"><type>transmission_interface/SimpleTransmission</type>" +
                 inner + "</transmission>");
}
// The arm with the hinge link's inertial replaced by `inertial`.
std::string ArmWithArmLink(const std::string& inner) {
  return Robot(Link("base") + Link("arm", inner) + Joint("hinge", "revolute", "base", "arm"));
}

// The bystander's state blob, edited by `edit`, sent back by SetState.
template <typename T>
void Put(std::string& blob, size_t offset, T value) {
  std::memcpy(blob.data() + offset, &value, sizeof value);
}
template <typename T>
T Get(const std::string& blob, size_t offset) {
  T value;
  std::memcpy(&value, blob.data() + offset, sizeof value);
  return value;
}
// The layout of a version-2 blob (engine/sim/state.cc): magic, version, nq,
// nv, contacts (u32 each), time, steps, q, v, ….
constexpr size_t kNqOffset = 8;
constexpr size_t kNvOffset = 12;
constexpr size_t kTimeOffset = 20;
constexpr size_t kQOffset = 36;
Call EditedBlob(std::function<void(std::string&)> edit) {
  return [edit = std::move(edit)](client::Client& c, const std::string& bystander) {
    auto state = c.GetState(bystander);
    if (!state.ok()) return state.status();
    std::string blob = state->state().data();
    edit(blob);
    return c.SetState(bystander, blob).status();
  };
}

// One Session message for `step`; the stream's answer's status.
Call SessionStep(std::function<v1::StepRequest(const std::string&)> make) {
  return [make = std::move(make)](client::Client& c, const std::string& bystander) {
    auto session = c.OpenSession();
    if (!session->Send(make(bystander))) return absl::UnavailableError("send failed");
    v1::Observation obs;
    if (!session->Receive(&obs)) return absl::UnavailableError("no reply");
    const absl::Status closed = session->Close();
    if (!closed.ok()) return closed;
    return client::StatusOf(obs);
  };
}

// A Watch stream's final status.
Call WatchOf(std::string id, double rate_hz) {
  return [id = std::move(id), rate_hz](client::Client& c, const std::string& bystander) {
    auto watch = c.Watch(id.empty() ? bystander : id, rate_hz);
    v1::WatchFrame frame;
    if (watch->Read(&frame)) {  // accepted: the check is gone
      watch->Cancel();
      (void)watch->Finish();
      return absl::OkStatus();
    }
    return watch->Finish();
  };
}

std::vector<Rejected> ServiceCases() {
  std::vector<Rejected> cases;
  auto create_count = [](int count) {
    return [count](client::Client& c, const std::string&) {
      v1::CreateInstancesRequest request;
      request.mutable_model()->set_builtin("box");
      request.set_count(count);
      return c.CreateInstances(request).status();
    };
  };
  cases.push_back(Invalid("CountZero", create_count(0), "count must be in [1, 1024]"));
  cases.push_back(Invalid("CountNegative", create_count(-1), "count must be in [1, 1024]"));
  cases.push_back(Invalid("CountAboveMaxCreate", create_count(1025), "count must be in [1, 1024]"));
  auto create_noise = [](double noise) {
    return [noise](client::Client& c, const std::string&) {
      v1::CreateInstancesRequest request;
      request.mutable_model()->set_builtin("box");
      request.set_count(1);
      request.set_noise(noise);
      return c.CreateInstances(request).status();
    };
  };
  cases.push_back(Invalid("CreateNoiseNegative", create_noise(-0.1), "noise"));
  cases.push_back(Invalid("CreateNoiseNaN", create_noise(kNaN), "noise"));
  auto reset_noise = [](double noise) {
    return [noise](client::Client& c, const std::string& bystander) {
      v1::ResetRequest request;
      request.set_instance_id(bystander);
      request.set_noise(noise);
      return c.Reset(request).status();
    };
  };
  cases.push_back(Invalid("ResetNoiseNegative", reset_noise(-0.1), "noise"));
  cases.push_back(Invalid("ResetNoiseInf", reset_noise(kInf), "noise"));
  cases.push_back(Invalid(
      "ResetGarbageState",
      [](client::Client& c, const std::string& bystander) {
        v1::ResetRequest request;
        request.set_instance_id(bystander);
        request.mutable_state()->set_data("garbage!");
        return c.Reset(request).status();
      },
      "bad magic"));
  cases.push_back(Invalid(
      "StepSubstepsNegative",
      [](client::Client& c, const std::string& bystander) {
        return c.Step(bystander, Eigen::VectorXd::Zero(12), -1).status();
      },
      "substeps must be in [1, 1000]"));
  cases.push_back(Invalid(
      "BatchAboveMaxBatch",
      [](client::Client& c, const std::string&) {
        v1::StepBatchRequest batch;
        for (int k = 0; k < 5; ++k) {
          *batch.add_steps() = MakeStep(absl::StrCat("id", k), Eigen::VectorXd::Zero(12), 1);
        }
        return c.StepBatch(batch).status();
      },
      "StepBatch has 5 instances, at most 4 (the server's --max-batch)"));
  cases.push_back(Invalid(
      "BatchSubstepsNegative",
      [](client::Client& c, const std::string& bystander) {
        v1::StepBatchRequest batch;
        *batch.add_steps() = MakeStep(bystander, Eigen::VectorXd::Zero(12), -2);
        return c.StepBatch(batch).status();
      },
      "steps[0]: substeps"));
  cases.push_back(Invalid(
      "PackedBatchOfTwoShapes",
      [](client::Client& c, const std::string& bystander) {
        auto pendulum = c.CreateBuiltin("pendulum", 1);
        if (!pendulum.ok()) return pendulum.status();
        v1::StepBatchRequest batch;
        batch.set_packed(true);
        *batch.add_steps() = MakeStep(bystander, Eigen::VectorXd::Zero(12), 1);
        *batch.add_steps() = MakeStep(pendulum->instance_ids(0), Eigen::VectorXd::Zero(1), 1);
        return c.StepBatch(batch).status();
      },
      "same observation shape"));
  cases.push_back(Invalid("WatchRateNegative", WatchOf("", -1.0), "rate_hz"));
  cases.push_back(Invalid("WatchRateAbove1000", WatchOf("", 1000.5), "rate_hz"));
  cases.push_back(Invalid("WatchRateNaN", WatchOf("", kNaN), "rate_hz"));
  cases.push_back({"WatchUnknownId", WatchOf("ghost", 10.0), StatusCode::kNotFound, "'ghost'"});
  cases.push_back({"SessionUnknownId", SessionStep([](const std::string&) {
                     return MakeStep("ghost", Eigen::VectorXd::Zero(12), 1);
                   }),
                   StatusCode::kNotFound, "'ghost'"});
  cases.push_back(Invalid("SessionSubstepsNegative", SessionStep([](const std::string& id) {
                            return MakeStep(id, Eigen::VectorXd::Zero(12), -1);
                          }),
                          "substeps must be in"));
  cases.push_back(Invalid("SessionNaNAction", SessionStep([](const std::string& id) {
                            return MakeStep(id, Eigen::VectorXd::Constant(12, kNaN), 1);
                          }),
                          "action[0]"));
  cases.push_back(Invalid("SessionWrongActionSize", SessionStep([](const std::string& id) {
                            return MakeStep(id, Eigen::VectorXd::Zero(3), 1);
                          }),
                          "size 3, expected 12"));
  cases.push_back(Invalid(
      "GetModelUnknownBuiltin",
      [](client::Client& c, const std::string&) {
        v1::ModelSource source;
        source.set_builtin("robocop");
        return c.GetModel(source).status();
      },
      "robocop"));
  return cases;
}

std::vector<Rejected> SettingsCases() {
  std::vector<Rejected> cases;
  auto box = [](std::function<void(v1::Settings&)> fill) { return CreateWith("box", fill); };
  cases.push_back(Invalid("DtNaN", box([](auto& s) { s.set_dt(kNaN); }), "dt must be in (0, 1]"));
  cases.push_back(Invalid("DtAboveOne", box([](auto& s) { s.set_dt(1.5); }), "dt must be in"));
  cases.push_back(Invalid("GravityFourEntries", box([](auto& s) {
                            for (double g : {0.0, 0.0, -9.81, 1.0}) s.add_gravity(g);
                          }),
                          "gravity has 4 entries, expected 3"));
  cases.push_back(Invalid("GravityTwoEntries", box([](auto& s) {
                            for (double g : {0.0, -9.81}) s.add_gravity(g);
                          }),
                          "gravity has 2 entries"));
  cases.push_back(Invalid("GravityNaN", box([](auto& s) {
                            for (double g : {0.0, kNaN, -9.81}) s.add_gravity(g);
                          }),
                          "gravity must be finite"));
  cases.push_back(Invalid("UnknownIntegrator", box([](auto& s) {
                            s.set_contact_model("hertz");
                            s.set_integrator("leapfrog");
                          }),
                          "integrator 'leapfrog'"));
  cases.push_back(Invalid("UnknownLoopSolver", box([](auto& s) { s.set_loop_solver("magic"); }),
                          "loop solver 'magic'"));
  cases.push_back(Invalid("KpNegative", box([](auto& s) { s.set_kp(-1.0); }), "kp"));
  cases.push_back(Invalid("KpNaN", box([](auto& s) { s.set_kp(kNaN); }), "kp"));
  cases.push_back(Invalid("KpInf", box([](auto& s) { s.set_kp(kInf); }), "kp"));
  cases.push_back(Invalid("KdNegative", box([](auto& s) { s.set_kd(-1.0); }), "kd"));
  cases.push_back(Invalid("KdInf", box([](auto& s) { s.set_kd(kInf); }), "kd"));
  cases.push_back(Invalid("IdTimeConstantNegative",
                          box([](auto& s) { s.set_id_time_constant(-0.1); }), "id_time_constant"));
  cases.push_back(Invalid("IdTimeConstantNaN", box([](auto& s) { s.set_id_time_constant(kNaN); }),
                          "id_time_constant"));
  cases.push_back(Invalid("IdTimeConstantInf", box([](auto& s) { s.set_id_time_constant(kInf); }),
                          "id_time_constant"));
  cases.push_back(Invalid("GearNaN", box([](auto& s) { s.set_gear(kNaN); }), "transmission gear"));
  cases.push_back(Invalid("RotorInertiaNegative", box([](auto& s) { s.set_rotor_inertia(-1.0); }),
                          "rotor_inertia"));
  cases.push_back(Invalid("IdConstraintWithForceLaw", box([](auto& s) {
                            s.set_contact_model("hertz");
                            s.set_control_mode("id-constraint");
                          }),
                          "needs a hard-contact model"));
  cases.push_back(
      Invalid("LoopClosuresWithForceLaw",
              CreateWith("four_bar", [](auto& s) { s.set_contact_model("spring-damper"); }),
              "loop closure"));
  return cases;
}

std::vector<Rejected> ContactParameterCases() {
  std::vector<Rejected> cases;
  auto add = [&cases](std::string name, std::string contact, std::string param, double value,
                      std::string needle) {
    cases.push_back(Invalid(std::move(name),
                            ContactParam(std::move(contact), std::move(param), value),
                            std::move(needle)));
  };
  // contact_parameters.cc: finiteness, the integer parameters, unknown names.
  add("ParameterNaN", "moreau-sor", "alpha", kNaN, "contact parameter 'alpha' is nan");
  add("ParameterInf", "hertz", "stiffness", kInf, "contact parameter 'stiffness' is inf");
  add("MaxIterationsZero", "moreau-sor", "max_iterations", 0, "'max_iterations' must be");
  add("MaxIterationsFraction", "least-constraint", "max_iterations", 2.5,
      "'max_iterations' must be");
  add("MaxIterationsAbove100000", "micro-macro", "max_iterations", 100001,
      "'max_iterations' must be");
  add("MaxIterationsOfAForceLaw", "spring-damper", "max_iterations", 10,
      "unknown contact parameter 'max_iterations'");
  add("ImplicitFrictionHalf", "hertz", "implicit_friction", 0.5, "'implicit_friction' must be");
  add("ImplicitFrictionOfMicro", "micro", "implicit_friction", 1,
      "unknown contact parameter 'implicit_friction'");
  // Hard contact (moreau-*): the impulse law and the prox iteration.
  add("HardRestitutionNormalAboveOne", "moreau-sor", "restitution_normal", 1.5, "eps_N");
  add("HardRestitutionTangentialNegative", "moreau-jor", "restitution_tangential", -0.1, "eps_T");
  add("HardAlphaTwo", "moreau-sor", "alpha", 2.0, "prox.alpha");
  add("HardAlphaZero", "moreau-jor", "alpha", 0.0, "prox.alpha");
  add("HardTolRelNegative", "moreau-sor", "tol_rel", -1e-6, "prox.T_rel");
  add("HardTolAbsNegative", "moreau-sor", "tol_abs", -1e-6, "prox.T_abs");
  // spring-damper (000 Alg. 1).
  add("SpringNormalStiffnessZero", "spring-damper", "normal_stiffness", 0,
      "spring_damper.normal_stiffness");
  add("SpringNormalDampingNegative", "spring-damper", "normal_damping", -1,
      "spring_damper.normal_damping");
  add("SpringTangentialStiffnessZero", "spring-damper", "tangential_stiffness", 0,
      "spring_damper.tangential_stiffness");
  add("SpringTangentialDampingNegative", "spring-damper", "tangential_damping", -1,
      "spring_damper.tangential_damping");
  add("SpringMuNegative", "spring-damper", "mu", -1, "spring_damper.mu");
  add("SpringStickVelocityNegative", "spring-damper", "stick_velocity", -1,
      "spring_damper.stick_velocity");
  // hertz (001 eq. 34–38).
  add("HertzStiffnessZero", "hertz", "stiffness", 0, "hertz.stiffness");
  add("HertzExponentBelowOne", "hertz", "exponent", 0.5, "hertz.exponent");
  add("HertzDampingNegative", "hertz", "damping", -1, "hertz.damping");
  add("HertzRampDepthZero", "hertz", "ramp_depth", 0, "hertz.ramp_depth");
  add("HertzMuStaticNegative", "hertz", "mu_static", -1, "hertz.mu_static");
  add("HertzMuDynamicNegative", "hertz", "mu_dynamic", -1, "hertz.mu_dynamic");
  add("HertzStictionVelocityZero", "hertz", "stiction_velocity", 0, "hertz.stiction_velocity");
  cases.push_back(
      Invalid("HertzSlidingBelowStiction",
              ContactParams("hertz", {{"stiction_velocity", 0.1}, {"sliding_velocity", 0.05}}),
              "hertz.sliding_velocity"));
  // micro (003 eq. 14–15).
  add("MicroStiffnessZero", "micro", "stiffness", 0, "micro.stiffness");
  add("MicroDampingNegative", "micro", "damping", -1, "micro.damping");
  add("MicroMuNegative", "micro", "mu", -1, "micro.mu");
  add("MicroTangentialStiffnessZero", "micro", "tangential_stiffness", 0,
      "micro.tangential_stiffness");
  add("MicroTangentialDampingNegative", "micro", "tangential_damping", -1,
      "micro.tangential_damping");
  add("MicroStickVelocityNegative", "micro", "stick_velocity", -1, "micro.stick_velocity");
  // least-constraint (004).
  add("LeastConstraintMuNegative", "least-constraint", "mu", -1, "least_constraint.mu");
  add("LeastConstraintRegularizationNegative", "least-constraint", "regularization", -1,
      "least_constraint.regularization");
  add("LeastConstraintImpactVelocityNegative", "least-constraint", "impact_velocity", -1,
      "least_constraint.impact_velocity");
  add("LeastConstraintTolAbsNegative", "least-constraint", "tol_abs", -1,
      "least_constraint.qp.abs_tolerance");
  add("LeastConstraintTolRelNegative", "least-constraint", "tol_rel", -1,
      "least_constraint.qp.rel_tolerance");
  cases.push_back(Invalid("LeastConstraintTolerancesBothZero",
                          ContactParams("least-constraint", {{"tol_abs", 0}, {"tol_rel", 0}}),
                          "least_constraint.qp.abs_tolerance and qp.rel_tolerance are both 0"));
  // micro-macro (003 eq. 14–36).
  add("MicroMacroMembraneStiffnessZero", "micro-macro", "membrane_stiffness", 0,
      "micro_macro.membrane: micro.stiffness");
  add("MicroMacroMembraneDampingNegative", "micro-macro", "membrane_damping", -1,
      "micro_macro.membrane: micro.damping");
  add("MicroMacroMembraneMuNegative", "micro-macro", "membrane_mu", -1,
      "micro_macro.membrane: micro.mu");
  add("MicroMacroRestitutionAboveOne", "micro-macro", "restitution", 1.5,
      "micro_macro.restitution");
  add("MicroMacroMuKineticNegative", "micro-macro", "mu_kinetic", -1, "micro_macro.mu_kinetic");
  cases.push_back(Invalid("MicroMacroMuStaticBelowKinetic",
                          ContactParams("micro-macro", {{"mu_static", 0.1}, {"mu_kinetic", 0.5}}),
                          "micro_macro.mu_static"));
  add("MicroMacroLambdaZero", "micro-macro", "lambda", 0, "micro_macro.lambda");
  add("MicroMacroSlipVelocityZero", "micro-macro", "slip_velocity", 0, "micro_macro.slip_velocity");
  add("MicroMacroTolAbsNegative", "micro-macro", "tol_abs", -1, "micro_macro.qp.abs_tolerance");
  add("MicroMacroTolRelNegative", "micro-macro", "tol_rel", -1, "micro_macro.qp.rel_tolerance");
  cases.push_back(Invalid("MicroMacroTolerancesBothZero",
                          ContactParams("micro-macro", {{"tol_abs", 0}, {"tol_rel", 0}}),
                          "micro_macro.qp.abs_tolerance and qp.rel_tolerance are both 0"));
  return cases;
}

std::vector<Rejected> TerrainCases() {
  std::vector<Rejected> cases;
  auto terrain = [](std::function<void(v1::Terrain&)> fill) {
    return CreateWith("box",
                      [fill = std::move(fill)](v1::Settings& s) { fill(*s.mutable_terrain()); });
  };
  auto heightfield = [&terrain](std::function<void(v1::Terrain::Heightfield&)> edit) {
    return terrain([edit = std::move(edit)](v1::Terrain& t) {
      v1::Terrain::Heightfield& h = *t.mutable_heightfield();
      for (double x : {0.0, 0.0, 0.0}) h.add_origin(x);
      h.set_cell_size(0.5);
      h.set_nx(2);
      h.set_ny(2);
      for (double z : {0.0, 0.1, 0.2, 0.3}) h.add_heights(z);
      edit(h);
    });
  };
  cases.push_back(Invalid("FlatHeightNaN",
                          terrain([](auto& t) { t.mutable_flat()->set_height(kNaN); }),
                          "terrain: terrain plane offset must be finite"));
  cases.push_back(Invalid("InclineAxisTwoEntries", terrain([](auto& t) {
                            t.mutable_incline()->set_angle_deg(5);
                            for (double a : {1.0, 0.0}) t.mutable_incline()->add_axis(a);
                          }),
                          "terrain: terrain.incline.axis has 2 entries"));
  cases.push_back(Invalid("InclineAngleNinety",
                          terrain([](auto& t) { t.mutable_incline()->set_angle_deg(90); }),
                          "terrain incline angle must be in (-pi/2, pi/2)"));
  cases.push_back(Invalid("InclineAngleNaN",
                          terrain([](auto& t) { t.mutable_incline()->set_angle_deg(kNaN); }),
                          "terrain incline angle must be finite"));
  cases.push_back(Invalid("InclineAxisZero", terrain([](auto& t) {
                            t.mutable_incline()->set_angle_deg(5);
                            for (double a : {0.0, 0.0, 0.0}) t.mutable_incline()->add_axis(a);
                          }),
                          "terrain incline axis must be finite and non-zero"));
  cases.push_back(Invalid("HeightfieldOriginTwoEntries",
                          heightfield([](auto& h) { h.mutable_origin()->RemoveLast(); }),
                          "terrain.heightfield.origin has 2 entries"));
  cases.push_back(Invalid("HeightfieldOriginNaN",
                          heightfield([](auto& h) { h.set_origin(1, kNaN); }),
                          "heightfield origin must be finite"));
  cases.push_back(Invalid("HeightfieldCellSizeZero",
                          heightfield([](auto& h) { h.set_cell_size(0.0); }), "cell_size"));
  cases.push_back(Invalid("HeightfieldNxOne", heightfield([](auto& h) {
                            h.set_nx(1);
                            h.mutable_heights()->Truncate(2);
                          }),
                          "nx >= 2 and ny >= 2, got nx = 1"));
  cases.push_back(Invalid("HeightfieldHeightsCount",
                          heightfield([](auto& h) { h.add_heights(0.4); }),
                          "heights must have nx * ny = 4 entries, got 5"));
  cases.push_back(Invalid("HeightfieldHeightNaN",
                          heightfield([](auto& h) { h.set_heights(3, kNaN); }), "heights[3]"));
  cases.push_back(Invalid("RoughAmplitudeTooLarge",
                          terrain([](auto& t) { t.mutable_rough()->set_amplitude(0.5); }),
                          "terrain: rough: the roughness amplitude must be in [0, 0.1] m"));
  cases.push_back(Invalid("HeightfieldCsvRagged", terrain([](auto& t) {
                            t.mutable_heightfield_csv()->set_text("0,0,0\n0,0\n");
                          }),
                          "terrain: heightfield_csv: line 2 has 2 heights, the first row has 3"));
  cases.push_back(Invalid("HeightfieldCsvNotANumber", terrain([](auto& t) {
                            t.mutable_heightfield_csv()->set_text("0,0\n0,up\n");
                          }),
                          "heightfield_csv: line 2, value 2: \"up\" is not a finite height"));
  return cases;
}

std::vector<Rejected> ModelCases() {
  std::vector<Rejected> cases;
  auto builtin = [](std::string name, std::string base, std::vector<std::string> links) {
    v1::ModelSource source;
    source.set_builtin(std::move(name));
    source.set_base(std::move(base));
    for (std::string& l : links) source.add_contact_links(std::move(l));
    return CreateFrom(std::move(source));
  };
  cases.push_back(
      Invalid("BaseSideways", builtin("pendulum", "sideways", {}), "model.base is 'sideways'"));
  cases.push_back(Invalid("ContactLinkUnknown", builtin("mini_cheetah", "", {"tail"}),
                          "contact link 'tail' is not a link"));
  const std::string cylinder =
      std::string(kInertial) +
      R"(<collision><geometry><cylinder radius="0.05" length="0.2"/></geometry></collision>)";
  cases.push_back(Invalid("ContactLinkWithoutSphereOrBox",
                          CreateUrdf(Robot(Link("base") + Link("arm", cylinder) +
                                           Joint("hinge", "revolute", "base", "arm")),
                                     "", {"arm"}),
                          "contact link 'arm' has no sphere or box"));
  cases.push_back(Invalid("FloatingWorldWithTwoChildren",
                          CreateUrdf(Robot(Link("world", "") + Link("a") + Link("b") +
                                           Joint("ja", "fixed", "world", "a", "") +
                                           Joint("jb", "fixed", "world", "b", "")),
                                     "floating"),
                          "cannot float the base"));
  cases.push_back(Invalid("FreeJointNameReserved",
                          CreateUrdf(Robot(Link("base") + Link("arm") +
                                           Joint("floating_base", "revolute", "base", "arm"))),
                          "joint 'floating_base': the name is reserved"));
  cases.push_back(Invalid("FloatingBaseWithoutMass",
                          CreateUrdf(Robot(Link("base", kBall)), "floating"),
                          "the robot has no mass"));
  cases.push_back(Invalid("MasslessSubtree",
                          CreateUrdf(Robot(Link("world", "") + Link("arm", kBall) +
                                           Joint("hinge", "revolute", "world", "arm"))),
                          "link 'arm' and everything below it has no mass"));
  return cases;
}

std::vector<Rejected> UrdfCases() {
  std::vector<Rejected> cases;
  auto add = [&cases](std::string name, std::string urdf, std::string needle) {
    cases.push_back(Invalid(std::move(name), CreateUrdf(std::move(urdf)), std::move(needle)));
  };
  // XML and tree shape (urdf_prepare.cc).
  add("UrdfEmpty", " \n", "URDF parse error: empty input");
  add("UrdfControlByte", Arm() + std::string(1, '\x01'), "control byte 0x01");
  add("UrdfTruncated", R"(<robot name="r"><link name="a">)", "malformed or truncated XML");
  add("UrdfCharacterReference",
      R"(<robot name="r"><link name="a&#65"/><link name="b&#66;"/></robot>)",
      "malformed character reference");
  add("UrdfNoElement", "<!-- a comment, no element -->", "no XML element");
  add("UrdfRootNotRobot", R"(<robut name="r"/>)", "the root element is <robut>");
  add("UrdfLinkWithTwoParents",
      Robot(Link("a") + Link("b") + Link("c") + Joint("ac", "revolute", "a", "c") +
            Joint("bc", "revolute", "b", "c")),
      "link 'c' is the child of two joints");
  add("UrdfKinematicLoop",
      Robot(Link("base") + Link("a") + Link("b") + Joint("ab", "revolute", "a", "b") +
            Joint("ba", "revolute", "b", "a")),
      "URDF parse error: kinematic loop: b -> a -> b");
  // <transmission> (urdf_prepare.cc, build_model.cc).
  add("TransmissionTwoReductionSpellings",
      ArmWithTransmission(R"(<joint name="hinge"/><mechanicalReduction>2</mechanicalReduction>)"
                          R"(<drake:gear_ratio value="2"/>)"),
      "both <mechanicalReduction> and <drake:gear_ratio>");
  add("TransmissionReductionTwice",
      ArmWithTransmission(R"(<joint name="hinge"/><mechanicalReduction>2</mechanicalReduction>)"
                          R"(<actuator name="m"><mechanicalReduction>3</mechanicalReduction>)"
                          R"(</actuator>)"),
      "<mechanicalReduction> given twice");
  add("TransmissionReductionInf",
      ArmWithTransmission(R"(<joint name="hinge"/><mechanicalReduction>inf</mechanicalReduction>)"),
      "<mechanicalReduction> 'inf' is not a finite number");
  add("TransmissionWithoutJoint",
      ArmWithTransmission(R"(<mechanicalReduction>2</mechanicalReduction>)"),
      "transmission 't': expected one <joint");
  add("TransmissionOfUnknownJoint", ArmWithTransmission(R"(<joint name="elbow"/>)"),
      "no joint named 'elbow'");
  add("TransmissionTwoOnOneJoint",
      Arm(R"(<axis xyz="0 1 0"/>)",
          R"(<transmission name="t1"><joint name="hinge"/></transmission>)"
          R"(<transmission name="t2"><joint name="hinge"/></transmission>)"),
      "joint 'hinge' has two transmissions");
  add("TransmissionTwoActuators",
      ArmWithTransmission(R"(<joint name="hinge"/><actuator name="m1"/><actuator name="m2"/>)"),
      "2 <actuator> elements");
  add("TransmissionReductionZero",
      ArmWithTransmission(R"(<joint name="hinge"/><mechanicalReduction>0</mechanicalReduction>)"),
      "mechanicalReduction must be > 0");
  add("TransmissionRotorInertiaNegative",
      ArmWithTransmission(R"(<joint name="hinge"/><rotorInertia>-1</rotorInertia>)"),
      "rotorInertia must be");
  add("TransmissionOnFixedJoint",
      Robot(Link("base") + Link("arm") + Joint("weld", "fixed", "base", "arm", "") +
            R"(<transmission name="t"><joint name="weld"/></transmission>)"),
      "the joint is not actuated");
  // Numbers and elements (urdfdom, link_tree.cc).
  add("UrdfdomUnparsableMass",
      ArmWithArmLink(R"(<inertial><mass value="heavy"/>)"
                     R"(<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>)"),
      "URDF parse error");
  add("NegativeMass",
      ArmWithArmLink(R"(<inertial><mass value="-1"/>)"
                     R"(<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>)"),
      "link 'arm': negative mass -1");
  add("InertiaNotPositiveSemiDefinite",
      ArmWithArmLink(R"(<inertial><mass value="1"/>)"
                     R"(<inertia ixx="-1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>)"),
      "link 'arm': inertia is not positive semi-definite");
  add("SphereRadiusNegative",
      ArmWithArmLink(std::string(kInertial) +
                     R"(<collision><geometry><sphere radius="-0.1"/></geometry></collision>)"),
      "link 'arm': collision sphere size is negative");
  add("FloatingJointType",
      Robot(Link("base") + Link("arm") + Joint("j", "floating", "base", "arm")),
      "joint 'j': unsupported joint type 'floating'");
  add("PlanarJointType", Robot(Link("base") + Link("arm") + Joint("j", "planar", "base", "arm")),
      "joint 'j': unsupported joint type 'planar'");
  add("LimitLowerAboveUpper",
      Arm(R"(<axis xyz="0 1 0"/><limit lower="1" upper="-1" effort="1" velocity="1"/>)"),
      "joint 'hinge': lower limit 1 is above upper limit -1");
  add("ZeroAxis", Arm(R"(<axis xyz="0 0 0"/>)"), "joint 'hinge': zero axis");
  add("NegativeDamping", Arm(R"(<axis xyz="0 1 0"/><dynamics damping="-1" friction="0"/>)"),
      "joint 'hinge': negative damping or friction");
  add("NegativeFriction", Arm(R"(<axis xyz="0 1 0"/><dynamics damping="0" friction="-1"/>)"),
      "joint 'hinge': negative damping or friction");
  return cases;
}

std::vector<Rejected> StateBlobCases() {
  std::vector<Rejected> cases;
  auto add = [&cases](std::string name, std::function<void(std::string&)> edit,
                      std::string needle) {
    cases.push_back(Invalid(std::move(name), EditedBlob(std::move(edit)), std::move(needle)));
  };
  add(
      "BlobBadMagic", [](std::string& b) { b[0] = 'X'; }, "state blob: not a Moreau state");
  add(
      "BlobVersionFour", [](std::string& b) { Put<uint32_t>(b, 4, 4); },
      "state blob: version 4 is not supported");
  add(
      "BlobTruncatedHeader", [](std::string& b) { b.resize(kNvOffset); },
      "state blob: truncated header");
  add(
      "BlobSizesOfAnotherModel", [](std::string& b) { Put<uint32_t>(b, kNqOffset, 7); },
      "state blob: sizes nq=7");
  add(
      "BlobBilateralCount",
      [](std::string& b) {
        // The bilateral count (u32) sits before the last 12 (actuators) doubles.
        Put<uint32_t>(b, b.size() - 12 * sizeof(double) - sizeof(uint32_t), 13);
      },
      "state blob: 13 bilateral impulses do not match");
  add(
      "BlobTruncatedBody", [](std::string& b) { b.pop_back(); }, "state blob: truncated body");
  add(
      "BlobTrailingBytes", [](std::string& b) { b.push_back('\0'); }, "state blob: trailing bytes");
  add(
      "BlobTimeNaN", [](std::string& b) { Put<double>(b, kTimeOffset, kNaN); },
      "state blob: non-finite q, v or time");
  add(
      "BlobQInf", [](std::string& b) { Put<double>(b, kQOffset, kInf); },
      "state blob: non-finite q, v or time");
  add(
      "BlobVNaN",
      [](std::string& b) {
        const auto nq = Get<uint32_t>(b, kNqOffset);
        Put<double>(b, kQOffset + nq * sizeof(double), kNaN);
      },
      "state blob: non-finite q, v or time");
  return cases;
}

std::vector<Rejected> AllCases() {
  std::vector<Rejected> all;
  for (auto make : {ServiceCases, SettingsCases, ContactParameterCases, TerrainCases, ModelCases,
                    UrdfCases, StateBlobCases}) {
    for (Rejected& c : make()) all.push_back(std::move(c));
  }
  return all;
}

class RejectedRequestTest : public ServiceErrorsTest,
                            public ::testing::WithParamInterface<Rejected> {};

TEST_P(RejectedRequestTest, HasItsCodeAndNamesTheField) {
  StepBystander();
  const Rejected& rejected = GetParam();
  ExpectError(rejected.call(client(), bystander_), rejected.code, rejected.needle);
}

INSTANTIATE_TEST_SUITE_P(EveryCheck, RejectedRequestTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<Rejected>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace moreau::testing
