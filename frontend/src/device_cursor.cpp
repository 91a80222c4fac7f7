// The cursor and the dialog-box mode. On a device with an SDL window the cursor image becomes
// SDL's cursor (an operating-system cursor, as Windows uses in windowed mode); a headless device
// keeps the state and answers from it.
#include <atomic>
#include <cstring>
#include <vector>

#include "device.hpp"
#include "direct3d9.hpp"
#include "log.hpp"
#include "surface.hpp"
#include "window.hpp"

namespace novem {

// As documented for SetCursorProperties: a D3DFMT_A8R8G8B8 surface, each side a power of two
// smaller than the display mode (GetAdapterDisplayMode's), the hot spot inside the image.
HRESULT Device::SetCursorProperties(UINT hotspot_x, UINT hotspot_y, IDirect3DSurface9 *bitmap_iface) {
  auto *bitmap = known_object<Surface>(bitmap_iface);
  if (!bitmap) return D3DERR_INVALIDCALL;
  const D3DSURFACE_DESC &d = bitmap->desc();
  D3DDISPLAYMODE mode{};
  parent_->GetAdapterDisplayMode(0, &mode);
  auto power_of_two = [](UINT v) { return v && !(v & (v - 1)); };
  if (d.Format != D3DFMT_A8R8G8B8 || !power_of_two(d.Width) || !power_of_two(d.Height) || d.Width >= mode.Width ||
      d.Height >= mode.Height || hotspot_x >= d.Width || hotspot_y >= d.Height)
    return D3DERR_INVALIDCALL;
  // The texels, 0xAARRGGBB words row by row: from a render target by readback, from a
  // system-memory or scratch surface directly.
  std::vector<uint32_t> argb(size_t(d.Width) * d.Height);
  const size_t row = size_t(d.Width) * 4;
  if (bitmap->has_image() && d.MultiSampleType == D3DMULTISAMPLE_NONE) {
    if (HRESULT hr = read_surface(*bitmap); FAILED(hr)) return hr; // its level and face
    std::memcpy(argb.data(), commands().channel().readback, argb.size() * 4);
  } else if (!bitmap->has_image() && bitmap->memory()) {
    for (UINT y = 0; y < d.Height; ++y) std::memcpy(&argb[y * d.Width], bitmap->memory() + size_t(y) * bitmap->pitch(), row);
  } else {
    static std::atomic<bool> once{false};
    log_unimplemented(once, "SetCursorProperties from a texture level that is not a render target");
    return D3DERR_INVALIDCALL;
  }
  if (device_window_ && !set_window_cursor(argb.data(), d.Width, d.Height, hotspot_x, hotspot_y))
    log_warn("SetCursorProperties: SDL could not make a cursor of the image");
  cursor_set_ = true;
  return D3D_OK;
}

// x, y: in the device window's client area (Windows takes screen coordinates; an X11 window's
// place on the screen is the window manager's). Headless: nothing to move.
void Device::SetCursorPosition(int x, int y, DWORD) {
  if (device_window_ && cursor_visible_) warp_window_cursor(device_window_, x, y);
}

// Returns the visibility before the call, as Windows. The SDL cursor is shown only once an image
// was set (before that Windows shows nothing of Direct3D's either).
WINBOOL Device::ShowCursor(WINBOOL show) {
  const bool was = cursor_visible_;
  cursor_visible_ = show != FALSE;
  if (device_window_ && cursor_set_) show_window_cursor(cursor_visible_);
  return was ? TRUE : FALSE;
}

// As documented: refused unless the back buffer is GDI-compatible (X1R5G5B5, R5G6B5, X8R8G8B8),
// not multisampled, D3DSWAPEFFECT_DISCARD and D3DPRESENTFLAG_LOCKABLE_BACKBUFFER, the device is
// not an adapter-group device, and no scene is open. It changes nothing for windowed devices,
// which are all Novem makes, so a valid call does nothing (D3D9 has no getter for it).
HRESULT Device::SetDialogBoxMode(WINBOOL enable) {
  const D3DPRESENT_PARAMETERS &pp = present_parameters_;
  const bool gdi_format = pp.BackBufferFormat == D3DFMT_X1R5G5B5 || pp.BackBufferFormat == D3DFMT_R5G6B5 ||
                          pp.BackBufferFormat == D3DFMT_X8R8G8B8;
  if (enable && (!gdi_format || pp.MultiSampleType != D3DMULTISAMPLE_NONE || pp.SwapEffect != D3DSWAPEFFECT_DISCARD ||
                 !(pp.Flags & D3DPRESENTFLAG_LOCKABLE_BACKBUFFER) ||
                 (creation_.BehaviorFlags & D3DCREATE_ADAPTERGROUP_DEVICE) || in_scene_))
    return D3DERR_INVALIDCALL;
  return D3D_OK;
}

} // namespace novem
