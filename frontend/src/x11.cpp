#include "x11.hpp"

#include <dlfcn.h>

#include <mutex>

namespace novem {

namespace {

// Xlib's types as far as these calls go: Display * is void *, Window and Atom are XIDs.
using XID = unsigned long;
struct X11 {
  XID (*InternAtom)(void *, const char *, int) = nullptr;
  XID (*DefaultRootWindow)(void *) = nullptr;
  int (*GetWindowProperty)(void *, XID, XID, long, long, int, XID, XID *, int *, unsigned long *, unsigned long *,
                           unsigned char **) = nullptr;
  int (*Free)(void *) = nullptr;
  int (*MoveResizeWindow)(void *, XID, int, int, unsigned, unsigned) = nullptr;
  int (*Flush)(void *) = nullptr;
  bool ok = false;
};

template <class Fn> void find(void *lib, const char *name, Fn &fn) { fn = reinterpret_cast<Fn>(dlsym(lib, name)); }

const X11 &x11() {
  static X11 x;
  static std::once_flag once;
  std::call_once(once, [] {
    void *lib = dlopen("libX11.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (!lib) return;
    find(lib, "XInternAtom", x.InternAtom);
    find(lib, "XDefaultRootWindow", x.DefaultRootWindow);
    find(lib, "XGetWindowProperty", x.GetWindowProperty);
    find(lib, "XFree", x.Free);
    find(lib, "XMoveResizeWindow", x.MoveResizeWindow);
    find(lib, "XFlush", x.Flush);
    x.ok = x.InternAtom && x.DefaultRootWindow && x.GetWindowProperty && x.Free && x.MoveResizeWindow && x.Flush;
  });
  return x;
}

} // namespace

bool x11_window_manager_running(void *display) {
  const X11 &x = x11();
  if (!x.ok || !display) return false;
  const XID check = x.InternAtom(display, "_NET_SUPPORTING_WM_CHECK", 1 /* only if it exists */);
  if (!check) return false;
  XID type = 0;
  int format = 0;
  unsigned long items = 0, after = 0;
  unsigned char *data = nullptr;
  constexpr XID kAnyPropertyType = 0;
  const int status = x.GetWindowProperty(display, x.DefaultRootWindow(display), check, 0, 1, 0, kAnyPropertyType,
                                         &type, &format, &items, &after, &data);
  if (data) x.Free(data);
  return status == 0 /* Success */ && items > 0;
}

void x11_place_window(void *display, unsigned long window, int x, int y, int width, int height) {
  const X11 &lib = x11();
  if (!lib.ok || !display || width <= 0 || height <= 0) return;
  lib.MoveResizeWindow(display, window, x, y, unsigned(width), unsigned(height));
  lib.Flush(display);
}

} // namespace novem
