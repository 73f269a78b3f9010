#!/usr/bin/env bash
# npm start: set up what is missing, build, and serve the lesson page on http://127.0.0.1:${PORT:-8080}/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
# --isolated: the pages are cross-origin isolated, so their clock (performance.now()) is as fine as the browser allows
# (docs/browsers.md)
exec node scripts/serve.mjs dist/site --isolated
