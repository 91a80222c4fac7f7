#include "surface.hpp"

#include "texture.hpp"

namespace novem {

Surface::Surface(Device *device, ULONG public_refs, const D3DSURFACE_DESC &desc)
    : DeviceChild(device, public_refs), desc_(desc), format_(format_info(desc.Format)) {}

Surface *Surface::create_image(Device *device, ULONG public_refs, UINT width, UINT height,
                               D3DFORMAT format, DWORD usage, D3DMULTISAMPLE_TYPE multisample) {
  D3DSURFACE_DESC desc{format, D3DRTYPE_SURFACE, usage, D3DPOOL_DEFAULT, multisample, 0, width, height};
  auto *surface = new Surface(device, public_refs, desc);
  surface->image_ = device->commands().new_handle();
  uint32_t nv_usage = (usage & D3DUSAGE_DEPTHSTENCIL) ? NV_IMAGE_DEPTH_STENCIL : NV_IMAGE_RENDER_TARGET;
  device->commands().push(NV_OP_CREATE_IMAGE,
                          nv_cmd_create_image{surface->image_, surface->format_.storage, width, height, nv_usage, 1,
                                              NV_IMAGE_TYPE_2D, 1,
                                              multisample == D3DMULTISAMPLE_NONE ? 1u : uint32_t(multisample)});
  return surface;
}

Surface *Surface::create_memory(Device *device, UINT width, UINT height, D3DFORMAT format, D3DPOOL pool) {
  D3DSURFACE_DESC desc{format, D3DRTYPE_SURFACE, 0, pool, D3DMULTISAMPLE_NONE, 0, width, height};
  auto *surface = new Surface(device, 1, desc);
  // Rows start 4-byte aligned, as in Windows' system-memory surfaces.
  surface->pitch_ = (width * surface->format_.bytes_per_pixel + 3) & ~3u;
  surface->memory_.assign(size_t(surface->pitch_) * height, 0);
  return surface;
}

Surface *Surface::create_level(Device *device, Texture *texture, UINT layer, UINT level, const D3DSURFACE_DESC &desc) {
  auto *surface = new Surface(device, 0, desc);
  surface->texture_ = texture;
  surface->layer_ = layer;
  surface->level_ = level;
  return surface;
}

uint32_t Surface::image() const {
  if (!texture_) return image_;
  const bool target =
      texture_->type() == NV_IMAGE_TYPE_2D && (texture_->usage() & (D3DUSAGE_RENDERTARGET | D3DUSAGE_DEPTHSTENCIL));
  return target && level_ == 0 ? texture_->image() : 0;
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
  if (image_) device_->commands().push(NV_OP_DESTROY_IMAGE, nv_cmd_destroy_image{image_});
}

HRESULT Surface::GetContainer(REFIID iid, void **container) {
  // A surface that no texture or swap chain owns has the device as its container.
  if (!container) return D3DERR_INVALIDCALL;
  if (texture_) return texture_->base()->QueryInterface(iid, container);
  return device_->QueryInterface(iid, container);
}

HRESULT Surface::GetDesc(D3DSURFACE_DESC *desc) {
  if (!desc) return D3DERR_INVALIDCALL;
  *desc = desc_;
  return D3D_OK;
}

HRESULT Surface::LockRect(D3DLOCKED_RECT *locked_rect, const RECT *rect, DWORD flags) {
  DeviceLock lock(*device_);
  if (texture_) return texture_->lock_rect(layer_, level_, locked_rect, rect, flags);
  if (!locked_rect) return D3DERR_INVALIDCALL;
  // Only memory surfaces are lockable so far; a render target needs D3DUSAGE lockable support.
  if (memory_.empty() || locked_) return D3DERR_INVALIDCALL;
  RECT r{0, 0, LONG(desc_.Width), LONG(desc_.Height)};
  if (rect) {
    if (rect->left < 0 || rect->top < 0 || rect->left >= rect->right || rect->top >= rect->bottom ||
        rect->right > LONG(desc_.Width) || rect->bottom > LONG(desc_.Height))
      return D3DERR_INVALIDCALL;
    r = *rect;
  }
  locked_rect->Pitch = INT(pitch_);
  locked_rect->pBits = memory_.data() + size_t(r.top) * pitch_ + size_t(r.left) * format_.bytes_per_pixel;
  locked_ = true;
  return D3D_OK;
}

HRESULT Surface::UnlockRect() {
  DeviceLock lock(*device_);
  if (texture_) return texture_->unlock_rect(layer_, level_);
  if (!locked_) return D3DERR_INVALIDCALL;
  locked_ = false;
  return D3D_OK;
}

HRESULT Surface::GetDC(HDC *) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
HRESULT Surface::ReleaseDC(HDC) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }

} // namespace novem
