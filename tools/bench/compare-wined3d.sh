#!/usr/bin/env bash
# Novem against Wine's wined3d, same program, same machine, same run (issue 6):
#  1. builds tools/bench/bench.cpp unchanged with mingw-w64 against Windows' d3d9.h
#     (x86_64-w64-mingw32-g++, static, linked with Wine's d3d9 import library),
#  2. makes a Wine prefix once (build/wineprefix-bench),
#  3. runs the Linux novem-bench under Xvfb with --wined3d, so that the Windows build runs under
#     wine64 (wined3d on GL, llvmpipe here) as one more child, and the table ends with the ratios.
# Usage: tools/bench/compare-wined3d.sh [novem-bench options...]   (e.g. --frames 100 --ablation)
# Needs: a built build/bin/novem-bench (BUILD_DIR to use another build), x86_64-w64-mingw32-g++,
# wine64 (Debian: /usr/lib/wine/wine64), xvfb-run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
bench=$build/bin/novem-bench
[ -x "$bench" ] || { echo "compare-wined3d: build novem-bench first (cmake --build $build --target novem-bench)" >&2; exit 1; }
wine=$(command -v wine64 || true)
[ -n "$wine" ] || wine=/usr/lib/wine/wine64
[ -x "$wine" ] || { echo "compare-wined3d: wine64 not found" >&2; exit 1; }

exe=$build/bench-win/novem-bench.exe
mkdir -p "$build/bench-win"
x86_64-w64-mingw32-g++ -O2 -std=c++20 -Wall -Wextra -Werror -I"$root/backends/include" \
  "$root/tools/bench/bench.cpp" -o "$exe" -ld3d9 -static

export WINEPREFIX=$build/wineprefix-bench WINEDEBUG=-all
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  echo "compare-wined3d: creating the Wine prefix $WINEPREFIX (once)" >&2
  xvfb-run -a "$wine" wineboot -i >/dev/null 2>&1 || true
fi

# One X server for the whole run: Novem's children are headless, the wined3d child draws through it.
exec xvfb-run -a -s "-screen 0 1024x768x24" "$bench" --wined3d "$wine $(printf '%q' "$exe")" "$@"
