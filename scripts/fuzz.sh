#!/usr/bin/env bash
# Fuzzes the shader parser and translator, then the capture file reader, each for a bounded time
# (seconds, default 30) with libFuzzer, ASan and UBSan, starting from the assembled shader corpus
# and from a small capture.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1 # cache hits across clones (build.sh says why)
build=$root/build-fuzz
seconds=${1:-30}
"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -G Ninja -S "$root/tests/fuzz" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$build" -j "$(nproc)"
rm -rf "$build/corpus" && mkdir -p "$build/corpus"
"$build/novem-fuzz-seed" "$build/corpus" "$root"/tests/shader/d3d9/corpus/*.asm "$root"/tests/shader/translate/corpus/*.asm
cd "$build"
./novem-fuzz-shader -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 corpus 2>&1 |
  grep -E "^(#|Done|stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|SUMMARY" | tail -n 6
rm -rf capture-corpus && mkdir -p capture-corpus
./novem-fuzz-capture-seed capture-corpus/seed.nvcap
./novem-fuzz-capture -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 capture-corpus 2>&1 |
  grep -E "^(#|Done|stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|SUMMARY" | tail -n 6
echo "fuzz: no crash in ${seconds} s per target"
