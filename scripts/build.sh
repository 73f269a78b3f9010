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
cp src/js/*.mjs src/js/*.d.ts "$dist/lib/"
cp "$wasm/seqorder_core.mjs" "$wasm/seqorder_core.wasm" "$dist/lib/"
cp -r web/. "$dist/site/"
cp -r "$dist/lib" "$dist/site/lib"
echo "built $dist/lib (the package) and $dist/site (the lesson page)"
