#!/usr/bin/env bash
# Regenerates BENCHMARKS.md: builds Release if needed, runs each area's
# benchmark and writes one section per area (intro, command, machine, commit
# and date, tables) from the runs' outputs (bench/format_benchmarks.py).
# Run it on an otherwise idle machine; progress goes to stderr.
#
#   bench/run_all.sh [--quick] [--only AREA[,AREA…]] [--out FILE] [--fuzz]
#                    [--baseline COMMIT] [--container]
#
#   --quick   short runs (a smoke test; its figures mean nothing); needs --out
#   --only    these areas only; the other sections of FILE are kept as they are
#   --out     the file to write (default the repository's BENCHMARKS.md)
#   --no-build  use the binaries as they are (ctest's check of this script)
#   --fuzz    also rerun the fuzzing campaign (1 000 000 executions per target,
#             about 35 min); without it the fuzz section is kept from FILE
#   --baseline COMMIT  also rerun the A/B of `moreau sim` against COMMIT's
#             build (built once into build-baseline-SHA/, about 15 min; the ab
#             area); without it the ab section is kept from FILE
#   --container  also rerun the container area (deploy/container/measure.sh:
#             the image built from nothing, about 20 min, then the rollout in
#             and out of the container); without it its section is kept
#
# A full run without --fuzz takes about 15 min, 10 of them the soak test.
#
# Areas: engine steps ab max_dt ladder stand_slip a1 chains control service viewers
# python container vs_mujoco soak fuzz. Environment: BUILD_DIR (default build), FUZZ_BUILD_DIR
# (default build-fuzz), JOBS (build parallelism, default nproc).
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."
root=$PWD

all_areas=(engine steps ab max_dt ladder stand_slip a1 chains control service viewers python container
  vs_mujoco soak fuzz)
quick=0 fuzz=0 container=0 only="" out="" no_build=0 baseline=""
while (($#)); do
  case "$1" in
    --quick) quick=1; shift ;;
    --fuzz) fuzz=1; shift ;;
    --container) container=1; shift ;;
    --no-build) no_build=1; shift ;;
    --only) only="$2"; shift 2 ;;
    --baseline) baseline="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "run_all: unknown argument $1" >&2; exit 2 ;;
  esac
done
if ((quick)) && [[ -z "$out" ]]; then
  echo "run_all: --quick writes figures that mean nothing: give --out FILE" >&2
  exit 2
fi
if [[ -n "$out" && "$out" != /* ]]; then out="$caller/$out"; fi  # relative to the caller
out="${out:-$root/BENCHMARKS.md}"
if ((quick)) && [[ "$(realpath -m "$out")" == "$root/BENCHMARKS.md" ]]; then
  echo "run_all: --quick never writes the repository's BENCHMARKS.md" >&2
  exit 2
fi
build="${BUILD_DIR:-build}"
fuzz_build="${FUZZ_BUILD_DIR:-build-fuzz}"
jobs="${JOBS:-$(nproc)}"
py=/usr/bin/python3
fmt="$root/bench/format_benchmarks.py"

areas=()
if [[ -n "$only" ]]; then
  IFS=, read -r -a areas <<<"$only"
  for a in "${areas[@]}"; do
    [[ " ${all_areas[*]} " == *" $a "* ]] || { echo "run_all: unknown area $a" >&2; exit 2; }
  done
else
  areas=("${all_areas[@]}")
fi
# The sections to write, in the file's order, and which of them run now.
declare -A run
for a in "${areas[@]}"; do run[$a]=1; done
if ((!fuzz)) && [[ -n "${run[fuzz]:-}" && -z "$only" ]]; then unset 'run[fuzz]'; fi
if ((!container)) && [[ -n "${run[container]:-}" && -z "$only" ]]; then unset 'run[container]'; fi
if [[ -n "${run[ab]:-}" && -z "$baseline" ]]; then
  if [[ -n "$only" ]]; then echo "run_all: the ab area needs --baseline COMMIT" >&2; exit 2; fi
  unset 'run[ab]'
fi

t0=$SECONDS
log() { printf '[run_all %4ds] %s\n' "$((SECONDS - t0))" "$*" >&2; }

work="$(mktemp -d /tmp/moreau-bench.XXXXXX)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# ---- build ------------------------------------------------------------------------------------
targets=()
for a in "${!run[@]}"; do
  case "$a" in
    engine) targets+=(dynamics_bench step_bench) ;;
    steps|ab|max_dt|ladder|stand_slip|a1) targets+=(moreau) ;;
    chains) targets+=(sim_four_bar_test sim_biped_contact_test) ;;
    control) targets+=(moreau_control_bench) ;;
    service) targets+=(moreaud moreau_loadgen) ;;
    viewers) targets+=(moreaud) ;;
    python) targets+=(moreaud moreau_loadgen moreau_python moreau_local) ;;
    container) targets+=(moreaud moreau moreau_python) ;;
    soak) targets+=(moreaud moreau_soak) ;;
  esac
done
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  log "configuring $build (Release)"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
if [[ "$build_type" != Release ]]; then
  echo "run_all: $build is a $build_type build; benchmarks need Release" >&2
  exit 2
fi
have_mujoco=0
if grep -q '^MUJOCO_LIBRARY:FILEPATH=/' "$build/CMakeCache.txt"; then
  have_mujoco=1
  [[ -z "${run[vs_mujoco]:-}" ]] || targets+=(moreau_vs_mujoco)
fi
if ((${#targets[@]} && !no_build)); then
  log "building ${targets[*]}"
  cmake --build "$build" --parallel "$jobs" --target "${targets[@]}" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; exit 1; }
fi
if [[ -n "${run[fuzz]:-}" ]] && ((!no_build)); then
  if [[ ! -f "$fuzz_build/CMakeCache.txt" ]]; then
    log "configuring $fuzz_build (clang, sanitizers)"
    cmake -S . -B "$fuzz_build" -G Ninja -DMOREAU_FUZZ=ON -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
  fi
  log "building the fuzz targets"
  cmake --build "$fuzz_build" --parallel "$jobs" --target moreau_fuzzers >"$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; exit 1; }
fi

# ---- what every section states ---------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
machine="$cpu, $(nproc) cores, $(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo \
  | awk '{printf "%.0f GB", $1 / 1048576}'), $(uname -sr)"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "unknown (not a git checkout)")
if [[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]]; then commit+="+dirty"; fi
arch=$(sed -n 's/^MOREAU_ARCH_FLAGS:[A-Z]*=//p' "$build/CMakeCache.txt")
compiler=$("$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")" --version | head -1)

# ---- one function per area: runs into $raw, sets $cmd (the command line shown) -------------------
B="$build"
q() { ((quick)) && echo "$1" || echo "$2"; }   # q QUICK FULL

area_engine() {
  local extra
  extra=$(q "--benchmark_min_time=0.01" "--benchmark_repetitions=9 --benchmark_report_aggregates_only=true")
  cmd="\`$B/bench/engine/dynamics_bench $extra\` and the same for \`step_bench\`"
  # shellcheck disable=SC2086
  "$B/bench/engine/dynamics_bench" $extra --benchmark_format=json >"$raw/dynamics.json"
  # shellcheck disable=SC2086
  "$B/bench/engine/step_bench" $extra --benchmark_format=json >"$raw/step.json"
}

sim_area() {  # sim_area AREA [extra sim_sweep flags]; $duration: simulated s (default 10)
  local name=$1; shift
  local flags=("$@") seconds
  seconds=$(q 0.5 "${duration:-10}")
  ((quick)) && flags+=(--quick)
  flags+=(--duration "$seconds")
  cmd="\`bench/sim_sweep.py $name ${flags[*]}\` (runs of \`$B/clients/cli/moreau sim … --json\`)"
  "$py" bench/sim_sweep.py "$name" --moreau "$B/clients/cli/moreau" "${flags[@]}" >"$raw/$name.jsonl"
}
area_steps() {
  local pin=()
  (($(nproc) > 1)) && pin=(--pin 1)
  sim_area steps "${pin[@]}"
}
area_ab() {
  local sha dir
  sha=$(git rev-parse --short "$baseline^{commit}") ||
    { echo "run_all: --baseline $baseline is not a commit" >&2; exit 2; }
  dir="$root/build-baseline-$sha"
  if [[ ! -x "$dir/build/clients/cli/moreau" ]]; then
    log "ab: building moreau at $sha into $dir"
    rm -rf "$dir"
    mkdir -p "$dir"
    git archive "$sha" | tar -x -C "$dir"
    cmake -S "$dir" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$dir/build" --parallel "$jobs" --target moreau >"$work/baseline.log" 2>&1 ||
      { cat "$work/baseline.log" >&2; exit 1; }
  fi
  local pin=()
  (($(nproc) > 1)) && pin=(--pin 1)
  # 11 pairs: single pairs on a shared machine spread by ±10 %.
  duration=60 sim_area ab --baseline "${dir#"$root"/}/build/clients/cli/moreau" "${pin[@]}" \
    --repeats "$(q 1 11)"
  cmd+="; baseline: commit $sha"
}
area_max_dt() { sim_area max_dt; }
area_ladder() { sim_area ladder; }
area_stand_slip() { sim_area stand_slip; }
area_a1() { sim_area a1; }

area_chains() {
  cmd="\`$B/tests/unit/sim/sim_four_bar_test\` and \`$B/tests/unit/sim/sim_biped_contact_test\`"
  "$B/tests/unit/sim/sim_four_bar_test" >"$raw/four_bar.txt"
  "$B/tests/unit/sim/sim_biped_contact_test" >"$raw/biped.txt"
}

area_control() {
  local search slip
  search=$(q "--scenarios=ur10 --modes=pd --duration=0.5 --dt_max=0.004 --bisections=1 --repeats=1" "")
  slip="--scenarios=trot --modes=id-constraint --dt_start=0.01 --dt_max=0.01 --bisections=0"
  ((quick)) && slip+=" --duration=1.5 --repeats=1"
  cmd="\`$B/bench/control/moreau_control_bench $search --json FILE\`, then \`… $slip\`"
  # shellcheck disable=SC2086
  "$B/bench/control/moreau_control_bench" $search --json "$raw/search.json" 2>"$raw/search.log"
  # shellcheck disable=SC2086
  "$B/bench/control/moreau_control_bench" $slip --json "$raw/slip.json" 2>"$raw/slip.log"
}

start_server() {  # start_server [moreaud flags]: sets server_pid and address
  "$B/server/moreaud" --host 127.0.0.1 --port 0 --metrics-port -1 "$@" >"$raw/moreaud.log" 2>&1 &
  server_pid=$!
  address=""
  for _ in $(seq 100); do
    address=$(sed -n 's/^moreaud: listening on \([^,]*\),.*/\1/p' "$raw/moreaud.log")
    [[ -n "$address" ]] && return 0
    sleep 0.1
  done
  echo "run_all: moreaud did not start:" >&2
  cat "$raw/moreaud.log" >&2
  exit 1
}
stop_server() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

area_service() {
  local lg="$B/bench/service/moreau_loadgen" calls runs rounds dur
  calls=$(q 200 10000) runs=$(q 1 2) rounds=$(q 1 3) dur=$(q 0.5 4)
  cmd="\`$B/server/moreaud --host 127.0.0.1 --port 0 --metrics-port -1\`;"
  cmd+=" \`moreau_loadgen --json --mode=MODE --calls=$calls --substeps=1\` for floor, bare,"
  cmd+=" health, unary and session, $runs time(s) each; $rounds round(s) of \`--mode=batch"
  cmd+=" --instances=64 --substeps=10 --duration_s=$dur --inflight=1|2"
  cmd+=" [--observation_fields=q,v]\` and \`--mode=inprocess --threads=2\` (same flags)"
  start_server
  for ((r = 1; r <= runs; ++r)); do
    for mode in floor bare health unary session; do
      "$lg" --json --address="$address" --mode=$mode --calls="$calls" --substeps=1 \
        >"$raw/rt_${mode}_$r.json"
    done
  done
  for ((r = 1; r <= rounds; ++r)); do
    # Every observation array, then q and v only (an empty --observation_fields: all).
    for fields in "" q,v; do
      for inflight in 1 2; do
        "$lg" --json --address="$address" --mode=batch --instances=64 --substeps=10 \
          --duration_s="$dur" --inflight=$inflight --observation_fields="$fields" \
          >"$raw/batch_${fields:+qv_}${inflight}_$r.json"
      done
    done
    "$lg" --json --mode=inprocess --instances=64 --substeps=10 --duration_s="$dur" --threads=2 \
      >"$raw/inproc_$r.json"
  done
  stop_server
}

area_viewers() {
  local flags
  flags=$(q "--viewers 1 --instances 1 --rounds 1 --phase-s 1 --warmup-s 0.5 --substeps 10 --max-s 120" \
    "")  # full: its defaults, 8 pages and instances, 3 rounds of 10 s phases
  cmd="\`node clients/web/bench/viewers.js ${flags:+$flags }--moreaud $B/server/moreaud\`"
  local missing=""
  command -v node >/dev/null || missing="node"
  [[ -d clients/web/node_modules && -d clients/js/node_modules ]] ||
    missing="clients/js and clients/web's node_modules (npm ci)"
  [[ -x "${MOREAU_CHROMIUM:-/usr/bin/chromium}" ]] || missing="Chromium"
  (($(nproc) > 1)) || missing="a second core"
  if [[ -n "$missing" ]]; then
    echo "Not run: no $missing on this machine." >"$raw/skipped.txt"
    return
  fi
  # shellcheck disable=SC2086
  node clients/web/bench/viewers.js $flags --moreaud "$(realpath "$B/server/moreaud")" \
    >"$raw/viewers.json" 2>"$raw/viewers.log" || { cat "$raw/viewers.log" >&2; exit 1; }
}

area_python() {
  local envs steps dur rounds
  envs=$(q "1 4" "1 16 64 256") dur=$(q 0.5 4) rounds=$(q 1 3)
  cmd="\`$B/server/moreaud --host 127.0.0.1 --port 0 --metrics-port -1 --workers 2\`;"
  cmd+=" $rounds round(s) for N in ${envs// /, } of \`examples/random_rollout.py --json --policy zero"
  cmd+=" --num-envs N --steps $(q 10 "300 (100 at 256 envs)")$(q " --warmup 2" "")\`, the same"
  cmd+=" with \`--local --workers 2\` (in process) and \`moreau_loadgen --json"
  cmd+=" --mode=inprocess --instances=N --substeps=20 --threads=2 --targets=0,-0.8,1.6"
  cmd+=" --duration_s=$dur\` (last: \`--reset_noise=0.05 --warmup_rounds=$(q 2 20)"
  cmd+=" --rounds=STEPS\`)"
  start_server --workers 2
  local pythonpath
  pythonpath="$root/clients/python:$(cd "$B" && pwd)/clients/python"
  for n in $envs; do
    steps=$(q 10 300)
    ((n >= 256 && !quick)) && steps=100
    # One JSON line per round in each file: the four runs of a round back to back.
    for ((r = 0; r < rounds; r++)); do
      PYTHONPATH="$pythonpath" "$py" examples/random_rollout.py \
        --json --servers "$address" --policy zero --num-envs "$n" --steps "$steps" \
        --warmup "$(q 2 20)" >>"$raw/rollout_$n.json"
      PYTHONPATH="$pythonpath" "$py" examples/random_rollout.py \
        --json --local --workers 2 --policy zero --num-envs "$n" --steps "$steps" \
        --warmup "$(q 2 20)" >>"$raw/local_$n.json"
      "$B/bench/service/moreau_loadgen" --json --mode=inprocess --instances="$n" --substeps=20 \
        --threads=2 --targets=0,-0.8,1.6 --duration_s="$dur" >>"$raw/inproc_$n.json"
      "$B/bench/service/moreau_loadgen" --json --mode=inprocess --instances="$n" --substeps=20 \
        --threads=2 --targets=0,-0.8,1.6 --reset_noise=0.05 --warmup_rounds="$(q 2 20)" \
        --rounds="$steps" >>"$raw/inproc_rollout_$n.json"
    done
  done
  stop_server
}

area_container() {
  local flags=(--rounds "$(q 1 5)" --steps "$(q 10 300)" --num-envs "$(q 4 64)")
  ((quick)) && flags+=(--skip-build)
  cmd="\`deploy/container/measure.sh ${flags[*]}\`"
  BUILD_DIR="$B" bash deploy/container/measure.sh "${flags[@]}" --json "$raw/container.json" \
    >"$raw/measure.txt"
}

area_vs_mujoco() {
  local flags
  flags="--model=models/unitree_a1/a1.urdf "
  # Δt 1 ms only (the ladder area gives every Δt); no drop (its test checks it).
  flags+=$(q "--scenarios=drop --dt=0.001 --duration=0.5 --repeats=1" \
    "--scenarios=stand,trot,limp --dt=0.001 --repeats=3")
  cmd="\`$B/bench/vs_mujoco/moreau_vs_mujoco $flags --plots DIR\`"
  if ((!have_mujoco)); then
    echo "Not run: this build found no MuJoCo (libmujoco-dev), so moreau_vs_mujoco is not built." \
      >"$raw/skipped.txt"
    return
  fi
  # shellcheck disable=SC2086
  "$B/bench/vs_mujoco/moreau_vs_mujoco" $flags --plots "$raw/plots" >"$raw/report.md" \
    2>"$raw/progress.log"
  if ((!quick)) && [[ "$out" == "$root/BENCHMARKS.md" && -f "$raw/plots/trot.png" ]]; then
    cp "$raw/plots/trot.png" bench/vs_mujoco/trot_vs_mujoco.png
    echo bench/vs_mujoco/trot_vs_mujoco.png >"$raw/plot.txt"
  fi
}

area_soak() {
  local dur
  dur=$(q 20 600)
  cmd="\`$B/bench/service/moreau_soak --duration-s $dur\` (server with MALLOC_ARENA_MAX=1)"
  "$B/bench/service/moreau_soak" --duration-s "$dur" >"$raw/soak.txt" 2>"$raw/soak.log" || true
}

area_fuzz() {
  local runs targets=(urdf xml_scan heightfield state service)
  runs=$(q 1000 1000000)
  ((quick)) && targets=(xml_scan)
  # Two groups side by side on a machine with two cores or more (about 30 and
  # 35 min at the rates of earlier runs).
  local groups=("${targets[*]}")
  if ((!quick && $(nproc) > 1)); then groups=("service xml_scan heightfield" "state urdf"); fi
  cmd="\`tests/fuzz/run_fuzzers.sh -runs $runs -build $fuzz_build TARGET…\`, groups side by side:"
  for group in "${groups[@]}"; do cmd+=" [$group]"; done
  local pids=() g=0
  for group in "${groups[@]}"; do
    # shellcheck disable=SC2086
    tests/fuzz/run_fuzzers.sh -runs "$runs" -build "$fuzz_build" -out "$raw/out" $group \
      >"$raw/fuzz_$g.txt" 2>"$raw/fuzz_$g.log" &
    pids+=($!)
    g=$((g + 1))
  done
  for pid in "${pids[@]}"; do wait "$pid" || true; done
  cat "$raw"/fuzz_*.txt >"$raw/fuzz.txt"
  for t in "${targets[@]}"; do
    echo "$t $(find "$raw/out/$t/corpus" -type f | wc -l)"
  done >"$raw/corpus.tsv"
}

# ---- run and assemble -------------------------------------------------------------------------
old="$work/old.md"
if [[ -f "$out" ]]; then cp "$out" "$old"; else : >"$old"; fi
new="$work/new.md"
{
  echo "# Benchmarks"
  echo
  echo "By \`bench/run_all.sh\` (\`--help\`), each section at the commit its Commit line names;"
  echo "earlier figures in git history."
  echo "Build: \`$build\`, Release, \`$arch\`, $compiler."
  echo
} >"$new"
for a in "${all_areas[@]}"; do
  if [[ -z "${run[$a]:-}" ]]; then
    # A kept section's Commit line says when it ran; the areas only a flag
    # reruns also say which flag.
    note=""
    if [[ "$a" == fuzz ]]; then note="not rerun at $commit (\`--fuzz\` reruns it)"; fi
    if [[ "$a" == ab ]]; then note="not rerun at $commit (\`--baseline COMMIT\` reruns it)"; fi
    if [[ "$a" == container ]]; then note="not rerun at $commit (\`--container\` reruns it)"; fi
    "$py" "$fmt" keep "$a" "$old" --note "$note" >>"$new" || log "$a: no earlier section to keep"
    continue
  fi
  raw="$work/$a"
  mkdir -p "$raw"
  start=$SECONDS
  log "$a: running"
  date_now=$(date -u '+%Y-%m-%d %H:%M UTC')
  load=$(cut -d' ' -f1 /proc/loadavg)
  cmd=""
  "area_$a"
  log "$a: done in $((SECONDS - start)) s"
  "$py" "$fmt" section "$a" "$raw" --command "$cmd" \
    --machine "$machine; load average $load at the start" \
    --commit "$commit" --date "$date_now, $((SECONDS - start)) s" >>"$new"
done
size=$(wc -c <"$new")
cp "$new" "$out"
log "wrote $out ($size bytes)"
# Every section with its command, machine, commit, date and a table of
# numbers, and the file under 25 KB.
"$py" "$fmt" check "$out" --areas "$(IFS=,; echo "${!run[*]}")" --max-bytes 25000
