#include "texel_store.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include "device.hpp"
#include "host_memory.hpp"
#include "upload_conversion.hpp"

namespace novem {

namespace {

bool empty(const D3DBOX &b) { return b.Left >= b.Right || b.Top >= b.Bottom || b.Front >= b.Back; }

void unite(D3DBOX &into, const D3DBOX &b) {
  if (empty(into)) {
    into = b;
    return;
  }
  into.Left = std::min(into.Left, b.Left), into.Top = std::min(into.Top, b.Top), into.Front = std::min(into.Front, b.Front);
  into.Right = std::max(into.Right, b.Right), into.Bottom = std::max(into.Bottom, b.Bottom);
  into.Back = std::max(into.Back, b.Back);
}

// [lo, hi) of level 0 scaled to level n, rounded outwards, at least one texel, within size.
void scale(UINT lo, UINT hi, UINT n, UINT size, UINT &out_lo, UINT &out_hi) {
  out_lo = std::min(lo >> n, size - 1);
  out_hi = std::clamp<UINT>((hi + (1u << n) - 1) >> n, out_lo + 1, size);
}

// Rounds towards minus infinity: the block holding a texel left of or above the level is the one
// before block 0, as the texel arithmetic of a pointer would have it.
int64_t floor_div(int64_t v, int64_t d) { return v >= 0 ? v / d : -((-v + d - 1) / d); }

} // namespace

TexelStore::TexelStore(Device *device, D3DFORMAT format, nv_image_type type, UINT width, UINT height, UINT depth,
                       UINT levels, DWORD usage, D3DPOOL pool)
    : device_(device), format_(type == NV_IMAGE_TYPE_3D ? volume_format_info(format) : format_info(format)), type_(type), width_(width), height_(height),
      depth_(type == NV_IMAGE_TYPE_3D ? depth : 1), levels_(levels), layers_(type == NV_IMAGE_TYPE_CUBE ? 6 : 1),
      pool_(pool), dynamic_(pool == D3DPOOL_DEFAULT && (usage & D3DUSAGE_DYNAMIC)) {
  subresources_.resize(size_t(layers_) * levels_);
  size_ = layout(format_, width_, height_, depth_, levels_, layers_, subresources_.data());
  if (pool == D3DPOOL_SYSTEMMEM || pool == D3DPOOL_SCRATCH) {
    // A new texture is dirty all over: the first UpdateTexture from it copies every level.
    for (UINT layer = 0; layer < layers_; ++layer)
      for (UINT i = 0; i < levels_; ++i)
        level(layer, i).dirty = D3DBOX{0, 0, this->width(i), this->height(i), 0, this->depth(i)};
  } else {
    image_ = device->commands().new_handle();
    uint32_t nv_usage = NV_IMAGE_SAMPLED | (format_.has_alpha ? 0u : uint32_t(NV_IMAGE_ALPHA_ONE));
    if (usage & D3DUSAGE_RENDERTARGET) nv_usage |= NV_IMAGE_RENDER_TARGET;
    if (usage & D3DUSAGE_DEPTHSTENCIL) nv_usage = NV_IMAGE_SAMPLED | NV_IMAGE_DEPTH_STENCIL; // a depth texture
    device->commands().push(nv_cmd_create_image{image_, uint32_t(format_.storage), width_, height_,
                                                                    nv_usage, levels_, uint32_t(type_), depth_});
  }
}

size_t TexelStore::layout(const FormatInfo &format, UINT width, UINT height, UINT depth, UINT levels, UINT layers,
                          Level *out) {
  size_t size = 0;
  for (UINT layer = 0; layer < layers; ++layer) {
    for (UINT i = 0; i < levels; ++i) {
      Level l;
      // A row of blocks for DXTn; other rows start 4-byte aligned, as Windows lays textures out.
      // Texture::check bounds the size by the caps or, in SCRATCH, the pitch by its 32 bits.
      l.pitch = UINT(format.row_bytes(std::max(width >> i, 1u)));
      if (format.block == 1) l.pitch = (l.pitch + 3) & ~3u;
      l.slice_pitch = size_t(l.pitch) * format.block_rows(std::max(height >> i, 1u));
      l.offset = size;
      size += l.slice_pitch * std::max(depth >> i, 1u);
      if (out) out[size_t(layer) * levels + i] = l;
    }
    size = (size + 15) & ~size_t(15); // Windows starts each cube face 16-byte aligned
  }
  return size;
}

size_t TexelStore::memory_size(D3DFORMAT format, nv_image_type type, UINT width, UINT height, UINT depth, UINT levels) {
  return layout(format_info(format), width, height, type == NV_IMAGE_TYPE_3D ? depth : 1, levels,
                type == NV_IMAGE_TYPE_CUBE ? 6 : 1, nullptr);
}

TexelStore::~TexelStore() {
  if (image_) device_->commands().push(nv_cmd_destroy_image{image_});
}

bool TexelStore::inside(const LockRegion &r, UINT i) const {
  return r.left >= 0 && r.top >= 0 && r.front >= 0 && r.left < r.right && r.top < r.bottom && r.front < r.back &&
         r.right <= int64_t(width(i)) && r.bottom <= int64_t(height(i)) && r.back <= int64_t(depth(i));
}

bool TexelStore::block_aligned(const LockRegion &r, UINT i) const {
  return on_block_edges(r.left, r.top, r.right, r.bottom, format_.block, width(i), height(i));
}

void TexelStore::grow_to_blocks(D3DBOX &b, UINT i) const {
  const UINT n = format_.block;
  b.Left -= b.Left % n, b.Top -= b.Top % n;
  b.Right = std::min((b.Right + n - 1) / n * n, width(i));
  b.Bottom = std::min((b.Bottom + n - 1) / n * n, height(i));
}

HRESULT TexelStore::lock(UINT layer, UINT i, const LockRegion *region, RegionCheck check, DWORD flags, void **bits,
                         INT *row_pitch, INT *slice_pitch) {
  if (layer >= layers_ || i >= levels_) return D3DERR_INVALIDCALL;
  Level &l = level(layer, i);
  if (l.locked) return D3DERR_INVALIDCALL;
  const D3DBOX whole{0, 0, width(i), height(i), 0, depth(i)};
  const LockRegion r = region ? *region : LockRegion{0, 0, 0, whole.Right, whole.Bottom, whole.Back};
  const bool in = inside(r, i);
  if (check != RegionCheck::None && !in) return D3DERR_INVALIDCALL;
  if (check == RegionCheck::BoundsAndBlocks && !block_aligned(r, i)) return D3DERR_INVALIDCALL;
  if (!allocate()) return E_OUTOFMEMORY;
  *row_pitch = INT(l.pitch);
  if (slice_pitch) *slice_pitch = INT(l.slice_pitch);
  // Integer arithmetic, not pointer arithmetic: a region Windows takes unchecked may start before
  // the level (or past it), and the pointer is the program's to use as it would on Windows.
  const int64_t n = format_.block;
  const int64_t offset = r.front * int64_t(l.slice_pitch) + floor_div(r.top, n) * int64_t(l.pitch) +
                         floor_div(r.left, n) * int64_t(format_.bytes_per_pixel);
  *bits = reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(data(l)) + uintptr_t(offset));
  l.locked = true;
  // The texels the program may write: the region in whole blocks; all of the level for a region
  // outside it, since where such a pointer leads cannot be known.
  D3DBOX b = whole;
  if (in) {
    b = D3DBOX{UINT(r.left), UINT(r.top), UINT(r.right), UINT(r.bottom), UINT(r.front), UINT(r.back)};
    grow_to_blocks(b, i);
  }
  // READONLY writes nothing; NO_DIRTY_UPDATE leaves the box out of the dirty region (D3D9 keeps
  // such changes for a later AddDirtyRect / AddDirtyBox), except in a dynamic texture, which
  // Windows sends whatever the flag.
  if (!(flags & D3DLOCK_READONLY) && (!(flags & D3DLOCK_NO_DIRTY_UPDATE) || dynamic_)) {
    if (image_) {
      unite(l.dirty, b); // sent at the unlock
    } else {
      // An UpdateTexture source: the region scaled to level 0 is dirty, so in every level.
      D3DBOX level0{b.Left << i, b.Top << i, std::min(b.Right << i, width_), std::min(b.Bottom << i, height_),
                    b.Front << i, std::min(b.Back << i, depth_)};
      mark_levels(layer, level0);
    }
  }
  // DISCARD and NOOVERWRITE mean something on D3DUSAGE_DYNAMIC textures only, as for buffers. The
  // texels stay in the frontend either way, so a lock never waits; the flags let the plugin skip
  // ordering the write after queued draws. After DISCARD the whole level goes (the frontend's
  // texels), so the plugin's fresh storage holds no undefined texels.
  if (dynamic_ && !(flags & D3DLOCK_READONLY)) {
    if (flags & D3DLOCK_DISCARD) {
      l.update_flags = NV_UPDATE_DISCARD;
      unite(l.dirty, whole);
    } else if ((flags & D3DLOCK_NOOVERWRITE) && !(l.update_flags & NV_UPDATE_DISCARD)) {
      l.update_flags = NV_UPDATE_NO_OVERWRITE;
    }
  }
  return D3D_OK;
}

HRESULT TexelStore::unlock(UINT layer, UINT i) {
  if (layer >= layers_ || i >= levels_ || !level(layer, i).locked) return D3DERR_INVALIDCALL;
  level(layer, i).locked = false;
  send_dirty(layer, i);
  return D3D_OK;
}

HRESULT TexelStore::add_dirty(UINT layer, const LockRegion *region) {
  if (layer >= layers_ || (region && !inside(*region, 0))) return D3DERR_INVALIDCALL;
  if (pool_ == D3DPOOL_DEFAULT) return D3D_OK;
  D3DBOX b{0, 0, width_, height_, 0, depth_};
  if (region) b = D3DBOX{UINT(region->left), UINT(region->top), UINT(region->right), UINT(region->bottom),
                         UINT(region->front), UINT(region->back)};
  mark_levels(layer, b);
  return D3D_OK;
}

void TexelStore::mark_levels(UINT layer, const D3DBOX &b) {
  // An AUTOGENMIPMAP texture's levels below 0 are the plugin's: sending level 0 regenerates them.
  const UINT marked = autogen_ ? 1 : levels_;
  for (UINT i = 0; i < marked; ++i) {
    Level &l = level(layer, i);
    D3DBOX s;
    scale(b.Left, b.Right, i, width(i), s.Left, s.Right);
    scale(b.Top, b.Bottom, i, height(i), s.Top, s.Bottom);
    scale(b.Front, b.Back, i, depth(i), s.Front, s.Back);
    grow_to_blocks(s, i);
    unite(l.dirty, s);
    if (!l.locked) send_dirty(layer, i);
  }
}

void TexelStore::forget_dirty() {
  for (Level &l : subresources_) l.dirty = D3DBOX{0, 0, 0, 0, 0, 0};
}

void TexelStore::use_program_memory(uint8_t *memory) {
  Level &l = subresources_[0];
  l.pitch = UINT(format_.row_bytes(width_));
  l.slice_pitch = size_t(l.pitch) * format_.block_rows(height_);
  program_memory_ = memory;
}

bool TexelStore::allocate() {
  if (has_bytes()) return true;
  if (size_ > host_memory_bytes()) return false;
  try {
    bytes_.assign(size_, 0);
  } catch (const std::bad_alloc &) {
    return false;
  }
  return true;
}

bool TexelStore::write(UINT layer, UINT i, UINT x, UINT y, UINT width, UINT height, const uint8_t *src,
                       size_t src_pitch) {
  Level &l = level(layer, i);
  if (!allocate()) return false;
  const size_t row = format_.row_bytes(width);
  for (UINT r = 0; r < format_.block_rows(height); ++r)
    std::memcpy(data(l) + size_t(y / format_.block + r) * l.pitch + size_t(x / format_.block) * format_.bytes_per_pixel,
                src + r * src_pitch, row);
  unite(l.dirty, D3DBOX{x, y, x + width, y + height, 0, 1});
  if (!l.locked) send_dirty(layer, i);
  return true;
}

const uint8_t *TexelStore::bytes(UINT layer, UINT i, UINT *pitch) {
  Level &l = level(layer, i);
  if (!allocate()) return nullptr;
  *pitch = l.pitch;
  return data(l);
}

bool TexelStore::update_from(TexelStore &src, UINT layer, UINT src_level, UINT dst_level) {
  Level &from = src.level(layer, src_level), &to = level(layer, dst_level);
  const D3DBOX b = from.dirty;
  if (empty(b)) return true;
  if (!src.allocate() || !allocate()) return false;
  from.dirty = D3DBOX{0, 0, 0, 0, 0, 0};
  const size_t row = format_.row_bytes(b.Right - b.Left);
  for (UINT z = b.Front; z < b.Back; ++z)
    for (UINT y = b.Top / format_.block; y < format_.block_rows(b.Bottom); ++y) {
      const size_t offset = size_t(b.Left / format_.block) * format_.bytes_per_pixel;
      std::memcpy(data(to) + size_t(z) * to.slice_pitch + size_t(y) * to.pitch + offset,
                  src.data(from) + size_t(z) * from.slice_pitch + size_t(y) * from.pitch + offset, row);
    }
  unite(to.dirty, b);
  if (!to.locked) send_dirty(layer, dst_level);
  return true;
}

void TexelStore::send_dirty(UINT layer, UINT i) {
  Level &l = level(layer, i);
  if (!image_) return; // kept for UpdateTexture
  const D3DBOX b = l.dirty;
  const uint32_t flags = l.update_flags;
  l.dirty = D3DBOX{0, 0, 0, 0, 0, 0};
  l.update_flags = 0;
  if (empty(b) || !has_bytes()) return;
  // A volume goes slice by slice (UPDATE_IMAGE's layer is the z slice); a cube face is the layer.
  for (UINT z = b.Front; z < b.Back; ++z) {
    const uint8_t *first = data(l) + size_t(z) * l.slice_pitch + size_t(b.Top / format_.block) * l.pitch +
                           size_t(b.Left / format_.block) * format_.bytes_per_pixel;
    send_texels(device_->commands(), format_, image_, i, type_ == NV_IMAGE_TYPE_3D ? z : layer, int32_t(b.Left),
                int32_t(b.Top), b.Right - b.Left, b.Bottom - b.Top, first, l.pitch, flags);
  }
  if (autogen_ && i == 0) generate_mips();
}

void TexelStore::generate_mips() {
  if (image_ && autogen_ && levels_ > 1)
    device_->commands().push(nv_cmd_generate_mips{image_, autogen_filter_});
}

} // namespace novem
