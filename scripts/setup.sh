#!/usr/bin/env bash
# Installs what seqorder needs and is missing. On Debian/Ubuntu as root it installs the apt packages itself;
# elsewhere it prints exactly what to install and stops.
#   bash scripts/setup.sh          what `npm start` needs: Emscripten, CMake, a C++ compiler, wabt, the npm dependencies
#   bash scripts/setup.sh --test   also what `npm test` needs: Catch2, Chromium, clang's sanitizers and fuzzer
set -euo pipefail
cd "$(dirname "$0")/.."

need_test=false
[ "${1:-}" = "--test" ] && need_test=true

# "command-or-file package" pairs
# (wabt: wasm-validate checks the rewritten relaxed-SIMD module in the build, CMake's SEQORDER_RELAXED)
wanted=("em++ emscripten" "cmake cmake" "g++ g++" "make make" "wasm-validate wabt")
if $need_test; then
  wanted+=("/usr/include/catch2/catch.hpp catch2" "chromium chromium" "clang++-14 clang-14"
           "/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev"
           "cppcheck cppcheck" "clang-tidy-14 clang-tidy-14")
fi

missing=()
for pair in "${wanted[@]}"; do
  thing=${pair% *}
  package=${pair#* }
  if [[ $thing == /* ]]; then
    [ -e "$thing" ] || missing+=("$package")
  else
    command -v "$thing" >/dev/null 2>&1 || missing+=("$package")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "seqorder setup: installing ${missing[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # with recommends: Chromium then brings its fonts, as on the machines this was tested on
    apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "seqorder setup: missing packages: ${missing[*]}"
    echo "  On Debian/Ubuntu: sudo apt-get install -y ${missing[*]}"
    echo "  Elsewhere: Emscripten 3.1.6 or later (emsdk), CMake >= 3.20, a C++20 compiler$($need_test && echo ", Catch2 v2, Chromium, clang 14 with compiler-rt")."
    exit 1
  fi
fi

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "seqorder setup: node >= 20 is required (found $(node --version 2>/dev/null || echo none))"
  exit 1
fi

# npm dependencies (dev tools only: the package itself has none). Reinstall when the lock file changed.
if [ ! -f package-lock.json ]; then
  npm install --no-audit --no-fund --loglevel=error
elif [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
