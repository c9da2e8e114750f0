#!/usr/bin/python3
"""Check of bench/run_all.sh: a --quick run of two cheap areas into a copy of
BENCHMARKS.md, then the generated file's structure (format_benchmarks.py
check): both sections rerun, with command, machine, commit and date lines and
a table of numbers; the fuzz section kept from the copy and marked as kept.

Usage: check_run_all.py SOURCE_DIR BUILD_DIR
"""
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
        assert "kept" not in commit, commit
        assert re.match(r"[0-9a-f]{7,}(\+dirty)?, \d{4}-\d\d-\d\d \d\d:\d\d UTC", commit), commit
        assert re.search(r"(?m)^Machine: .*\d+ cores", body), body
    fuzz = text[sections["fuzz"]:]
    assert re.search(r"(?m)^Commit: .*; kept: not rerun at [0-9a-f]{7,}", fuzz), fuzz
    # The figures of the kept section are the copy's, unchanged.
    assert "| `urdf` |" in fuzz, fuzz
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
