#include "clients/cli/flag_specs.h"

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/flags/marshalling.h"
#include "absl/strings/string_view.h"
#include "clients/cli/flag_values.h"
#include "engine/sim/actuation.h"
#include "engine/sim/settings.h"
#include "engine/util/enum_table.h"

namespace moreau::cli {
namespace {

// `spec` for the flag whose value is the field values.*kGroup.*kField of
// FlagValues. A text is read by absl::ParseFlag, as absl flags read it (absl's
// grammar for numbers, bools, strings and comma-separated lists; the
// AbslParseFlag of the flag types of model_flags.h, settings_flags.h and
// sim_flags.h), into a copy of the field's default that replaces the field
// only when the whole text parses. The help shows the default by
// absl::UnparseFlag.
template <auto kGroup, auto kField>
constexpr FlagSpec Bind(FlagSpec spec) {
  using Value = std::remove_cvref_t<decltype(FlagValues{}.*kGroup.*kField)>;
  spec.is_bool = std::is_same_v<Value, bool>;
  spec.parse = [](absl::string_view text, FlagValues* values, std::string* error) {
    Value value = FlagValues{}.*kGroup.*kField;
    if (!absl::ParseFlag(text, &value, error)) return false;
    values->*kGroup.*kField = std::move(value);
    return true;
  };
  spec.default_value = [] { return absl::UnparseFlag(FlagValues{}.*kGroup.*kField); };
  return spec;
}

// A vocabulary's names and help lines, for FlagSpec::choices.
template <typename Enum>
std::vector<std::pair<std::string, std::string>> ChoicesOf(const EnumTable<Enum>& table) {
  std::vector<std::pair<std::string, std::string>> choices;
  for (const EnumEntry<Enum>& entry : table.entries()) choices.emplace_back(entry.name, entry.help);
  return choices;
}
std::vector<std::pair<std::string, std::string>> ContactModelChoices() {
  return ChoicesOf(sim::ContactModels());
}
std::vector<std::pair<std::string, std::string>> IntegratorChoices() {
  return ChoicesOf(sim::Integrators());
}
std::vector<std::pair<std::string, std::string>> ControlModeChoices() {
  return ChoicesOf(sim::ControlModes());
}
std::vector<std::pair<std::string, std::string>> ControllerChoices() {
  return ChoicesOf(sim::ControllerKinds());
}
std::vector<std::pair<std::string, std::string>> TuningChoices() {
  return {{"auto", "paper-001 for mini_cheetah, derived for every other model"},
          {"paper-001", "001's Mini Cheetah constants"},
          {"derived", "from the model (docs/controllers.md)"}};
}
std::vector<std::pair<std::string, std::string>> LoopSolverChoices() {
  return ChoicesOf(sim::LoopSolvers());
}

}  // namespace

// CommonFlags.

constexpr FlagSpec kJsonFlagSpec = Bind<&FlagValues::common, &CommonFlags::json>({
    .name = "json",
    .value = "",
    .help = "Print the report as one JSON object instead of text.",
});
constexpr FlagSpec kStateOutFlagSpec = Bind<&FlagValues::common, &CommonFlags::state_out>({
    .name = "state_out",
    .value = "FILE",
    .help = "Write the complete state (a binary blob) to this file.",
});

// ModelFlags.

constexpr FlagSpec kBaseFlagSpec = Bind<&FlagValues::model, &ModelFlags::base>({
    .name = "base",
    .value = "auto|fixed|floating",
    .help = "How the root link attaches to the world: auto (a root link named "
            "\"world\" fixes the base, otherwise it floats), fixed, or "
            "floating.",
});
constexpr FlagSpec kContactLinksFlagSpec = Bind<&FlagValues::model, &ModelFlags::contact_links>({
    .name = "contact_links",
    .value = "LINK,LINK,...",
    .help = "Comma-separated links whose sphere collision geoms become contact "
            "points; empty: the sphere geoms of the leaf links (the feet).",
});
constexpr FlagSpec kCollisionFlagSpec = Bind<&FlagValues::model, &ModelFlags::collision>({
    .name = "collision",
    .value = "feet|all",
    .help = "Which collision geometry touches the terrain: feet (the foot "
            "spheres, the default) or all (every sphere, box, cylinder and "
            "mesh of every link; docs/collision.md).",
});
constexpr FlagSpec kCollideLinksFlagSpec = Bind<&FlagValues::model, &ModelFlags::collide_links>({
    .name = "collide_links",
    .value = "LINK,LINK,...",
    .help = "Links whose every collision geometry collides, whatever --collision says.",
});
constexpr FlagSpec kExcludeLinksFlagSpec = Bind<&FlagValues::model, &ModelFlags::exclude_links>({
    .name = "exclude_links",
    .value = "LINK,LINK,...",
    .help = "Links whose collision geometry does not collide beyond their feet.",
});

// StateFlags.

constexpr FlagSpec kQFlagSpec = Bind<&FlagValues::state, &StateFlags::q>({
    .name = "q",
    .value = "Q1,Q2,...",
    .help = "Generalized coordinates, nq comma-separated numbers; floating "
            "base: base position (world), unit quaternion w,x,y,z (base to "
            "world), then the joints. Default: the model's default "
            "configuration.",
});
constexpr FlagSpec kVFlagSpec = Bind<&FlagValues::state, &StateFlags::v>({
    .name = "v",
    .value = "V1,V2,...",
    .help = "Generalized velocities, nv comma-separated numbers; floating "
            "base: base linear velocity (world), base angular velocity (base "
            "frame), then the joint rates. Default: zeros.",
});
constexpr FlagSpec kTauFlagSpec = Bind<&FlagValues::state, &StateFlags::tau>({
    .name = "tau",
    .value = "TAU1,TAU2,...",
    .help = "Generalized forces, nv comma-separated numbers (zero on a "
            "floating base's first 6 unless you push the base). Default: zeros.",
});

// SettingsFlags.

constexpr FlagSpec kSettingsFileFlagSpec = Bind<&FlagValues::settings, &SettingsFlags::file>({
    .name = "settings",
    .value = "FILE.textproto",
    .help = "Start from this text-format moreau.v1.Settings (the message moreaud's "
            "CreateInstances takes, e.g. 'contact_model: \"hertz\" dt: 0.0005 "
            "contact_parameters { key: \"stiffness\" value: 2e4 }'); the flags below that are "
            "given on the command line win over its fields.",
});
constexpr FlagSpec kContactModelFlagSpec =
    Bind<&FlagValues::settings, &SettingsFlags::contact_model>({
        .name = "contact_model",
        .value = "MODEL",
        .alias = "contact",
        .choices = ContactModelChoices,
        .help = "Contact model",
    });
constexpr FlagSpec kIntegratorFlagSpec = Bind<&FlagValues::settings, &SettingsFlags::integrator>({
    .name = "integrator",
    .value = "NAME",
    .choices = IntegratorChoices,
    .help = "Integrator of the compliant contact models (spring-damper, hertz, micro)",
});
constexpr FlagSpec kDtFlagSpec = Bind<&FlagValues::settings, &SettingsFlags::dt>({
    .name = "dt",
    .value = "S",
    .alias = "time_step",
    .help = "Time step in seconds, in (0, 1].",
});
constexpr FlagSpec kControlModeFlagSpec =
    Bind<&FlagValues::settings, &SettingsFlags::control_mode>({
        .name = "control_mode",
        .value = "MODE",
        .alias = "control",
        .choices = ControlModeChoices,
        .help = "How actions drive the joints (default torque; in `moreau sim` without --actions, "
                "any other mode drives them by the controller's joint targets)",
    });
constexpr FlagSpec kContactParametersFlagSpec =
    Bind<&FlagValues::settings, &SettingsFlags::contact_parameters>({
        .name = "contact_parameters",
        .value = "NAME=VALUE[,NAME=VALUE...]",
        .alias = "contact_param",
        .help = "Parameters of the contact model by name, NAME=VALUE[,NAME=VALUE...], e.g. "
                "--contact-model hertz --contact-parameters stiffness=2e4,exponent=1.5 (the "
                "names of moreau.v1.Settings.contact_parameters; an unknown name is an error "
                "that lists the known ones).",
    });
constexpr FlagSpec kIdTimeConstantFlagSpec =
    Bind<&FlagValues::settings, &SettingsFlags::id_time_constant>({
        .name = "id_time_constant",
        .value = "S",
        .help = "With --control-mode id or id-constraint: the desired joint velocity is (target "
                "- q) / max(dt, T) for this T in seconds, >= 0; 0 reaches the target at the end "
                "of each step.",
    });
constexpr FlagSpec kGearFlagSpec = Bind<&FlagValues::settings, &SettingsFlags::gear>({
    .name = "gear",
    .value = "N",
    .help = "Transmission ratio N of every actuator (002 §IV-C), > 0; 0 keeps the model's (URDF "
            "<transmission> mechanicalReduction, else 1). With --rotor-inertia it adds the "
            "reflected rotor inertia N^2 I_rotor to each actuated joint. Torques and effort "
            "limits stay joint side.",
});
constexpr FlagSpec kRotorInertiaFlagSpec =
    Bind<&FlagValues::settings, &SettingsFlags::rotor_inertia>({
        .name = "rotor_inertia",
        .value = "KG_M2",
        .help = "Rotor inertia I_rotor (kg m^2, motor side) of every actuator, >= 0; 0 keeps the "
                "model's (URDF <transmission> rotorInertia, else 0).",
    });
constexpr FlagSpec kLoopSolverFlagSpec = Bind<&FlagValues::settings, &SettingsFlags::loop_solver>({
    .name = "loop_solver",
    .value = "NAME",
    .choices = LoopSolverChoices,
    .help = "Closed kinematic chains (models with cut joints, e.g. four_bar; default prox)",
});

// SimFlags.

constexpr FlagSpec kDurationFlagSpec = Bind<&FlagValues::sim, &SimFlags::duration>({
    .name = "duration",
    .value = "S",
    .help = "Simulated time in seconds, > 0; the run takes duration / dt steps (rounded, at most "
            "1e8).",
});
constexpr FlagSpec kControllerFlagSpec = Bind<&FlagValues::sim, &SimFlags::controller>({
    .name = "controller",
    .value = "NAME",
    .choices = ControllerChoices,
    .help = "Joint controller, run by the simulation inside its step at the simulation rate. A "
            "model without 3-joint legs (sphere, box, arms) falls back from stand to zero with a "
            "warning. Default: the --settings file's controller (moreau.v1.Settings.controller, "
            "with its period and parameters) when it names one, else stand; given, this flag "
            "replaces the file's controller",
});
constexpr FlagSpec kControllerParametersFlagSpec =
    Bind<&FlagValues::sim, &SimFlags::controller_parameters>({
        .name = "controller_parameters",
        .value = "NAME=VALUE[,NAME=VALUE...]",
        .help = "Parameters of the controller by name, NAME=VALUE[,NAME=VALUE...], e.g. "
                "--controller trot --controller-parameters kp=60,trot_frequency_hz=2 (the names "
                "of moreau.v1.ControllerSettings.parameters, which depend on the controller and, "
                "for trot, on --control-mode; flags take 0 or 1; an unknown name is an error "
                "that lists the known ones).",
    });
constexpr FlagSpec kWeightFeedforwardFlagSpec =
    Bind<&FlagValues::sim, &SimFlags::weight_feedforward>({
        .name = "weight_feedforward",
        .value = "",
        .help = "trot: each stance leg also carries its share of the robot's weight by a "
                "feed-forward torque -J^T F added to the PD "
                "(ControllerOptions::weight_feedforward). 001's soft gains suit the Mini Cheetah "
                "without it; heavier robots such as the Unitree A1 trot only with it.",
    });
constexpr FlagSpec kTuningFlagSpec = Bind<&FlagValues::sim, &SimFlags::tuning>({
    .name = "tuning",
    .value = "auto|paper-001|derived",
    .choices = TuningChoices,
    .help = "stand and trot: where the gains, standing pose and step come from "
            "(docs/controllers.md). paper-001: 001's Mini Cheetah constants (k_p = 40, "
            "k_d = 1); derived: from the model's mass, leg length, effort limits and inertias, "
            "with the weight fed forward; auto (the default): paper-001 for mini_cheetah, "
            "derived for every other model. Also --controller-parameters tuning=NAME.",
});
constexpr FlagSpec kPushFlagSpec = Bind<&FlagValues::sim, &SimFlags::push>({
    .name = "push",
    .value = "T0,DURATION,FX,FY,FZ",
    .help = "Push the base: a constant world-frame force (FX, FY, FZ in N) at the base origin "
            "from T0 for DURATION seconds. Default: no push.",
});
constexpr FlagSpec kTerrainFlagSpec = Bind<&FlagValues::sim, &SimFlags::terrain>({
    .name = "terrain",
    .value = "flat|incline:DEG|rough:AMPLITUDE|heightfield:FILE.csv",
    .help = "The ground: flat (the plane z = 0); incline:DEG (that plane tilted by DEG degrees, "
            "|DEG| < 90, about the world y axis through the origin; positive DEG descends towards "
            "+x); rough:AMPLITUDE (a built-in 8 m x 8 m heightfield centred on the origin, 5 cm "
            "cells, fixed pseudo-random heights in [-AMPLITUDE, 0] m, 0 <= AMPLITUDE <= 0.1); or "
            "heightfield:FILE.csv (a heightfield read from FILE: one line of comma-separated "
            "heights in metres per grid row along +y, values along +x, at least 2 x 2, centred "
            "on the origin; lines starting with # are comments, and '# cell_size: S' sets the "
            "cell size in metres, default 0.05).",
});
constexpr FlagSpec kMuFlagSpec = Bind<&FlagValues::sim, &SimFlags::mu>({
    .name = "mu",
    .value = "M",
    .help = "Friction coefficient, >= 0, for every contact model (hertz: static and dynamic). "
            "Default: each contact model's own. --contact-parameters are applied after it.",
});
constexpr FlagSpec kOutFlagSpec = Bind<&FlagValues::sim, &SimFlags::out>({
    .name = "out",
    .value = "FILE.csv",
    .help = "Write a CSV file: a header, then one row per step (see --csv-every) with time, base "
            "pose, joint positions, velocities and torques, and each contact point's normal "
            "force.",
});
constexpr FlagSpec kCsvEveryFlagSpec = Bind<&FlagValues::sim, &SimFlags::csv_every>({
    .name = "csv_every",
    .value = "N",
    .help = "With --out: a CSV row every N steps (N >= 1).",
});
constexpr FlagSpec kProgressFlagSpec = Bind<&FlagValues::sim, &SimFlags::progress>({
    .name = "progress",
    .value = "",
    .help = "Show the progress line on stderr even when it is not a terminal, for any run length "
            "and with --json.",
});
constexpr FlagSpec kActionsFlagSpec = Bind<&FlagValues::sim, &SimFlags::actions>({
    .name = "actions",
    .value = "FILE.csv",
    .help = "Replay actions from this CSV file (one row per action, one column per actuator) "
            "instead of running --controller; --duration is then rows × --action-substeps × "
            "--dt.",
});
constexpr FlagSpec kActionSubstepsFlagSpec = Bind<&FlagValues::sim, &SimFlags::action_substeps>({
    .name = "action_substeps",
    .value = "K",
    .help = "With --actions: steps each action row is held for.",
});

// RemoteFlags.

constexpr FlagSpec kAddressFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::address>({
    .name = "address",
    .value = "HOST:PORT",
    .help = "moreaud address (host:port; default $MOREAU_ADDRESS when set)",
});
constexpr FlagSpec kCountFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::count>({
    .name = "count",
    .value = "N",
    .help = "create: how many instances",
});
constexpr FlagSpec kSeedFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::seed>({
    .name = "seed",
    .value = "N",
    .help = "create: noise seed (instance k uses seed + k)",
});
constexpr FlagSpec kNoiseFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::noise>({
    .name = "noise",
    .value = "X",
    .help = "create: initial joint/velocity noise (0: the default pose)",
});
constexpr FlagSpec kSubstepsFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::substeps>({
    .name = "substeps",
    .value = "K",
    .help = "step: sub-steps the action is held for",
});
constexpr FlagSpec kActionFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::action>({
    .name = "action",
    .value = "A1,A2,…",
    .help = "step: comma-separated action, one entry per actuator (default zeros)",
});
constexpr FlagSpec kRateFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::rate>({
    .name = "rate",
    .value = "HZ",
    .help = "watch: frames per second",
});
constexpr FlagSpec kFramesFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::frames>({
    .name = "frames",
    .value = "N",
    .help = "watch: stop after this many frames",
});
constexpr FlagSpec kStateInFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::state_in>({
    .name = "state_in",
    .value = "FILE",
    .help = "state: restore the state blob from this file",
});
constexpr FlagSpec kMeshOutFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::mesh_out>({
    .name = "out",
    .value = "FILE",
    .help = "mesh: write the mesh file's bytes to this file",
});
constexpr FlagSpec kTimeoutFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::timeout_s>({
    .name = "timeout_s",
    .value = "S",
    .help = "health: seconds to wait for the answer",
});
constexpr FlagSpec kTlsCaFileFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::tls_ca_file>({
    .name = "tls_ca_file",
    .value = "FILE",
    .help = "TLS: PEM CA certificates the server's certificate must chain to (any --tls-* flag "
            "turns TLS on; without this one the system's roots are trusted)",
});
constexpr FlagSpec kTlsCertFileFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::tls_cert_file>({
    .name = "tls_cert_file",
    .value = "FILE",
    .help = "mTLS: the client's PEM certificate chain",
});
constexpr FlagSpec kTlsKeyFileFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::tls_key_file>({
    .name = "tls_key_file",
    .value = "FILE",
    .help = "mTLS: the PEM private key of --tls-cert-file",
});
constexpr FlagSpec kTokenFlagSpec = Bind<&FlagValues::remote, &RemoteFlags::token>({
    .name = "token",
    .value = "TOKEN",
    .help = "bearer token sent with every call (default: $MOREAU_TOKEN; prefer the variable: "
            "a flag shows in the process list)",
});

}  // namespace moreau::cli
