// Windows: an HWND is an SDL_Window* (SDL2), reached through the program's own SDL (sdl.hpp).
// The window turned into the native handles the plugins take (nv_window: X11's Display* and
// Window; docs/contract.md, "Windows"), its size, full screen and what makes a full-screen device
// lost, SDL's cursor.
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

// Where the window is and its size, in screen coordinates: what leave_fullscreen gives back.
struct WindowPlace {
  int x = 0, y = 0, width = 0, height = 0;
};
WindowPlace window_place(HWND hwnd);
// Makes the window full-screen on SDL's display 0 in its mode number `sdl_mode` (-1: the mode SDL
// has), the display changing mode; false (with one line logged) when SDL refuses. Without a
// window manager (x11.hpp) the window is also put over the display.
bool enter_fullscreen(HWND hwnd, int sdl_mode);
// Leaves full screen (the display's desktop mode back) and gives the window its place back.
void leave_fullscreen(HWND hwnd, const WindowPlace &place);
// What loses a full-screen device: its window minimised or hidden, or no SDL window of the program
// having the keyboard focus (another program is the active one, which Windows' D3D9 watches
// through the application's activation). `known` false when SDL cannot be asked.
struct WindowState {
  bool known = false;
  bool minimized = false;
  bool program_active = false;
};
WindowState window_state(HWND hwnd);

// The SDL cursor of the process: an ARGB image (32-bit words, 0xAARRGGBB, width * height) with
// its hotspot, shown or hidden. False when SDL is not in the process.
bool set_window_cursor(const uint32_t *argb, UINT width, UINT height, UINT hotspot_x, UINT hotspot_y);
bool show_window_cursor(bool show);
// Puts SDL's default cursor back in place of the one set_window_cursor made (after Reset).
void reset_window_cursor();
// Moves the pointer to (x, y) in the window's client area.
void warp_window_cursor(HWND hwnd, int x, int y);

} // namespace novem
