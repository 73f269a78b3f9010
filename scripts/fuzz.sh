#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with ASan + UBSan) and runs each for a while on its committed seed corpus.
#
#   bash scripts/fuzz.sh [--seconds N] [--build-only] [--merge] [TARGET...]
#     --seconds N   time per target (default 60); every run first replays the whole corpus
#     --build-only  build, run nothing
#     --merge       after the runs, minimize what they found into the committed corpus fuzz/corpus/TARGET
#     TARGET        positions, embed, learned_positions, add_positions, attention, model (default: all)
#   SEQORDER_BUILD_FUZZ  build dir (default build-fuzz); new inputs accumulate in its corpus/TARGET, a crash lands in
#                        its artifacts/TARGET/ with the command that replays it.
#
# Prints one line per target (executions, exec/s, coverage cov: and features ft:, corpus size, findings) and a TAP
# summary (# pass / # fail) for scripts/test.sh. Exits 1 when any target finds a crash, a leak, UB, a timeout or a
# broken invariant.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=60
build_only=0
merge=0
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --seconds=*) seconds=${1#*=}; shift ;;
    --build-only) build_only=1; shift ;;
    --merge) merge=1; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(positions embed learned_positions add_positions attention model)
dir=${SEQORDER_BUILD_FUZZ:-build-fuzz}

cxx=${SEQORDER_FUZZ_CXX:-}
if [ -z "$cxx" ]; then
  for candidate in clang++-14 clang++; do
    if command -v "$candidate" >/dev/null; then cxx=$candidate; break; fi
  done
fi
if [ -z "$cxx" ]; then
  echo "fuzz.sh: no clang++ (libFuzzer needs clang: apt-get install -y clang-14 or emscripten, which brings it)" >&2
  exit 1
fi
if [ ! -f "$dir/CMakeCache.txt" ]; then
  CXX=$cxx cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSEQORDER_FUZZ=ON >/dev/null || exit 1
fi
cmake --build "$dir" -j2 >"$dir/build.log" 2>&1 || { cat "$dir/build.log"; echo "fuzz.sh: build failed" >&2; exit 1; }
[ "$build_only" -eq 1 ] && { echo "built the fuzz targets in $dir"; exit 0; }

passed=0
failed=0
printf '%-18s %8s %12s %9s %6s %7s %8s  %s\n' target seconds executions exec/s cov ft corpus result
for t in "${targets[@]}"; do
  seeds=fuzz/corpus/$t
  work=$dir/corpus/$t
  artifacts=$dir/artifacts/$t/
  mkdir -p "$seeds" "$work" "$artifacts"
  log=$dir/$t.log
  bin=$dir/fuzz/fuzz_$t  # where the main build puts the targets (fuzz/CMakeLists.txt)
  # rss/malloc limits: the targets keep every tensor small, so any allocation past 2 GiB is a finding (a size check
  # that let a huge request through); -timeout flags a hang or a quadratic blow-up.
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts" "$work" "$seeds" >"$log" 2>&1
  rc=$?
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1)
  last_line=$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -n 1)
  stats=${done_line:-$last_line}
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
  rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$stats")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$stats")
  corp=$(sed -nE 's/.* corp: ([0-9]+)\/.*/\1/p' <<<"$stats")
  if [ "$rc" -eq 0 ]; then
    result="ok: no findings"
    passed=$((passed + 1))
  else
    artifact=$(ls -t "$artifacts" 2>/dev/null | head -n 1)
    result="FINDING (exit $rc): $artifacts$artifact; replay: $bin $artifacts$artifact"
    failed=$((failed + 1))
  fi
  printf '%-18s %8s %12s %9s %6s %7s %8s  %s\n' "$t" "$seconds" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result"
  if [ "$rc" -ne 0 ]; then
    # The report: the sanitizer's or the invariant's message and the top of the stack.
    grep -E -A 12 'INVARIANT BROKEN|ERROR: (Address|UndefinedBehavior|LeakSanitizer|libFuzzer)|runtime error|out-of-memory|timeout' "$log" | head -n 30
  fi
  if [ "$merge" -eq 1 ] && [ "$rc" -eq 0 ]; then
    # Keep the committed corpus small: only inputs that add coverage to it.
    "$bin" -merge=1 "$seeds" "$work" >"$dir/$t.merge.log" 2>&1 &&
      echo "  merged into $seeds: $(ls "$seeds" | wc -l) files"
  fi
done
echo "# pass $passed"
echo "# fail $failed"
[ "$failed" -eq 0 ]
