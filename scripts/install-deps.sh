#!/usr/bin/env bash
# Installs, from Debian 12's packages, everything Novem needs to build, run and test.
# Idempotent and quiet when nothing is missing: it asks dpkg first and calls apt-get only for
# what is absent, so a warm machine spends no time here.
set -euo pipefail

packages=(
  # toolchain; clang and its runtime for the libFuzzer target
  cmake ninja-build g++ ccache pkg-config clang libclang-rt-14-dev
  # Vulkan: loader, headers, registry (vk.xml), lavapipe, validation layers, tools for the layer tests
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  # OpenGL through EGL surfaceless: llvmpipe, the GL/EGL headers, the Khronos gl.xml registry
  libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri libgbm1 khronos-api
  # SPIR-V: headers for the emitter, SPIRV-Tools for validation, SPIRV-Cross for GLSL
  spirv-headers spirv-tools libspirv-cross-c-shared-dev
  # generators, tests, images
  libpugixml-dev catch2 libpng-dev zlib1g-dev
  # D3D9 headers are reused from mingw-w64; the mingw-w64 compiler builds novem-bench for Windows
  mingw-w64-common g++-mingw-w64-x86-64
  # a real D3D9 client: Dear ImGui's Direct3D 9 renderer and demo (tools/imgui-demo, tests/imgui)
  libimgui-dev
  # programs nobody here wrote, under the layer and against other D3D9 implementations:
  # vkcube needs an X server (Xvfb); novem-bench runs under Wine's wined3d for comparison
  xvfb xauth wine64
  # real windows (HWND = SDL_Window*): SDL2 for the window tests and novem-demo --window; xcb
  # for the Vulkan plugin's VK_KHR_xcb_surface, Xlib for the GL plugin's EGL X11 surfaces and
  # the tests' XGetImage
  libsdl2-dev libx11-dev libxcb1-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

