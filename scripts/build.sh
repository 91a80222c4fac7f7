#!/usr/bin/env bash
# Configures (once) and builds Novem in build/ with Ninja and ccache. Extra arguments go to the
# first configure, e.g. -DNOVEM_SANITIZE=address,undefined (use another BUILD_DIR for that).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOVEM_WERROR=ON "$@"
fi
cmake --build "$build" -j "$(nproc)"
