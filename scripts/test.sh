#!/usr/bin/env bash
# npm test: installs what the tests need (scripts/setup.sh --test: on Debian/Ubuntu as root it installs the packages,
# elsewhere it says what to install), then runs every test layer, in order. Each layer's output is kept in
# $SEQORDER_TEST_LOGS (default build-logs/); a layer that runs past $SEQORDER_LAYER_MINUTES (default 30) is stopped
# and fails, so nothing can hang.
#   1. build      the WebAssembly module, dist/lib and dist/site
#   2. native     Catch2 suite of the C++ core (CTest), against numpy fixtures
#   2b. sanitize  the same suite under AddressSanitizer + UndefinedBehaviorSanitizer (build-sanitize/)
#   2c. lint      clang-tidy on src/ (.clang-tidy; every warning an error)
#   3. node       node --test on the built package through its public API
#   4. browser    dist/site in Chromium, Firefox ESR and WebKitGTK (tests/browser/helpers/engines; $SEQORDER_BROWSERS
#                 chooses): every data-check passes, determinism, relaxed SIMD, bench.html, the pool; and in
#                 Chromium, the tests that need its request interception (hardening, a11y, plots, controls, training)
#   5. fuzz       every libFuzzer target (fuzz/) for $SEQORDER_FUZZ_SECONDS s each (default 5; CI sets 60)
#   6. package    npm pack, installed in new projects: node ESM and require, tsc on typed examples, Vite (dev server
#                 and build), webpack, esbuild, Rollup, a static folder and a module worker, each run in Chromium
# The last line sums the tests of every layer: "seqorder: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
if ! bash scripts/setup.sh --test; then
  echo "seqorder: the test setup failed (above: what is missing); no test ran"
  exit 1
fi
logs=${SEQORDER_TEST_LOGS:-build-logs}
limit=$((${SEQORDER_LAYER_MINUTES:-30} * 60))
mkdir -p "$logs"
passed=0
failed=0
status=0

# run_layer NAME COMMAND...: runs the command, shows its output, adds its counts.
run_layer() {
  local name=$1
  shift
  echo "=== $name: $*"
  local log="$logs/$name.log"
  # (a layer given as a shell function runs in a bash of its own, so that `timeout` can stop it)
  if [ "$(type -t "$1")" = function ]; then set -- bash -c "$1"; fi
  timeout --kill-after=30 "$limit" "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 124 ] && echo "=== $name: stopped after ${limit} s" | tee -a "$log"
  local p f
  # node --test: "# pass N" / "# fail N" / "# cancelled N" (a test whose before hook failed: an engine that did not
  # start, say); ctest: "N% tests passed, F tests failed out of T"
  p=$(grep -E '^# pass [0-9]+' "$log" | awk '{s+=$3} END {print s+0}')
  f=$(grep -E '^# (fail|cancelled) [0-9]+' "$log" | awk '{s+=$3} END {print s+0}')
  if grep -qE 'tests failed out of [0-9]+' "$log"; then
    local line
    line=$(grep -E 'tests failed out of [0-9]+' "$log" | tail -n 1)
    local total fails
    total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
    fails=$(sed -E 's/.* ([0-9]+) tests failed.*/\1/' <<<"$line")
    p=$((p + total - fails))
    f=$((f + fails))
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$rc" -ne 0 ]; then
    echo "=== $name FAILED (exit $rc)"
    status=1
    [ "$f" -gt 0 ] || failed=$((failed + 1))
  fi
}

native_tests() {
  local dir=${SEQORDER_BUILD_NATIVE:-build-native}
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build "$dir" -j2 &&
    ctest --test-dir "$dir" --output-on-failure -j2
}

# The same Catch2 suite built with AddressSanitizer + UndefinedBehaviorSanitizer (clang when present, -O1): any
# overrun, leak or UB fails the layer, and a finding stops the test that made it.
sanitize_tests() {
  local dir=${SEQORDER_BUILD_SANITIZE:-build-sanitize}
  local cxx
  cxx=$(command -v clang++-14 || command -v clang++ || command -v g++)
  CXX=$cxx cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DSEQORDER_SANITIZE=ON >/dev/null &&
    cmake --build "$dir" -j2 &&
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --test-dir "$dir" --output-on-failure -j2 \
      -E '^model training:'  # 800 Adam steps x 5 models take minutes under ASan; the other model tests cover that code
}

export -f native_tests sanitize_tests
run_layer build bash scripts/build.sh
if [ "$status" -ne 0 ]; then
  echo "seqorder: $passed passed, $failed failed"
  exit 1
fi
run_layer native native_tests
run_layer sanitize sanitize_tests
run_layer lint bash scripts/lint.sh
run_layer node node --test --test-reporter=tap tests/node/
# a test that hangs (a browser that stopped answering) fails after 15 minutes, not the whole layer's 30; tests that
# need longer say so themselves
run_layer browser node --test --test-reporter=tap --test-timeout=900000 tests/browser/
run_layer fuzz bash scripts/fuzz.sh --seconds "${SEQORDER_FUZZ_SECONDS:-5}"
run_layer package node --test --test-reporter=tap tests/package/

echo "seqorder: $passed passed, $failed failed"
exit "$status"
