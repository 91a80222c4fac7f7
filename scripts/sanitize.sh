#!/usr/bin/env bash
# The sanitizer job: builds the frontend, the ring and the null plugin with AddressSanitizer and
# UndefinedBehaviorSanitizer in build-asan/ and runs the tests that need no GPU driver (the
# drivers themselves are not built with sanitizers, so their runs would only report them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-asan
"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DNOVEM_WERROR=ON \
    -DNOVEM_SANITIZE=address,undefined
fi
cmake --build "$build" -j "$(nproc)" --target novem-unit-tests novem-frontend-tests novem_null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$build/bin/novem-unit-tests"
# [backends] cases start the real drivers, whose own leaks are not ours to report.
"$build/bin/novem-frontend-tests" "~[backends]"
