#!/usr/bin/env bash
# The main job: installs what is missing, builds, renders the demo headless on the default
# backend (Vulkan, falling back to OpenGL) and writes novem-demo.png. Arguments go to novem-demo
# (--backend NAME, --frames N, --size WxH, --out FILE.png).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
exec "${BUILD_DIR:-$root/build}/bin/novem-demo" "$@"
