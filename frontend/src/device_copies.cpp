// Copies between surfaces: StretchRect (BLIT_IMAGE, colour and depth-stencil), ColorFill
// (FILL_IMAGE), and the two readbacks, GetRenderTargetData and GetFrontBufferData (READ_IMAGE,
// then a wait: readback is one of the few reasons to wait for the plugin).
#include <algorithm>
#include <atomic>
#include <cstring>

#include "device.hpp"
#include "direct3d9.hpp"
#include "log.hpp"
#include "math.hpp"
#include "surface.hpp"
#include "texture.hpp"
#include "window.hpp"

namespace novem {

namespace {

// RECT (NULL: the whole surface) to nv_rect; false when empty or outside the surface.
bool surface_rect(const RECT *r, const D3DSURFACE_DESC &d, nv_rect &out) {
  if (!r) {
    out = nv_rect{0, 0, int32_t(d.Width), int32_t(d.Height)};
    return true;
  }
  if (r->left < 0 || r->top < 0 || r->left >= r->right || r->top >= r->bottom || r->right > LONG(d.Width) ||
      r->bottom > LONG(d.Height))
    return false;
  out = nv_rect{int32_t(r->left), int32_t(r->top), int32_t(r->right - r->left), int32_t(r->bottom - r->top)};
  return true;
}

// What a surface is in D3D9's StretchRect tables.
enum class SurfaceKind { Texture, RenderTarget, Plain, DepthStencil };

SurfaceKind kind_of(const Surface &s) {
  const DWORD usage = s.desc().Usage;
  if (usage & D3DUSAGE_DEPTHSTENCIL) return SurfaceKind::DepthStencil;
  if (usage & D3DUSAGE_RENDERTARGET) return SurfaceKind::RenderTarget; // render-target surfaces and texture levels
  return s.texture() ? SurfaceKind::Texture : SurfaceKind::Plain;
}

// One texel of a back buffer's storage (its little-endian bytes: B8G8R8A8, R5G6B5, B5G5R5A1 or
// B10G10R10A2, the storages of D3D9's six back-buffer formats) as A8R8G8B8's bytes B, G, R, A; a
// channel of n bits widens by repeating its high bits, so that all ones stays 0xFF.
void front_texel_to_a8r8g8b8(uint32_t storage, const uint8_t *in, uint8_t *out) {
  auto widen = [](uint32_t v, int bits) { return uint8_t(bits >= 8 ? v >> (bits - 8) : (v << (8 - bits)) | (v >> (2 * bits - 8))); };
  const uint32_t p = storage == NV_FORMAT_R5G6B5_UNORM || storage == NV_FORMAT_B5G5R5A1_UNORM
                         ? uint32_t(in[0] | in[1] << 8)
                         : uint32_t(in[0] | in[1] << 8 | in[2] << 16 | uint32_t(in[3]) << 24);
  switch (storage) {
  case NV_FORMAT_R5G6B5_UNORM:
    out[0] = widen(p & 31, 5), out[1] = widen((p >> 5) & 63, 6), out[2] = widen(p >> 11, 5), out[3] = 0xFF;
    return;
  case NV_FORMAT_B5G5R5A1_UNORM:
    out[0] = widen(p & 31, 5), out[1] = widen((p >> 5) & 31, 5), out[2] = widen((p >> 10) & 31, 5);
    out[3] = (p >> 15) ? 0xFF : 0;
    return;
  case NV_FORMAT_B10G10R10A2_UNORM:
    out[0] = widen(p & 1023, 10), out[1] = widen((p >> 10) & 1023, 10), out[2] = widen((p >> 20) & 1023, 10);
    out[3] = uint8_t((p >> 30) * 0x55);
    return;
  default: std::memcpy(out, in, 4); return; // B8G8R8A8: A8R8G8B8's own bytes
  }
}

} // namespace

// A surface's backend image, level and face: a render target, or a level (of a face) of a texture.
Device::ImageLevel Device::image_level(const Surface &s) {
  if (s.texture()) return {s.texture()->image(), s.level(), s.layer()};
  return {s.image(), 0, 0};
}

// A copy or fill into level 0 of an AUTOGENMIPMAP texture: its sub-levels follow (Windows
// regenerates them before the texture is next sampled).
void Device::regenerate_mips(const Surface &written) {
  if (written.texture() && written.level() == 0) written.texture()->store().generate_mips();
}

// Copies src_rect of `from` into dst_rect of `to` through a temporary image of the source
// rectangle's size: a copy within one image (the plugins blit between two), or a multisampled
// source that is resolved first and then scaled.
void Device::blit_through_scratch(ImageLevel from, nv_rect src_rect, ImageLevel to, nv_rect dst_rect, uint32_t storage,
                                  uint32_t filter) {
  CommandStream &cs = commands();
  const uint32_t scratch = cs.new_handle();
  const nv_rect whole{0, 0, src_rect.width, src_rect.height};
  cs.push(nv_cmd_create_image{scratch, storage, uint32_t(src_rect.width), uint32_t(src_rect.height),
                                                  NV_IMAGE_RENDER_TARGET, 1, NV_IMAGE_TYPE_2D, 1, 1});
  cs.push(nv_cmd_blit_image{from.image, from.level, src_rect, scratch, 0, whole, NV_FILTER_POINT, from.layer, 0});
  cs.push(nv_cmd_blit_image{scratch, 0, whole, to.image, to.level, dst_rect, filter, 0, to.layer});
  // Ordered after the blits; the plugin keeps the image until they have run.
  cs.push(nv_cmd_destroy_image{scratch});
}

// D3D9's rules (the StretchRect remarks' tables for Direct3D 9 drivers, which have
// D3DDEVCAPS2_CAN_STRETCHRECT_FROM_TEXTURES):
//  - both surfaces in D3DPOOL_DEFAULT, of one storage format (no conversion);
//  - sources: render targets (surfaces, the back buffer, render-target texture levels), DEFAULT
//    offscreen plain surfaces and levels of other DEFAULT 2D textures; destinations: render
//    targets, and offscreen plain surfaces from offscreen plain surfaces; never a non-target
//    texture;
//  - no stretching within one surface nor into a plain surface; a copy within one surface may
//    overlap (it goes through a temporary image, so the source is read whole before writing);
//  - rectangles (NULL: the whole surface) inside their surfaces and not empty;
//  - filter NONE, POINT or LINEAR (StretchRectFilterCaps); NONE copies as POINT;
//  - a multisampled source resolves (then scales); a multisampled destination is refused.
// Narrower than Windows: DXTn surfaces are refused, and YUY2/UYVY only go into render targets of
// the RGB format they are converted to (B8G8R8A8: A8R8G8B8, X8R8G8B8).
HRESULT Device::StretchRect(IDirect3DSurface9 *src_iface, const RECT *src_rect, IDirect3DSurface9 *dst_iface,
                            const RECT *dst_rect, D3DTEXTUREFILTERTYPE filter) {
  auto *src = known_object<Surface>(src_iface);
  auto *dst = known_object<Surface>(dst_iface);
  if (!src || !dst) return D3DERR_INVALIDCALL;
  if (filter != D3DTEXF_NONE && filter != D3DTEXF_POINT && filter != D3DTEXF_LINEAR) return D3DERR_INVALIDCALL;
  const D3DSURFACE_DESC &s = src->desc(), &d = dst->desc();
  if (s.Pool != D3DPOOL_DEFAULT || d.Pool != D3DPOOL_DEFAULT) return D3DERR_INVALIDCALL;
  const SurfaceKind from_kind = kind_of(*src), to_kind = kind_of(*dst);
  if (from_kind == SurfaceKind::DepthStencil || to_kind == SurfaceKind::DepthStencil)
    return stretch_depth_stencil(*src, src_rect, *dst, dst_rect);
  if (to_kind == SurfaceKind::Texture) return D3DERR_INVALIDCALL;
  if (to_kind == SurfaceKind::Plain && from_kind != SurfaceKind::Plain) return D3DERR_INVALIDCALL;
  // YUY2 and UYVY plain surfaces copy into render targets of the RGB format they are kept in, as
  // video players use them (the conversion happened as their texels were sent).
  if (src->format().storage != dst->format().storage || !(src->format().color || src->format().yuv()) ||
      !dst->format().color)
    return D3DERR_INVALIDCALL;
  if (src->format().block != 1) return D3DERR_INVALIDCALL; // DXTn: the plugins blit no compressed images
  nv_rect sr, dr;
  if (!surface_rect(src_rect, s, sr) || !surface_rect(dst_rect, d, dr)) return D3DERR_INVALIDCALL;
  const bool stretch = sr.width != dr.width || sr.height != dr.height;
  if (stretch && (src == dst || to_kind == SurfaceKind::Plain)) return D3DERR_INVALIDCALL;
  if (stretch && !(adapter().format_support[src->format().storage] & NV_SUPPORT_BLIT)) {
    // Narrower than Windows, whose drivers stretch every target format.
    static std::atomic<bool> once{false};
    log_unimplemented(once, "StretchRect scaling a format the backend cannot blit");
    return D3DERR_INVALIDCALL;
  }
  if (d.MultiSampleType != D3DMULTISAMPLE_NONE) return D3DERR_INVALIDCALL;
  const ImageLevel from = image_level(*src), to = image_level(*dst);
  if (!from.image || !to.image) return D3DERR_INVALIDCALL;
  const uint32_t nv_filter = filter == D3DTEXF_LINEAR ? NV_FILTER_LINEAR : NV_FILTER_POINT;
  // The plugins blit between two images: within one image (even between two of its faces or
  // levels) the copy goes through a temporary one.
  if (from.image == to.image || (s.MultiSampleType != D3DMULTISAMPLE_NONE && stretch))
    blit_through_scratch(from, sr, to, dr, src->format().storage, nv_filter);
  else
    commands().push(nv_cmd_blit_image{from.image, from.level, sr, to.image, to.level, dr, nv_filter, from.layer, to.layer});
  regenerate_mips(*dst);
  return D3D_OK;
}

// D3D9's "additional restrictions for depth and stencil surfaces": two depth-stencil surfaces
// (not textures), neither discardable, of one format and size, copied whole (no rectangle
// smaller than the surface, no stretching), outside BeginScene/EndScene. Any filter StretchRect
// takes, LINEAR included, as Windows (Wine's depth_blit_test): with one size there is nothing to
// filter, and the texels are copied as they are. Multisampled surfaces copy into one of their
// multisample type (Wine's multisampled_depth_buffer_test); narrower than Windows, a multisampled
// one is not resolved into a single-sampled one.
HRESULT Device::stretch_depth_stencil(const Surface &src, const RECT *src_rect, const Surface &dst,
                                      const RECT *dst_rect) {
  const D3DSURFACE_DESC &s = src.desc(), &d = dst.desc();
  if (&src == &dst || kind_of(src) != SurfaceKind::DepthStencil || kind_of(dst) != SurfaceKind::DepthStencil ||
      src.texture() || dst.texture() || src.discardable() || dst.discardable() || in_scene_)
    return D3DERR_INVALIDCALL;
  if (s.Format != d.Format || s.Width != d.Width || s.Height != d.Height || s.MultiSampleType != d.MultiSampleType ||
      s.MultiSampleQuality != d.MultiSampleQuality)
    return D3DERR_INVALIDCALL;
  nv_rect sr, dr;
  if (!surface_rect(src_rect, s, sr) || !surface_rect(dst_rect, d, dr)) return D3DERR_INVALIDCALL;
  const nv_rect whole{0, 0, int32_t(s.Width), int32_t(s.Height)};
  auto is_whole = [&whole](const nv_rect &r) {
    return r.x == whole.x && r.y == whole.y && r.width == whole.width && r.height == whole.height;
  };
  if (!is_whole(sr) || !is_whole(dr)) return D3DERR_INVALIDCALL;
  commands().push(nv_cmd_blit_image{src.image(), 0, whole, dst.image(), 0, whole, NV_FILTER_POINT});
  return D3D_OK;
}

// D3D9: a render target, a render-target texture level or an offscreen plain surface, in
// D3DPOOL_DEFAULT; the rectangle (NULL: the whole surface) inside it.
HRESULT Device::ColorFill(IDirect3DSurface9 *iface, const RECT *rect, D3DCOLOR colour) {
  auto *surface = known_object<Surface>(iface);
  if (!surface) return D3DERR_INVALIDCALL;
  const D3DSURFACE_DESC &d = surface->desc();
  const SurfaceKind kind = kind_of(*surface);
  if (d.Pool != D3DPOOL_DEFAULT || (kind != SurfaceKind::RenderTarget && kind != SurfaceKind::Plain) ||
      !surface->format().color)
    return D3DERR_INVALIDCALL;
  nv_rect r;
  if (!surface_rect(rect, d, r)) return D3DERR_INVALIDCALL;
  const ImageLevel target = image_level(*surface);
  if (!target.image) return D3DERR_INVALIDCALL;
  nv_cmd_fill_image fill{target.image, target.level, r, {}, target.layer};
  color_to_floats(colour, fill.color);
  commands().push(fill);
  regenerate_mips(*surface);
  return D3D_OK;
}

HRESULT Device::read_image(uint32_t image, UINT width, UINT height, size_t texel_bytes, UINT level, UINT layer) {
  // Nothing else is pending on the readback area, so it may be resized here.
  CommandStream &cs = commands();
  cs.channel().reserve_readback(size_t(width) * texel_bytes * height);
  cs.push(nv_cmd_read_image{image, nv_rect{0, 0, int32_t(width), int32_t(height)}, level, layer});
  cs.finish();
  return cs.channel().device_lost.load() ? D3DERR_DEVICELOST : D3D_OK;
}

HRESULT Device::read_surface(const Surface &surface) {
  const D3DSURFACE_DESC &d = surface.desc();
  return read_image(surface.image(), d.Width, d.Height, surface.format().bytes_per_pixel, surface.level(),
                    surface.layer());
}

HRESULT Device::GetRenderTargetData(IDirect3DSurface9 *src_iface, IDirect3DSurface9 *dst_iface) {
  auto *src = known_object<Surface>(src_iface);
  auto *dst = known_object<Surface>(dst_iface);
  if (!src || !dst || src == dst) return D3DERR_INVALIDCALL;
  const D3DSURFACE_DESC &s = src->desc(), &d = dst->desc();
  // A multisampled render target cannot be read (D3D9: resolve it with StretchRect first).
  if (!src->has_image() || !(s.Usage & D3DUSAGE_RENDERTARGET) || s.MultiSampleType != D3DMULTISAMPLE_NONE ||
      d.Pool != D3DPOOL_SYSTEMMEM || s.Width != d.Width ||
      s.Height != d.Height || s.Format != d.Format)
    return D3DERR_INVALIDCALL;
  // Any level or cube face of a render-target texture reads like a render target.
  if (HRESULT hr = read_surface(*src); FAILED(hr)) return hr;
  const size_t row = size_t(s.Width) * src->format().bytes_per_pixel;
  // A level of a SYSTEMMEM texture keeps its bytes in the texture (dirty for UpdateTexture).
  if (Texture *t = dst->texture()) {
    return t->store().write(dst->layer(), dst->level(), 0, 0, s.Width, s.Height, commands().channel().readback, row)
               ? D3D_OK
               : E_OUTOFMEMORY;
  }
  for (UINT y = 0; y < s.Height; ++y)
    std::memcpy(dst->memory() + size_t(y) * dst->pitch(), commands().channel().readback + y * row, row);
  return D3D_OK;
}

// The front buffer is what the last Present showed (BackBufferChain::present; opaque black before
// the first). The destination is a D3DPOOL_SYSTEMMEM D3DFMT_A8R8G8B8 surface the size of the
// front buffer (Windows: of the screen), as D3D9 asks.
HRESULT Device::GetFrontBufferData(UINT swapchain, IDirect3DSurface9 *dst_iface) {
  auto *dst = known_object<Surface>(dst_iface);
  if (swapchain != 0 || !dst) return D3DERR_INVALIDCALL;
  return read_front_buffer(back_buffers_, device_window_, present_parameters_, dst);
}

// Any swap chain's front image (IDirect3DSwapChain9::GetFrontBufferData too), into a
// D3DPOOL_SYSTEMMEM A8R8G8B8 surface of the screen's size (the display mode: Windows' rule for
// windowed devices; the front buffer lands at the window's place, a headless device's at the
// top left, the rest reads black, where Windows would show the desktop) or of the back buffer's
// (Novem also takes that: the front buffer alone).
HRESULT Device::read_front_buffer(const BackBufferChain &buffers, HWND window, const D3DPRESENT_PARAMETERS &pp,
                                  Surface *dst) {
  if (!dst) return D3DERR_INVALIDCALL;
  const D3DSURFACE_DESC &d = dst->desc();
  D3DDISPLAYMODE mode{};
  parent_->GetAdapterDisplayMode(0, &mode);
  const bool front_sized = d.Width == pp.BackBufferWidth && d.Height == pp.BackBufferHeight;
  const bool screen_sized = d.Width == mode.Width && d.Height == mode.Height;
  if (d.Pool != D3DPOOL_SYSTEMMEM || d.Format != D3DFMT_A8R8G8B8 || (!front_sized && !screen_sized))
    return D3DERR_INVALIDCALL;
  const FormatInfo front = format_info(pp.BackBufferFormat); // one of the six (check_present_parameters)
  const UINT width = pp.BackBufferWidth, height = pp.BackBufferHeight;
  if (HRESULT hr = read_image(buffers.front_image(), width, height, front.bytes_per_pixel); FAILED(hr)) return hr;
  int left = 0, top = 0;
  if (!front_sized) {
    if (window) window_position(window, left, top);
    for (UINT y = 0; y < d.Height; ++y) {
      auto *row = reinterpret_cast<uint32_t *>(dst->memory() + size_t(y) * dst->pitch());
      std::fill(row, row + d.Width, 0xFF000000u);
    }
  }
  const uint8_t *rows = commands().channel().readback;
  for (UINT y = 0; y < height; ++y) {
    const int64_t dy = int64_t(top) + y;
    if (dy < 0 || dy >= int64_t(d.Height)) continue;
    for (UINT x = 0; x < width; ++x) {
      const int64_t dx = int64_t(left) + x;
      if (dx < 0 || dx >= int64_t(d.Width)) continue;
      uint8_t *out = dst->memory() + size_t(dy) * dst->pitch() + size_t(dx) * 4;
      const uint8_t *in = rows + (size_t(y) * width + x) * front.bytes_per_pixel;
      front_texel_to_a8r8g8b8(front.storage, in, out);
      if (!front.has_alpha) out[3] = 0xFF; // X8R8G8B8, X1R5G5B5
    }
  }
  return D3D_OK;
}

} // namespace novem
