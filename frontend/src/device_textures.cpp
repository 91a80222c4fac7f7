// Textures and sampler states: CreateTexture, SetTexture/GetTexture, SetSamplerState/
// GetSamplerState, UpdateTexture and UpdateSurface. What a draw sends for them is the state
// encoder's (state_encoder_textures.cpp).
#include <algorithm>
#include <cstring>

#include "device.hpp"
#include "math.hpp"
#include "shader.hpp"
#include "surface.hpp"
#include "cube_texture.hpp"
#include "texture.hpp"
#include "upload_conversion.hpp"
#include "volume_texture.hpp"

namespace novem {

namespace {

// A sampler index of the API → a texture slot; false for one that does not exist.
bool slot_of(DWORD sampler, uint32_t &slot) {
  if (sampler < 16) {
    slot = sampler;
    return true;
  }
  if (sampler >= D3DVERTEXTEXTURESAMPLER0 && sampler <= D3DVERTEXTEXTURESAMPLER3) {
    slot = 16 + (sampler - D3DVERTEXTEXTURESAMPLER0);
    return true;
  }
  return false;
}

// The Texture behind an interface Novem handed out; nullptr for none.
Texture *as_texture(IDirect3DBaseTexture9 *iface) {
  if (auto *t = known_object<Texture2D>(iface)) return t;
  if (auto *t = known_object<CubeTexture>(iface)) return t;
  return known_object<VolumeTexture>(iface);
}

} // namespace

void Device::set_sampler_defaults() {
  // Windows' defaults for every sampler after CreateDevice.
  for (auto &ss : live_.state.sampler_states) {
    ss.fill(0);
    ss[D3DSAMP_ADDRESSU] = D3DTADDRESS_WRAP;
    ss[D3DSAMP_ADDRESSV] = D3DTADDRESS_WRAP;
    ss[D3DSAMP_ADDRESSW] = D3DTADDRESS_WRAP;
    ss[D3DSAMP_BORDERCOLOR] = 0;
    ss[D3DSAMP_MAGFILTER] = D3DTEXF_POINT;
    ss[D3DSAMP_MINFILTER] = D3DTEXF_POINT;
    ss[D3DSAMP_MIPFILTER] = D3DTEXF_NONE;
    ss[D3DSAMP_MIPMAPLODBIAS] = 0;
    ss[D3DSAMP_MAXMIPLEVEL] = 0;
    ss[D3DSAMP_MAXANISOTROPY] = 1;
    ss[D3DSAMP_SRGBTEXTURE] = 0;
    ss[D3DSAMP_ELEMENTINDEX] = 0;
    ss[D3DSAMP_DMAPOFFSET] = 0;
  }
}

HRESULT Device::CreateTexture(UINT width, UINT height, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool,
                              IDirect3DTexture9 **texture, HANDLE *shared_handle) {
  if (!texture) return D3DERR_INVALIDCALL;
  *texture = nullptr;
  // D3D9Ex takes the program's memory for a SYSTEMMEM texture of one level (pSharedHandle points
  // at it, Wine's test_user_memory); nothing else shares or takes memory (no shared resources
  // between processes here).
  if (shared_handle && (!extended() || pool != D3DPOOL_SYSTEMMEM || levels != 1 || !*shared_handle))
    return D3DERR_INVALIDCALL;
  Texture2D *created = nullptr;
  if (HRESULT hr = Texture2D::create(this, width, height, levels, usage, format, pool, &created); FAILED(hr)) return hr;
  if (shared_handle) created->store().use_program_memory(static_cast<uint8_t *>(*shared_handle));
  if (pool == D3DPOOL_DEFAULT) created->count_default_pool();
  *texture = created;
  AddRef();
  return D3D_OK;
}

HRESULT Device::CreateVolumeTexture(UINT width, UINT height, UINT depth, UINT levels, DWORD usage, D3DFORMAT format,
                                    D3DPOOL pool, IDirect3DVolumeTexture9 **texture, HANDLE *shared_handle) {
  if (!texture) return D3DERR_INVALIDCALL;
  *texture = nullptr;
  if (shared_handle) return D3DERR_INVALIDCALL;
  VolumeTexture *created = nullptr;
  if (HRESULT hr = VolumeTexture::create(this, width, height, depth, levels, usage, format, pool, &created); FAILED(hr))
    return hr;
  if (pool == D3DPOOL_DEFAULT) created->count_default_pool();
  *texture = created;
  AddRef();
  return D3D_OK;
}

HRESULT Device::CreateCubeTexture(UINT edge, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool,
                                  IDirect3DCubeTexture9 **texture, HANDLE *shared_handle) {
  if (!texture) return D3DERR_INVALIDCALL;
  *texture = nullptr;
  if (shared_handle) return D3DERR_INVALIDCALL;
  CubeTexture *created = nullptr;
  if (HRESULT hr = CubeTexture::create(this, edge, levels, usage, format, pool, &created); FAILED(hr)) return hr;
  if (pool == D3DPOOL_DEFAULT) created->count_default_pool();
  *texture = created;
  AddRef();
  return D3D_OK;
}

HRESULT Device::SetTexture(DWORD sampler, IDirect3DBaseTexture9 *iface) {
  uint32_t slot;
  if (!slot_of(sampler, slot)) return D3DERR_INVALIDCALL;
  Texture *texture = nullptr;
  if (iface) {
    texture = as_texture(iface);
    if (!texture || texture->pool() == D3DPOOL_SCRATCH) return D3DERR_INVALIDCALL; // as Windows
  }
  update_->set_texture(slot, texture);
  return D3D_OK;
}

HRESULT Device::UpdateTexture(IDirect3DBaseTexture9 *src_iface, IDirect3DBaseTexture9 *dst_iface) {
  // Windows' rules: SYSTEMMEM to DEFAULT, the same type and format, at least as many source
  // levels, and the source level that meets the destination's top level (the source's extra top
  // levels are skipped) of the same size.
  Texture *src = as_texture(src_iface), *dst = as_texture(dst_iface);
  if (!src || !dst || src->pool() != D3DPOOL_SYSTEMMEM || dst->pool() != D3DPOOL_DEFAULT) return D3DERR_INVALIDCALL;
  // An AUTOGENMIPMAP destination takes the top matching level and regenerates the rest; an
  // AUTOGENMIPMAP source (SYSTEMMEM cannot be one) never reaches here.
  if (src->type() != dst->type() || src->d3d_format() != dst->d3d_format() ||
      src->exposed_levels() < dst->exposed_levels())
    return D3DERR_INVALIDCALL;
  TexelStore &from = src->store(), &to = dst->store();
  const UINT skip = src->exposed_levels() - dst->exposed_levels();
  if (from.width(skip) != to.width(0) || from.height(skip) != to.height(0) || from.depth(skip) != to.depth(0))
    return D3DERR_INVALIDCALL;
  // Only the dirty boxes are copied (D3D9 allows copying more); each level sends its own. Then
  // the source is clean, all of it, as in Windows: the levels skipped above too.
  for (UINT layer = 0; layer < to.layers(); ++layer)
    for (UINT i = 0; i < dst->exposed_levels(); ++i)
      if (!to.update_from(from, layer, skip + i, i)) return E_OUTOFMEMORY;
  from.forget_dirty();
  return D3D_OK;
}

HRESULT Device::UpdateSurface(IDirect3DSurface9 *src_iface, const RECT *src_rect, IDirect3DSurface9 *dst_iface,
                              const POINT *dst_point) {
  // Windows' rules: a SYSTEMMEM source and a DEFAULT destination of the same format, neither a
  // depth format, the rectangle (the whole source when NULL) inside the source and, placed at
  // dst_point, inside the destination; DXTn rectangles in whole blocks.
  auto *src = known_object<Surface>(src_iface), *dst = known_object<Surface>(dst_iface);
  if (!src || !dst) return D3DERR_INVALIDCALL;
  const D3DSURFACE_DESC &s = src->desc(), &d = dst->desc();
  const FormatInfo &f = src->format();
  if (s.Pool != D3DPOOL_SYSTEMMEM || d.Pool != D3DPOOL_DEFAULT || s.Format != d.Format || f.depth ||
      s.MultiSampleType != D3DMULTISAMPLE_NONE || d.MultiSampleType != D3DMULTISAMPLE_NONE)
    return D3DERR_INVALIDCALL;
  RECT r{0, 0, LONG(s.Width), LONG(s.Height)};
  if (src_rect) r = *src_rect;
  const POINT p = dst_point ? *dst_point : POINT{0, 0};
  if (r.left < 0 || r.top < 0 || r.left >= r.right || r.top >= r.bottom || r.right > LONG(s.Width) ||
      r.bottom > LONG(s.Height) || p.x < 0 || p.y < 0 || p.x + (r.right - r.left) > LONG(d.Width) ||
      p.y + (r.bottom - r.top) > LONG(d.Height))
    return D3DERR_INVALIDCALL;
  const LONG b = LONG(f.block);
  auto aligned = [b](LONG v, LONG edge) { return v % b == 0 || v == edge; };
  if (r.left % b || r.top % b || p.x % b || p.y % b || !aligned(r.right, LONG(s.Width)) ||
      !aligned(r.bottom, LONG(s.Height)))
    return D3DERR_INVALIDCALL;
  // A texture level, a surface's own image (render targets, DEFAULT plain surfaces) or the texels
  // a YUV or compressed DEFAULT plain surface keeps.
  if (!dst->texture() && !dst->uploadable() && !dst->keeps_texels()) return D3DERR_INVALIDCALL;
  const uint8_t *bytes = nullptr;
  UINT pitch = 0;
  if (src->texture()) {
    bytes = src->texture()->store().bytes(src->layer(), src->level(), &pitch);
    if (!bytes) return E_OUTOFMEMORY;
  } else {
    bytes = src->memory();
    pitch = src->pitch();
  }
  bytes += size_t(r.top / b) * pitch + size_t(r.left / b) * f.bytes_per_pixel;
  if (dst->keeps_texels()) { // its own bytes, then its image where it has one
    const size_t row = f.row_bytes(UINT(r.right - r.left));
    for (LONG y = 0; y < (r.bottom - r.top + b - 1) / b; ++y)
      std::memcpy(dst->memory() + size_t(p.y / b + y) * dst->pitch() + size_t(p.x / b) * f.bytes_per_pixel,
                  bytes + size_t(y) * pitch, row);
    dst->send_kept(RECT{p.x, p.y, p.x + (r.right - r.left), p.y + (r.bottom - r.top)}, 0);
    return D3D_OK;
  }
  if (!dst->texture()) {
    // Ordered with draws: those before see the old texels, those after the new.
    send_texels(commands(), f, dst->image(), 0, 0, p.x, p.y, UINT(r.right - r.left), UINT(r.bottom - r.top), bytes,
                pitch);
    return D3D_OK;
  }
  if (!dst->texture()->store().write(dst->layer(), dst->level(), UINT(p.x), UINT(p.y), UINT(r.right - r.left),
                                     UINT(r.bottom - r.top), bytes, pitch))
    return E_OUTOFMEMORY;
  return D3D_OK;
}

HRESULT Device::GetTexture(DWORD sampler, IDirect3DBaseTexture9 **texture) {
  uint32_t slot;
  if (!texture) return D3DERR_INVALIDCALL;
  *texture = nullptr;
  if (!slot_of(sampler, slot)) return D3DERR_INVALIDCALL;
  if (Texture *t = live_.state.textures[slot]) {
    t->base()->AddRef();
    *texture = t->base();
  }
  return D3D_OK;
}

HRESULT Device::SetSamplerState(DWORD sampler, D3DSAMPLERSTATETYPE state, DWORD value) {
  uint32_t slot;
  if (!slot_of(sampler, slot) || state < D3DSAMP_ADDRESSU || state > D3DSAMP_DMAPOFFSET) return D3DERR_INVALIDCALL;
  update_->set_sampler_state(slot, state, value);
  return D3D_OK;
}

HRESULT Device::GetSamplerState(DWORD sampler, D3DSAMPLERSTATETYPE state, DWORD *value) {
  uint32_t slot;
  if (!value || !slot_of(sampler, slot) || state < D3DSAMP_ADDRESSU || state > D3DSAMP_DMAPOFFSET)
    return D3DERR_INVALIDCALL;
  *value = live_.state.sampler_states[slot][state];
  return D3D_OK;
}

void Device::texture_changed(Texture *texture) {
  for (Texture *t : live_.state.textures)
    if (t == texture) live_.dirty |= kDirtyTextures;
}

} // namespace novem
