// InstanceStepper: a step request's status as the wire shows it — a
// divergence, then the refusal naming the instance and the simulation's
// message until a new state; a bad action; a deadline already past — with
// the sub-steps done, the diverged counter and the watch sample.
#include "server/instance_stepper.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "server/instance_factory.h"
#include "server/registry.h"

namespace moreau::server {
namespace {

class InstanceStepperTest : public ::testing::Test {
 protected:
  InstanceStepperTest()
      : registry_(options_.max_instances),
        factory_(options_, &metrics_),
        stepper_(options_, &registry_, &metrics_) {}

  // A pendulum (one actuator, torque control) as CreateInstances makes it.
  std::shared_ptr<Instance> AddPendulum() {
    v1::ModelSource source;
    source.set_builtin("pendulum");
    auto model = factory_.LoadModel(source);
    EXPECT_TRUE(model.ok()) << model.status();
    auto sim = sim::Simulation::Create(*model, sim::Settings{});
    EXPECT_TRUE(sim.ok()) << sim.status();
    auto instance = factory_.Wrap(Registry::NewId(), "", std::move(*sim),
                                  std::make_shared<const v1::ModelSource>(source), {});
    EXPECT_TRUE(instance.ok()) << instance.status();
    EXPECT_TRUE(registry_.AddAll({*instance}).ok());
    return *instance;
  }

  static v1::StepRequest Request(const Instance& instance, double torque, int substeps) {
    v1::StepRequest request;
    request.set_instance_id(instance.id);
    request.add_action(torque);
    request.set_substeps(substeps);
    return request;
  }

  v1::Observation Step(Instance& instance, const v1::StepRequest& request,
                       absl::Time deadline = absl::InfiniteFuture()) {
    v1::Observation obs;
    stepper_.Step(instance, request, deadline, &obs);
    return obs;
  }

  ServiceOptions options_;
  Metrics metrics_;
  Registry registry_;
  InstanceFactory factory_;
  InstanceStepper stepper_;
};

TEST_F(InstanceStepperTest, ResolveChecksTheSubStepsThenFindsTheInstance) {
  auto instance = AddPendulum();
  EXPECT_TRUE(stepper_.Resolve(Request(*instance, 0.0, 3), "").ok());
  EXPECT_EQ(
      stepper_.Resolve(Request(*instance, 0.0, options_.max_substeps + 1), "").status().code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(stepper_.Resolve(Request(*instance, 0.0, 3), "someone else").status().code(),
            absl::StatusCode::kNotFound);
}

TEST_F(InstanceStepperTest, DivergedInstanceIsRefusedNamingItUntilReset) {
  auto instance = AddPendulum();
  const double diverged_before = instance->diverged_counter->Value();
  // An absurd torque spins the pendulum past the divergence speed.
  const v1::Observation diverged = Step(*instance, Request(*instance, 1e12, 10));
  EXPECT_EQ(diverged.status().code(), static_cast<int>(absl::StatusCode::kFailedPrecondition));
  EXPECT_NE(diverged.status().message().find("diverged"), std::string::npos);
  EXPECT_EQ(instance->diverged_counter->Value(), diverged_before + 1);
  std::string sim_message;
  {
    absl::MutexLock lock(&instance->mu);
    ASSERT_TRUE(instance->sim->diverged());
    sim_message = instance->sim->diverged_message();
  }
  EXPECT_EQ(diverged.status().message(), sim_message);

  const v1::Observation refused = Step(*instance, Request(*instance, 0.0, 1));
  EXPECT_EQ(refused.status().code(), static_cast<int>(absl::StatusCode::kFailedPrecondition));
  EXPECT_EQ(refused.status().message(),
            absl::StrCat("instance ", instance->id, " diverged (", sim_message,
                         "); Reset it or SetState before stepping"));
  EXPECT_EQ(refused.substeps_done(), 0);
  // A refusal is not counted as another divergence.
  EXPECT_EQ(instance->diverged_counter->Value(), diverged_before + 1);

  {
    absl::MutexLock lock(&instance->mu);
    instance->sim->Reset();
  }
  const v1::Observation after = Step(*instance, Request(*instance, 0.0, 10));
  EXPECT_EQ(after.status().code(), 0) << after.status().message();
  EXPECT_EQ(after.substeps_done(), 10);
}

TEST_F(InstanceStepperTest, WrongActionSizeIsInvalidArgumentNamingTheSizes) {
  auto instance = AddPendulum();
  v1::StepRequest request = Request(*instance, 0.0, 2);
  request.add_action(0.0);
  const v1::Observation obs = Step(*instance, request);
  EXPECT_EQ(obs.status().code(), static_cast<int>(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(obs.status().message(), "action has size 2, expected 1 (one entry per actuator)");
  EXPECT_EQ(obs.substeps_done(), 0);
}

TEST_F(InstanceStepperTest, DeadlineWithinTheMarginStepsNothing) {
  auto instance = AddPendulum();
  // The margin (20 ms by default) is still ahead of the deadline's: no
  // sub-step may start.
  const v1::Observation obs =
      Step(*instance, Request(*instance, 0.0, 3), absl::Now() + absl::Milliseconds(5));
  EXPECT_EQ(obs.status().code(), static_cast<int>(absl::StatusCode::kDeadlineExceeded));
  EXPECT_EQ(obs.status().message(), "stepped 0 of 3 sub-steps before the call's deadline");
  EXPECT_EQ(obs.substeps_done(), 0);
}

TEST_F(InstanceStepperTest, WatchedInstancePublishesItsSteppedState) {
  auto instance = AddPendulum();
  ++instance->watchers;
  const v1::Observation obs = Step(*instance, Request(*instance, 0.5, 7));
  ASSERT_EQ(obs.status().code(), 0) << obs.status().message();
  absl::MutexLock lock(&instance->sample_mu);
  const sim::State& sampled = instance->sample.state;
  EXPECT_EQ(sampled.steps, 7u);
  ASSERT_EQ(sampled.q.size(), obs.q_size());
  for (int i = 0; i < obs.q_size(); ++i) EXPECT_EQ(sampled.q[i], obs.q(i));
}

}  // namespace
}  // namespace moreau::server
