#!/usr/bin/env bash
# Installs the build into a fresh prefix and uses it as an outsider would:
#  - builds each plugin on its own against the installed NovemBackend CMake package;
#  - builds a D3D9 program with `pkg-config --cflags --libs novem-d3d9` and runs it on every
#    backend: the pixels must be the ones D3D9 defines, and identical across backends;
#  - builds the same program with CMake's find_package(NovemD3D9) (target Novem::d3d9) and runs it;
#  - NOVEM_BACKEND=nonsense must give one line and a failed CreateDevice, not a crash.
# Usage: check_install.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
work=$build/install-check
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >/dev/null
echo "installed into $prefix"

for plugin in null vulkan opengl; do
  cmake -G Ninja -S "$src/plugins/$plugin" -B "$work/plugin-$plugin" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$work/plugin-$plugin" >/dev/null
  echo "plugin $plugin builds on its own against the installed package"
done

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
libdir=$(pkg-config --variable=libdir novem-d3d9)
[ -f "$libdir/libnovem_d3d9.so" ] || { echo "no libnovem_d3d9.so in $libdir"; exit 1; }
c++ -std=c++17 -Wall -Werror -o "$work/hello_d3d9" "$src/tests/install/hello_d3d9.cpp" $(pkg-config --cflags --libs novem-d3d9)
echo "hello_d3d9 built with pkg-config"
cmake -G Ninja -S "$src/tests/install/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
echo "hello_d3d9 built with find_package(NovemD3D9)"

# The installed plugins are found in the installed plugin directory, not the build tree.
expected="pixel(4,4)=ff00ff00 pixel(28,28)=ffff0000"
for program in "$work/hello_d3d9" "$work/consumer/hello_d3d9"; do
  for backend in vulkan opengl; do
    out=$(env -u NOVEM_PLUGIN_PATH NOVEM_BACKEND=$backend "$program")
    echo "$program on $backend: $out"
    [ "$out" = "$expected" ] || { echo "expected: $expected"; exit 1; }
  done
done

set +e
err=$(NOVEM_BACKEND=nonsense "$work/hello_d3d9" 2>&1 >/dev/null)
status=$?
set -e
echo "nonsense: exit $status, stderr: $err"
[ $status -eq 1 ] || { echo "expected a failed CreateDevice (exit 1)"; exit 1; }
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { echo "expected exactly one line on stderr"; exit 1; }
echo "install check passed"
