#include "engine/sim/state.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "engine/step/workspace.h"
#include "engine/util/byte_io.h"

namespace moreau::sim {
namespace {

constexpr char kMagic[4] = {'M', 'R', 'S', 'T'};
constexpr uint32_t kVersion = kStateFormatVersion;
// How far from 1 a restored base quaternion's norm may be.
constexpr double kQuaternionNormTolerance = 1e-6;

void WriteFlags(ByteWriter& w, const std::array<bool, control::kMaxControllerLegs>& flags) {
  uint32_t bits = 0;
  for (size_t i = 0; i < flags.size(); ++i) bits |= (flags[i] ? 1u : 0u) << i;
  w.U32(bits);
}

bool ReadFlags(ByteReader& r, std::array<bool, control::kMaxControllerLegs>& flags) {
  uint32_t bits = 0;
  if (!r.U32(bits)) return false;
  for (size_t i = 0; i < flags.size(); ++i) flags[i] = (bits >> i) & 1u;
  return true;
}

template <size_t N>
void WriteArray(ByteWriter& w, const std::array<double, N>& values) {
  for (double x : values) w.F64(x);
}

template <size_t N>
bool ReadArray(ByteReader& r, std::array<double, N>& values) {
  bool ok = true;
  for (double& x : values) ok = ok && r.F64(x);
  return ok;
}

// ControllerState field by field, in declaration order.
void WriteControllerState(ByteWriter& w, const control::ControllerState& c) {
  w.F64(c.phase);
  w.F64(c.elapsed_s);
  w.U64(static_cast<uint64_t>(c.ik_clamped));
  WriteArray(w, c.velocity);
  WriteArray(w, c.stance_offset);
  WriteArray(w, c.swing_offset);
  w.F64(c.heading);
  w.U32(c.heading_set ? 1u : 0u);
  w.F64(c.heading_integral);
  WriteArray(w, c.line_origin);
  WriteArray(w, c.leg_targets);
  w.U32(c.leg_targets_set ? 1u : 0u);
  WriteFlags(w, c.was_swing);
  WriteFlags(w, c.touched);
  WriteFlags(w, c.foothold_frozen);
  WriteArray(w, c.lift_off);
  WriteArray(w, c.foothold);
  WriteArray(w, c.command);  // from version 3
  w.U32(c.command_set ? 1u : 0u);
}

// A version-2 section ends before the command.
bool ReadControllerState(ByteReader& r, uint32_t version, control::ControllerState& c) {
  uint64_t ik_clamped = 0;
  uint32_t heading_set = 0, leg_targets_set = 0, command_set = 0;
  bool ok = r.F64(c.phase) && r.F64(c.elapsed_s) && r.U64(ik_clamped) && ReadArray(r, c.velocity) &&
            ReadArray(r, c.stance_offset) && ReadArray(r, c.swing_offset) && r.F64(c.heading) &&
            r.U32(heading_set) && r.F64(c.heading_integral) && ReadArray(r, c.line_origin) &&
            ReadArray(r, c.leg_targets) && r.U32(leg_targets_set) && ReadFlags(r, c.was_swing) &&
            ReadFlags(r, c.touched) && ReadFlags(r, c.foothold_frozen) &&
            ReadArray(r, c.lift_off) && ReadArray(r, c.foothold);
  if (version >= 3) ok = ok && ReadArray(r, c.command) && r.U32(command_set);
  c.command_set = command_set != 0;
  c.ik_clamped = static_cast<int64_t>(ik_clamped);
  c.heading_set = heading_set != 0;
  c.leg_targets_set = leg_targets_set != 0;
  return ok;
}

// The controller section: ControllerState, the command's size and entries.
std::string ControllerSection(const control::ControllerState& controller,
                              const Eigen::VectorXd& command) {
  ByteWriter w;
  WriteControllerState(w, controller);
  w.U32(static_cast<uint32_t>(command.size()));
  for (double x : command) w.F64(x);
  return w.Take();
}

// Its size in a blob of `version` (2 lacks the controller's command: 3
// doubles and a flag) for `nv` coordinates.
size_t ControllerSectionSize(uint32_t version, const Eigen::VectorXd& command) {
  const size_t current = ControllerSection(control::ControllerState{}, command).size();
  constexpr size_t kCommandBytes = 8 * control::kMaxCommandSize + 4;
  return version >= 3 ? current : current - kCommandBytes;
}

// Every double of a controller state is finite.
bool Finite(const control::ControllerState& c) {
  const auto finite = [](double x) { return std::isfinite(x); };
  const auto all = [&](const auto& values) {
    return std::all_of(values.begin(), values.end(), finite);
  };
  return finite(c.phase) && finite(c.elapsed_s) && all(c.velocity) && all(c.stance_offset) &&
         all(c.swing_offset) && finite(c.heading) && finite(c.heading_integral) &&
         all(c.line_origin) && all(c.leg_targets) && all(c.lift_off) && all(c.foothold) &&
         all(c.command);
}

}  // namespace

State DefaultState(const Model& model) {
  State s;
  s.q = model.q_default;
  s.v = Eigen::VectorXd::Zero(model.nv);
  s.contact_states.assign(model.contact_points.size(), contact::ContactState{});
  s.impulses.assign(3 * model.contact_points.size(), 0.0);
  s.bilateral_impulses.assign(static_cast<size_t>(BilateralRowCount(model)), 0.0);
  s.controller_command = Eigen::VectorXd::Zero(model.nv);
  return s;
}

void CopyState(const State& from, State& to, StateParts parts) {
  if (from.q.size() != to.q.size() || from.v.size() != to.v.size() ||
      from.contact_states.size() != to.contact_states.size() ||
      from.impulses.size() != to.impulses.size() ||
      from.bilateral_impulses.size() != to.bilateral_impulses.size() ||
      from.controller_command.size() != to.controller_command.size()) {
    to = from;
    return;
  }
  std::copy_n(from.q.data(), from.q.size(), to.q.data());
  std::copy_n(from.v.data(), from.v.size(), to.v.data());
  to.time = from.time;
  to.steps = from.steps;
  std::copy_n(from.contact_states.data(), from.contact_states.size(), to.contact_states.data());
  if (parts.impulses) {
    std::copy_n(from.impulses.data(), from.impulses.size(), to.impulses.data());
    std::copy_n(from.bilateral_impulses.data(), from.bilateral_impulses.size(),
                to.bilateral_impulses.data());
  }
  if (parts.controller) {
    to.controller = from.controller;
    std::copy_n(from.controller_command.data(), from.controller_command.size(),
                to.controller_command.data());
  }
}

int BilateralRowCount(const Model& model) {
  return model.nu() + step::kLoopRows * static_cast<int>(model.loop_closures.size());
}

std::string SerializeState(const State& s) {
  ByteWriter w;
  w.Bytes(kMagic, sizeof kMagic);
  w.U32(kVersion);
  w.U32(static_cast<uint32_t>(s.q.size()));
  w.U32(static_cast<uint32_t>(s.v.size()));
  w.U32(static_cast<uint32_t>(s.contact_states.size()));
  w.F64(s.time);
  w.U64(s.steps);
  for (double x : s.q) w.F64(x);
  for (double x : s.v) w.F64(x);
  for (const contact::ContactState& c : s.contact_states) {
    w.U32((c.closed ? 1u : 0u) | (c.slip ? 2u : 0u));
    for (double x : c.anchor) w.F64(x);
  }
  for (double x : s.impulses) w.F64(x);
  w.U32(static_cast<uint32_t>(s.bilateral_impulses.size()));  // version 2
  for (double x : s.bilateral_impulses) w.F64(x);
  // The optional controller section, when not at the start of a run.
  const std::string section = ControllerSection(s.controller, s.controller_command);
  if (section != ControllerSection(control::ControllerState{},
                                   Eigen::VectorXd::Zero(s.controller_command.size()))) {
    w.Bytes(section.data(), section.size());
  }
  return w.Take();
}

absl::StatusOr<State> DeserializeState(const Model& model, std::string_view bytes) {
  ByteReader r(bytes);
  char magic[4];
  uint32_t version = 0, nq = 0, nv = 0, nc = 0;
  if (!r.Bytes(magic, 4) || std::memcmp(magic, kMagic, 4) != 0) {
    return absl::InvalidArgumentError("state blob: not a Moreau state (bad magic)");
  }
  // Version 1 blobs (no bilateral impulses) restore with those at zero,
  // version 2 ones (no controller command) without a command.
  if (!r.U32(version) || version < 1 || version > kVersion) {
    return absl::InvalidArgumentError(absl::StrCat(
        "state blob: version ", version, " is not supported (expected 1 to ", kVersion, ")"));
  }
  if (!r.U32(nq) || !r.U32(nv) || !r.U32(nc)) {
    return absl::InvalidArgumentError("state blob: truncated header");
  }
  if (nq != static_cast<uint32_t>(model.nq) || nv != static_cast<uint32_t>(model.nv) ||
      nc != model.contact_points.size()) {
    return absl::InvalidArgumentError(absl::StrCat("state blob: sizes nq=", nq, " nv=", nv,
                                                   " contacts=", nc, " do not match model '",
                                                   model.name, "' (nq=", model.nq, " nv=", model.nv,
                                                   " contacts=", model.contact_points.size(), ")"));
  }
  State s = DefaultState(model);
  bool ok = r.F64(s.time) && r.U64(s.steps);
  for (int i = 0; ok && i < model.nq; ++i) ok = r.F64(s.q[i]);
  for (int i = 0; ok && i < model.nv; ++i) ok = r.F64(s.v[i]);
  for (contact::ContactState& c : s.contact_states) {
    uint32_t flags = 0;
    ok = ok && r.U32(flags);
    c.closed = flags & 1u;
    c.slip = flags & 2u;
    for (double& x : c.anchor) ok = ok && r.F64(x);
  }
  for (double& x : s.impulses) ok = ok && r.F64(x);
  if (ok && version >= 2) {
    uint32_t nb = 0;
    ok = r.U32(nb);
    if (ok && nb != s.bilateral_impulses.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("state blob: ", nb, " bilateral impulses do not match model '", model.name,
                       "' (", s.bilateral_impulses.size(), ")"));
    }
    for (double& x : s.bilateral_impulses) ok = ok && r.F64(x);
  }
  // The optional controller section: present when the rest of the blob is
  // exactly its size.
  const size_t section_size = ControllerSectionSize(version, s.controller_command);
  if (ok && version >= 2 && r.Remaining() == section_size) {
    ok = ReadControllerState(r, version, s.controller);
    uint32_t ncmd = 0;
    ok = ok && r.U32(ncmd);
    if (ok && ncmd != static_cast<uint32_t>(model.nv)) {
      return absl::InvalidArgumentError(absl::StrCat("state blob: controller command of size ",
                                                     ncmd, " does not match model '", model.name,
                                                     "' (nv=", model.nv, ")"));
    }
    for (int i = 0; ok && i < model.nv; ++i) ok = r.F64(s.controller_command[i]);
  }
  if (!ok) return absl::InvalidArgumentError("state blob: truncated body");
  if (!r.AtEnd()) return absl::InvalidArgumentError("state blob: trailing bytes");
  if (!s.q.allFinite() || !s.v.allFinite() || !std::isfinite(s.time)) {
    return absl::InvalidArgumentError("state blob: non-finite q, v or time");
  }
  // A snapshot's base quaternion is a unit one; a far other norm (0 makes
  // the base rotation 0) is not a state of the model.
  if (model.floating_base) {
    const double norm = s.q.segment<4>(3).norm();
    if (!(std::abs(norm - 1.0) <= kQuaternionNormTolerance)) {
      return absl::InvalidArgumentError(absl::StrCat("state blob: base quaternion has norm ", norm,
                                                     ", expected 1 (within ",
                                                     kQuaternionNormTolerance, ")"));
    }
  }
  const auto finite = [](double x) { return std::isfinite(x); };
  const bool anchors_finite = std::all_of(
      s.contact_states.begin(), s.contact_states.end(), [&](const contact::ContactState& c) {
        return std::all_of(c.anchor.begin(), c.anchor.end(), finite);
      });
  if (!anchors_finite || !std::all_of(s.impulses.begin(), s.impulses.end(), finite) ||
      !std::all_of(s.bilateral_impulses.begin(), s.bilateral_impulses.end(), finite)) {
    return absl::InvalidArgumentError("state blob: non-finite contact anchor or impulse");
  }
  if (!Finite(s.controller) || !s.controller_command.allFinite()) {
    return absl::InvalidArgumentError("state blob: non-finite controller state or command");
  }
  return s;
}

}  // namespace moreau::sim
