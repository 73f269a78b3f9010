#!/usr/bin/env bash
# Installs what seqorder needs and is missing. On Debian/Ubuntu as root it installs the packages itself; elsewhere it
# prints exactly what to install and stops.
#   bash scripts/setup.sh          what `npm start` needs: Emscripten, CMake, a C++ compiler, wabt, and package.json's
#                                  devDependencies (TypeDoc writes the documentation the site serves; the package and
#                                  the page themselves need no npm package).
#   bash scripts/setup.sh --test   also what `npm test` needs: Catch2, the three browser engines (Chromium, Firefox ESR,
#                                  WebKitGTK's WebDriver with its MiniBrowser, and Xvfb for it), clang's sanitizers,
#                                  fuzzer runtime and clang-tidy, and the package layer's npm packages
#                                  (tests/package/package.json: the bundlers the package is tried with).
set -euo pipefail
cd "$(dirname "$0")/.."

need_test=false
[ "${1:-}" = "--test" ] && need_test=true

# "command-or-file package" pairs
# (wabt: wasm-validate checks the rewritten relaxed-SIMD module in the build, CMake's SEQORDER_RELAXED)
wanted=("em++ emscripten" "cmake cmake" "g++ g++" "make make" "wasm-validate wabt")
if $need_test; then
  wanted+=("/usr/include/catch2/catch.hpp catch2" "chromium chromium" "firefox-esr firefox-esr"
           "WebKitWebDriver webkit2gtk-driver" "Xvfb xvfb" "clang++-14 clang-14"
           "/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev"
           "clang-tidy-14 clang-tidy-14")
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
    echo "  Elsewhere: Emscripten 3.1.6 or later (emsdk), CMake >= 3.20, a C++20 compiler, wabt$($need_test && echo ", Catch2 v2, Chromium, Firefox ESR, WebKitGTK's WebKitWebDriver, Xvfb, clang 14 with compiler-rt and clang-tidy")."
    exit 1
  fi
fi

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "seqorder setup: node >= 20 is required (found $(node --version 2>/dev/null || echo none))"
  exit 1
fi

# npm packages (the build's and the test layers'), (re)installed when missing or when their lock file changed.
install_npm() {
  local dir=$1
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "seqorder setup: npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}
install_npm .
if $need_test; then
  install_npm tests/package
fi
