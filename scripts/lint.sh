#!/usr/bin/env bash
# clang-tidy (checks in .clang-tidy, every warning an error) on every C++ file of src/: the core with the native
# build's compile commands ($SEQORDER_BUILD_TIDY, default build-tidy/), the binding with Emscripten's own flags.
# Two files at a time. Prints "# pass 1" / "# fail 1" for scripts/test.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${SEQORDER_BUILD_TIDY:-build-tidy}
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
if [ -z "$tidy" ]; then
  echo "lint.sh: clang-tidy not found (apt-get install -y clang-tidy-14)" >&2
  echo "# fail 1"
  exit 1
fi
cmake -S . -B "$dir" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DBUILD_TESTING=OFF >/dev/null || exit 1
status=0
quiet() { grep -vE '^[0-9]+ warnings? generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter|NOLINT|^$' >&2 || true; }
# the core: plain C++20, as the native build compiles it
printf '%s\n' src/core/*.cpp src/core/calls/*.cpp src/core/model/*.cpp | xargs -P 2 -n 1 "$tidy" --quiet -p "$dir" 2> >(quiet) || status=1
# the binding: as em++ compiles it (its -mllvm options are for the backend, not the parser), seeing the core's public
# headers alone (src/core/api/), as its CMake targets do
if command -v em++ >/dev/null; then
  flags=$(em++ --cflags 2>/dev/null | sed -E 's/-mllvm [^ ]+//g; s/-fignore-exceptions//')
  # shellcheck disable=SC2086
  "$tidy" --quiet src/bindings/*.cpp -- $flags -fexceptions -std=c++20 -Isrc/core/api 2> >(quiet) || status=1
else
  echo "lint.sh: em++ not found, the binding was not checked" >&2
  status=1
fi
if [ "$status" -eq 0 ]; then
  echo "clang-tidy: src/ is clean"
  echo "# pass 1"
else
  echo "# fail 1"
fi
exit "$status"
