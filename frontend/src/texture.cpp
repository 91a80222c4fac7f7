#include "texture.hpp"

#include <algorithm>

#include "surface.hpp"

namespace novem {

namespace {

UINT full_chain(UINT width, UINT height) {
  UINT levels = 1;
  while ((std::max(width, height) >> levels) != 0) ++levels;
  return levels;
}

bool empty(const RECT &r) { return r.left >= r.right || r.top >= r.bottom; }

void unite(RECT &into, const RECT &r) {
  if (empty(into)) {
    into = r;
    return;
  }
  into.left = std::min(into.left, r.left), into.top = std::min(into.top, r.top);
  into.right = std::max(into.right, r.right), into.bottom = std::max(into.bottom, r.bottom);
}

} // namespace

HRESULT Texture::create(Device *device, UINT width, UINT height, UINT levels, DWORD usage, D3DFORMAT format,
                        D3DPOOL pool, Texture **out) {
  *out = nullptr;
  if (width == 0 || height == 0 || pool > D3DPOOL_SCRATCH) return D3DERR_INVALIDCALL;
  const nv_adapter_info &adapter = device->adapter();
  if (width > adapter.max_texture_size || height > adapter.max_texture_size) return D3DERR_INVALIDCALL;
  FormatInfo info = format_info(format);
  if (!info.texture) return D3DERR_INVALIDCALL;
  if (pool != D3DPOOL_SCRATCH && !(adapter.format_support[info.storage] & NV_SUPPORT_SAMPLED)) return D3DERR_INVALIDCALL;
  // Render-target, depth-stencil and autogen-mipmap textures are not implemented yet.
  constexpr DWORD known = D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY | D3DUSAGE_SOFTWAREPROCESSING;
  if (usage & ~known) return D3DERR_INVALIDCALL;
  if ((usage & D3DUSAGE_DYNAMIC) && (pool == D3DPOOL_MANAGED || pool == D3DPOOL_SCRATCH)) return D3DERR_INVALIDCALL;
  const UINT chain = full_chain(width, height);
  if (levels == 0 || levels > chain) levels = levels == 0 ? chain : 0;
  if (levels == 0) return D3DERR_INVALIDCALL;
  *out = new Texture(device, width, height, levels, usage, format, pool);
  return D3D_OK;
}

Texture::Texture(Device *device, UINT width, UINT height, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool)
    : DeviceChild(device, 1), format_d3d_(format), format_(format_info(format)), usage_(usage), pool_(pool) {
  levels_.resize(levels);
  for (UINT i = 0; i < levels; ++i) {
    Level &l = levels_[i];
    l.width = std::max(width >> i, 1u);
    l.height = std::max(height >> i, 1u);
    // A row of blocks for DXTn; other rows start 4-byte aligned, as Windows lays textures out.
    l.pitch = UINT(format_.row_bytes(l.width));
    if (format_.block == 1) l.pitch = (l.pitch + 3) & ~3u;
  }
  if (pool == D3DPOOL_DEFAULT || pool == D3DPOOL_MANAGED) {
    image_ = device->commands().new_handle();
    uint32_t nv_usage = NV_IMAGE_SAMPLED | (format_.has_alpha ? 0u : uint32_t(NV_IMAGE_ALPHA_ONE));
    device->commands().push(NV_OP_CREATE_IMAGE, nv_cmd_create_image{image_, uint32_t(format_.storage), width, height,
                                                                    nv_usage, levels});
  }
}

Texture::~Texture() {
  for (Level &l : levels_) delete l.surface;
  if (image_) device_->commands().push(NV_OP_DESTROY_IMAGE, nv_cmd_destroy_image{image_});
}

HRESULT Texture::QueryInterface(REFIID iid, void **out) {
  if (out && IsEqualGUID(iid, IID_IDirect3DBaseTexture9)) {
    AddRef();
    *out = static_cast<IDirect3DTexture9 *>(this);
    return S_OK;
  }
  return query(iid, IID_IDirect3DTexture9, out);
}

DWORD Texture::SetLOD(DWORD lod) {
  // Only managed textures have a LOD; others ignore the call and answer 0, as Windows does.
  if (pool_ != D3DPOOL_MANAGED) return 0;
  DWORD old = lod_;
  lod_ = std::min<DWORD>(lod, DWORD(levels_.size() - 1));
  if (lod_ != old) device_->texture_changed(this);
  return old;
}

DWORD Texture::GetLOD() { return pool_ == D3DPOOL_MANAGED ? lod_ : 0; }

HRESULT Texture::SetAutoGenFilterType(D3DTEXTUREFILTERTYPE) { return D3DERR_INVALIDCALL; } // no AUTOGENMIPMAP yet

D3DSURFACE_DESC Texture::level_desc(UINT level) const {
  const Level &l = levels_[level];
  return D3DSURFACE_DESC{format_d3d_, D3DRTYPE_SURFACE, usage_, pool_, D3DMULTISAMPLE_NONE, 0, l.width, l.height};
}

HRESULT Texture::GetLevelDesc(UINT level, D3DSURFACE_DESC *desc) {
  if (!desc || level >= levels_.size()) return D3DERR_INVALIDCALL;
  *desc = level_desc(level);
  return D3D_OK;
}

HRESULT Texture::GetSurfaceLevel(UINT level, IDirect3DSurface9 **surface) {
  if (!surface) return D3DERR_INVALIDCALL;
  *surface = nullptr;
  if (level >= levels_.size()) return D3DERR_INVALIDCALL;
  Level &l = levels_[level];
  if (!l.surface) l.surface = Surface::create_level(device_, this, level, level_desc(level));
  l.surface->AddRef(); // counts on the texture
  *surface = l.surface;
  return D3D_OK;
}

HRESULT Texture::LockRect(UINT level, D3DLOCKED_RECT *locked_rect, const RECT *rect, DWORD flags) {
  if (!locked_rect || level >= levels_.size()) return D3DERR_INVALIDCALL;
  locked_rect->pBits = nullptr;
  locked_rect->Pitch = 0;
  // A DEFAULT texture is lockable only when dynamic, as in Windows.
  if (pool_ == D3DPOOL_DEFAULT && !(usage_ & D3DUSAGE_DYNAMIC)) return D3DERR_INVALIDCALL;
  Level &l = levels_[level];
  if (l.locked) return D3DERR_INVALIDCALL;
  RECT r{0, 0, LONG(l.width), LONG(l.height)};
  if (rect) {
    if (rect->left < 0 || rect->top < 0 || rect->left >= rect->right || rect->top >= rect->bottom ||
        rect->right > LONG(l.width) || rect->bottom > LONG(l.height))
      return D3DERR_INVALIDCALL;
    r = *rect;
  }
  // DXTn rectangles are whole 4x4 blocks (an edge may stop at the level's edge), as in Windows.
  if (!block_aligned(r, l)) return D3DERR_INVALIDCALL;
  if (l.bytes.empty()) l.bytes.assign(size_t(l.pitch) * format_.block_rows(l.height), 0);
  locked_rect->Pitch = INT(l.pitch);
  locked_rect->pBits = l.bytes.data() + size_t(r.top / format_.block) * l.pitch +
                       size_t(r.left / format_.block) * format_.bytes_per_pixel;
  l.locked = true;
  // READONLY writes nothing; NO_DIRTY_UPDATE leaves the region out of the dirty one (D3D9 keeps
  // such changes for a later AddDirtyRect).
  if (!(flags & (D3DLOCK_READONLY | D3DLOCK_NO_DIRTY_UPDATE))) unite(l.dirty, r);
  return D3D_OK;
}

HRESULT Texture::UnlockRect(UINT level) {
  if (level >= levels_.size() || !levels_[level].locked) return D3DERR_INVALIDCALL;
  levels_[level].locked = false;
  send_dirty(level);
  return D3D_OK;
}

HRESULT Texture::AddDirtyRect(const RECT *dirty_rect) {
  // The rectangle is in level 0's texels; each level gets its share, rounded outwards.
  RECT r{0, 0, LONG(levels_[0].width), LONG(levels_[0].height)};
  if (dirty_rect) {
    r.left = std::max<LONG>(dirty_rect->left, 0), r.top = std::max<LONG>(dirty_rect->top, 0);
    r.right = std::min<LONG>(dirty_rect->right, r.right), r.bottom = std::min<LONG>(dirty_rect->bottom, r.bottom);
    if (empty(r)) return D3D_OK;
  }
  for (UINT i = 0; i < levels_.size(); ++i) {
    Level &l = levels_[i];
    RECT s{r.left >> i, r.top >> i, std::max<LONG>((r.right + (1 << i) - 1) >> i, (r.left >> i) + 1),
           std::max<LONG>((r.bottom + (1 << i) - 1) >> i, (r.top >> i) + 1)};
    s.right = std::min<LONG>(s.right, LONG(l.width)), s.bottom = std::min<LONG>(s.bottom, LONG(l.height));
    grow_to_blocks(s, l);
    if (!l.bytes.empty()) unite(l.dirty, s);
    if (!l.locked) send_dirty(i);
  }
  return D3D_OK;
}

bool Texture::block_aligned(const RECT &r, const Level &l) const {
  const LONG b = LONG(format_.block);
  return r.left % b == 0 && r.top % b == 0 && (r.right % b == 0 || r.right == LONG(l.width)) &&
         (r.bottom % b == 0 || r.bottom == LONG(l.height));
}

void Texture::grow_to_blocks(RECT &r, const Level &l) const {
  const LONG b = LONG(format_.block);
  r.left -= r.left % b, r.top -= r.top % b;
  r.right = std::min<LONG>((r.right + b - 1) / b * b, LONG(l.width));
  r.bottom = std::min<LONG>((r.bottom + b - 1) / b * b, LONG(l.height));
}

void Texture::send_dirty(UINT level) {
  Level &l = levels_[level];
  RECT r = l.dirty;
  l.dirty = RECT{0, 0, 0, 0};
  if (!image_ || empty(r) || l.bytes.empty()) return;
  const uint8_t *first = l.bytes.data() + size_t(r.top / format_.block) * l.pitch +
                        size_t(r.left / format_.block) * format_.bytes_per_pixel;
  device_->commands().update_image(image_, format_.storage, level, r.left, r.top, UINT(r.right - r.left),
                                   UINT(r.bottom - r.top), first, l.pitch);
}

} // namespace novem
