#!/usr/bin/env bash
# npm run bench [-- --quick] [-- --only sections] [-- --json path]: installs the benchmark's contenders
# (bench/package.json: onnxruntime-web, tfjs) when they are missing or their lock file changed, then runs bench/run.mjs
# (one thread each) and bench/pool.mjs (the pool of workers against onnxruntime-web's threads; --json is run.mjs's,
# pool.mjs writes bench/results/<machine kind>/pool.json). npm start never installs them.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "bench: installing the contenders (bench/package.json)"
  npm ci --no-audit --no-fund --loglevel=error
fi
cd ..
node bench/run.mjs "$@"
quick=()
only=false
for arg in "$@"; do
  [ "$arg" = --quick ] && quick=(--quick)
  [ "$arg" = --only ] && only=true
done
# --only: some sections of bench/run.mjs, and not the pool's benchmark
"$only" && exit 0
exec node bench/pool.mjs "${quick[@]}"
