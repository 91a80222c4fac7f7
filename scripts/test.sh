#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test with ctest. Vulkan runs have
# VK_LAYER_KHRONOS_validation on; the scene tests require both the Vulkan and OpenGL backends
# (set NOVEM_TEST_REQUIRE_BACKENDS= to let them skip a backend that cannot start).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
export NOVEM_TEST_REQUIRE_BACKENDS=${NOVEM_TEST_REQUIRE_BACKENDS-vulkan,opengl}
cd "${BUILD_DIR:-$root/build}"
exec ctest --output-on-failure -j "$(nproc)" "$@"
