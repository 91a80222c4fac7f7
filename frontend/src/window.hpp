// Windows: an HWND is an SDL_Window* (SDL2). The frontend never links SDL: it finds SDL's
// functions in the process that made the window (dlopen with RTLD_NOLOAD, else the global
// symbols) and turns the window into the native handles the plugins take (nv_window: X11's
// Display* and Window). See docs/contract.md ("Windows").
#pragma once

#include <d3d9.h>

#include "novem/commands.h"

namespace novem {

// The native window of an SDL window; false (with one line logged, naming `call`) when hwnd is not
// an SDL window of a system Novem presents to (X11), or SDL is not in the process.
bool native_window(HWND hwnd, const char *call, nv_window &out);

// Where the window's client area is on the screen; false when it cannot be asked.
bool window_position(HWND hwnd, int &x, int &y);

// The window's client area in pixels; false when it cannot be asked.
bool window_client_size(HWND hwnd, UINT &width, UINT &height);

// The SDL cursor of the process: an ARGB image (32-bit words, 0xAARRGGBB, width * height) with
// its hotspot, shown or hidden. False when SDL is not in the process.
bool set_window_cursor(const uint32_t *argb, UINT width, UINT height, UINT hotspot_x, UINT hotspot_y);
bool show_window_cursor(bool show);
// Puts SDL's default cursor back in place of the one set_window_cursor made (after Reset).
void reset_window_cursor();
// Moves the pointer to (x, y) in the window's client area.
void warp_window_cursor(HWND hwnd, int x, int y);

} // namespace novem
