#!/usr/bin/env bash
# Runs each fuzz target of the MOREAU_FUZZ build for N executions over its
# seed corpus (tests/fuzz/corpus/TARGET), inputs slower than 1 s counting as
# hangs and leak detection on, and prints per target the executions, exec/s
# and the crashes, leaks, timeouts and out-of-memory inputs found. Each find
# is kept under OUT/TARGET/ (crash-*, leak-*, timeout-*, oom-*): add it to
# tests/fuzz/regressions/TARGET/ once fixed. New corpus inputs go to OUT too,
# never into the repository's seeds.
#
#   tests/fuzz/run_fuzzers.sh [-runs N] [-build DIR] [-out DIR] [TARGET…]
#
# Defaults: -runs 1000000, -build build-fuzz (bash scripts/test.sh makes it),
# -out a fresh temporary folder, every target. Exits 1 if anything was found.
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=1000000
build=build-fuzz
out=""
targets=()
while (($#)); do
  case "$1" in
    -runs) runs="$2"; shift 2 ;;
    -build) build="$2"; shift 2 ;;
    -out) out="$2"; shift 2 ;;
    -h|-help|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "run_fuzzers: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if ((${#targets[@]} == 0)); then
  targets=(urdf xml_scan heightfield state service)
fi
[[ -n "$out" ]] || out="$(mktemp -d /tmp/moreau-fuzz.XXXXXX)"

found=0
printf '%-12s %12s %10s %8s %6s %9s %5s\n' target executions exec/s crashes leaks timeouts ooms
for target in "${targets[@]}"; do
  binary="$build/tests/fuzz/${target}_fuzzer"
  if [[ ! -x "$binary" ]]; then
    echo "run_fuzzers: $binary is not built (bash scripts/test.sh builds it)" >&2
    exit 2
  fi
  dir="$out/$target"
  mkdir -p "$dir/corpus"
  log="$dir/fuzz.log"
  status=0
  "$binary" -runs="$runs" -timeout=1 -detect_leaks=1 -print_final_stats=1 \
    -artifact_prefix="$dir/" "$dir/corpus" "tests/fuzz/corpus/$target" >"$log" 2>&1 || status=$?
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  count() { find "$dir" -maxdepth 1 -name "$1-*" | wc -l; }
  crashes=$(count crash) leaks=$(count leak) timeouts=$(count timeout) ooms=$(count oom)
  printf '%-12s %12s %10s %8s %6s %9s %5s\n' "$target" "${executions:-?}" "${rate:-?}" \
    "$crashes" "$leaks" "$timeouts" "$ooms"
  if ((crashes + leaks + timeouts + ooms > 0 || status != 0)); then
    found=1
    echo "  see $log" >&2
  fi
done
echo "run_fuzzers: logs and finds in $out"
exit "$found"
