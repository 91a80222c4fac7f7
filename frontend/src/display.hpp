// The adapter's display: the modes EnumAdapterModes lists, GetAdapterDisplayMode answers and a
// full-screen back buffer must be. SDL's display 0 where the program's SDL video is up (its
// display modes, SDL_GetDisplayMode), else Novem's virtual display: one 1920x1080 mode at 60 Hz
// (docs/d3d9-behaviour.md, "Presentation and the virtual display").
#pragma once

#include <vector>

#include <d3d9.h>

namespace novem {

struct DisplayMode {
  D3DDISPLAYMODE mode;
  int sdl_mode = -1; // the SDL mode number it is on display 0 (-1: the virtual display's)
};

// The display's modes of a display format (X8R8G8B8, R5G6B5, X1R5G5B5, A2R10G10B10; nothing for
// other formats), progressive, by width, height and refresh rate, as Windows orders them (and
// as DXVK notes games rely on).
std::vector<DisplayMode> display_modes(D3DFORMAT format);

// The display's mode now (a full-screen device's while one holds it).
D3DDISPLAYMODE current_display_mode();

// The display format a full-screen back buffer of `format` needs (X8R8G8B8 for A8R8G8B8 too,
// X1R5G5B5 for A1R5G5B5), D3DFMT_UNKNOWN for a format no display shows.
D3DFORMAT display_format_of(D3DFORMAT back_buffer_format);

// The mode a full-screen device of width x height in `format` at `refresh_rate` (0: the mode's
// default, its highest) takes; false when the display has none.
bool find_display_mode(UINT width, UINT height, UINT refresh_rate, D3DFORMAT format, DisplayMode &out);

// The checks CreateDevice and Reset make on full-screen presentation parameters (one line logged
// on refusal): a back-buffer format of a display format the display has modes of
// (D3DERR_NOTAVAILABLE otherwise; D3DERR_INVALIDCALL for UNKNOWN and other formats), a size and
// rate that are one of its modes (D3DERR_INVALIDCALL otherwise, as Windows: Wine's test_reset).
HRESULT check_fullscreen_mode(const char *call, const D3DPRESENT_PARAMETERS &pp);

} // namespace novem
