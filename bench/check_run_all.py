#!/usr/bin/python3
"""Check of bench/run_all.sh: a --quick run of two cheap areas into a copy of
BENCHMARKS.md, then the generated file's structure (format_benchmarks.py
check): both sections rerun, with command, machine, commit and date lines and
a table of numbers; the fuzz section kept from the copy and marked as kept.
Then the A/B sweep (sim_sweep.py ab) of the build's `moreau` against itself:
every pair ends at the same pose and formats into a table of ratios.

Usage: check_run_all.py SOURCE_DIR BUILD_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

AREAS = ("engine", "steps")


def main() -> int:
    source, build = sys.argv[1], os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix=f"moreau-run-all-{os.getpid()}-") as tmp:
        out = os.path.join(tmp, "B.md")
        shutil.copy(os.path.join(source, "BENCHMARKS.md"), out)
        proc = subprocess.run(
            ["bash", os.path.join(source, "bench/run_all.sh"), "--quick", "--no-build",
             "--only", ",".join(AREAS), "--out", out],
            capture_output=True, text=True, timeout=55,
            env={**os.environ, "BUILD_DIR": build})
        if proc.returncode != 0:
            print(proc.stdout, proc.stderr)
            return 1
        # Progress on stderr names each area and its time.
        for area in AREAS:
            assert re.search(rf"\] {area}: done in \d+ s", proc.stderr), proc.stderr
        check = subprocess.run(
            ["/usr/bin/python3", os.path.join(source, "bench/format_benchmarks.py"), "check",
             out, "--areas", ",".join(AREAS + ("fuzz",))], capture_output=True, text=True)
        with open(out) as f:
            text = f.read()
        if check.returncode != 0:
            print(check.stderr, text)
            return 1
    sections = {m.group(1): m.start() for m in re.finditer(r"<!-- area: (\w+) -->", text)}
    for area in AREAS:
        body = text[sections[area]:].split("\n## ", 1)[0]
        commit = re.search(r"(?m)^Commit: (.*)$", body).group(1)
        assert "not rerun" not in commit, commit
        assert re.match(r"[0-9a-f]{7,}(\+dirty)?, \d{4}-\d\d-\d\d \d\d:\d\d UTC", commit), commit
        assert re.search(r"(?m)^Machine: .*\d+ cores", body), body
    fuzz = text[sections["fuzz"]:]
    assert re.search(r"(?m)^Commit: .*; not rerun at [0-9a-f]{7,}", fuzz), fuzz
    # The figures of the kept section are the copy's, unchanged.
    assert "| `urdf` |" in fuzz, fuzz
    return check_ab(source, build)


def check_ab(source: str, build: str) -> int:
    moreau = os.path.join(build, "clients/cli/moreau")
    proc = subprocess.run(
        ["/usr/bin/python3", os.path.join(source, "bench/sim_sweep.py"), "ab", "--quick",
         "--moreau", moreau, "--baseline", moreau], capture_output=True, text=True, timeout=55)
    if proc.returncode != 0:
        print(proc.stdout, proc.stderr)
        return 1
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["controller"], r["contact"]) for r in rows] == [
        ("stand", "spring-damper"), ("stand", "hertz"), ("trot", "spring-damper"),
        ("trot", "hertz")], rows
    for r in rows:
        # The same binary twice: the same arithmetic, so the same final pose.
        assert r["same_final_pose"], r
        assert len(r["ratios"]) == 1 and r["ratios"][0] > 0, r
    with tempfile.TemporaryDirectory(prefix=f"moreau-ab-{os.getpid()}-") as raw:
        with open(os.path.join(raw, "ab.jsonl"), "w") as f:
            f.write(proc.stdout)
        section = subprocess.run(
            ["/usr/bin/python3", os.path.join(source, "bench/format_benchmarks.py"), "section",
             "ab", raw, "--command", "c", "--machine", "m", "--commit", "abc1234",
             "--date", "d"], capture_output=True, text=True, check=True).stdout
    assert "<!-- area: ab -->" in section, section
    assert re.search(r"(?m)^\| stand \| spring-damper \| [\d ]+ \| [\d ]+ \| \d\.\d{3} \|", section), \
        section
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
