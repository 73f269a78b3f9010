#!/usr/bin/env bash
# npm run build: the WebAssembly module, then the package (dist/lib) and the static lesson page (dist/site).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-wasm.sh
rm -rf dist/lib dist/site
mkdir -p dist/lib dist/site
cp src/js/*.mjs src/js/*.d.ts dist/lib/
cp build-wasm/seqorder_core.mjs build-wasm/seqorder_core.wasm dist/lib/
cp -r web/. dist/site/
cp -r dist/lib dist/site/lib
echo "built dist/lib (the package) and dist/site (the lesson page)"
