// X11 as the program has it (libX11, which SDL loads for its X11 windows): what Novem does itself
// where no window manager runs (a bare X server, Xvfb), since full screen is a request to the
// window manager (_NET_WM_STATE_FULLSCREEN) that nothing else honours. The frontend never links
// X11; its functions are found in the process (dlopen with RTLD_NOLOAD).
#pragma once

namespace novem {

// True when a window manager announces itself on the display's default screen
// (_NET_SUPPORTING_WM_CHECK on the root window); false too when libX11 cannot be asked.
bool x11_window_manager_running(void *display);

// Moves and sizes `window` as a window manager would (XMoveResizeWindow).
void x11_place_window(void *display, unsigned long window, int x, int y, int width, int height);

} // namespace novem
