#include "texture.hpp"

#include <algorithm>

#include "creation_answer.hpp"
#include "host_memory.hpp"
#include "surface.hpp"

namespace novem {

namespace {

UINT full_chain(UINT width, UINT height, UINT depth) {
  UINT levels = 1;
  while ((uint64_t(std::max({width, height, depth})) >> levels) != 0) ++levels;
  return levels;
}

// SCRATCH resources "are not bound by device size or format restrictions" (D3DPOOL): memory
// bounds them, and the 32 bits of D3DLOCKED_RECT.Pitch. Any extent may be 2^32 - 1, so every
// product is checked; a mip chain is less than twice its level 0.
bool fits_memory(const FormatInfo &info, UINT width, UINT height, UINT depth, UINT layers) {
  const uint64_t pitch = (uint64_t(width) + info.block - 1) / info.block * info.bytes_per_pixel;
  const uint64_t rows = (uint64_t(height) + info.block - 1) / info.block;
  uint64_t bytes = 0;
  return pitch + 3 <= uint64_t(INT32_MAX) && !__builtin_mul_overflow(pitch, rows, &bytes) &&
         !__builtin_mul_overflow(bytes, uint64_t(depth) * layers * 2, &bytes) && bytes <= host_memory_bytes();
}

} // namespace

HRESULT Texture::check(Device *device, nv_image_type type, UINT width, UINT height, UINT depth, UINT &levels,
                       DWORD usage, D3DFORMAT format, D3DPOOL pool) {
  if (width == 0 || height == 0 || depth == 0 || DWORD(pool) > DWORD(D3DPOOL_SCRATCH)) return D3DERR_INVALIDCALL;
  const nv_adapter_info &adapter = device->adapter();
  FormatInfo info = format_info(format);
  if (!info.texture) return D3DERR_INVALIDCALL;
  // DXTn: level 0 is whole 4x4 blocks, in every pool (Windows); smaller levels need not be, nor any
  // level of the 3Dc formats.
  if (info.whole_blocks && (width % info.block != 0 || height % info.block != 0)) return D3DERR_INVALIDCALL;
  if (pool == D3DPOOL_SCRATCH) {
    if (!fits_memory(info, width, height, depth, type == NV_IMAGE_TYPE_CUBE ? 6 : 1)) return E_OUTOFMEMORY;
  } else if (std::max({width, height, depth}) > adapter.max_texture_size) {
    return D3DERR_INVALIDCALL;
  }
  if (pool != D3DPOOL_SCRATCH && !(adapter.format_support[info.storage] & NV_SUPPORT_SAMPLED)) return D3DERR_INVALIDCALL;
  // Depth-stencil textures are not implemented yet.
  constexpr DWORD known = D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY | D3DUSAGE_SOFTWAREPROCESSING | D3DUSAGE_RENDERTARGET |
                          D3DUSAGE_AUTOGENMIPMAP;
  if (usage & ~known) return D3DERR_INVALIDCALL;
  if (usage & D3DUSAGE_AUTOGENMIPMAP) {
    // As Windows: not in SYSTEMMEM, and 0 or 1 levels asked for; the chain is the backend's to
    // fill when it can generate this format's levels, else the texture has one level
    // (CheckDeviceFormat answers D3DOK_NOAUTOGEN). A render-target texture's levels are
    // regenerated when level 0 stops being a render target (Device::bind_render_target).
    if (pool == D3DPOOL_SYSTEMMEM || levels > 1) return D3DERR_INVALIDCALL;
    const bool generated = pool != D3DPOOL_SCRATCH && (adapter.format_support[info.storage] & NV_SUPPORT_GENERATE_MIPS);
    levels = generated ? 0 : 1;
  }
  // Render-target textures: DEFAULT only (Windows), of a format the backend renders to, 2D or
  // cube (volumes never are); Novem makes them not dynamic.
  if ((usage & D3DUSAGE_RENDERTARGET) &&
      (pool != D3DPOOL_DEFAULT || (usage & D3DUSAGE_DYNAMIC) || depth != 1 || !info.color ||
       !(adapter.format_support[info.storage] & NV_SUPPORT_RENDER_TARGET)))
    return D3DERR_INVALIDCALL;
  if ((usage & D3DUSAGE_DYNAMIC) && (pool == D3DPOOL_MANAGED || pool == D3DPOOL_SCRATCH)) return D3DERR_INVALIDCALL;
  const UINT chain = full_chain(width, height, depth);
  if (levels == 0) levels = chain;
  if (levels > chain) return D3DERR_INVALIDCALL;
  return D3D_OK;
}

Texture::Texture(Device *device, nv_image_type type, UINT width, UINT height, UINT depth, UINT levels, DWORD usage,
                 D3DFORMAT format, D3DPOOL pool)
    : owner_(device), type_(type), format_d3d_(format), usage_(usage), pool_(pool),
      store_(device, format, type, width, height, depth, levels, usage, pool) {
  surfaces_.resize(size_t(store_.layers()) * levels, nullptr);
  autogen_ = (usage & D3DUSAGE_AUTOGENMIPMAP) && levels > 1;
  if (autogen_) store_.set_autogen(NV_FILTER_LINEAR);
}

HRESULT Texture::lock_rect(LockEntry entry, UINT layer, UINT level, D3DLOCKED_RECT *locked_rect, const RECT *rect,
                           DWORD flags) {
  DeviceLock lock(*owner_);
  if (!locked_rect) return D3DERR_INVALIDCALL;
  if (lock_clears_output(entry, pool_)) locked_rect->pBits = nullptr, locked_rect->Pitch = 0;
  if (level >= exposed_levels() || !lockable()) return D3DERR_INVALIDCALL;
  const RegionCheck check = lock_region_check(entry, pool_, format(), level);
  const LockRegion region = rect ? LockRegion{rect->left, rect->top, 0, rect->right, rect->bottom, 1} : LockRegion{};
  void *bits = nullptr;
  INT pitch = 0;
  const HRESULT hr = store_.lock(layer, level, rect ? &region : nullptr, check, flags, &bits, &pitch, nullptr);
  if (SUCCEEDED(hr)) locked_rect->pBits = bits, locked_rect->Pitch = pitch;
  return hr;
}

HRESULT Texture::unlock_rect(LockEntry entry, UINT layer, UINT level) {
  DeviceLock lock(*owner_);
  if (level >= exposed_levels() || layer >= store_.layers()) return D3DERR_INVALIDCALL;
  if (!store_.locked(layer, level)) return unlock_when_not_locked(entry);
  return store_.unlock(layer, level);
}

HRESULT Texture::set_autogen_filter(D3DTEXTUREFILTERTYPE filter) {
  DeviceLock lock(*owner_);
  // Every 2D and cube texture keeps a filter, AUTOGENMIPMAP or not, as Windows does (wined3d
  // accepts it and only warns); NONE, another value that names no filter and volumes are
  // refused. The plugins' blits have POINT and LINEAR: the other filters generate as LINEAR.
  if (type_ == NV_IMAGE_TYPE_3D || filter < D3DTEXF_POINT || filter > D3DTEXF_GAUSSIANQUAD) return D3DERR_INVALIDCALL;
  autogen_filter_ = filter;
  store_.set_autogen_filter(filter == D3DTEXF_POINT ? NV_FILTER_POINT : NV_FILTER_LINEAR);
  return D3D_OK;
}

DWORD Texture::set_lod(DWORD lod) {
  DeviceLock lock(*owner_);
  // Only managed textures have a LOD; others ignore the call and answer 0, as Windows does.
  if (pool_ != D3DPOOL_MANAGED) return 0;
  DWORD old = lod_;
  lod_ = std::min<DWORD>(lod, DWORD(levels() - 1));
  if (lod_ != old) owner_->texture_changed(this);
  return old;
}

HRESULT Texture::add_dirty_rect(UINT layer, const RECT *rect) {
  DeviceLock lock(*owner_);
  const LockRegion region = rect ? LockRegion{rect->left, rect->top, 0, rect->right, rect->bottom, 1} : LockRegion{};
  return store_.add_dirty(layer, rect ? &region : nullptr);
}

D3DSURFACE_DESC Texture::level_desc(UINT level) const {
  return D3DSURFACE_DESC{format_d3d_, D3DRTYPE_SURFACE, usage_, pool_, D3DMULTISAMPLE_NONE, 0, store_.width(level),
                         store_.height(level)};
}

Surface *Texture::surface(UINT layer, UINT level) {
  Surface *&s = surfaces_[size_t(layer) * levels() + level];
  if (!s) s = Surface::create_level(owner_, this, layer, level, level_desc(level));
  return s;
}

void Texture::delete_surfaces() {
  for (Surface *s : surfaces_) delete s;
  surfaces_.clear();
}

HRESULT Texture2D::check_depth(Device *device, UINT width, UINT height, UINT &levels, DWORD usage, D3DFORMAT format,
                               D3DPOOL pool) {
  // Depth textures (hardware shadow maps, INTZ): D3D9 allows D3DUSAGE_DEPTHSTENCIL only in
  // D3DPOOL_DEFAULT; Novem makes them of one level (levels 0 or 1), not dynamic, not render targets,
  // of a depth format the backend samples.
  const nv_adapter_info &adapter = device->adapter();
  FormatInfo info = format_info(format);
  if (width == 0 || height == 0 || std::max(width, height) > adapter.max_texture_size) return D3DERR_INVALIDCALL;
  if (pool != D3DPOOL_DEFAULT || levels > 1 || info.depth_sampling == DepthSampling::None ||
      !(adapter.format_support[info.storage] & NV_SUPPORT_DEPTH_SAMPLED))
    return D3DERR_INVALIDCALL;
  if (usage & ~DWORD(D3DUSAGE_DEPTHSTENCIL | D3DUSAGE_WRITEONLY | D3DUSAGE_SOFTWAREPROCESSING)) return D3DERR_INVALIDCALL;
  levels = 1;
  return D3D_OK;
}

HRESULT Texture2D::create(Device *device, UINT width, UINT height, UINT levels, DWORD usage, D3DFORMAT format,
                          D3DPOOL pool, Texture2D **out) {
  *out = nullptr;
  const HRESULT hr = (usage & D3DUSAGE_DEPTHSTENCIL) ? check_depth(device, width, height, levels, usage, format, pool)
                                                     : check(device, NV_IMAGE_TYPE_2D, width, height, 1, levels, usage, format, pool);
  if (FAILED(hr)) return hr;
  const uint64_t bytes = video_bytes(pool, format, NV_IMAGE_TYPE_2D, width, height, 1, levels);
  if (!device->take_video_memory(bytes)) return device->video_memory_refusal();
  auto *created = new Texture2D(device, width, height, levels, usage, format, pool);
  created->hold_video_memory(bytes);
  if (HRESULT answer = plugin_answer(*device, PluginResource::Image, created->image(), bytes, pool); FAILED(answer)) {
    delete created; // gives the video memory back
    return answer;
  }
  *out = created;
  return D3D_OK;
}

HRESULT Texture2D::GetLevelDesc(UINT level, D3DSURFACE_DESC *desc) {
  if (!desc || level >= exposed_levels()) return D3DERR_INVALIDCALL;
  *desc = level_desc(level);
  return D3D_OK;
}

HRESULT Texture2D::GetSurfaceLevel(UINT level, IDirect3DSurface9 **out) {
  DeviceLock lock(*owner_); // the level's surface is made on first use
  if (!out) return D3DERR_INVALIDCALL;
  *out = nullptr;
  if (level >= exposed_levels()) return D3DERR_INVALIDCALL;
  Surface *s = surface(0, level);
  s->AddRef(); // counts on the texture
  *out = s;
  return D3D_OK;
}

// A depth texture that compares is its own kind: the stage samples with the comparison.
ff::TextureKind ff_texture_kind(const Texture *t) {
  if (!t) return ff::kTextureNone;
  switch (t->type()) {
  case NV_IMAGE_TYPE_CUBE: return ff::kTextureCube;
  case NV_IMAGE_TYPE_3D: return ff::kTextureVolume;
  default: return compares_depth(t) ? ff::kTextureDepth : ff::kTexture2D;
  }
}

} // namespace novem
