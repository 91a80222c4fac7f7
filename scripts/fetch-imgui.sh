#!/usr/bin/env bash
# Fetches the Dear ImGui sources that Debian's libimgui-dev does not ship but tools/imgui-demo
# compiles unchanged: backends/imgui_impl_dx9.cpp/.h (the Direct3D 9 renderer) and imgui_demo.cpp.
# They come from Debian's source package of the same version (1.86), checked against the
# sha256 in its signed .dsc, and are unpacked into a cache folder outside git:
#   ${NOVEM_IMGUI_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/novem/imgui-1.86}
# CMake looks there (NOVEM_IMGUI_SOURCE_DIR, see tools/imgui-demo/README.md). Idempotent: does
# nothing when the files are already there.
set -euo pipefail
version=1.86
url="http://deb.debian.org/debian/pool/main/i/imgui/imgui_${version}+ds.orig.tar.xz"
sha256=0dace0e8e57d298eb6e93af12dc19420cb96330832f6495c733b90aeeef11f64
dest=${NOVEM_IMGUI_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/novem/imgui-$version}
files=(backends/imgui_impl_dx9.cpp backends/imgui_impl_dx9.h imgui_demo.cpp)

have_all=1
for f in "${files[@]}"; do [ -f "$dest/$f" ] || have_all=0; done
[ $have_all -eq 1 ] && exit 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "fetch-imgui: downloading $url"
curl -fsSL --retry 3 -o "$tmp/imgui.tar.xz" "$url"
echo "$sha256  $tmp/imgui.tar.xz" | sha256sum -c --quiet -
top=imgui-$version # the archive's top folder
tar -xJf "$tmp/imgui.tar.xz" -C "$tmp" "${files[@]/#/$top/}"
mkdir -p "$dest/backends"
for f in "${files[@]}"; do install -m 0644 "$tmp/$top/$f" "$dest/$f"; done
echo "fetch-imgui: $dest"
