// Every RPC of moreau.v1.Simulator against a real moreaud on a loopback port.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/contact/contact_witness.h"
#include "engine/contact/terrain.h"
#include "engine/contact/terrain_generators.h"
#include "engine/dynamics/crba.h"
#include "engine/dynamics/data.h"
#include "engine/dynamics/energy.h"
#include "engine/dynamics/jacobians.h"
#include "engine/dynamics/kinematics.h"
#include "engine/dynamics/rnea.h"
#include "engine/model/loader.h"
#include "engine/sim/simulation.h"
#include "tests/integration/service_test_util.h"
#include "tests/unit/contact/collision_body.h"

namespace moreau::testing {
namespace {

class ServiceRpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = StartServer();
    ASSERT_NE(server_.client, nullptr);
  }
  client::Client& client() { return *server_.client; }
  // `n` Mini Cheetahs, each stepped 50 sub-steps off its default pose, and
  // their states then: replies compared from the same start.
  void CreateSteppedCheetahs(int n, v1::CreateInstancesResponse& created,
                             std::vector<v1::GetStateResponse>& start) {
    MOREAU_ASSERT_OK_AND_ASSIGN(created, client().CreateBuiltin("mini_cheetah", n));
    for (const std::string& id : created.instance_ids()) {
      ASSERT_TRUE(client().Step(id, TestAction(12, 0), 50).ok());
      MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse state, client().GetState(id));
      start.push_back(state);
    }
  }
  LiveServer server_;
};

TEST_F(ServiceRpcTest, ListModels_HasEveryBuiltinWithItsSpec) {
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ListModelsResponse models, client().ListModels());
  std::vector<std::string> names;
  for (const v1::ModelSpec& m : models.models()) names.push_back(m.name());
  for (const char* name :
       {"mini_cheetah", "pendulum", "double_pendulum", "cartpole", "acrobot", "sphere", "box"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
  const auto cheetah =
      std::find_if(models.models().begin(), models.models().end(),
                   [](const v1::ModelSpec& m) { return m.name() == "mini_cheetah"; });
  ASSERT_NE(cheetah, models.models().end());
  EXPECT_EQ(cheetah->nq(), 19);
  EXPECT_EQ(cheetah->nv(), 18);
  EXPECT_TRUE(cheetah->floating_base());
  EXPECT_EQ(cheetah->actuators_size(), 12);
  EXPECT_EQ(cheetah->contact_points_size(), 4);
  EXPECT_EQ(cheetah->q_default_size(), 19);
  EXPECT_GT(cheetah->total_mass(), 5.0);
}

TEST_F(ServiceRpcTest, GetModel_FromUrdfText) {
  v1::ModelSource source;
  source.set_urdf(R"(<robot name="arm">
    <link name="world"/>
    <joint name="j" type="revolute"><parent link="world"/><child link="l"/>
      <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="5" velocity="3"/></joint>
    <link name="l"><inertial><mass value="2"/><origin xyz="0 0 0.5"/>
      <inertia ixx="0.1" iyy="0.1" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  </robot>)");
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ModelSpec spec, client().GetModel(source));
  EXPECT_EQ(spec.name(), "arm");
  EXPECT_FALSE(spec.floating_base());
  EXPECT_EQ(spec.nv(), 1);
  ASSERT_EQ(spec.joints_size(), 1);
  EXPECT_EQ(spec.joints(0).name(), "j");
  EXPECT_EQ(spec.joints(0).upper(), 1.0);
  ASSERT_EQ(spec.actuators_size(), 1);
  EXPECT_EQ(spec.actuators(0).effort_limit(), 5.0);
}

TEST_F(ServiceRpcTest, CreateInstances_ReturnsIdsSpecAndObservations) {
  v1::Settings settings;
  settings.set_control_mode("pd");
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 3, settings));
  ASSERT_EQ(created.instance_ids_size(), 3);
  EXPECT_NE(created.instance_ids(0), created.instance_ids(1));
  EXPECT_EQ(created.instance_ids(0).size(), 32u);  // 128 random bits in hex
  EXPECT_EQ(created.spec().control_mode(), "pd");
  EXPECT_EQ(created.spec().action().size(), 12);
  EXPECT_EQ(created.spec().action().labels_size(), 12);
  EXPECT_EQ(created.spec().action_lower_size(), 12);
  EXPECT_EQ(created.spec().dt(), 1e-3);
  ASSERT_EQ(created.observations_size(), 3);
  const v1::Observation& obs = created.observations(0);
  EXPECT_EQ(obs.q_size(), 19);
  EXPECT_EQ(obs.base_pose_size(), 7);
  EXPECT_EQ(obs.contact_flags_size(), 4);
  bool has_base_pose = false;
  for (const v1::ArraySpec& a : created.spec().observation()) {
    if (a.name() == "base_pose") has_base_pose = a.size() == 7;
  }
  EXPECT_TRUE(has_base_pose);
}

TEST_F(ServiceRpcTest, CreateInstances_TransmissionOverrideShowsInTheSpec) {
  // Settings.gear / rotor_inertia (paper 002 §IV-C) apply to every actuator of
  // the instance's own model copy; the spec reports that copy.
  v1::Settings settings;
  settings.set_gear(50.0);
  settings.set_rotor_inertia(2e-5);
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 1, settings));
  ASSERT_EQ(created.spec().model().actuators_size(), 12);
  for (const v1::ActuatorSpec& a : created.spec().model().actuators()) {
    EXPECT_EQ(a.gear(), 50.0);
    EXPECT_EQ(a.rotor_inertia(), 2e-5);
  }
  // Without the override: the model's own (direct drive, no rotor).
  MOREAU_ASSERT_OK_AND_ASSIGN(auto plain, client().CreateBuiltin("mini_cheetah", 1));
  EXPECT_EQ(plain.spec().model().actuators(0).gear(), 1.0);
  EXPECT_EQ(plain.spec().model().actuators(0).rotor_inertia(), 0.0);
}

TEST_F(ServiceRpcTest, CreateInstances_SeededNoiseIsReproducible) {
  v1::CreateInstancesRequest request;
  request.mutable_model()->set_builtin("double_pendulum");
  request.set_count(2);
  request.set_seed(7);
  request.set_noise(0.1);
  MOREAU_ASSERT_OK_AND_ASSIGN(auto a, client().CreateInstances(request));
  MOREAU_ASSERT_OK_AND_ASSIGN(auto b, client().CreateInstances(request));
  EXPECT_EQ(a.observations(0).q(0), b.observations(0).q(0));
  EXPECT_NE(a.observations(0).q(0), a.observations(1).q(0));  // seed + k
}

TEST_F(ServiceRpcTest, Step_AdvancesTimeAndReportsContacts) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 1));
  const std::string id = created.instance_ids(0);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation obs,
                              client().Step(id, Eigen::VectorXd::Zero(12), 400));
  EXPECT_EQ(obs.substeps_done(), 400);
  EXPECT_EQ(obs.steps(), 400);
  EXPECT_NEAR(obs.time(), 0.4, 1e-12);
  EXPECT_EQ(obs.status().code(), 0);
  EXPECT_EQ(obs.joint_torques_size(), 12);
  // After 0.4 s of falling from the default pose the feet are on the ground.
  double total_normal = 0.0;
  for (double f : obs.contact_normal_forces()) total_normal += f;
  EXPECT_GT(total_normal, 0.0);
}

TEST_F(ServiceRpcTest, StepBatch_StepsEachInstanceWithItsOwnActionAndSubsteps) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("pendulum", 4));
  v1::StepBatchRequest batch;
  for (int i = 0; i < 4; ++i) {
    *batch.add_steps() = MakeStep(created.instance_ids(i), Eigen::VectorXd::Constant(1, i), i + 1);
  }
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::StepBatchResponse response, client().StepBatch(batch));
  ASSERT_EQ(response.observations_size(), 4);
  for (int i = 0; i < 4; ++i) {
    const v1::Observation& obs = response.observations(i);
    EXPECT_EQ(obs.instance_id(), created.instance_ids(i));
    EXPECT_EQ(obs.status().code(), 0) << obs.status().message();
    EXPECT_EQ(obs.substeps_done(), i + 1);
    EXPECT_EQ(obs.joint_torques(0), static_cast<double>(i));
  }
}

TEST_F(ServiceRpcTest, StepBatch_PackedReplyEqualsOneObservationPerInstance) {
  v1::CreateInstancesResponse created;
  std::vector<v1::GetStateResponse> start;
  ASSERT_NO_FATAL_FAILURE(CreateSteppedCheetahs(3, created, start));
  v1::StepBatchRequest batch;
  for (int i = 0; i < 3; ++i) {
    *batch.add_steps() = MakeStep(created.instance_ids(i), TestAction(12, i), 10 + i);
  }
  *batch.add_steps() = MakeStep("missing", Eigen::VectorXd::Zero(12), 1);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::StepBatchResponse unpacked, client().StepBatch(batch));
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(client().SetState(created.instance_ids(i), start[i].state().data()).ok());
  }
  batch.set_packed(true);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::StepBatchResponse packed_response, client().StepBatch(batch));
  EXPECT_EQ(packed_response.observations_size(), 0);
  const v1::ObservationBatch& packed = packed_response.packed();
  ASSERT_EQ(packed.count(), 4);
  EXPECT_EQ(packed.nq(), 19);
  EXPECT_EQ(packed.nv(), 18);
  EXPECT_EQ(packed.num_actuators(), 12);
  EXPECT_EQ(packed.num_contacts(), 4);
  EXPECT_TRUE(packed.floating_base());
  // Bit-identical to the per-instance reply, row by row.
  auto row = [](const auto& field, int i, int width) {
    return std::vector<double>(field.begin() + i * width, field.begin() + (i + 1) * width);
  };
  auto all = [](const auto& field) { return std::vector<double>(field.begin(), field.end()); };
  for (int i = 0; i < 3; ++i) {
    const v1::Observation& obs = unpacked.observations(i);
    SCOPED_TRACE(i);
    EXPECT_EQ(packed.instance_ids(i), obs.instance_id());
    EXPECT_EQ(packed.status_codes(i), 0);
    EXPECT_EQ(packed.status_messages(i), "");
    EXPECT_EQ(packed.substeps_done(i), 10 + i);
    EXPECT_EQ(packed.time(i), obs.time());
    EXPECT_EQ(packed.steps(i), obs.steps());
    EXPECT_EQ(row(packed.q(), i, 19), all(obs.q()));
    EXPECT_EQ(row(packed.v(), i, 18), all(obs.v()));
    EXPECT_EQ(row(packed.joint_positions(), i, 12), all(obs.joint_positions()));
    EXPECT_EQ(row(packed.joint_velocities(), i, 12), all(obs.joint_velocities()));
    EXPECT_EQ(row(packed.joint_torques(), i, 12), all(obs.joint_torques()));
    EXPECT_EQ(row(packed.base_pose(), i, 7), all(obs.base_pose()));
    EXPECT_EQ(row(packed.base_twist(), i, 6), all(obs.base_twist()));
    EXPECT_EQ(row(packed.contact_normal_forces(), i, 4), all(obs.contact_normal_forces()));
    for (int k = 0; k < 4; ++k) EXPECT_EQ(packed.contact_flags(4 * i + k), obs.contact_flags(k));
    EXPECT_EQ(packed.solver_iterations(i), obs.solver_iterations());
    EXPECT_EQ(packed.solver_converged(i), obs.solver_converged());
  }
  // The unknown instance fails alone: NOT_FOUND naming it, its rows NaN.
  EXPECT_EQ(packed.instance_ids(3), "missing");
  EXPECT_EQ(packed.status_codes(3), static_cast<int>(absl::StatusCode::kNotFound));
  EXPECT_NE(packed.status_messages(3).find("missing"), std::string::npos);
  EXPECT_EQ(packed.substeps_done(3), 0);
  EXPECT_TRUE(std::isnan(packed.q(3 * 19)));
  EXPECT_TRUE(std::isnan(packed.time(3)));
}

TEST_F(ServiceRpcTest, StepBatch_ObservationFieldsReplyOnlyThoseArraysWithTheFullValues) {
  v1::CreateInstancesResponse created;
  std::vector<v1::GetStateResponse> start;
  ASSERT_NO_FATAL_FAILURE(CreateSteppedCheetahs(2, created, start));
  v1::StepBatchRequest batch;
  for (int i = 0; i < 2; ++i) {
    *batch.add_steps() = MakeStep(created.instance_ids(i), TestAction(12, i), 10);
  }
  // Each reply from the same start: the full one, then the selections.
  const auto step_from_start = [&](const v1::StepBatchRequest& request) {
    for (int i = 0; i < 2; ++i) {
      EXPECT_TRUE(client().SetState(created.instance_ids(i), start[i].state().data()).ok());
    }
    return client().StepBatch(request);
  };
  batch.set_packed(true);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::StepBatchResponse full_response, step_from_start(batch));
  const v1::ObservationBatch& full = full_response.packed();
  for (const char* name : {"q", "v", "contact_flags", "q"}) batch.add_observation_fields(name);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::StepBatchResponse some_response, step_from_start(batch));
  const v1::ObservationBatch& some = some_response.packed();
  // The shape, ids, statuses and sub-steps as in the full reply.
  EXPECT_EQ(some.count(), 2);
  EXPECT_EQ(some.nq(), 19);
  EXPECT_EQ(some.nv(), 18);
  EXPECT_EQ(some.num_actuators(), 12);
  EXPECT_EQ(some.num_contacts(), 4);
  EXPECT_TRUE(some.floating_base());
  EXPECT_EQ(std::vector<std::string>(some.instance_ids().begin(), some.instance_ids().end()),
            std::vector<std::string>(full.instance_ids().begin(), full.instance_ids().end()));
  EXPECT_EQ(std::vector<int>(some.status_codes().begin(), some.status_codes().end()),
            std::vector<int>({0, 0}));
  EXPECT_EQ(std::vector<int>(some.substeps_done().begin(), some.substeps_done().end()),
            std::vector<int>({10, 10}));
  // The arrays asked for, bit for bit; the others empty.
  auto all = [](const auto& field) { return std::vector<double>(field.begin(), field.end()); };
  EXPECT_EQ(all(some.q()), all(full.q()));
  EXPECT_EQ(all(some.v()), all(full.v()));
  EXPECT_EQ(some.q_size(), 2 * 19);
  EXPECT_EQ(std::vector<bool>(some.contact_flags().begin(), some.contact_flags().end()),
            std::vector<bool>(full.contact_flags().begin(), full.contact_flags().end()));
  EXPECT_EQ(some.contact_flags_size(), 2 * 4);
  EXPECT_EQ(some.time_size(), 0);
  EXPECT_EQ(some.steps_size(), 0);
  EXPECT_EQ(some.joint_positions_size(), 0);
  EXPECT_EQ(some.joint_velocities_size(), 0);
  EXPECT_EQ(some.joint_torques_size(), 0);
  EXPECT_EQ(some.base_pose_size(), 0);
  EXPECT_EQ(some.base_twist_size(), 0);
  EXPECT_EQ(some.contact_normal_forces_size(), 0);
  EXPECT_EQ(some.solver_iterations_size(), 0);
  EXPECT_EQ(some.solver_converged_size(), 0);
  EXPECT_LT(some_response.ByteSizeLong(), full_response.ByteSizeLong() / 2);

  // One Observation per instance: the same selection of its fields.
  batch.set_packed(false);
  batch.clear_observation_fields();
  batch.add_observation_fields("joint_torques");
  batch.add_observation_fields("time");
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::StepBatchResponse unpacked, step_from_start(batch));
  ASSERT_EQ(unpacked.observations_size(), 2);
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    const v1::Observation& obs = unpacked.observations(i);
    EXPECT_EQ(obs.instance_id(), created.instance_ids(i));
    EXPECT_EQ(obs.status().code(), 0);
    EXPECT_EQ(obs.substeps_done(), 10);
    EXPECT_EQ(obs.time(), full.time(i));
    EXPECT_EQ(all(obs.joint_torques()),
              std::vector<double>(full.joint_torques().begin() + 12 * i,
                                  full.joint_torques().begin() + 12 * (i + 1)));
    EXPECT_EQ(obs.q_size(), 0);
    EXPECT_EQ(obs.v_size(), 0);
    EXPECT_EQ(obs.base_pose_size(), 0);
    EXPECT_EQ(obs.contact_flags_size(), 0);
    EXPECT_EQ(obs.steps(), 0);
  }
}

TEST_F(ServiceRpcTest, StepBatch_PackedRefusesInstancesOfDifferentShapes) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto cheetah, client().CreateBuiltin("mini_cheetah", 1));
  MOREAU_ASSERT_OK_AND_ASSIGN(auto pendulum, client().CreateBuiltin("pendulum", 1));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse before,
                              client().GetState(cheetah.instance_ids(0)));
  v1::StepBatchRequest batch;
  batch.set_packed(true);
  *batch.add_steps() = MakeStep(cheetah.instance_ids(0), TestAction(12, 0), 5);
  *batch.add_steps() = MakeStep(pendulum.instance_ids(0), Eigen::VectorXd::Zero(1), 5);
  const auto response = client().StepBatch(batch);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(response.status().message().find("steps[1] has nq 1"), std::string::npos)
      << response.status();
  // Nothing was stepped.
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse after,
                              client().GetState(cheetah.instance_ids(0)));
  EXPECT_EQ(after.time(), before.time());
}

TEST_F(ServiceRpcTest, Reset_ToDefaultToNoiseAndToAState) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("double_pendulum", 1));
  const std::string id = created.instance_ids(0);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse initial, client().GetState(id));
  ASSERT_TRUE(client().Step(id, Eigen::VectorXd::Ones(2), 100).ok());
  v1::ResetRequest reset;
  reset.set_instance_id(id);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation obs, client().Reset(reset));
  EXPECT_EQ(obs.time(), 0.0);
  EXPECT_EQ(obs.q(0), initial.q(0));
  reset.set_seed(3);
  reset.set_noise(0.2);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation noisy, client().Reset(reset));
  EXPECT_NE(noisy.q(0), initial.q(0));
  v1::ResetRequest to_state;
  to_state.set_instance_id(id);
  *to_state.mutable_state() = initial.state();
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation restored, client().Reset(to_state));
  EXPECT_EQ(restored.q(0), initial.q(0));
}

TEST_F(ServiceRpcTest, GetStateSetState_RoundTripContinuesBitExactly) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 1));
  const std::string id = created.instance_ids(0);
  ASSERT_TRUE(client().Step(id, TestAction(12, 0), 300).ok());
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse saved, client().GetState(id));
  EXPECT_EQ(saved.q_size(), 19);
  EXPECT_NEAR(saved.time(), 0.3, 1e-12);
  ASSERT_TRUE(client().Step(id, TestAction(12, 1), 200).ok());
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse first, client().GetState(id));
  ASSERT_TRUE(client().SetState(id, saved.state().data()).ok());
  ASSERT_TRUE(client().Step(id, TestAction(12, 1), 200).ok());
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse second, client().GetState(id));
  EXPECT_EQ(first.state().data(), second.state().data());
}

// Terrain.rough and Terrain.heightfield_csv are the engine's generators: the
// server's trajectory on them equals one stepped in this process on the
// terrain the engine builds from the same description, bit for bit, and
// differs from the trajectory on flat ground.
TEST_F(ServiceRpcTest, CreateInstances_GeneratedTerrainsAreTheEngines) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok());
  constexpr int kSteps = 400;
  auto run_local = [&](const contact::Terrain& terrain) {
    sim::Settings settings;
    settings.terrain = terrain;
    auto local = sim::Simulation::Create(*model, settings);
    EXPECT_TRUE(local.ok());
    EXPECT_TRUE((*local)->StepAction(TestAction(12, 0), kSteps).ok());
    return Eigen::VectorXd((*local)->state().q);
  };
  auto run_remote = [&](const v1::Terrain& terrain) {
    v1::Settings settings;
    *settings.mutable_terrain() = terrain;
    auto created = client().CreateBuiltin("mini_cheetah", 1, settings);
    EXPECT_TRUE(created.ok()) << created.status();
    const std::string id = created->instance_ids(0);
    EXPECT_TRUE(client().Step(id, TestAction(12, 0), kSteps).ok());
    auto state = client().GetState(id);
    EXPECT_TRUE(state.ok());
    return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(state->q().data(), state->q_size()));
  };
  const Eigen::VectorXd flat = run_local(contact::Terrain());

  v1::Terrain rough;
  rough.mutable_rough()->set_amplitude(0.03);
  rough.mutable_rough()->set_seed(3);
  auto rough_local = contact::RoughTerrain(0.03, 3);
  ASSERT_TRUE(rough_local.ok());
  const Eigen::VectorXd on_rough = run_remote(rough);
  EXPECT_EQ(on_rough, run_local(*rough_local));
  EXPECT_NE(on_rough, flat);

  // A ramp falling 1 mm per 5 cm cell towards +x under every foot.
  std::string csv = "# cell_size: 0.05\n";
  for (int j = 0; j < 40; ++j) {
    for (int i = 0; i < 40; ++i) absl::StrAppend(&csv, i == 0 ? "" : ",", -0.001 * i);
    csv += "\n";
  }
  v1::Terrain ramp;
  ramp.mutable_heightfield_csv()->set_text(csv);
  auto ramp_local = contact::HeightfieldFromCsv(csv);
  ASSERT_TRUE(ramp_local.ok());
  const Eigen::VectorXd on_ramp = run_remote(ramp);
  EXPECT_EQ(on_ramp, run_local(*ramp_local));
  EXPECT_NE(on_ramp, flat);
}

// Settings.controller is the engine's Settings::controller: an instance
// running a controller inside its step follows the trajectory of a
// simulation made in this process with the same settings, bit for bit,
// controller state included; and the controller did drive it.
TEST_F(ServiceRpcTest, CreateInstances_ControllerRunsLikeTheInProcessEngine) {
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok());
  constexpr int kSteps = 600;
  auto run_local = [&](const sim::Settings& settings, const Eigen::VectorXd& action) {
    auto local = sim::Simulation::Create(*model, settings);
    EXPECT_TRUE(local.ok()) << local.status();
    EXPECT_TRUE((*local)->StepAction(action, kSteps).ok());
    return (*local)->Snapshot();
  };
  auto run_remote = [&](const v1::Settings& settings, const Eigen::VectorXd& action) {
    auto created = client().CreateBuiltin("mini_cheetah", 1, settings);
    EXPECT_TRUE(created.ok()) << created.status();
    if (!created.ok()) return std::string();
    const std::string id = created->instance_ids(0);
    EXPECT_TRUE(client().Step(id, action, kSteps).ok());
    auto state = client().GetState(id);
    EXPECT_TRUE(state.ok());
    EXPECT_NEAR(state->time(), kSteps * 1e-3, 1e-9);
    return state->state().data();
  };
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(12);

  // 001's trot under torque control, every second step, with its own gains:
  // zero actions leave it alone in charge.
  v1::Settings trot;
  trot.mutable_controller()->set_kind("trot");
  trot.mutable_controller()->set_period_steps(2);
  (*trot.mutable_controller()->mutable_parameters())["kp"] = 50.0;
  (*trot.mutable_controller()->mutable_parameters())["start_delay_s"] = 0.2;
  sim::Settings trot_local;
  trot_local.controller.kind = sim::ControllerKind::kTrot;
  trot_local.controller.period_steps = 2;
  trot_local.controller.options.gains.kp = 50.0;
  trot_local.controller.options.start_delay_s = 0.2;
  const std::string trotted = run_remote(trot, zero);
  EXPECT_EQ(trotted, run_local(trot_local, zero));
  EXPECT_NE(trotted, run_local(sim::Settings(), zero));

  // "stand" under pd: the actions are offsets to its joint targets.
  v1::Settings stand;
  stand.set_control_mode("pd");
  stand.mutable_controller()->set_kind("stand");
  sim::Settings stand_local;
  stand_local.control.mode = sim::ControlMode::kPd;
  stand_local.controller.kind = sim::ControllerKind::kStand;
  const Eigen::VectorXd offsets = 0.05 * TestAction(12, 1, 1.0);
  const std::string stood = run_remote(stand, offsets);
  EXPECT_EQ(stood, run_local(stand_local, offsets));
  EXPECT_NE(stood, run_local(stand_local, zero));
}

TEST_F(ServiceRpcTest, Query_ReturnsPosesContactsEnergiesMassMatrixBiasAndJacobians) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 1));
  const std::string id = created.instance_ids(0);
  ASSERT_TRUE(client().Step(id, Eigen::VectorXd::Zero(12), 300).ok());
  v1::QueryRequest q;
  q.set_instance_id(id);
  q.set_body_poses(true);
  q.set_contacts(true);
  q.set_energies(true);
  q.set_mass_matrix(true);
  q.set_bias_forces(true);
  q.set_contact_jacobians(true);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::QueryResponse r, client().Query(q));
  EXPECT_EQ(r.nv(), 18);
  EXPECT_EQ(r.body_poses_size(), 13);  // every body but the world
  EXPECT_EQ(r.body_poses(0).quaternion_size(), 4);
  EXPECT_EQ(r.contacts_size(), 4);
  EXPECT_EQ(r.mass_matrix_size(), 18 * 18);
  EXPECT_EQ(r.mass_matrix(1), r.mass_matrix(18));  // symmetric
  EXPECT_GT(r.mass_matrix(0), 0.0);
  EXPECT_EQ(r.bias_forces_size(), 18);
  EXPECT_EQ(r.contact_jacobians_size(), 4 * 3 * 18);
  EXPECT_GT(r.potential_energy(), 0.0);
  EXPECT_GE(r.kinetic_energy(), 0.0);
  // The base body's pose is the base pose of q.
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse state, client().GetState(id));
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(r.body_poses(0).position(k), state.q(k), 1e-12);
}

TEST_F(ServiceRpcTest, Query_EqualsTheInProcessEngineValueForValue) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 1));
  const std::string id = created.instance_ids(0);
  // A moving state with feet on the ground: non-zero velocities, so the bias
  // forces carry Coriolis terms as well as gravity.
  ASSERT_TRUE(client().Step(id, TestAction(12, 3), 150).ok());
  v1::QueryRequest q;
  q.set_instance_id(id);
  q.set_body_poses(true);
  q.set_energies(true);
  q.set_mass_matrix(true);
  q.set_bias_forces(true);
  q.set_contact_jacobians(true);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::QueryResponse r, client().Query(q));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse saved, client().GetState(id));

  // The same state in this process, and the engine's algorithms on it.
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok());
  auto local = sim::Simulation::Create(*model, sim::Settings());
  ASSERT_TRUE(local.ok());
  ASSERT_TRUE((*local)->Restore(saved.state().data()).ok());
  const Model& m = **model;
  const sim::State& state = (*local)->state();
  ASSERT_GT(state.v.norm(), 1e-3);
  Data data = MakeData(m);
  ForwardKinematics(m, data, state.q, state.v);
  EXPECT_EQ(r.kinetic_energy(), KineticEnergy(m, data));
  EXPECT_EQ(r.potential_energy(), PotentialEnergy(m, data));
  ASSERT_EQ(r.body_poses_size(), m.nbodies - 1);
  for (int i = 1; i < m.nbodies; ++i) {
    for (int k = 0; k < 3; ++k) EXPECT_EQ(r.body_poses(i - 1).position(k), data.X_0[i].r[k]);
  }
  const Eigen::MatrixXd M = Crba(m, data, state.q);
  ASSERT_EQ(r.mass_matrix_size(), m.nv * m.nv);
  for (int row = 0; row < m.nv; ++row) {
    for (int col = 0; col < m.nv; ++col) {
      EXPECT_EQ(r.mass_matrix(row * m.nv + col), M(row, col)) << row << ", " << col;
    }
  }
  const Eigen::VectorXd h = NonlinearEffects(m, data, state.q, state.v);
  ASSERT_EQ(r.bias_forces_size(), m.nv);
  for (int k = 0; k < m.nv; ++k) EXPECT_EQ(r.bias_forces(k), h[k]) << k;
  ContactJacobians(m, data, state.q);
  const int points = static_cast<int>(m.contact_points.size());
  ASSERT_EQ(r.contact_jacobians_size(), 3 * points * m.nv);
  for (int c = 0; c < points; ++c) {
    for (int row = 0; row < 3; ++row) {
      for (int col = 0; col < m.nv; ++col) {
        EXPECT_EQ(r.contact_jacobians((3 * c + row) * m.nv + col), data.contact_J[c](row, col))
            << "contact " << c << " row " << row << " column " << col;
      }
    }
  }
}

// A wheel whose cylinder rims and sphere collide (whole-body collision): the
// Jacobians Query reports are taken at the witness points the step finds,
// as contact::WitnessJacobians computes them in this process.
TEST_F(ServiceRpcTest, Query_ContactJacobiansAtTheWitnessPoints) {
  const std::string kWheel = test_models::CollisionBodyUrdf(/*with_box=*/false);
  v1::CreateInstancesRequest create;
  create.mutable_model()->set_urdf(kWheel);
  create.mutable_model()->set_collision("all");
  create.set_count(1);
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateInstances(create));
  const Eigen::Quaterniond r(Eigen::AngleAxisd(0.4, Eigen::Vector3d(0.3, 1.0, 0.2).normalized()));
  Eigen::VectorXd q(7);
  q << 0.1, -0.2, 0.3, r.w(), r.x(), r.y(), r.z();
  v1::QueryRequest query;
  query.set_instance_id(created.instance_ids(0));
  query.set_contact_jacobians(true);
  for (int i = 0; i < 7; ++i) query.add_q(q[i]);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::QueryResponse response, client().Query(query));

  LoadOptions options;
  options.collision = CollisionMode::kAll;
  auto model = LoadUrdfString(kWheel, options);
  ASSERT_TRUE(model.ok()) << model.status();
  const Model& m = **model;
  Data data = MakeData(m);
  contact::WitnessJacobians(m, contact::Terrain(), q, data);
  const int points = static_cast<int>(m.contact_points.size());
  ASSERT_GT(points, 8);  // the rims' eight points and the sphere
  ASSERT_EQ(response.contact_jacobians_size(), 3 * points * m.nv);
  for (int c = 0; c < points; ++c) {
    for (int row = 0; row < 3; ++row) {
      for (int col = 0; col < m.nv; ++col) {
        EXPECT_EQ(response.contact_jacobians((3 * c + row) * m.nv + col),
                  data.contact_J[c](row, col))
            << "contact " << c << " row " << row << " column " << col;
      }
    }
  }
}

TEST_F(ServiceRpcTest, CreateInstances_ObservedLinksCarryTheirQueriedPositions) {
  v1::Settings settings;
  settings.add_observed_links("link2");
  settings.add_observed_links("link1");
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("double_pendulum", 2, settings));
  const v1::ArraySpec& spec = created.spec().observation(created.spec().observation_size() - 1);
  EXPECT_EQ(spec.name(), "link_positions");
  EXPECT_EQ(spec.size(), 6);
  ASSERT_EQ(spec.labels_size(), 6);
  EXPECT_EQ(spec.labels(0), "link2/x");
  EXPECT_EQ(spec.labels(5), "link1/z");
  EXPECT_EQ(created.observations(0).link_positions_size(), 6);
  const std::string a = created.instance_ids(0);
  const std::string b = created.instance_ids(1);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation obs,
                              client().Step(a, Eigen::Vector2d(1.0, -2.0), 50));
  // What Query says of the same state, bit for bit, in the settings' order.
  v1::QueryRequest query;
  query.set_instance_id(a);
  query.set_body_poses(true);
  query.set_link_positions(true);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::QueryResponse poses, client().Query(query));
  ASSERT_EQ(poses.body_poses_size(), 2);
  ASSERT_EQ(poses.body_poses(1).name(), "link2");
  ASSERT_EQ(obs.link_positions_size(), 6);
  ASSERT_EQ(poses.link_positions_size(), 6);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(obs.link_positions(k), poses.body_poses(1).position(k));
    EXPECT_EQ(obs.link_positions(3 + k), poses.body_poses(0).position(k));
  }
  for (int k = 0; k < 6; ++k) EXPECT_EQ(poses.link_positions(k), obs.link_positions(k));
  // A packed row carries the same as an unpacked observation.
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse saved, client().GetState(b));
  v1::StepBatchRequest batch;
  *batch.add_steps() = MakeStep(a, Eigen::Vector2d(0.5, 0.5), 10);
  *batch.add_steps() = MakeStep(b, Eigen::Vector2d(-0.5, 1.0), 10);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse saved_a, client().GetState(a));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::StepBatchResponse unpacked, client().StepBatch(batch));
  ASSERT_TRUE(client().SetState(a, saved_a.state().data()).ok());
  ASSERT_TRUE(client().SetState(b, saved.state().data()).ok());
  batch.set_packed(true);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::StepBatchResponse packed, client().StepBatch(batch));
  EXPECT_EQ(packed.packed().num_observed_links(), 2);
  ASSERT_EQ(packed.packed().link_positions_size(), 12);
  for (int i = 0; i < 2; ++i) {
    for (int k = 0; k < 6; ++k) {
      EXPECT_EQ(packed.packed().link_positions(6 * i + k),
                unpacked.observations(i).link_positions(k));
    }
  }
  // Instances observing other bodies have another shape: not in one packed batch.
  MOREAU_ASSERT_OK_AND_ASSIGN(auto plain, client().CreateBuiltin("double_pendulum", 1));
  EXPECT_EQ(plain.observations(0).link_positions_size(), 0);
  *batch.add_steps() = MakeStep(plain.instance_ids(0), Eigen::Vector2d::Zero(), 1);
  const auto mixed = client().StepBatch(batch);
  EXPECT_EQ(mixed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(mixed.status().message().find("2 observed links"), std::string::npos) << mixed.status();
  // An unknown link is refused, naming it.
  settings.add_observed_links("hand");
  const auto unknown = client().CreateBuiltin("double_pendulum", 1, settings);
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("observed_links[2]"), std::string::npos)
      << unknown.status();
}

TEST_F(ServiceRpcTest, CreateInstances_ObservedMergedLinkSitsOffItsBody) {
  // The Mini Cheetah's toe_fr is merged into shank_fr by a fixed joint, its
  // frame at the shank's foot end.
  v1::Settings settings;
  settings.add_observed_links("toe_fr");
  settings.add_observed_links("shank_fr");
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 1, settings));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation obs,
                              client().Step(created.instance_ids(0), TestAction(12, 1), 100));
  ASSERT_EQ(obs.link_positions_size(), 6);
  auto model = LoadBuiltin("mini_cheetah");
  ASSERT_TRUE(model.ok());
  const int shank = (*model)->BodyIndex("shank_fr");
  ASSERT_EQ((*model)->merged_links[shank], std::vector<std::string>{"toe_fr"});
  const Vec3 origin = (*model)->merged_link_origins[shank][0];
  ASSERT_GT(origin.norm(), 0.1);
  // toe = shank + R_shank · origin: its distance from the shank's origin.
  const Vec3 toe(obs.link_positions(0), obs.link_positions(1), obs.link_positions(2));
  const Vec3 body(obs.link_positions(3), obs.link_positions(4), obs.link_positions(5));
  EXPECT_NEAR((toe - body).norm(), origin.norm(), 1e-12);
}

TEST_F(ServiceRpcTest, Query_AtAConfigurationLeavesTheInstanceAsItIs) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 2));
  const std::string a = created.instance_ids(0);
  const std::string b = created.instance_ids(1);
  ASSERT_TRUE(client().Step(a, TestAction(12, 2), 200).ok());
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse state_a, client().GetState(a));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse before, client().GetState(b));
  v1::QueryRequest query;
  query.set_body_poses(true);
  query.set_mass_matrix(true);
  query.set_energies(true);
  query.set_instance_id(a);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::QueryResponse of_a, client().Query(query));
  // Instance b inspected at a's configuration: a's poses, M and potential
  // energy (all functions of q alone), no kinetic energy (at rest).
  query.set_instance_id(b);
  *query.mutable_q() = state_a.q();
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::QueryResponse at_q, client().Query(query));
  ASSERT_EQ(at_q.body_poses_size(), of_a.body_poses_size());
  for (int i = 0; i < of_a.body_poses_size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(at_q.body_poses(i).position(k), of_a.body_poses(i).position(k));
    }
  }
  ASSERT_EQ(at_q.mass_matrix_size(), of_a.mass_matrix_size());
  for (int k = 0; k < of_a.mass_matrix_size(); ++k) {
    EXPECT_EQ(at_q.mass_matrix(k), of_a.mass_matrix(k));
  }
  EXPECT_EQ(at_q.potential_energy(), of_a.potential_energy());
  EXPECT_EQ(at_q.kinetic_energy(), 0.0);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse after, client().GetState(b));
  EXPECT_EQ(after.state().data(), before.state().data());
  // Wrong size, not finite, or with contacts: refused.
  query.mutable_q()->RemoveLast();
  EXPECT_EQ(client().Query(query).status().code(), absl::StatusCode::kInvalidArgument);
  *query.mutable_q() = state_a.q();
  query.set_q(7, std::nan(""));
  EXPECT_EQ(client().Query(query).status().code(), absl::StatusCode::kInvalidArgument);
  *query.mutable_q() = state_a.q();
  query.set_contacts(true);
  EXPECT_EQ(client().Query(query).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(ServiceRpcTest, Session_StepsInOrderLikeUnaryStep) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 2));
  const std::string a = created.instance_ids(0), b = created.instance_ids(1);
  auto session = client().OpenSession();
  v1::Observation streamed;
  for (int t = 0; t < 20; ++t) {
    ASSERT_TRUE(session->Send(MakeStep(a, TestAction(12, t), 5)));
    ASSERT_TRUE(session->Receive(&streamed));
    ASSERT_EQ(streamed.status().code(), 0) << streamed.status().message();
    ASSERT_TRUE(client().Step(b, TestAction(12, t), 5).ok());
  }
  // An error in the stream comes back in the observation; the stream goes on.
  ASSERT_TRUE(session->Send(MakeStep(a, Eigen::VectorXd::Zero(3), 1)));
  v1::Observation bad;
  ASSERT_TRUE(session->Receive(&bad));
  EXPECT_EQ(bad.status().code(), static_cast<int>(absl::StatusCode::kInvalidArgument));
  ASSERT_TRUE(session->Send(MakeStep("no-such-id", Eigen::VectorXd::Zero(12), 1)));
  ASSERT_TRUE(session->Receive(&bad));
  EXPECT_EQ(bad.status().code(), static_cast<int>(absl::StatusCode::kNotFound));
  EXPECT_TRUE(session->Close().ok());
  EXPECT_EQ(streamed.steps(), 100);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse sa, client().GetState(a));
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::GetStateResponse sb, client().GetState(b));
  EXPECT_EQ(sa.state().data(), sb.state().data());
}

TEST_F(ServiceRpcTest, Watch_StreamsBodyPosesAndContactsWhileStepping) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 1));
  const std::string id = created.instance_ids(0);
  auto watch = client().Watch(id, 200.0);
  std::thread stepper([&] {
    client::Client own(server_.process->address());
    for (int t = 0; t < 60; ++t) ASSERT_TRUE(own.Step(id, Eigen::VectorXd::Zero(12), 10).ok());
  });
  v1::WatchFrame frame;
  int frames = 0;
  double last_time = -1.0;
  // Frames come at the requested rate whether or not the instance stepped
  // since; read until the stepping shows (0.6 s simulated) or 2000 frames.
  while (last_time < 0.6 && frames < 2000 && watch->Read(&frame)) {
    EXPECT_EQ(frame.body_poses_size(), 13);
    EXPECT_EQ(frame.contact_flags_size(), 4);
    EXPECT_GE(frame.time(), last_time);
    last_time = frame.time();
    ++frames;
  }
  stepper.join();
  watch->Cancel();
  EXPECT_NEAR(last_time, 0.6, 1e-9);
  EXPECT_GE(frames, 2);
  watch->Finish().IgnoreError();
}

// Frames a watcher asking `rate_hz` receives over `seconds` of wall time from
// its first frame (reads bounded by 4 × the expected count).
int FramesOver(client::Client::WatchStream& watch, double rate_hz, double seconds) {
  v1::WatchFrame frame;
  if (!watch.Read(&frame)) return -1;
  const auto start = std::chrono::steady_clock::now();
  const auto end = start + std::chrono::duration<double>(seconds);
  int frames = 0;
  const int most = static_cast<int>(4 * rate_hz * seconds);
  while (frames < most && watch.Read(&frame) && std::chrono::steady_clock::now() < end) ++frames;
  return frames;
}

TEST_F(ServiceRpcTest, Watch_NeverSendsFasterThanTheRateAskedEvenWhileSteppedSlowly) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("mini_cheetah", 1));
  const std::string id = created.instance_ids(0);
  constexpr double kRateHz = 30.0, kSeconds = 2.0;
  // Not stepped: every frame is a sample of the same state.
  {
    auto watch = client().Watch(id, kRateHz);
    const int frames = FramesOver(*watch, kRateHz, kSeconds);
    watch->Cancel();
    watch->Finish().IgnoreError();
    EXPECT_LE(frames, kRateHz * kSeconds + 2);
    EXPECT_GE(frames, 0.8 * kRateHz * kSeconds);
  }
  // Stepped in long calls (1000 sub-steps each) by another client, flat out,
  // which delays the frames that fall due during a call.
  std::atomic<bool> stop{false};
  std::thread stepper([&] {
    client::Client own(server_.process->address());
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!stop && std::chrono::steady_clock::now() < give_up) {
      ASSERT_TRUE(own.Step(id, Eigen::VectorXd::Zero(12), 1000).ok());
    }
  });
  auto watch = client().Watch(id, kRateHz);
  const int frames = FramesOver(*watch, kRateHz, kSeconds);
  stop = true;
  stepper.join();
  watch->Cancel();
  watch->Finish().IgnoreError();
  EXPECT_LE(frames, kRateHz * kSeconds + 2);
  EXPECT_GE(frames, 0.5 * kRateHz * kSeconds);
}

TEST_F(ServiceRpcTest, DestroyInstances_FreesAndReportsUnknown) {
  MOREAU_ASSERT_OK_AND_ASSIGN(auto created, client().CreateBuiltin("sphere", 2));
  MOREAU_ASSERT_OK_AND_ASSIGN(auto destroyed,
                              client().DestroyInstances({created.instance_ids(0), "nope"}));
  EXPECT_EQ(destroyed.destroyed(), 1);
  ASSERT_EQ(destroyed.not_found_size(), 1);
  EXPECT_EQ(destroyed.not_found(0), "nope");
  EXPECT_EQ(client().GetState(created.instance_ids(0)).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_TRUE(client().GetState(created.instance_ids(1)).ok());
}

}  // namespace
}  // namespace moreau::testing
