#!/usr/bin/env bash
# Builds the WebAssembly module (build-wasm/seqorder_core.mjs + .wasm) with Emscripten.
set -euo pipefail
cd "$(dirname "$0")/.."
# Emscripten 3.1.6 from Debian needs Debian's acorn at link time (TOOLCHAIN.md, quirk 1).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
if [ ! -f build-wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build-wasm -j2
