#!/usr/bin/env bash
# Configures (once) and builds Novem in build/ with Ninja and ccache. Extra arguments go to the
# first configure, e.g. -DNOVEM_SANITIZE=address,undefined (use another BUILD_DIR for that).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# ccache hits across clones of the tree (CI builds a fresh clone elsewhere): paths under the root
# are hashed relative to it, and the build directory is left out of the hash.
export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1
build=${BUILD_DIR:-$root/build}
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOVEM_WERROR=ON "$@"
fi
cmake --build "$build" -j "$(nproc)"
