#!/usr/bin/env python3
"""Mutation check of moreaud's request validation.

Loosens one check at a time (each mutation is a textual patch of one source
file), rebuilds moreaud, runs the service error tests
(tests/integration/service_errors_test.cc) against it, and restores the file.
A mutation that no test notices ("survived") is a check without a test.
The test binary itself is not rebuilt: its in-process reference simulation
keeps the unmutated engine, only the server is loosened.

  /usr/bin/python3 scripts/mutate_checks.py [--build-dir build-mut]
      [--only ID_PREFIX ...] [--exclude ID ...] [--list] [--jobs 2]
      [--out results.tsv]

Each line of the report (stdout, and --out as TSV): the mutation's id, its
verdict (caught / SURVIVED / build-error) and the tests that failed. Exits 1
when a mutation survived or did not build.
"""
import argparse
import dataclasses
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclasses.dataclass
class Mutation:
    id: str
    path: str
    old: str
    new: str
    occurrences: int = 1  # how many places the patch changes


def off(id_, path, cond):
    """`if (cond)` → `if (false)`: the check never fires."""
    return Mutation(id_, path, f"if ({cond})", "if (false)")


def ok(id_, path, call):
    """A status-returning check call replaced by OK."""
    return Mutation(id_, path, call, "absl::OkStatus()")


def drop(id_, path, line):
    """A statement removed."""
    return Mutation(id_, path, line, "")


SVC = "server/service.cc"
CONV = "server/convert.cc"
SET = "engine/sim/settings.cc"
PAR = "engine/sim/contact_parameters.cc"
NAMED = "engine/sim/named_parameters.cc"
ACT = "engine/sim/actuation.cc"
SIM = "engine/sim/simulation.cc"
STATE = "engine/sim/state.cc"
TER = "engine/contact/terrain.cc"
PROX = "engine/contact/prox_solver.cc"
QP = "engine/contact/qp_solver.cc"
SPRING = "engine/contact/spring_damper.cc"
HERTZ = "engine/contact/hertz.cc"
MICRO = "engine/contact/micro.cc"
LC = "engine/step/least_constraint_step.cc"
MM = "engine/step/micro_macro_step.cc"
PREP = "engine/model/urdf_prepare.cc"
SCAN = "engine/model/xml_scan.cc"
DOM = "engine/model/urdfdom_parse.cc"
TREE = "engine/model/link_tree.cc"
BUILD = "engine/model/build_model.cc"
PACK = "server/packed_observations.cc"
REG = "server/registry.cc"

MUTATIONS = [
    # ---- service.cc: counts, noise, sub-steps, batches, watch, codes.
    off("service.create_count", SVC, "count < 1 || count > options_.max_create"),
    Mutation("service.create_count.upper", SVC, "count < 1 || count > options_.max_create",
             "count < 1"),
    Mutation("service.create_noise", SVC,
             "if (absl::Status s = CheckNoise(request->noise()); !s.ok()) return fail(s);", ""),
    Mutation("service.reset_noise", SVC,
             "if (absl::Status s = CheckNoise(request->noise()); !s.ok()) {\n"
             "    return Finish(context, Rpc::kReset, start, s);",
             "if (absl::Status s = CheckNoise(request->noise()); false) {\n"
             "    return Finish(context, Rpc::kReset, start, s);"),
    Mutation("service.noise.finite", SVC, "std::isfinite(noise) && noise >= 0.0",
             "!(noise < 0.0)"),
    off("registry.capacity", REG, "live + count > max_instances_"),
    off("service.step_substeps", SVC,
        "request.substeps() < 0 || request.substeps() > options_.max_substeps"),
    Mutation("service.step_substeps.lower", SVC,
             "request.substeps() < 0 || request.substeps() > options_.max_substeps",
             "request.substeps() > options_.max_substeps"),
    off("service.batch_size", SVC, "n > options_.max_batch"),
    off("service.batch_substeps", SVC,
        "step.substeps() < 0 || step.substeps() > options_.max_substeps"),
    off("service.batch_duplicate", SVC, "!seen.insert(step.instance_id()).second"),
    off("packed.common_shape", PACK, "!(here == shape)"),
    off("service.watch_rate", SVC, "!(std::isfinite(rate) && rate > 0.0 && rate <= 1000.0)"),
    Mutation("service.watch_rate.upper", SVC, "rate > 0.0 && rate <= 1000.0", "rate > 0.0"),
    Mutation("service.watch_rate.finite", SVC, "std::isfinite(rate) && rate > 0.0", "rate > 0.0"),
    Mutation("service.unknown_builtin_code", SVC,
             "return absl::InvalidArgumentError(model.status().message());",
             "return model.status();"),
    off("service.diverged", SVC, "instance.diverged"),
    # ---- convert.cc: vector sizes, base mode.
    Mutation("convert.vec3_size.extra", CONV, "if (in.size() != 3)", "if (in.size() < 3)"),
    off("convert.vec3_size", CONV, "in.size() != 3"),
    off("convert.base", CONV, "!source.base().empty()"),
    # ---- names of the settings' enums: an unknown name falls back to a default.
    Mutation("settings.contact_model_name", SET,
             '  return absl::InvalidArgumentError(\n      absl::StrCat("unknown contact model',
             '  return ContactModel::kMoreauSor;\n  return absl::InvalidArgumentError(\n'
             '      absl::StrCat("unknown contact model'),
    Mutation("settings.integrator_name", SET,
             '  return absl::InvalidArgumentError(\n      absl::StrCat("unknown integrator',
             '  return step::Integrator::kSemiImplicitEuler;\n'
             '  return absl::InvalidArgumentError(\n      absl::StrCat("unknown integrator'),
    Mutation("settings.loop_solver_name", SET,
             '  return absl::InvalidArgumentError(\n      absl::StrCat("unknown loop solver',
             '  return step::LoopSolver::kProx;\n'
             '  return absl::InvalidArgumentError(\n      absl::StrCat("unknown loop solver'),
    Mutation("actuation.control_mode_name", ACT,
             '  return absl::InvalidArgumentError(absl::StrCat("unknown control mode',
             '  return ControlMode::kTorque;\n'
             '  return absl::InvalidArgumentError(absl::StrCat("unknown control mode'),
    # ---- sim::Validate (settings.cc) and the validators it calls.
    off("settings.dt", SET, "!(std::isfinite(s.dt) && s.dt > 0.0 && s.dt <= 1.0)"),
    Mutation("settings.dt.upper", SET, "s.dt > 0.0 && s.dt <= 1.0", "s.dt > 0.0"),
    off("settings.gravity_finite", SET, "!s.gravity.allFinite()"),
    drop("settings.force_law", SET, "MOREAU_RETURN_IF_ERROR(contact::Validate(s.force_law));"),
    drop("settings.prox", SET, "MOREAU_RETURN_IF_ERROR(contact::Validate(s.prox));"),
    drop("settings.hard_contact", SET, "MOREAU_RETURN_IF_ERROR(contact::Validate(s.hard_contact));"),
    drop("settings.least_constraint", SET,
         "MOREAU_RETURN_IF_ERROR(step::Validate(s.least_constraint));"),
    drop("settings.micro_macro", SET, "MOREAU_RETURN_IF_ERROR(step::Validate(s.micro_macro));"),
    drop("settings.control", SET, "MOREAU_RETURN_IF_ERROR(Validate(s.control));"),
    off("settings.gear", SET, "!(std::isfinite(s.transmission.gear) && s.transmission.gear >= 0.0)"),
    off("settings.rotor_inertia", SET,
        "!(std::isfinite(s.transmission.rotor_inertia) && s.transmission.rotor_inertia >= 0.0)"),
    off("actuation.kp", ACT, "!(std::isfinite(control.gains.kp) && control.gains.kp >= 0.0)"),
    Mutation("actuation.kp.finite", ACT, "std::isfinite(control.gains.kp) && control.gains.kp",
             "control.gains.kp"),
    off("actuation.kd", ACT, "!(std::isfinite(control.gains.kd) && control.gains.kd >= 0.0)"),
    Mutation("actuation.kd.finite", ACT, "std::isfinite(control.gains.kd) && control.gains.kd",
             "control.gains.kd"),
    off("actuation.id_time_constant", ACT,
        "!(std::isfinite(control.id_time_constant) && control.id_time_constant >= 0.0)"),
    Mutation("actuation.id_time_constant.finite", ACT,
             "std::isfinite(control.id_time_constant) && control.id_time_constant",
             "control.id_time_constant"),
    off("prox.alpha", PROX, "!(p.alpha > 0.0 && p.alpha < 2.0)"),
    Mutation("prox.alpha.upper", PROX, "p.alpha > 0.0 && p.alpha < 2.0", "p.alpha > 0.0"),
    off("prox.T_rel", PROX, "!(p.T_rel >= 0.0 && p.T_rel < kInf)"),
    off("prox.T_abs", PROX, "!(p.T_abs >= 0.0 && p.T_abs < kInf)"),
    off("contact_law.mu", PROX, "!(law.mu >= 0.0 && law.mu < kInf)"),
    off("contact_law.eps_N", PROX, "!(law.eps_N >= 0.0 && law.eps_N <= 1.0)"),
    Mutation("contact_law.eps_N.upper", PROX, "law.eps_N >= 0.0 && law.eps_N <= 1.0",
             "law.eps_N >= 0.0"),
    off("contact_law.eps_T", PROX, "!(law.eps_T >= 0.0 && law.eps_T <= 1.0)"),
    off("qp.abs_tolerance", QP, "!(std::isfinite(p.abs_tolerance) && p.abs_tolerance >= 0.0)"),
    off("qp.rel_tolerance", QP, "!(std::isfinite(p.rel_tolerance) && p.rel_tolerance >= 0.0)"),
    off("qp.both_zero", QP, "p.abs_tolerance == 0.0 && p.rel_tolerance == 0.0"),
    ok("spring_damper.normal_stiffness", SPRING,
       'CheckPositive("normal_stiffness", p.normal_stiffness)'),
    ok("spring_damper.normal_damping", SPRING,
       'CheckNonNegative("normal_damping", p.normal_damping)'),
    ok("spring_damper.tangential_stiffness", SPRING,
       'CheckPositive("tangential_stiffness", p.tangential_stiffness)'),
    ok("spring_damper.tangential_damping", SPRING,
       'CheckNonNegative("tangential_damping", p.tangential_damping)'),
    ok("spring_damper.mu", SPRING, 'CheckNonNegative("mu", p.mu)'),
    ok("spring_damper.stick_velocity", SPRING,
       'CheckNonNegative("stick_velocity", p.stick_velocity)'),
    off("hertz.stiffness", HERTZ, "!std::isfinite(p.stiffness) || p.stiffness <= 0.0"),
    Mutation("hertz.stiffness.finite", HERTZ, "!std::isfinite(p.stiffness) || ", ""),
    off("hertz.exponent", HERTZ, "!std::isfinite(p.exponent) || p.exponent < 1.0"),
    off("hertz.damping", HERTZ, "!std::isfinite(p.damping) || p.damping < 0.0"),
    off("hertz.ramp_depth", HERTZ, "!std::isfinite(p.ramp_depth) || p.ramp_depth <= 0.0"),
    off("hertz.mu_static", HERTZ, "!std::isfinite(p.mu_static) || p.mu_static < 0.0"),
    off("hertz.mu_dynamic", HERTZ, "!std::isfinite(p.mu_dynamic) || p.mu_dynamic < 0.0"),
    off("hertz.stiction_velocity", HERTZ,
        "!std::isfinite(p.stiction_velocity) || p.stiction_velocity <= 0.0"),
    off("hertz.sliding_velocity", HERTZ,
        "!std::isfinite(p.sliding_velocity) || p.sliding_velocity <= p.stiction_velocity"),
    ok("micro.stiffness", MICRO, 'Check("stiffness", p.stiffness, true)'),
    ok("micro.damping", MICRO, 'Check("damping", p.damping, false)'),
    ok("micro.mu", MICRO, 'Check("mu", p.mu, false)'),
    ok("micro.tangential_stiffness", MICRO,
       'Check("tangential_stiffness", p.tangential_stiffness, true)'),
    ok("micro.tangential_damping", MICRO, 'Check("tangential_damping", p.tangential_damping, false)'),
    ok("micro.stick_velocity", MICRO, 'Check("stick_velocity", p.stick_velocity, false)'),
    off("least_constraint.mu", LC, "!(std::isfinite(p.mu) && p.mu >= 0.0)"),
    off("least_constraint.regularization", LC,
        "!(std::isfinite(p.regularization) && p.regularization >= 0.0)"),
    off("least_constraint.impact_velocity", LC,
        "!(std::isfinite(p.impact_velocity) && p.impact_velocity >= 0.0)"),
    off("least_constraint.qp", LC, "!qp.ok()"),
    off("micro_macro.membrane", MM, "!membrane.ok()"),
    off("micro_macro.restitution", MM, "!(p.restitution >= 0.0 && p.restitution <= 1.0)"),
    off("micro_macro.mu_kinetic", MM, "!(std::isfinite(p.mu_kinetic) && p.mu_kinetic >= 0.0)"),
    off("micro_macro.mu_static", MM, "!(std::isfinite(p.mu_static) && p.mu_static >= p.mu_kinetic)"),
    off("micro_macro.lambda", MM, "!(std::isfinite(p.lambda) && p.lambda > 0.0)"),
    off("micro_macro.slip_velocity", MM, "!(std::isfinite(p.slip_velocity) && p.slip_velocity > 0.0)"),
    off("micro_macro.qp", MM, "!qp.ok()"),
    # ---- named_parameters.cc (the checks) and contact_parameters.cc (the table).
    off("parameters.finite", NAMED, "!std::isfinite(value)"),
    off("parameters.max_iterations", NAMED,
        "value < p.min || value > p.max || value != std::floor(value)"),
    Mutation("parameters.max_iterations.integer", NAMED, " || value != std::floor(value)", ""),
    Mutation("parameters.max_iterations.upper", NAMED, " || value > p.max", ""),
    Mutation("parameters.max_iterations.models", PAR,
             '            {"stick_velocity", &p.stick_velocity}};\n  }\n'
             '  if (auto* s = std::get_if<HertzSettings>',
             '            {"stick_velocity", &p.stick_velocity},\n'
             '            MaxIterations(new int(0))};\n  }\n'
             '  if (auto* s = std::get_if<HertzSettings>'),
    off("parameters.implicit_friction", NAMED, "value != 0.0 && value != 1.0"),
    Mutation("parameters.implicit_friction.model", PAR,
             '            {"stick_velocity", &p.stick_velocity}};\n  }\n'
             '  if (auto* s = std::get_if<LeastConstraintSettings>',
             '            {"stick_velocity", &p.stick_velocity},\n'
             '            Flag("implicit_friction", new bool(false))};\n  }\n'
             '  if (auto* s = std::get_if<LeastConstraintSettings>'),
    Mutation("parameters.unknown_name", NAMED, "  return unknown();",
             "  return absl::OkStatus();"),
    # ---- Simulation::Create.
    off("simulation.id_constraint_contact", SIM,
        "s.control.mode == ControlMode::kIdConstraint && !IsHardContact(s.contact)"),
    off("simulation.loop_closures_contact", SIM,
        "!model->loop_closures.empty() && !IsHardContact(s.contact)"),
    # ---- actions (actuation.cc: used by the service and by StepAction).
    off("action.size", ACT, "action.size() != nu"),
    off("action.finite", ACT, "!std::isfinite(action[a])"),
    # ---- terrain.cc.
    off("terrain.plane_offset", TER, "!std::isfinite(offset)"),
    off("terrain.incline_angle_finite", TER, "!std::isfinite(angle)"),
    off("terrain.incline_angle_range", TER, "std::abs(angle) >= 0.5 * std::numbers::pi"),
    off("terrain.incline_axis", TER, "!IsFinite(axis) || axis.norm() < kMinNorm"),
    off("terrain.heightfield_origin", TER, "!IsFinite(origin)"),
    off("terrain.heightfield_cell_size", TER, "!std::isfinite(cell_size) || cell_size <= 0.0"),
    off("terrain.heightfield_nx_ny", TER, "nx < 2 || ny < 2"),
    off("terrain.heightfield_count", TER, "heights.size() != expected"),
    off("terrain.heightfield_heights", TER, "!std::isfinite(heights[k])"),
    # ---- state blobs (state.cc).
    off("state.magic", STATE, "!r.Bytes(magic, 4) || std::memcmp(magic, kMagic, 4) != 0"),
    Mutation("state.version", STATE, "(version != kVersion && version != 1)", "false"),
    off("state.header", STATE, "!r.U32(nq) || !r.U32(nv) || !r.U32(nc)"),
    Mutation("state.sizes", STATE,
             "if (nq != static_cast<uint32_t>(model.nq) || nv != static_cast<uint32_t>(model.nv) ||\n"
             "      nc != model.contact_points.size()) {",
             "if (false) {"),
    off("state.bilateral_count", STATE, "ok && nb != s.bilateral_impulses.size()"),
    off("state.truncated_body", STATE, "!ok"),
    off("state.trailing_bytes", STATE, "!r.AtEnd()"),
    Mutation("state.finite.q", STATE, "!s.q.allFinite() || ", ""),
    Mutation("state.finite.v", STATE, "!s.v.allFinite() || ", ""),
    Mutation("state.finite.time", STATE, " || !std::isfinite(s.time)", ""),
    # ---- the URDF loader: text and tree shape (urdf_prepare.cc).
    off("urdf.empty", SCAN, 'text.find_first_not_of(" \\t\\r\\n") == absl::string_view::npos'),
    off("urdf.control_byte", SCAN, "c < 0x20 && c != '\\t' && c != '\\n' && c != '\\r'"),
    off("urdf.malformed_xml", PREP,
        "doc.Error() && doc.ErrorId() != TiXmlBase::TIXML_ERROR_DOCUMENT_EMPTY"),
    Mutation("urdf.no_element", PREP,
             'if (robot == nullptr) return ParseError("no XML element in the input");', ""),
    off("urdf.root_robot", PREP, 'robot->ValueStr() != "robot"'),
    Mutation("urdf.two_parents", PREP, "if (!inserted) {\n      return ParseError(absl::StrCat(\"link '\"",
             "if (false) {\n      return ParseError(absl::StrCat(\"link '\""),
    off("urdf.kinematic_loop", PREP, "state[link] == 1 && parent_of.count(link) > 0"),
    off("urdf.transmission_both_spellings", PREP, "ros != nullptr && drake != nullptr"),
    Mutation("urdf.transmission_twice", PREP, "if (found) return ParseError", "if (false) return ParseError"),
    off("urdf.transmission_number", PREP, "!absl::SimpleAtod(word, &value) || !std::isfinite(value)"),
    Mutation("urdf.transmission_number.finite", PREP,
             "!absl::SimpleAtod(word, &value) || !std::isfinite(value)",
             "!absl::SimpleAtod(word, &value)"),
    off("urdf.transmission_joint_count", PREP,
        "joint_elements.size() != 1 || NameOf(joint_elements[0]).empty()"),
    off("urdf.transmission_unknown_joint", PREP, "joints.count(spec.joint) == 0"),
    Mutation("urdf.transmission_two_on_joint", PREP,
             "if (!inserted) {\n      return ParseError(absl::StrCat(\"joint '\"",
             "if (false) {\n      return ParseError(absl::StrCat(\"joint '\""),
    off("urdf.transmission_actuators", PREP, "actuators.size() > 1"),
    off("urdf.transmission_reduction", PREP, "!(spec.reduction > 0.0)"),
    off("urdf.transmission_rotor_inertia", PREP, "!(spec.rotor_inertia >= 0.0)"),
    Mutation("urdf.urdfdom_errors", DOM, "if (model != nullptr && errors.empty()) return model;",
             "if (model != nullptr) return model;"),
    # ---- link_tree.cc: numbers of links and joints.
    off("urdf.negative_mass", TREE, "in.mass < 0.0"),
    off("urdf.inertia_psd", TREE, "moments(0) < -kNegativeTolerance * scale"),
    off("urdf.negative_size", TREE, "geom.type != GeomType::kMesh && (geom.size.array() < 0.0).any()"),
    Mutation("urdf.floating_joint", TREE,
             "return Invalid(\"joint\", joint.name, \"unsupported joint type 'floating'\");",
             "return TreeJointType::kRevolute;"),
    Mutation("urdf.planar_joint", TREE,
             "return Invalid(\"joint\", joint.name, \"unsupported joint type 'planar'\");",
             "return TreeJointType::kRevolute;"),
    off("urdf.limits_order", TREE, "l.lower > l.upper"),
    off("urdf.zero_axis", TREE, "axis.norm() < 1e-9"),
    off("urdf.negative_damping", TREE, "d.damping < 0.0 || d.friction < 0.0"),
    Mutation("urdf.negative_friction", TREE, "d.damping < 0.0 || d.friction < 0.0",
             "d.damping < 0.0"),
    # ---- build_model.cc: base, masses, contact links, transmissions.
    off("model.float_world_children", BUILD, "root.child_joints.size() != 1"),
    off("model.free_joint_name", BUILD, "m.floating_base && joint->name == kFreeJointName"),
    off("model.floating_mass", BUILD, "!(mass > 0.0)"),
    off("model.massless_subtree", BUILD, "!has_inertia[i]"),
    off("model.contact_link_known", BUILD, "known.count(name) == 0"),
    off("model.contact_link_geometry", BUILD,
        "geoms_of(name, GeomType::kSphere).empty() && geoms_of(name, GeomType::kBox).empty()"),
    off("model.transmission_actuated", BUILD, "actuator == nullptr"),
]

# The tests expected to catch each mutation (gtest filter patterns, matched
# against the test's name): run first, and the whole binary only when none of
# them fails, so that a caught mutation costs seconds instead of the full run.
HINTS = {
    "service.create_count": "*Count*",
    "service.create_noise": "*CreateNoise*",
    "service.reset_noise": "*ResetNoise*",
    "service.noise": "*Noise*",
    "registry.capacity": "*OneInstanceTooMany*:*RacingCreates*",
    "service.step_substeps": "*SubstepsOverTheLimit*:*StepSubsteps*:*SessionSubsteps*",
    "service.batch_size": "*BatchAboveMaxBatch*",
    "service.batch_substeps": "*BatchSubsteps*:*SubstepsOverTheLimit*",
    "service.batch_duplicate": "*DuplicateInstanceInBatch*",
    "packed.": "*PackedBatch*",
    "service.watch_rate": "*WatchRate*",
    "service.unknown_builtin_code": "*UnknownModel*:*GetModelUnknownBuiltin*",
    "service.diverged": "*Diverged*",
    "convert.vec3_size": "*Entries*",
    "convert.base": "*BaseSideways*",
    "settings.contact_model_name": "*BadSettings*",
    "settings.integrator_name": "*UnknownIntegrator*",
    "settings.loop_solver_name": "*UnknownLoopSolver*",
    "actuation.control_mode_name": "*BadSettings*",
    "settings.dt": "*BadSettings*:*Dt*",
    "settings.gravity": "*Gravity*",
    "settings.force_law": "*Spring*:*Hertz*:*Micro*",
    "settings.prox": "*HardAlpha*:*HardTol*",
    "settings.hard_contact": "*BadSettings*:*HardRestitution*",
    "settings.least_constraint": "*LeastConstraint*",
    "settings.micro_macro": "*MicroMacro*",
    "settings.control": "*Kp*:*Kd*:*IdTimeConstant*",
    "settings.gear": "*BadSettings*:*Gear*",
    "settings.rotor_inertia": "*BadSettings*:*RotorInertia*",
    "actuation.kp": "*Kp*",
    "actuation.kd": "*Kd*",
    "actuation.id_time_constant": "*IdTimeConstant*",
    "prox.": "*HardAlpha*:*HardTol*",
    "contact_law.mu": "*BadSettings*",
    "contact_law.eps": "*HardRestitution*",
    "qp.": "*Tol*",
    "spring_damper.": "*Spring*",
    "hertz.": "*Hertz*:*ParameterInf*",
    "micro.": "*Micro*",
    "least_constraint.": "*LeastConstraint*",
    "micro_macro.": "*MicroMacro*",
    "parameters.finite": "*ParameterNaN*:*ParameterInf*",
    "parameters.max_iterations": "*MaxIterations*",
    "parameters.implicit_friction": "*ImplicitFriction*",
    "parameters.unknown_name": "*BadSettings*:*Of*",
    "simulation.id_constraint": "*IdConstraint*",
    "simulation.loop_closures": "*LoopClosures*",
    "action.": "*Action*",
    "terrain.plane": "*FlatHeight*",
    "terrain.incline": "*Incline*",
    "terrain.heightfield": "*Heightfield*",
    "state.": "*Blob*:*CorruptState*:*ResetGarbageState*",
    "urdf.empty": "*UrdfEmpty*",
    "urdf.control_byte": "*ControlByte*",
    "urdf.malformed_xml": "*UrdfTruncated*:*MalformedUrdf*",
    "urdf.no_element": "*UrdfNoElement*",
    "urdf.root_robot": "*RootNotRobot*",
    "urdf.two_parents": "*TwoParents*",
    "urdf.kinematic_loop": "*KinematicLoop*",
    "urdf.transmission": "*Transmission*",
    "urdf.urdfdom": "*Urdfdom*",
    "urdf.negative_mass": "*NegativeMass*:*MalformedUrdf*",
    "urdf.inertia_psd": "*InertiaNotPositive*",
    "urdf.negative_size": "*SphereRadiusNegative*",
    "urdf.floating_joint": "*FloatingJointType*",
    "urdf.planar_joint": "*PlanarJointType*",
    "urdf.limits_order": "*LimitLowerAboveUpper*",
    "urdf.zero_axis": "*ZeroAxis*",
    "urdf.negative_": "*NegativeDamping*:*NegativeFriction*",
    "model.float_world": "*FloatingWorld*",
    "model.free_joint_name": "*FreeJointName*",
    "model.floating_mass": "*FloatingBaseWithoutMass*",
    "model.massless_subtree": "*MasslessSubtree*",
    "model.contact_link": "*ContactLink*",
    "model.transmission": "*TransmissionOnFixedJoint*",
}


def hint_of(mutation_id):
    """The longest HINTS key that prefixes the id, or None."""
    keys = [k for k in HINTS if mutation_id.startswith(k)]
    return HINTS[max(keys, key=len)] if keys else None


def run(cmd, timeout, **kwargs):
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, **kwargs)


def build(build_dir, targets):
    result = run(["cmake", "--build", build_dir, "--parallel", "2", "--target", *targets], 1800)
    return result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def run_tests(binary, jobs, gtest_filter="*"):
    """Runs the error tests in `jobs` shards; the names of the failed tests."""
    procs = []
    for shard in range(jobs):
        env = dict(os.environ, GTEST_TOTAL_SHARDS=str(jobs), GTEST_SHARD_INDEX=str(shard))
        procs.append(subprocess.Popen([binary, "--gtest_brief=1", f"--gtest_filter={gtest_filter}"],
                                      cwd=ROOT, env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    failed, crashed = [], False
    for p in procs:
        try:
            out, _ = p.communicate(timeout=600)
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
            crashed = True
        failed += re.findall(r"^\[  FAILED  \] (\S+?)(?:,| \(|$)", out, re.M)
        if p.returncode not in (0, 1):
            crashed = True
    return sorted(set(failed)), crashed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default="build-mut")
    parser.add_argument("--only", nargs="*", default=[], help="id prefixes to run")
    parser.add_argument("--exclude", nargs="*", default=[], help="ids to leave out")
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    parser.add_argument("--jobs", type=int, default=2, help="test shards run at once")
    parser.add_argument("--out", help="also append the report here (TSV)")
    parser.add_argument("--skip-baseline", action="store_true",
                        help="do not first run the tests against the unmutated server")
    args = parser.parse_args()

    # In the order of --only's prefixes, else in the table's.
    prefixes = args.only or [""]
    chosen = [m for p in prefixes for m in MUTATIONS
              if m.id.startswith(p) and m.id not in args.exclude]
    chosen = [m for i, m in enumerate(chosen) if m not in chosen[:i]]
    for m in chosen:  # every patch must apply to exactly one place
        text = open(os.path.join(ROOT, m.path)).read()
        count = text.count(m.old)
        if count != m.occurrences:
            sys.exit(f"{m.id}: the text to patch occurs {count} times in {m.path}, "
                     f"expected {m.occurrences}")
    if args.list:
        for m in chosen:
            print(f"{m.id}\t{m.path}")
        return 0

    build_dir = os.path.join(ROOT, args.build_dir)
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        run(["cmake", "-S", ".", "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"], 600)
    binary = os.path.join(build_dir, "tests/integration/integration_service_errors_test")
    built, log = build(build_dir, ["moreaud", "integration_service_errors_test"])
    if not built:
        sys.exit(f"the unmutated build failed:\n{log}")
    if not args.skip_baseline:
        failed, crashed = run_tests(binary, args.jobs)
        if failed or crashed:
            sys.exit(f"the unmutated server already fails: {failed}")

    originals = {}

    def restore(*_):
        for path, text in originals.items():
            with open(os.path.join(ROOT, path), "w") as f:
                f.write(text)
        originals.clear()

    signal.signal(signal.SIGTERM, lambda *a: (restore(), sys.exit(2)))
    out = open(args.out, "a") if args.out else None
    bad = 0
    try:
        for m in chosen:
            start = time.time()
            path = os.path.join(ROOT, m.path)
            text = open(path).read()
            originals[m.path] = text
            with open(path, "w") as f:
                f.write(text.replace(m.old, m.new))
            built, log = build(build_dir, ["moreaud"])
            if built:
                failed, crashed = [], False
                if hint_of(m.id):
                    failed, crashed = run_tests(binary, args.jobs, hint_of(m.id))
                if not failed and not crashed:
                    failed, crashed = run_tests(binary, args.jobs)
                verdict = "caught" if failed or crashed else "SURVIVED"
            else:
                failed, verdict = [], "build-error"
            restore()
            bad += verdict != "caught"
            line = f"{m.id}\t{verdict}\t{len(failed)}\t{' '.join(failed)}"
            print(f"{line}\t({time.time() - start:.0f} s)", flush=True)
            if out:
                out.write(line + "\n")
                out.flush()
            if verdict == "build-error":
                print(log, file=sys.stderr)
    finally:
        restore()
        if not args.skip_baseline:
            build(build_dir, ["moreaud"])  # the unmutated server again
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
