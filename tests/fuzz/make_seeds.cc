// Writes the hand-made seeds of the heightfield, state and service fuzzers
// (binary messages, so made by code rather than by hand):
//   make_seeds tests/fuzz/corpus
// writes heightfield/*, state/* and service/* under that folder. Run it again
// after changing the wire contract, the state format or service_inputs.h.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/sim/contact_parameters.h"
#include "engine/sim/simulation.h"
#include "moreau/v1/simulator.pb.h"
#include "tests/fuzz/service_inputs.h"
#include "tests/fuzz/state_models.h"

namespace {

namespace v1 = ::moreau::v1;
namespace fs = std::filesystem;
using moreau::fuzz::Rpc;

constexpr char kTwoLinks[] = R"(<?xml version="1.0"?>
<robot name="two_links">
  <link name="base"><inertial><mass value="2"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision></link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.5"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="10" velocity="5"/>
  </joint>
  <link name="arm"><inertial><origin xyz="0 0 0.25"/><mass value="1"/>
    <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.001"/></inertial>
    <collision><origin xyz="0 0 0.5"/><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="hinge"/><actuator name="m"><mechanicalReduction>6</mechanicalReduction>
    <rotorInertia>1e-4</rotorInertia></actuator></transmission>
</robot>
)";

void Write(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
  std::printf("%s (%zu bytes)\n", path.c_str(), bytes.size());
}

std::string WithByte(Rpc rpc, const google::protobuf::Message& request) {
  return std::string(1, static_cast<char>(rpc)) + request.SerializeAsString();
}

v1::Terrain Heightfield(int nx, int ny, double cell, double (*height)(int, int)) {
  v1::Terrain t;
  v1::Terrain::Heightfield* h = t.mutable_heightfield();
  for (double o : {-0.5 * cell * (nx - 1), -0.5 * cell * (ny - 1), 0.0}) h->add_origin(o);
  h->set_cell_size(cell);
  h->set_nx(nx);
  h->set_ny(ny);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) h->add_heights(height(i, j));
  }
  return t;
}

void HeightfieldSeeds(const fs::path& dir) {
  Write(dir / "flat_2x2", Heightfield(2, 2, 1.0, [](int, int) { return 0.0; }).SerializeAsString());
  Write(dir / "ramp_8x8",
        Heightfield(8, 8, 0.1, [](int i, int) { return 0.02 * i; }).SerializeAsString());
  Write(dir / "rough_16x16", Heightfield(16, 16, 0.05, [](int i, int j) {
                               return -0.01 * std::fabs(std::sin(1.7 * i + 2.3 * j));
                             }).SerializeAsString());
  v1::Terrain mismatch = Heightfield(4, 4, 0.1, [](int, int) { return 0.0; });
  mismatch.mutable_heightfield()->mutable_heights()->RemoveLast();
  Write(dir / "heights_mismatch", mismatch.SerializeAsString());
  v1::Terrain incline;
  incline.mutable_incline()->set_angle_deg(10.0);
  for (double a : {0.0, 1.0, 0.0}) incline.mutable_incline()->add_axis(a);
  Write(dir / "incline", incline.SerializeAsString());
  v1::Terrain flat;
  flat.mutable_flat()->set_height(0.1);
  Write(dir / "flat", flat.SerializeAsString());
}

void StateSeeds(const fs::path& dir) {
  const auto& cases = moreau::fuzz::StateCases();
  for (size_t m = 0; m < cases.size(); ++m) {
    for (size_t c = 0; c < 2; ++c) {
      moreau::sim::Settings settings;
      settings.contact = moreau::sim::DefaultContactSettings(
          *moreau::sim::ParseContactModel(moreau::fuzz::kContactModels[c]));
      auto sim = moreau::sim::Simulation::Create(cases[m].model, settings);
      if (!sim.ok()) continue;
      const Eigen::VectorXd zero = Eigen::VectorXd::Zero(cases[m].model->nu());
      (*sim)->StepAction(zero, 30).IgnoreError();
      const std::string prefix{static_cast<char>(m), static_cast<char>(c)};
      Write(dir / (cases[m].name + "_" + moreau::fuzz::kContactModels[c]),
            prefix + (*sim)->Snapshot());
    }
  }
}

v1::StepRequest Step(const std::string& id, std::vector<double> action, int substeps) {
  v1::StepRequest step;
  step.set_instance_id(id);
  for (double a : action) step.add_action(a);
  step.set_substeps(substeps);
  return step;
}

void ServiceSeeds(const fs::path& dir) {
  Write(dir / "list_models", WithByte(Rpc::kListModels, v1::ListModelsRequest()));
  v1::GetModelRequest get_model;
  get_model.mutable_model()->set_builtin("mini_cheetah");
  Write(dir / "get_model_builtin", WithByte(Rpc::kGetModel, get_model));
  get_model.mutable_model()->set_urdf(kTwoLinks);
  get_model.mutable_model()->set_base("fixed");
  get_model.mutable_model()->add_contact_links("arm");
  Write(dir / "get_model_urdf", WithByte(Rpc::kGetModel, get_model));

  v1::CreateInstancesRequest create;
  create.mutable_model()->set_builtin("box");
  create.set_count(2);
  create.set_seed(3);
  create.set_noise(0.01);
  v1::Settings& s = *create.mutable_settings();
  s.set_contact_model("spring-damper");
  s.set_integrator("rk4");
  (*s.mutable_contact_parameters())["mu"] = 0.5;
  *s.mutable_terrain() = Heightfield(4, 4, 0.5, [](int i, int j) { return 0.01 * (i - j); });
  Write(dir / "create_box_heightfield", WithByte(Rpc::kCreateInstances, create));
  create.Clear();
  create.mutable_model()->set_urdf(kTwoLinks);
  create.set_count(1);
  create.mutable_settings()->set_control_mode("id-constraint");
  create.mutable_settings()->set_contact_model("moreau-jor");
  create.mutable_settings()->set_kp(10.0);
  create.mutable_settings()->set_gear(2.0);
  for (double g : {0.0, 0.0, -1.62}) create.mutable_settings()->add_gravity(g);
  Write(dir / "create_urdf", WithByte(Rpc::kCreateInstances, create));

  v1::DestroyInstancesRequest destroy;
  destroy.add_instance_ids("1");
  destroy.add_instance_ids("no-such-id");
  Write(dir / "destroy", WithByte(Rpc::kDestroyInstances, destroy));

  v1::ResetRequest reset;
  reset.set_instance_id("0");
  reset.set_seed(7);
  reset.set_noise(0.1);
  Write(dir / "reset_noise", WithByte(Rpc::kReset, reset));
  auto quadruped = moreau::sim::Simulation::Create(moreau::fuzz::StateCases()[0].model, {});
  (*quadruped)->StepAction(Eigen::VectorXd::Zero(12), 20).IgnoreError();
  const std::string blob = (*quadruped)->Snapshot();
  reset.Clear();
  reset.set_instance_id("0");
  reset.mutable_state()->set_data(blob);
  Write(dir / "reset_state", WithByte(Rpc::kReset, reset));

  Write(dir / "step", WithByte(Rpc::kStep, Step("0", std::vector<double>(12, 0.1), 5)));
  Write(dir / "step_pendulum", WithByte(Rpc::kStep, Step("2", {0.5}, 3)));
  v1::StepBatchRequest batch;
  *batch.add_steps() = Step("0", std::vector<double>(12, 0.0), 2);
  *batch.add_steps() = Step("1", {}, 2);
  *batch.add_steps() = Step("2", {0.2}, 1);
  Write(dir / "step_batch", WithByte(Rpc::kStepBatch, batch));
  batch.set_packed(true);
  Write(dir / "step_batch_packed", WithByte(Rpc::kStepBatch, batch));
  v1::StepBatchRequest session;
  for (int k = 0; k < 3; ++k) *session.add_steps() = Step("0", std::vector<double>(12, 0.0), 1);
  *session.add_steps() = Step("x", {}, 1);
  Write(dir / "session", WithByte(Rpc::kSession, session));

  v1::GetStateRequest get_state;
  get_state.set_instance_id("0");
  Write(dir / "get_state", WithByte(Rpc::kGetState, get_state));
  v1::SetStateRequest set_state;
  set_state.set_instance_id("0");
  set_state.mutable_state()->set_data(blob);
  Write(dir / "set_state", WithByte(Rpc::kSetState, set_state));
  v1::QueryRequest query;
  query.set_instance_id("0");
  query.set_body_poses(true);
  query.set_contacts(true);
  query.set_energies(true);
  query.set_mass_matrix(true);
  query.set_bias_forces(true);
  query.set_contact_jacobians(true);
  Write(dir / "query_all", WithByte(Rpc::kQuery, query));
  v1::WatchRequest watch;
  watch.set_instance_id("0");
  watch.set_rate_hz(100.0);
  Write(dir / "watch", WithByte(Rpc::kWatch, watch));

  v1::ListInstancesRequest list;
  list.set_page_size(2);
  Write(dir / "list_instances", WithByte(Rpc::kListInstances, list));
  list.set_page_token("not-a-token");
  Write(dir / "list_instances_bad_token", WithByte(Rpc::kListInstances, list));

  v1::GetMeshRequest mesh;
  mesh.set_model("ur10");
  mesh.set_mesh("meshes/ur10/collision/wrist3.stl");
  Write(dir / "get_mesh", WithByte(Rpc::kGetMesh, mesh));
  mesh.set_mesh("meshes/ur10/collision/gripper.stl");
  Write(dir / "get_mesh_unknown", WithByte(Rpc::kGetMesh, mesh));
  mesh.set_model("mini_cheetah");
  mesh.set_mesh("meshes/mini_body.obj");
  Write(dir / "get_mesh_no_meshes", WithByte(Rpc::kGetMesh, mesh));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seeds CORPUS_DIR\n");
    return 2;
  }
  const fs::path root = argv[1];
  HeightfieldSeeds(root / "heightfield");
  StateSeeds(root / "state");
  ServiceSeeds(root / "service");
  return 0;
}
