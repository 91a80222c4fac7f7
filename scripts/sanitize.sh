#!/usr/bin/env bash
# The sanitizer job: builds the frontend, the ring, the plugins and the queue diagnostics layer
# with AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/, runs the tests that need no
# GPU driver, then every scene on Vulkan (lavapipe, under the validation layer) and OpenGL
# (llvmpipe), then the layer's tests. The drivers are not built with sanitizers and leak at exit,
# so the runs that load them look for leaks not at all; they still stop at the first invalid
# access or undefined behaviour in Novem's code.
# Then ThreadSanitizer in build-tsan/, over the tests that need no GPU driver: the command ring,
# the null plugin's submission thread, devices used from several threads, the layer's lock-free
# structures and clock. (Not over the real drivers: their threads are not instrumented, so TSan
# would see their synchronisation as races.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# ccache hits across clones of the tree (CI builds a fresh clone elsewhere): paths under the root
# are hashed relative to it, and the build directory is left out of the hash.
export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1
build=$root/build-asan
"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DNOVEM_WERROR=ON \
    -DNOVEM_SANITIZE=address,undefined
fi
cmake --build "$build" -j "$(nproc)" --target novem-unit-tests novem-frontend-tests novem-scene-tests novem_null \
  novem_vulkan novem_opengl VkLayer_novem_queue_diagnostics novem-queue-workload novem_test_icd novem-icd-workload \
  test_layer_queue_diagnostics test_layer_sync test_layer_clock
# allocator_may_return_null: an allocation past what the host has throws bad_alloc, as without the
# sanitizer (the tests of out-of-memory answers make such requests).
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$build/bin/novem-unit-tests" "~[drivers]"
# [drivers] unit cases start a real driver: run for invalid accesses, not for the driver's leaks.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 "$build/bin/novem-unit-tests" "[drivers]"
# [backends] cases start the real drivers, whose own leaks are not ours to report.
"$build/bin/novem-frontend-tests" "~[backends]"
# Both backends must be there (a scene skips a missing one otherwise), and the output must hold
# none of what fails a ctest run (tests/CMakeLists.txt, NOVEM_TEST_FAIL_OUTPUT).
log=$build/scene-tests.log
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 NOVEM_BUILD_DIR="$build" NOVEM_TEST_REQUIRE_BACKENDS=vulkan,opengl \
  "$build/bin/novem-scene-tests" 2>&1 | tee "$log" | tail -n 3
fail=$(sed -n 's/.*set(NOVEM_TEST_FAIL_OUTPUT "\(.*\)").*/\1/p' "$root/tests/CMakeLists.txt")
if [ -z "$fail" ]; then echo "sanitize.sh: NOVEM_TEST_FAIL_OUTPUT not found in tests/CMakeLists.txt" >&2; exit 1; fi
if grep -Eq "$fail" "$log"; then
  grep -E "$fail" "$log" | head -n 5 >&2
  exit 1
fi
# The queue diagnostics layer: its own structures and clock (leaks checked), then the layer loaded
# into the sanitized workloads on lavapipe and on the test ICD (the drivers' leaks not ours; the
# cases that need an unsanitized program, vkcube and vulkaninfo, skip themselves).
"$build/bin/test_layer_sync"
"$build/bin/test_layer_clock"
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 "$build/bin/test_layer_queue_diagnostics"

tsan=$root/build-tsan
if [ ! -f "$tsan/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$tsan" -DCMAKE_BUILD_TYPE=Debug -DNOVEM_WERROR=ON -DNOVEM_SANITIZE=thread
fi
cmake --build "$tsan" -j "$(nproc)" --target novem-unit-tests novem-frontend-tests novem_null test_layer_sync \
  test_layer_clock
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
"$tsan/bin/novem-unit-tests"
"$tsan/bin/novem-frontend-tests" "~[backends]"
"$tsan/bin/test_layer_sync"
"$tsan/bin/test_layer_clock"
