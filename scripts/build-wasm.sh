#!/usr/bin/env bash
# Builds the WebAssembly module ($SEQORDER_BUILD_WASM, default build-wasm/: seqorder_core.mjs + .wasm) with Emscripten.
# Arguments, if any, are CMake options for the folder (bench/lab-worker.mjs --without-simd: -DSEQORDER_SIMD=OFF ...).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${SEQORDER_BUILD_WASM:-build-wasm}
# Emscripten 3.1.6 from Debian needs Debian's acorn at link time (docs/emscripten.md, 1).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
if [ ! -f "$dir/CMakeCache.txt" ] || [ $# -gt 0 ]; then
  emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
fi
cmake --build "$dir" -j2
