#include "surface.hpp"

#include <cstdint>
#include <cstring>
#include <exception>
#include <utility>

#include "direct3d9.hpp"
#include "host_memory.hpp"
#include "lock_rules.hpp"
#include "texture.hpp"
#include "upload_conversion.hpp"

namespace novem {

Surface::Surface(Device *device, ULONG public_refs, const D3DSURFACE_DESC &desc)
    : DeviceChild(device, public_refs), desc_(desc), format_(format_info(desc.Format)) {
  remember_vtable<Surface, IDirect3DSurface9>(this);
}

Surface *Surface::create_image(Device *device, ULONG public_refs, UINT width, UINT height,
                               D3DFORMAT format, DWORD usage, D3DMULTISAMPLE_TYPE multisample, DWORD quality,
                               bool lockable) {
  D3DSURFACE_DESC desc{format, D3DRTYPE_SURFACE, usage, D3DPOOL_DEFAULT, multisample, quality, width, height};
  auto *surface = new Surface(device, public_refs, desc);
  surface->samples_ = multisample_count(device->adapter(), multisample, quality);
  surface->image_ = device->commands().new_handle();
  const bool depth = usage & D3DUSAGE_DEPTHSTENCIL;
  // Single-sampled colour images are sampled images too where the plugin samples the format:
  // UPDATE_IMAGE writes only those (UpdateSurface into a render target, UnlockRect of a lockable
  // one); as a render-target texture of one level they are still rendered into at level 0.
  surface->uploadable_ = !depth && multisample == D3DMULTISAMPLE_NONE &&
                         (device->adapter().format_support[surface->format_.storage] & NV_SUPPORT_SAMPLED);
  // The lockable depth formats lock to read and write the depth (single-sampled ones: a
  // multisampled image cannot be read); their images are sampled ones, which UPDATE_IMAGE writes.
  surface->writes_depth_ = depth && surface->format_.lockable_depth && multisample == D3DMULTISAMPLE_NONE;
  surface->lockable_ = (lockable && surface->uploadable_) || surface->writes_depth_;
  device->commands().push(nv_cmd_create_image{surface->image_, surface->format_.storage, width, height, surface->image_usage(), 1,
                                              NV_IMAGE_TYPE_2D, 1, surface->samples_});
  // The APIs leave a new image's texels undefined (lavapipe's hold what its memory held), while
  // Windows hands out zeroed video memory: a colour target never written (every sample of a
  // multisampled one) reads as zeros on every plugin, as there.
  if (!depth)
    device->commands().push(nv_cmd_fill_image{surface->image_, 0, nv_rect{0, 0, int32_t(width), int32_t(height)},
                                              {0.0f, 0.0f, 0.0f, 0.0f}, 0});
  return surface;
}

Surface *Surface::create_plain(Device *device, UINT width, UINT height, D3DFORMAT format) {
  Surface *surface = create_image(device, 1, width, height, format, D3DUSAGE_RENDERTARGET, D3DMULTISAMPLE_NONE, 0, true);
  surface->desc_.Usage = 0; // a plain surface, though its backend image can be written like a target's
  return surface;
}

Surface *Surface::create_null(Device *device, UINT width, UINT height, D3DMULTISAMPLE_TYPE multisample,
                              DWORD quality) {
  D3DSURFACE_DESC desc{kFormatNULL, D3DRTYPE_SURFACE, D3DUSAGE_RENDERTARGET, D3DPOOL_DEFAULT, multisample, quality, width, height};
  Surface *surface = new Surface(device, 1, desc);
  surface->samples_ = multisample_count(device->adapter(), multisample, quality);
  return surface;
}

Surface *Surface::create_yuv_plain(Device *device, UINT width, UINT height, D3DFORMAT format) {
  const UINT pitch = (width * format_info(format).bytes_per_pixel + 3) & ~3u; // as a memory surface's
  std::vector<uint8_t> memory;
  try {
    memory.assign(size_t(pitch) * height, 0);
  } catch (const std::exception &) {
    return nullptr;
  }
  Surface *surface = create_plain(device, width, height, format);
  surface->pitch_ = pitch;
  surface->memory_ = std::move(memory);
  surface->keeps_texels_ = true;
  return surface;
}

HRESULT Surface::create_compressed_plain(Device *device, UINT width, UINT height, D3DFORMAT format, Surface **out) {
  if (HRESULT hr = create_memory(device, width, height, format, D3DPOOL_DEFAULT, nullptr, out); FAILED(hr)) return hr;
  (*out)->keeps_texels_ = true;
  return D3D_OK;
}

HRESULT Surface::create_memory(Device *device, UINT width, UINT height, D3DFORMAT format, D3DPOOL pool,
                               uint8_t *program_memory, Surface **out) {
  // Rows (of 4x4 blocks for DXTn and 3Dc) start 4-byte aligned, as in Windows' system-memory
  // surfaces; the program's memory has rows exactly a row long (Wine's test_user_memory).
  const FormatInfo info = format_info(format);
  const uint64_t row = info.row_bytes(width);
  const uint64_t pitch = program_memory ? row : (row + 3) & ~uint64_t(3);
  const uint64_t rows = info.block_rows(height);
  if (pitch > uint64_t(INT32_MAX) || pitch * rows > host_memory_bytes()) return E_OUTOFMEMORY;
  std::vector<uint8_t> memory;
  try {
    if (!program_memory) memory.assign(size_t(pitch) * rows, 0);
  } catch (const std::exception &) { // bad_alloc, or length_error past what a vector can hold
    return E_OUTOFMEMORY;
  }
  D3DSURFACE_DESC desc{format, D3DRTYPE_SURFACE, 0, pool, D3DMULTISAMPLE_NONE, 0, width, height};
  auto *surface = new Surface(device, 1, desc);
  surface->pitch_ = UINT(pitch);
  surface->memory_ = std::move(memory);
  surface->program_memory_ = program_memory;
  surface->lockable_ = true;
  *out = surface;
  return D3D_OK;
}

Surface *Surface::create_level(Device *device, Texture *texture, UINT layer, UINT level, const D3DSURFACE_DESC &desc) {
  auto *surface = new Surface(device, 0, desc);
  surface->texture_ = texture;
  surface->layer_ = layer;
  surface->level_ = level;
  return surface;
}

uint32_t Surface::image() const {
  copy_to_front();
  if (!texture_) return image_;
  return texture_has_image() ? texture_->image() : 0;
}

// Every level of every face of a render-target texture (2D or cube) is a target; a depth texture
// (2D, one level) is a depth-stencil target.
bool Surface::texture_has_image() const { return texture_->usage() & (D3DUSAGE_RENDERTARGET | D3DUSAGE_DEPTHSTENCIL); }

uint32_t Surface::image_usage() const {
  uint32_t usage = (desc_.Usage & D3DUSAGE_DEPTHSTENCIL) ? uint32_t(NV_IMAGE_DEPTH_STENCIL) : uint32_t(NV_IMAGE_RENDER_TARGET);
  return uploadable_ || writes_depth_ ? usage | NV_IMAGE_SAMPLED : usage;
}

void Surface::copy_to_front() const {
  if (!deferred_front_) return;
  const nv_rect whole{0, 0, int32_t(desc_.Width), int32_t(desc_.Height)};
  device_->commands().push(nv_cmd_blit_image{image_, 0, whole, *deferred_front_, 0, whole, NV_FILTER_POINT});
  deferred_front_ = nullptr;
}

void Surface::take_front() {
  std::swap(image_, *deferred_front_);
  deferred_front_ = nullptr;
}

void Surface::add_private_ref() {
  if (texture_) texture_->add_private_ref();
  else DeviceChild::add_private_ref();
}

void Surface::release_private_ref() {
  if (texture_) texture_->release_private_ref();
  else DeviceChild::release_private_ref();
}

ULONG Surface::AddRef() {
  if (texture_) return texture_->base()->AddRef();
  return DeviceChild::AddRef();
}

ULONG Surface::Release() {
  if (texture_) return texture_->base()->Release();
  return DeviceChild::Release();
}

Surface::~Surface() {
  if (image_) device_->commands().push(nv_cmd_destroy_image{image_});
}

HRESULT Surface::GetContainer(REFIID iid, void **container) {
  // A surface that no texture or swap chain owns has the device as its container.
  if (!container) return D3DERR_INVALIDCALL;
  if (texture_) return texture_->base()->QueryInterface(iid, container);
  if (!back_buffer_) return device_->QueryInterface(iid, container);
  if (swap_chain_) return swap_chain_->QueryInterface(iid, container);
  IDirect3DSwapChain9 *chain = nullptr;
  if (HRESULT hr = device_->GetSwapChain(0, &chain); FAILED(hr)) return hr;
  const HRESULT hr = chain->QueryInterface(iid, container);
  chain->Release();
  return hr;
}

HRESULT Surface::GetDesc(D3DSURFACE_DESC *desc) {
  if (!desc) return D3DERR_INVALIDCALL;
  *desc = desc_;
  return D3D_OK;
}

LockEntry Surface::level_entry() const {
  return texture_->type() == NV_IMAGE_TYPE_CUBE ? LockEntry::CubeSurface : LockEntry::Surface;
}

HRESULT Surface::LockRect(D3DLOCKED_RECT *locked_rect, const RECT *rect, DWORD flags) {
  DeviceLock lock(*device_);
  if (texture_) return texture_->lock_rect(level_entry(), layer_, level_, locked_rect, rect, flags);
  if (!locked_rect) return D3DERR_INVALIDCALL;
  if (lock_clears_output(LockEntry::Surface, desc_.Pool)) locked_rect->pBits = nullptr, locked_rect->Pitch = 0;
  // Memory surfaces, lockable render targets and DEFAULT plain surfaces lock; other render targets
  // and depth-stencil surfaces refuse, as Windows.
  if (!lockable_ || locked_) return D3DERR_INVALIDCALL;
  RECT r{0, 0, LONG(desc_.Width), LONG(desc_.Height)};
  if (rect) {
    if (rect->left < 0 || rect->top < 0 || rect->left >= rect->right || rect->top >= rect->bottom ||
        rect->right > LONG(desc_.Width) || rect->bottom > LONG(desc_.Height))
      return D3DERR_INVALIDCALL;
    // In DEFAULT a compressed surface's rectangle is whole blocks (or reaches the edge).
    if (lock_region_check(LockEntry::Surface, desc_.Pool, format_, 0) == RegionCheck::BoundsAndBlocks &&
        !on_block_edges(rect->left, rect->top, rect->right, rect->bottom, format_.block, desc_.Width, desc_.Height))
      return D3DERR_INVALIDCALL;
    r = *rect;
  }
  copy_to_front(); // a DISCARD lock reads nothing, and its unlock writes the back buffer
  if (keeps_texels_) {
    locked_rect_ = r;
    lock_flags_ = flags;
  } else if (image_) {
    if (HRESULT hr = lock_image(r, flags); FAILED(hr)) return hr;
  }
  locked_rect->Pitch = INT(pitch_);
  // DXTn and 3Dc: the block holding the rectangle's first texel; no surface outside DEFAULT checks
  // that the rectangle is whole blocks (docs/d3d9-behaviour.md, "Lock rectangles").
  locked_rect->pBits = memory() + size_t(r.top / format_.block) * pitch_ +
                       size_t(r.left / format_.block) * format_.bytes_per_pixel;
  locked_ = true;
  return D3D_OK;
}

HRESULT Surface::UnlockRect() {
  DeviceLock lock(*device_);
  if (dc_out_) return D3DERR_INVALIDCALL; // GetDC's lock is ReleaseDC's to end
  if (texture_) return texture_->unlock_rect(level_entry(), layer_, level_);
  if (!locked_) return D3DERR_INVALIDCALL;
  if (keeps_texels_) send_kept(locked_rect_, lock_flags_);
  else if (image_) unlock_image();
  locked_ = false;
  return D3D_OK;
}

HRESULT Surface::lock_image(const RECT &rect, DWORD flags) {
  const size_t row = size_t(desc_.Width) * format_.bytes_per_pixel;
  pitch_ = UINT((row + 3) & ~size_t(3)); // rows 4-byte aligned, as memory surfaces
  memory_.resize(size_t(pitch_) * desc_.Height);
  // The GPU's current texels (draws and copies before the lock included); D3DLOCK_DISCARD asks
  // for none, so nothing waits.
  if (!(flags & D3DLOCK_DISCARD)) {
    if (HRESULT hr = device_->read_surface(*this); FAILED(hr)) return hr;
    const uint8_t *rows = device_->commands().channel().readback;
    for (UINT y = 0; y < desc_.Height; ++y) std::memcpy(memory_.data() + size_t(y) * pitch_, rows + y * row, row);
  }
  locked_rect_ = rect;
  lock_flags_ = flags;
  return D3D_OK;
}

void Surface::unlock_image() {
  if (!(lock_flags_ & D3DLOCK_READONLY) && (uploadable_ || writes_depth_)) {
    const RECT &r = locked_rect_;
    device_->commands().update_image(image_, format_.storage, 0, 0, r.left, r.top, UINT(r.right - r.left),
                                     UINT(r.bottom - r.top),
                                     memory_.data() + size_t(r.top) * pitch_ + size_t(r.left) * format_.bytes_per_pixel,
                                     pitch_);
  }
  // The bytes are the GPU's again; the next lock reads them afresh.
  std::vector<uint8_t>().swap(memory_);
}

void Surface::send_kept(const RECT &r, DWORD flags) {
  if ((flags & D3DLOCK_READONLY) || !image_) return;
  send_texels(device_->commands(), format_, image_, 0, 0, r.left, r.top, UINT(r.right - r.left), UINT(r.bottom - r.top),
              memory_.data() + size_t(r.top) * pitch_ + size_t(r.left) * format_.bytes_per_pixel, pitch_);
}

// The formats GDI draws into: the documented four, and the two with alpha Windows takes too
// (Wine's test_getdc records A8R8G8B8 and A1R5G5B5 succeeding).
static bool gdi_format(D3DFORMAT format) {
  switch (format) {
  case D3DFMT_R5G6B5:
  case D3DFMT_X1R5G5B5:
  case D3DFMT_A1R5G5B5:
  case D3DFMT_R8G8B8:
  case D3DFMT_X8R8G8B8:
  case D3DFMT_A8R8G8B8:
    return true;
  default:
    return false;
  }
}

// GetDC is an implicit lock of the whole surface, as in Windows: one DC at a time, none while the
// surface is locked, no lock while the DC is out, and only where the surface locks (a render
// target created lockable, a DEFAULT texture level only if the texture is dynamic), never in
// SCRATCH. There is no GDI on Linux to draw through the HDC: it names the surface's DC for
// ReleaseDC, and holding it keeps the surface locked (docs/d3d9-behaviour.md).
HRESULT Surface::GetDC(HDC *dc) {
  DeviceLock lock(*device_);
  if (!dc || dc_out_ || !gdi_format(desc_.Format) || desc_.Pool == D3DPOOL_SCRATCH) return D3DERR_INVALIDCALL;
  if (desc_.Pool == D3DPOOL_DEFAULT && texture_ && !(texture_->usage() & D3DUSAGE_DYNAMIC)) return D3DERR_INVALIDCALL;
  D3DLOCKED_RECT locked;
  if (FAILED(LockRect(&locked, nullptr, 0))) return D3DERR_INVALIDCALL;
  dc_out_ = true;
  *dc = reinterpret_cast<HDC>(&dc_out_);
  return D3D_OK;
}

HRESULT Surface::ReleaseDC(HDC dc) {
  DeviceLock lock(*device_);
  if (!dc_out_ || dc != reinterpret_cast<HDC>(&dc_out_)) return D3DERR_INVALIDCALL;
  dc_out_ = false;
  return UnlockRect();
}

} // namespace novem
