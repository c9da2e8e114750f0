"""`moreau sim --settings FILE` and the settings vocabularies in the help.

The file is a text-format moreau.v1.Settings, the message moreaud's
CreateInstances takes; flags given on the command line win over its fields.
"""

import re

import pytest

TIMING = ("wall_s", "steps_per_s", "realtime_factor")

SETTINGS = """# moreau.v1.Settings, text format
contact_model: "hertz"
dt: 0.0005
control_mode: "pd"
kp: 30
contact_parameters { key: "stiffness" value: 20000 }
contact_parameters { key: "mu_static" value: 0.7 }
"""

FLAGS = ["--contact-model", "hertz", "--dt", "0.0005", "--control-mode", "pd",
         "--contact-parameters", "stiffness=20000,mu_static=0.7"]


def outcome(report):
    return {key: value for key, value in report.items() if key not in TIMING}


def test_a_settings_file_runs_as_the_same_flags(moreau, tmp_path):
    settings = tmp_path / "run.textproto"
    # kp has no flag: the file's 30 against the flags' default 40 must differ.
    settings.write_text(SETTINGS.replace("kp: 30\n", ""))
    from_file = moreau.json("sim", "mini_cheetah", "--duration", "0.3", "--settings", settings)
    from_flags = moreau.json("sim", "mini_cheetah", "--duration", "0.3", *FLAGS)
    assert from_file["contact"] == "hertz" and from_file["dt"] == 0.0005
    assert outcome(from_file) == outcome(from_flags)
    settings.write_text(SETTINGS)
    with_gain = moreau.json("sim", "mini_cheetah", "--duration", "0.3", "--settings", settings)
    assert with_gain["final_base_pose"] != from_flags["final_base_pose"]


def test_older_flag_spellings_still_work(moreau):
    old = moreau.json("sim", "mini_cheetah", "--duration", "0.2", "--contact", "hertz",
                      "--time-step", "0.0005", "--control", "pd", "--contact-param",
                      "stiffness=20000,mu_static=0.7")
    new = moreau.json("sim", "mini_cheetah", "--duration", "0.2", *FLAGS)
    assert outcome(old) == outcome(new)


def test_flags_win_over_the_file(moreau, tmp_path):
    settings = tmp_path / "run.textproto"
    settings.write_text(SETTINGS)
    report = moreau.json("sim", "mini_cheetah", "--duration", "0.1", "--settings", settings,
                         "--contact-model", "moreau-jor", "--dt", "0.001")
    assert report["contact"] == "moreau-jor" and report["dt"] == 0.001
    assert report["steps"] == 100


def test_a_flag_switching_the_files_model_keeps_what_the_models_share(moreau, tmp_path):
    # moreau-jor and moreau-sor share the prox parameters and the loop solver;
    # the force laws share the integrator.
    settings = tmp_path / "run.textproto"
    settings.write_text('contact_model: "moreau-sor"\nloop_solver: "direct"\n'
                        'contact_parameters { key: "alpha" value: 0.9 }\n')
    from_file = moreau.json("sim", "four_bar", "--duration", "0.2", "--settings", settings,
                            "--contact-model", "moreau-jor")
    from_flags = moreau.json("sim", "four_bar", "--duration", "0.2", "--contact-model",
                             "moreau-jor", "--loop-solver", "direct", "--contact-parameters",
                             "alpha=0.9")
    assert from_file["contact"] == "moreau-jor" and from_file["loop_solver"] == "direct"
    assert outcome(from_file) == outcome(from_flags)
    settings.write_text('contact_model: "hertz"\nintegrator: "rk4"\n'
                        'contact_parameters { key: "stiffness" value: 20000 }\n')
    micro = moreau.json("sim", "mini_cheetah", "--duration", "0.1", "--settings", settings,
                        "--contact-model", "micro")
    assert micro["contact"] == "micro" and micro["integrator"] == "rk4"


@pytest.mark.parametrize("text,words", [
    ("dt: fast\n", ["line 1, column 5", "not a text-format moreau.v1.Settings"]),
    ("contact_model: \"hertz\"\nfriction: 1\n", ["line 2", "friction"]),
    ("contact_model: \"soft\"\n", ["unknown contact model 'soft'", "moreau-sor"]),
    ("contact_model: \"hertz\"\ncontact_parameters { key: \"alpha\" value: 1 }\n",
     ["unknown contact parameter 'alpha'", "hertz"]),
    ("dt: -1\n", ["dt"]),
])
def test_bad_settings_files_name_the_file_and_the_problem(moreau, tmp_path, text, words):
    settings = tmp_path / "bad.textproto"
    settings.write_text(text)
    message = moreau.fails("sim", "sphere", "--duration", "0.01", "--settings", settings)
    assert str(settings) in message
    for word in words:
        assert word in message, (word, message)


def test_missing_settings_file(moreau, tmp_path):
    message = moreau.fails("sim", "sphere", "--settings", tmp_path / "none.textproto")
    assert "cannot open" in message and "none.textproto" in message


def vocabulary(moreau, flag):
    """The names an unknown value's error lists for `flag` (from the engine's table)."""
    message = moreau.fails("sim", "sphere", flag, "no-such-name",
                           exit_code=2 if flag in ("--contact-model", "--integrator") else 1)
    listed = re.search(r"\(expected ([^)]*)\)", message).group(1)
    return [name.strip() for name in listed.replace(" or ", ", ").split(",")]


@pytest.mark.parametrize("flag,expected", [
    ("--contact-model", ["spring-damper", "hertz", "micro", "moreau-jor", "moreau-sor",
                         "least-constraint", "micro-macro"]),
    ("--integrator", ["euler", "heun", "rk4"]),
    ("--control-mode", ["torque", "pd", "id", "id-constraint", "command"]),
    ("--loop-solver", ["prox", "direct"]),
])
def test_help_lists_each_vocabulary_as_the_parser_knows_it(moreau, flag, expected):
    names = vocabulary(moreau, flag)
    assert names == expected
    for command in ("sim", "remote"):
        lines = moreau.ok("help", command).stdout.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith(f"  {flag} "))
        section = []
        for line in lines[start + 1:]:
            if not line.startswith("      "):
                break
            section.append(line)
        listed = [line.split()[0] for line in section if line.startswith("        ")
                  and not line.startswith("         ")]
        assert listed == names, (command, flag, section)


# A trot that starts stepping early, every second step, with its own gain.
CONTROLLER = """controller {
  kind: "trot"
  period_steps: 2
  parameters { key: "start_delay_s" value: 0.1 }
  parameters { key: "kp" value: 50 }
}
"""


def csv_of(moreau, tmp_path, name, *args):
    out = tmp_path / f"{name}.csv"
    moreau.ok("sim", "mini_cheetah", "--duration", "0.4", "--out", out, *args)
    return out.read_text()


def test_the_files_controller_runs_as_the_same_flags(moreau, tmp_path):
    settings = tmp_path / "trot.textproto"
    settings.write_text('controller { kind: "trot" }\n')
    from_file = csv_of(moreau, tmp_path, "file", "--settings", settings)
    assert from_file == csv_of(moreau, tmp_path, "flag", "--controller", "trot")
    assert from_file != csv_of(moreau, tmp_path, "stand")  # the default controller
    report = moreau.ok("sim", "mini_cheetah", "--duration", "0.01", "--settings", settings)
    assert "controller: trot" in report.stdout

    # Its parameters are --controller-parameters', its period its own.
    settings.write_text(CONTROLLER.replace("period_steps: 2\n", ""))
    tuned = csv_of(moreau, tmp_path, "tuned", "--settings", settings)
    assert tuned == csv_of(moreau, tmp_path, "tuned_flags", "--controller", "trot",
                           "--controller-parameters", "start_delay_s=0.1,kp=50")
    assert tuned != from_file
    settings.write_text(CONTROLLER)
    assert csv_of(moreau, tmp_path, "period", "--settings", settings) != tuned


def test_the_controller_flag_replaces_the_files(moreau, tmp_path):
    settings = tmp_path / "trot.textproto"
    settings.write_text(CONTROLLER)
    assert (csv_of(moreau, tmp_path, "over", "--settings", settings, "--controller", "stand")
            == csv_of(moreau, tmp_path, "stand", "--controller", "stand"))
    # --controller-parameters are set over the file's.
    softer = tmp_path / "softer.textproto"
    softer.write_text(CONTROLLER.replace("value: 50", "value: 40"))
    both = csv_of(moreau, tmp_path, "both", "--settings", settings,
                  "--controller-parameters", "kp=40")
    assert both == csv_of(moreau, tmp_path, "softer", "--settings", softer)
    assert both != csv_of(moreau, tmp_path, "file", "--settings", settings)


@pytest.mark.parametrize("text,args,words", [
    ('controller { kind: "moonwalk" }\n', [],
     ["controller.kind", "unknown controller 'moonwalk'", "velocity-trot"]),
    ('controller { kind: "stand" period_steps: -1 }\n', [], ["controller.period_steps", "-1"]),
    ('controller { kind: "stand" parameters { key: "gain" value: 1 } }\n', [],
     ["unknown parameter 'gain'", "controller 'stand'", "kp, kd, stand_height, stable_pd"]),
    ('controller { kind: "trot" parameters { key: "balance" value: 2 } }\n', [],
     ["'balance'", "0 (off) or 1 (on), got 2"]),
    ('controller { kind: "trot" parameters { key: "kp" value: -3 } }\n', [],
     ["controller 'trot'", "kp = -3"]),
    # "trot" under id-constraint is the velocity trot, which has no kp.
    ('contact_model: "moreau-sor"\ncontroller { kind: "trot" parameters { key: "kp" value: 50 } }\n',
     ["--control-mode", "id-constraint"],
     ["--control-mode id-constraint", "unknown parameter 'kp'", "the velocity trot"]),
])
def test_bad_controllers_in_a_settings_file_name_the_problem(moreau, tmp_path, text, args,
                                                             words):
    settings = tmp_path / "bad.textproto"
    settings.write_text(text)
    message = moreau.fails("sim", "mini_cheetah", "--duration", "0.01", "--settings", settings,
                           *args)
    assert str(settings) in message
    for word in words:
        assert word in message, (word, message)


def test_bad_controller_parameters_flag_names_the_problem(moreau):
    message = moreau.fails("sim", "mini_cheetah", "--duration", "0.01", "--controller", "stand",
                           "--controller-parameters", "gain=1")
    assert "--controller-parameters" in message and "'gain'" in message and "kd" in message
    message = moreau.fails("sim", "double_pendulum", "--duration", "0.01", "--controller",
                           "trot")
    assert "--controller trot" in message
