#include "clients/cli/remote_command.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "clients/cli/flag_specs.h"
#include "clients/cli/number_list.h"
#include "clients/cli/remote_flags.h"
#include "clients/cli/remote_health.h"
#include "clients/cli/settings_flags.h"
#include "clients/cpp/client.h"
#include "clients/json/json_writer.h"
#include "engine/util/status_macros.h"

namespace moreau::cli {
namespace {

namespace v1 = ::moreau::v1;

void WriteNumbers(JsonWriter& json, const google::protobuf::RepeatedField<double>& field) {
  json.BeginArray();
  for (double x : field) json.Number(x);
  json.EndArray();
}

std::string Join(const google::protobuf::RepeatedField<double>& field) {
  return absl::StrJoin(field, " ", [](std::string* out, double x) {
    absl::StrAppend(out, absl::StrFormat("%.6g", x));
  });
}

void WriteObservation(const v1::Observation& obs, bool json_output, std::ostream& out) {
  if (json_output) {
    JsonWriter json(out);
    json.BeginObject();
    json.Key("instance_id").String(obs.instance_id());
    json.Key("time").Number(obs.time());
    json.Key("steps").Int(obs.steps());
    json.Key("q");
    WriteNumbers(json, obs.q());
    json.Key("v");
    WriteNumbers(json, obs.v());
    json.Key("joint_torques");
    WriteNumbers(json, obs.joint_torques());
    json.Key("contact_normal_forces");
    WriteNumbers(json, obs.contact_normal_forces());
    json.Key("solver_iterations").Int(obs.solver_iterations());
    json.Key("substeps_done").Int(obs.substeps_done());
    json.EndObject();
    out << '\n';
    return;
  }
  out << absl::StrFormat("instance %s  t = %.6f s  steps = %d  solver iterations = %d\n",
                         obs.instance_id(), obs.time(), obs.steps(), obs.solver_iterations());
  if (obs.base_pose_size() > 0) out << "base pose: " << Join(obs.base_pose()) << '\n';
  out << "joint positions: " << Join(obs.joint_positions()) << '\n';
  out << "joint torques: " << Join(obs.joint_torques()) << '\n';
  if (obs.contact_normal_forces_size() > 0) {
    out << "contact normal forces: " << Join(obs.contact_normal_forces()) << '\n';
  }
}

absl::Status List(client::Client& client, const Invocation& inv) {
  auto models = client.ListModels();
  if (!models.ok()) return models.status();
  std::ostream& out = *inv.out;
  if (inv.flags.common.json) {
    JsonWriter json(out);
    json.BeginArray();
    for (const v1::ModelSpec& m : models->models()) {
      json.BeginObject();
      json.Key("name").String(m.name());
      json.Key("nq").Int(m.nq());
      json.Key("nv").Int(m.nv());
      json.Key("actuators").Int(m.actuators_size());
      json.Key("contact_points").Int(m.contact_points_size());
      json.EndObject();
    }
    json.EndArray();
    out << '\n';
    return absl::OkStatus();
  }
  out << absl::StrFormat("%-16s %4s %4s %9s %8s\n", "model", "nq", "nv", "actuators", "contacts");
  for (const v1::ModelSpec& m : models->models()) {
    out << absl::StrFormat("%-16s %4d %4d %9d %8d\n", m.name(), m.nq(), m.nv(), m.actuators_size(),
                           m.contact_points_size());
  }
  return absl::OkStatus();
}

absl::Status Create(client::Client& client, const Invocation& inv) {
  if (inv.args.size() != 2) return absl::InvalidArgumentError("usage: moreau remote create MODEL");
  v1::CreateInstancesRequest request;
  // MODEL: a URDF file when one exists at that path (sent as text), else the
  // name of one of the server's built-in models.
  const std::string& model = inv.args[1];
  std::error_code error;
  if (std::filesystem::is_regular_file(model, error)) {
    std::ifstream file(model, std::ios::binary);
    if (!file) return absl::NotFoundError(absl::StrCat("cannot read URDF file '", model, "'"));
    request.mutable_model()->set_urdf(
        std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()));
  } else {
    request.mutable_model()->set_builtin(model);
  }
  request.set_count(inv.flags.remote.count);
  request.set_seed(inv.flags.remote.seed);
  request.set_noise(inv.flags.remote.noise);
  MOREAU_ASSIGN_OR_RETURN(*request.mutable_settings(),
                          SettingsMessageFromFlags(inv.flags.settings, inv.flags_given));
  auto created = client.CreateInstances(request);
  if (!created.ok()) return created.status();
  std::ostream& out = *inv.out;
  if (inv.flags.common.json) {
    JsonWriter json(out);
    json.BeginObject();
    json.Key("instance_ids")
        .Strings({created->instance_ids().begin(), created->instance_ids().end()});
    json.Key("action_size").Int(created->spec().action().size());
    json.Key("control_mode").String(created->spec().control_mode());
    json.Key("dt").Number(created->spec().dt());
    json.EndObject();
    out << '\n';
  } else {
    for (const std::string& id : created->instance_ids()) out << id << '\n';
  }
  return absl::OkStatus();
}

absl::Status StepOne(client::Client& client, const Invocation& inv) {
  if (inv.args.size() != 2) {
    return absl::InvalidArgumentError("usage: moreau remote step ID [--action …] [--substeps K]");
  }
  const std::string& id = inv.args[1];
  const std::string& text = inv.flags.remote.action;
  if (text.empty()) {
    return absl::InvalidArgumentError("give --action: one comma-separated entry per actuator");
  }
  // The server checks the size against the instance's actuators.
  const int entries = static_cast<int>(std::count(text.begin(), text.end(), ',')) + 1;
  auto action = ParseNumberList("--action", text, entries, "entries");
  if (!action.ok()) return action.status();
  auto obs = client.Step(id, *action, inv.flags.remote.substeps);
  if (!obs.ok()) return obs.status();
  WriteObservation(*obs, inv.flags.common.json, *inv.out);
  return absl::OkStatus();
}

absl::Status State(client::Client& client, const Invocation& inv) {
  if (inv.args.size() != 2) {
    return absl::InvalidArgumentError(
        "usage: moreau remote state ID [--state-out F | --state-in F]");
  }
  const std::string& id = inv.args[1];
  const std::string& in = inv.flags.remote.state_in;
  if (!in.empty()) {
    std::ifstream file(in, std::ios::binary);
    if (!file) return absl::NotFoundError(absl::StrCat("cannot read --state-in file '", in, "'"));
    const std::string blob((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
    auto obs = client.SetState(id, blob);
    if (!obs.ok()) return obs.status();
    WriteObservation(*obs, inv.flags.common.json, *inv.out);
    return absl::OkStatus();
  }
  auto state = client.GetState(id);
  if (!state.ok()) return state.status();
  const std::string& out_path = inv.flags.common.state_out;
  if (!out_path.empty()) {
    std::ofstream file(out_path, std::ios::binary);
    file.write(state->state().data().data(),
               static_cast<std::streamsize>(state->state().data().size()));
    if (!file) return absl::InternalError(absl::StrCat("cannot write '", out_path, "'"));
  }
  std::ostream& out = *inv.out;
  if (inv.flags.common.json) {
    JsonWriter json(out);
    json.BeginObject();
    json.Key("time").Number(state->time());
    json.Key("q");
    WriteNumbers(json, state->q());
    json.Key("v");
    WriteNumbers(json, state->v());
    json.Key("state_bytes").Int(static_cast<int64_t>(state->state().data().size()));
    json.EndObject();
    out << '\n';
  } else {
    out << absl::StrFormat("t = %.6f s\nq: %s\nv: %s\nstate: %d bytes\n", state->time(),
                           Join(state->q()), Join(state->v()), state->state().data().size());
  }
  return absl::OkStatus();
}

absl::Status Watch(client::Client& client, const Invocation& inv) {
  if (inv.args.size() != 2) {
    return absl::InvalidArgumentError("usage: moreau remote watch ID [--rate HZ] [--frames N]");
  }
  const int frames = inv.flags.remote.frames;
  if (frames < 1) return absl::InvalidArgumentError("--frames must be ≥ 1");
  grpc::ClientContext context;  // no deadline: a watch lasts as long as it is read
  v1::WatchRequest request;
  request.set_instance_id(inv.args[1]);
  request.set_rate_hz(inv.flags.remote.rate);
  auto reader = client.stub().Watch(&context, request);
  v1::WatchFrame frame;
  std::ostream& out = *inv.out;
  int n = 0;
  while (n < frames && reader->Read(&frame)) {
    ++n;
    const v1::BodyPose& base = frame.body_poses(0);
    out << absl::StrFormat("t = %.4f s  %s at (%.4f, %.4f, %.4f)  contact forces: %s\n",
                           frame.time(), base.name(), base.position(0), base.position(1),
                           base.position(2), Join(frame.contact_normal_forces()));
  }
  if (n < frames) return client::FromGrpc(reader->Finish());
  context.TryCancel();
  reader->Finish();
  return absl::OkStatus();
}

// Writes a mesh a built-in model's shapes name (GetMesh) to --out.
absl::Status Mesh(client::Client& client, const Invocation& inv) {
  if (inv.args.size() != 3) {
    return absl::InvalidArgumentError("usage: moreau remote mesh MODEL MESH --out FILE");
  }
  const std::string& path = inv.flags.remote.mesh_out;
  if (path.empty()) return absl::InvalidArgumentError("give --out FILE: the file to write to");
  auto mesh = client.GetMesh(inv.args[1], inv.args[2]);
  if (!mesh.ok()) return mesh.status();
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(mesh->data().data(), static_cast<std::streamsize>(mesh->data().size()));
  file.close();
  if (!file) return absl::InternalError(absl::StrCat("--out: cannot write '", path, "'"));
  std::ostream& out = *inv.out;
  if (inv.flags.common.json) {
    JsonWriter json(out);
    json.BeginObject();
    json.Key("model").String(inv.args[1]);
    json.Key("mesh").String(inv.args[2]);
    json.Key("format").String(mesh->format());
    json.Key("bytes").Int(static_cast<int64_t>(mesh->data().size()));
    json.Key("out").String(path);
    json.EndObject();
    out << '\n';
  } else {
    out << absl::StrFormat("%s: %d bytes (%s) written to %s\n", inv.args[2], mesh->data().size(),
                           mesh->format(), path);
  }
  return absl::OkStatus();
}

absl::Status Destroy(client::Client& client, const Invocation& inv) {
  if (inv.args.size() < 2) return absl::InvalidArgumentError("usage: moreau remote destroy ID…");
  auto done = client.DestroyInstances({inv.args.begin() + 1, inv.args.end()});
  if (!done.ok()) return done.status();
  *inv.out << "destroyed " << done->destroyed() << '\n';
  if (done->not_found_size() > 0) {
    return absl::NotFoundError(absl::StrCat("no instance with id '", done->not_found(0), "'"));
  }
  return absl::OkStatus();
}

// The connection flags: TLS when any --tls-* flag is given; the token from
// --token, else $MOREAU_TOKEN.
absl::StatusOr<client::ClientOptions> ConnectionOptions(const RemoteFlags& flags) {
  client::ClientOptions options;
  options.timeout = absl::Seconds(60);
  const std::string& ca = flags.tls_ca_file;
  const std::string& cert = flags.tls_cert_file;
  const std::string& key = flags.tls_key_file;
  if (!ca.empty() || !cert.empty() || !key.empty()) {
    if (cert.empty() != key.empty()) {
      return absl::InvalidArgumentError("give both --tls-cert-file and --tls-key-file, or neither");
    }
    auto tls = client::LoadTlsFiles(ca, cert, key);
    if (!tls.ok()) return tls.status();
    options.tls = *std::move(tls);
  }
  options.token = flags.token;
  if (options.token.empty()) {
    const char* from_environment = std::getenv("MOREAU_TOKEN");
    if (from_environment != nullptr) options.token = from_environment;
  }
  return options;
}

absl::Status RunRemote(const Invocation& inv) {
  // --address, else $MOREAU_ADDRESS, else the flag's default.
  std::string address = inv.flags.remote.address;
  const char* address_from_environment = std::getenv("MOREAU_ADDRESS");
  if (inv.flags_given.count("address") == 0 && address_from_environment != nullptr &&
      *address_from_environment != '\0') {
    address = address_from_environment;
  }
  absl::StatusOr<client::ClientOptions> options = ConnectionOptions(inv.flags.remote);
  if (!options.ok()) return options.status();
  const std::string& what = inv.args[0];
  // Its own deadline and messages (an unreachable server is its answer).
  if (what == "health") return RemoteHealth(address, *std::move(options), inv);
  client::Client client(address, *options);
  absl::Status status;
  if (what == "list") {
    status = List(client, inv);
  } else if (what == "create") {
    status = Create(client, inv);
  } else if (what == "step") {
    status = StepOne(client, inv);
  } else if (what == "state") {
    status = State(client, inv);
  } else if (what == "watch") {
    status = Watch(client, inv);
  } else if (what == "destroy") {
    status = Destroy(client, inv);
  } else if (what == "mesh") {
    status = Mesh(client, inv);
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown remote command '", what,
                     "' (expected list, create, step, state, watch, destroy, mesh, health)"));
  }
  if (status.code() == absl::StatusCode::kUnavailable) {
    return absl::UnavailableError(absl::StrCat("moreaud at ", address, ": ", status.message()));
  }
  return status;
}

}  // namespace

const Command& RemoteCommand() {
  static const Command* const command = new Command{
      .name = "remote",
      .synopsis =
          "list|create MODEL|step ID|state ID|watch ID|destroy ID…|mesh MODEL MESH|health "
          "[SERVICE] [flags]",
      .summary = "drive a running moreaud (list, create, step, state, watch, mesh, health)",
      .description =
          "Talks to moreaud over gRPC. list: the built-in models. create MODEL: new instances "
          "of a built-in model or of a URDF file (prints their ids). step ID: one action held for "
          "--substeps steps (prints the "
          "observation). state ID: time, q, v (--state-out FILE saves the complete state blob, "
          "--state-in FILE restores one). watch ID: body poses and contact forces at --rate. "
          "destroy ID…: free instances. mesh MODEL MESH: the mesh file MESH that a built-in "
          "model's shapes name (as `moreau info MODEL` lists them), from the server, written "
          "to --out FILE. health [SERVICE]: the gRPC health service's status of "
          "the server (or of SERVICE, e.g. moreau.v1.Simulator); exits 0 when SERVING, 1 when "
          "NOT_SERVING (draining), unreachable or silent for --timeout-s.",
      .notes =
          "Any --tls-* flag connects over TLS (--tls-cert-file and --tls-key-file add a "
          "client certificate, for servers that require one); a server with tokens needs "
          "--token or $MOREAU_TOKEN. Without --address, $MOREAU_ADDRESS names the server "
          "when set.",
      .flags = {kAddressFlagSpec,
                kCountFlagSpec,
                kSettingsFileFlagSpec,
                kContactModelFlagSpec,
                kIntegratorFlagSpec,
                kDtFlagSpec,
                kContactParametersFlagSpec,
                kControlModeFlagSpec,
                kIdTimeConstantFlagSpec,
                kGearFlagSpec,
                kRotorInertiaFlagSpec,
                kLoopSolverFlagSpec,
                kSeedFlagSpec,
                kNoiseFlagSpec,
                kSubstepsFlagSpec,
                kActionFlagSpec,
                kRateFlagSpec,
                kFramesFlagSpec,
                kStateOutFlagSpec,
                kStateInFlagSpec,
                kMeshOutFlagSpec,
                kTimeoutFlagSpec,
                kTlsCaFileFlagSpec,
                kTlsCertFileFlagSpec,
                kTlsKeyFileFlagSpec,
                kTokenFlagSpec,
                kJsonFlagSpec},
      .min_args = 1,
      .max_args = 64,
      .run = RunRemote,
  };
  return *command;
}

}  // namespace moreau::cli
