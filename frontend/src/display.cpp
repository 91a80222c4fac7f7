#include "display.hpp"

#include <algorithm>
#include <tuple>

#include "log.hpp"
#include "sdl.hpp"

namespace novem {

namespace {

// A headless machine (or a program without SDL video) has no display; Novem answers for one
// virtual 1920x1080 display at 60 Hz, the mode GetRasterStatus's beam follows.
constexpr D3DDISPLAYMODE kVirtualMode = {1920, 1080, 60, D3DFMT_X8R8G8B8};

// SDL knows no refresh rate for some displays (Xvfb's): such a mode is reported at the virtual
// display's 60 Hz, which Novem's vertical-blank timing follows, rather than 0 (programs divide by it).
UINT refresh_of(const SdlDisplayMode &m) { return m.refresh_rate > 0 ? UINT(m.refresh_rate) : kVirtualMode.RefreshRate; }

// The D3D9 display format of an SDL pixel format (SDL_PIXELFORMAT_*: bits per pixel in bits
// 8..15, the packed layout in bits 16..19); UNKNOWN for formats no D3D9 display has.
D3DFORMAT format_of(uint32_t sdl_format) {
  const uint32_t bits = (sdl_format >> 8) & 0xFF, layout = (sdl_format >> 16) & 0x0F;
  constexpr uint32_t kLayout1555 = 3, kLayout565 = 5, kLayout2101010 = 7; // SDL_PACKEDLAYOUT_*
  if (layout == kLayout2101010) return D3DFMT_A2R10G10B10;
  if (bits >= 24) return D3DFMT_X8R8G8B8;
  if (layout == kLayout565) return D3DFMT_R5G6B5;
  if (layout == kLayout1555) return D3DFMT_X1R5G5B5;
  return D3DFMT_UNKNOWN;
}

bool is_display_format(D3DFORMAT f) {
  return f == D3DFMT_X8R8G8B8 || f == D3DFMT_R5G6B5 || f == D3DFMT_X1R5G5B5 || f == D3DFMT_A2R10G10B10;
}

// Every mode of `format`, one per size and rate. A 32-bit mode is a 16-bit (R5G6B5) one too:
// Windows 8 and later emulate 16-bit colour for D3D9 programs (as Wine lists 16-bit modes), and a
// 16-bit back buffer is shown in a 32-bit window by the plugins' blit.
void add_modes(D3DFORMAT format, std::vector<DisplayMode> &out) {
  if (!sdl_video()) {
    if (format == D3DFMT_X8R8G8B8 || format == D3DFMT_R5G6B5) {
      D3DDISPLAYMODE m = kVirtualMode;
      m.Format = format;
      out.push_back(DisplayMode{m, -1});
    }
    return;
  }
  const Sdl &s = sdl();
  const int count = s.GetNumDisplayModes(0);
  for (int i = 0; i < count; ++i) {
    SdlDisplayMode m{};
    if (s.GetDisplayMode(0, i, &m) != 0 || m.w <= 0 || m.h <= 0) continue;
    const D3DFORMAT f = format_of(m.format);
    if (f != format && !(format == D3DFMT_R5G6B5 && f == D3DFMT_X8R8G8B8)) continue;
    const D3DDISPLAYMODE mode{UINT(m.w), UINT(m.h), refresh_of(m), format};
    const bool listed = std::any_of(out.begin(), out.end(), [&](const DisplayMode &d) {
      return d.mode.Width == mode.Width && d.mode.Height == mode.Height && d.mode.RefreshRate == mode.RefreshRate;
    });
    if (!listed) out.push_back(DisplayMode{mode, i});
  }
}

} // namespace

std::vector<DisplayMode> display_modes(D3DFORMAT format) {
  std::vector<DisplayMode> modes;
  if (!is_display_format(format)) return modes;
  add_modes(format, modes);
  std::sort(modes.begin(), modes.end(), [](const DisplayMode &a, const DisplayMode &b) {
    return std::tie(a.mode.Width, a.mode.Height, a.mode.RefreshRate) <
           std::tie(b.mode.Width, b.mode.Height, b.mode.RefreshRate);
  });
  return modes;
}

// SDL's current mode of display 0 (changed while a full-screen window holds another), else its
// desktop mode; in the display format of its pixels.
D3DDISPLAYMODE current_display_mode() {
  const Sdl &s = sdl();
  SdlDisplayMode m{};
  if (sdl_video() && ((s.GetCurrentDisplayMode && s.GetCurrentDisplayMode(0, &m) == 0) ||
                      (s.GetDesktopDisplayMode && s.GetDesktopDisplayMode(0, &m) == 0)) &&
      m.w > 0 && m.h > 0) {
    const D3DFORMAT f = format_of(m.format);
    return D3DDISPLAYMODE{UINT(m.w), UINT(m.h), refresh_of(m), f == D3DFMT_UNKNOWN ? D3DFMT_X8R8G8B8 : f};
  }
  return kVirtualMode;
}

D3DFORMAT display_format_of(D3DFORMAT back_buffer_format) {
  switch (back_buffer_format) {
  case D3DFMT_X8R8G8B8: case D3DFMT_A8R8G8B8: return D3DFMT_X8R8G8B8;
  case D3DFMT_X1R5G5B5: case D3DFMT_A1R5G5B5: return D3DFMT_X1R5G5B5;
  case D3DFMT_R5G6B5: return D3DFMT_R5G6B5;
  case D3DFMT_A2R10G10B10: return D3DFMT_A2R10G10B10;
  default: return D3DFMT_UNKNOWN;
  }
}

bool find_display_mode(UINT width, UINT height, UINT refresh_rate, D3DFORMAT format, DisplayMode &out) {
  bool found = false;
  for (const DisplayMode &m : display_modes(format)) { // by rate: the last of a size is its highest
    if (m.mode.Width != width || m.mode.Height != height) continue;
    if (refresh_rate != 0 && m.mode.RefreshRate != refresh_rate) continue;
    out = m;
    found = true;
  }
  return found;
}

HRESULT check_fullscreen_mode(const char *call, const D3DPRESENT_PARAMETERS &pp) {
  const D3DFORMAT display = display_format_of(pp.BackBufferFormat);
  if (display == D3DFMT_UNKNOWN) {
    log_warn("%s: a full-screen back buffer needs a display's format (X8R8G8B8, A8R8G8B8, R5G6B5, ...), not %u",
              call, unsigned(pp.BackBufferFormat));
    return D3DERR_INVALIDCALL;
  }
  if (display_modes(display).empty()) {
    log_warn("%s: the display has no modes of format %u for a full-screen back buffer", call, unsigned(display));
    return D3DERR_NOTAVAILABLE;
  }
  DisplayMode mode;
  if (!find_display_mode(pp.BackBufferWidth, pp.BackBufferHeight, pp.FullScreen_RefreshRateInHz, display, mode)) {
    log_warn("%s: %ux%u at %u Hz is not a display mode; full-screen back buffers take one EnumAdapterModes lists",
              call, pp.BackBufferWidth, pp.BackBufferHeight, pp.FullScreen_RefreshRateInHz);
    return D3DERR_INVALIDCALL;
  }
  return D3D_OK;
}

} // namespace novem
