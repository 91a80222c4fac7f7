// What Novem's headless sample programs share: their command line (--backend, --frames, --size,
// --out) and writing the frame last shown as a PNG through GetFrontBufferData. Plain D3D9 and the
// image library; nothing here knows about Novem's internals.
#pragma once

#include <d3d9.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "novem/image.hpp"

namespace novem::headless {

struct Options {
  std::string out;
  int frames;
  UINT width, height;
};

// Prints why and the usage line; returns 2, the exit status for a bad command line.
inline int usage(const char *tool, const char *why) {
  std::fprintf(stderr, "%s: %s\nusage: %s [--backend NAME|PATH] [--frames N] [--size WxH] [--out FILE.png]\n", tool,
               why, tool);
  return 2;
}

// Reads the options into `o` (which holds the defaults). Returns -1 to go on, or the exit status
// (0 for --help, whose line is `what`). --backend sets NOVEM_BACKEND.
inline int parse(const char *tool, const char *what, int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--backend") {
      const char *v = value();
      if (!v) return usage(tool, "--backend needs a value");
      setenv("NOVEM_BACKEND", v, 1);
    } else if (arg == "--frames") {
      const char *v = value();
      if (!v || (o.frames = std::atoi(v)) <= 0) return usage(tool, "--frames needs a positive number");
    } else if (arg == "--size") {
      const char *v = value();
      if (!v || std::sscanf(v, "%ux%u", &o.width, &o.height) != 2 || !o.width || !o.height)
        return usage(tool, "--size needs WxH");
    } else if (arg == "--out") {
      const char *v = value();
      if (!v) return usage(tool, "--out needs a file name");
      o.out = v;
    } else if (arg == "--help" || arg == "-h") {
      usage(tool, what);
      return 0;
    } else {
      return usage(tool, ("unknown argument " + arg).c_str());
    }
  }
  return -1;
}

// Reads what the last Present showed (GetFrontBufferData: width x height on Novem, the back
// buffer's size) and writes it to `path` as a PNG with opaque alpha: the frame as a screenshot
// would have it, NOVEM_HUD's panel included. False, with one line on stderr, when a call or the
// file fails.
inline bool write_front_buffer(const char *tool, IDirect3DDevice9 *device, UINT width, UINT height,
                               const std::string &path) {
  IDirect3DSurface9 *readback = nullptr;
  HRESULT hr = device->CreateOffscreenPlainSurface(width, height, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &readback, nullptr);
  if (SUCCEEDED(hr)) hr = device->GetFrontBufferData(0, readback);
  D3DLOCKED_RECT locked{};
  if (SUCCEEDED(hr)) hr = readback->LockRect(&locked, nullptr, D3DLOCK_READONLY);
  novem::image::Image image;
  if (SUCCEEDED(hr)) {
    image = novem::image::from_bgra8(locked.pBits, width, height, size_t(locked.Pitch), true);
    readback->UnlockRect();
  }
  if (readback) readback->Release();
  if (FAILED(hr)) {
    std::fprintf(stderr, "%s: reading the front buffer failed: 0x%08x\n", tool, unsigned(hr));
    return false;
  }
  std::string error;
  if (!novem::image::write_png(path, image, &error)) {
    std::fprintf(stderr, "%s: %s\n", tool, error.c_str());
    return false;
  }
  return true;
}

} // namespace novem::headless
