#!/usr/bin/env bash
# npm run build: the WebAssembly module, then the package ($SEQORDER_DIST/lib, default dist/lib) and the static lesson
# page ($SEQORDER_DIST/site): a self-contained folder that any static server (or none: see README) can serve.
set -euo pipefail
cd "$(dirname "$0")/.."
wasm=${SEQORDER_BUILD_WASM:-build-wasm}
dist=${SEQORDER_DIST:-dist}
bash scripts/build-wasm.sh
rm -rf "$dist/lib" "$dist/site"
mkdir -p "$dist/lib" "$dist/site"
# The modules go in lib/seqorder/: load.mjs looks for them there (see packagedUrl).
mkdir -p "$dist/lib/seqorder"
cp src/js/*.mjs src/js/*.cjs src/js/*.d.ts "$dist/lib/"
cp -r src/js/pool "$dist/lib/pool"  # the pool, its worker in pool/seqorder/ (see workerStarter in pool/index.mjs)
cp src/js/seqorder.d.ts "$dist/lib/seqorder.d.cts"  # the same declarations, for require() under TypeScript's node16+
cp -r src/figures "$dist/lib/figures"  # seqorder/plot, seqorder/checks and their stylesheet (package.json's exports)
cp "$wasm/seqorder_core.mjs" "$dist/lib/"
cp "$wasm/seqorder_core.wasm" "$wasm/seqorder_kernel.wasm" "$dist/lib/seqorder/"
# The opt-in relaxed-SIMD module (CMake's SEQORDER_RELAXED) shares the default build's JS glue: check that it may.
if [ -f "$wasm/seqorder_core_relaxed.wasm" ]; then
  if ! sed 's/seqorder_core_relaxed_prestandard\.wasm/seqorder_core.wasm/g' "$wasm/seqorder_core_relaxed_prestandard.mjs" |
       cmp -s - "$wasm/seqorder_core.mjs"; then
    echo "build: the relaxed module's JS glue differs from the default one's; it cannot share seqorder_core.mjs" >&2
    exit 1
  fi
  cp "$wasm/seqorder_core_relaxed.wasm" "$wasm/seqorder_kernel_relaxed.wasm" "$dist/lib/seqorder/"
fi
cp -r web/. "$dist/site/"
cp -r "$dist/lib" "$dist/site/lib"
echo "built $dist/lib (the package) and $dist/site (the lesson page)"
