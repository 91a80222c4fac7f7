// The texels of a texture of any kind (2D, cube, volume), kept in the frontend like a buffer's
// shadow: a lock hands out a pointer into a level's bytes and the unlock sends the
// dirty box to the plugin's image (UPDATE_IMAGE; one record set per face, or per z slice of a
// volume), so a lock never waits for the GPU. DEFAULT and MANAGED textures have a plugin image;
// SYSTEMMEM and SCRATCH ones are bytes only. Boxes are in texels; DXTn boxes are whole 4x4 blocks.
//
// Every level of every layer lives in one allocation laid out as Windows lays out a texture's
// memory: layer by layer (cube faces in D3DCUBEMAP_FACES order), each layer's levels largest first,
// each level right after the one before it (rows 4-byte aligned, DXTn rows a row of blocks).
// Programs rely on it: they write a whole mip chain through level 0's pointer, or compute a level's
// pointer from the one before it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <d3d9.h>

#include "format.hpp"
#include "lock_rules.hpp"

namespace novem {

class Device;

// A region of a level in texels as the program gave it (a RECT's LONGs may be negative, its
// edges inverted): lock() takes one it is not asked to check (RegionCheck) as it is.
struct LockRegion {
  int64_t left, top, front, right, bottom, back;
};

class TexelStore {
public:
  // layers: 6 for a cube (faces), 1 otherwise; depth > 1 only for NV_IMAGE_TYPE_3D.
  // usage: D3DUSAGE_RENDERTARGET makes the image a render target too.
  TexelStore(Device *device, D3DFORMAT format, nv_image_type type, UINT width, UINT height, UINT depth, UINT levels,
             DWORD usage, D3DPOOL pool);
  ~TexelStore();
  TexelStore(const TexelStore &) = delete;
  TexelStore &operator=(const TexelStore &) = delete;

  uint32_t image() const { return image_; }
  const FormatInfo &format() const { return format_; }
  UINT levels() const { return levels_; }
  UINT layers() const { return layers_; }
  UINT width(UINT level) const { return std::max(width_ >> level, 1u); }
  UINT height(UINT level) const { return std::max(height_ >> level, 1u); }
  UINT depth(UINT level) const { return std::max(depth_ >> level, 1u); }

  // Locks region (nullptr: the whole level) of a level of a layer. D3D_OK; D3DERR_INVALIDCALL for
  // a level already locked or a region `check` refuses; E_OUTOFMEMORY when the texture's bytes
  // cannot be allocated. bits points at the region's first texel (DXTn: the block holding it),
  // counted from the level's first byte even for a region that starts outside the level.
  HRESULT lock(UINT layer, UINT level, const LockRegion *region, RegionCheck check, DWORD flags, void **bits,
               INT *row_pitch, INT *slice_pitch);
  // D3DERR_INVALIDCALL when the level is not locked (the caller answers as Windows does).
  HRESULT unlock(UINT layer, UINT level);
  bool locked(UINT layer, UINT level) const { return subresources_[layer * levels_ + level].locked; }
  // AddDirtyRect / AddDirtyBox: region of level 0 (nullptr: all of it), and the same region
  // scaled in every level of layer, is dirty. D3DERR_INVALIDCALL for a region outside level 0 or
  // empty. A MANAGED texture sends it (the levels not locked now, the others at their unlock); a
  // SYSTEMMEM or SCRATCH one keeps it for UpdateTexture; a DEFAULT one has nothing to send (its
  // image is what copies and draws made it).
  HRESULT add_dirty(UINT layer, const LockRegion *region);
  // UpdateTexture copied from this store: nothing of it is dirty any more, in any level.
  void forget_dirty();
  // UpdateSurface: writes a block-aligned rectangle (rows src_pitch bytes apart, in the format's
  // layout) at (x, y) of a level, marks it dirty and sends it.
  // False, writing nothing, when the texture's bytes cannot be allocated.
  bool write(UINT layer, UINT level, UINT x, UINT y, UINT width, UINT height, const uint8_t *src, size_t src_pitch);
  // The bytes of a level (allocated, zero, if never locked) and their row pitch; nullptr when
  // they cannot be allocated.
  const uint8_t *bytes(UINT layer, UINT level, UINT *pitch);
  // D3DUSAGE_AUTOGENMIPMAP: after level 0 of a layer is sent, the plugin regenerates the levels
  // below it with `filter` (nv_filter).
  void set_autogen(uint32_t filter) { autogen_ = true, autogen_filter_ = filter; }
  void set_autogen_filter(uint32_t filter) { autogen_filter_ = filter; }
  // Sends GENERATE_MIPS (GenerateMipSubLevels).
  void generate_mips();
  // UpdateTexture: copies the dirty box of level src_level of src's layer into level dst_level
  // (the same size) of this store's layer, sends it to the image, and forgets src's dirty box.
  // False, copying nothing, when either store's bytes cannot be allocated.
  bool update_from(TexelStore &src, UINT layer, UINT src_level, UINT dst_level);
  // D3D9Ex's user memory (CreateTexture's pSharedHandle in SYSTEMMEM, a texture of one level):
  // the level's bytes are the program's, rows exactly a row of texels (or blocks) long, read and
  // written where they are and never freed here.
  void use_program_memory(uint8_t *memory);
  // The bytes of every level of every layer of a texture of these dimensions, laid out as above:
  // its video memory, known before the texture exists.
  static size_t memory_size(D3DFORMAT format, nv_image_type type, UINT width, UINT height, UINT depth, UINT levels);

private:
  struct Level {
    size_t offset = 0; // from the start of bytes_
    UINT pitch = 0;
    size_t slice_pitch = 0;
    bool locked = false;
    D3DBOX dirty{0, 0, 0, 0, 0, 0}; // empty: nothing to send
    uint32_t update_flags = 0;      // nv_update_flags of the next send (a dynamic texture's lock)
  };
  Level &level(UINT layer, UINT level) { return subresources_[layer * levels_ + level]; }
  // Lays out levels of layers (out: layers * levels entries, or nullptr); returns the bytes.
  static size_t layout(const FormatInfo &format, UINT width, UINT height, UINT depth, UINT levels, UINT layers,
                       Level *out);
  // Whether region is inside the level and not empty; whether its DXTn edges are on blocks.
  bool inside(const LockRegion &r, UINT level) const;
  bool block_aligned(const LockRegion &r, UINT level) const;
  void grow_to_blocks(D3DBOX &b, UINT level) const;
  // Marks box of level 0, scaled, dirty in every level of layer and sends what is not locked.
  void mark_levels(UINT layer, const D3DBOX &level0);
  void send_dirty(UINT layer, UINT level);
  // Allocates bytes_ (zero) on first use; false when it cannot be had.
  bool allocate();
  uint8_t *base() { return program_memory_ ? program_memory_ : bytes_.data(); }
  bool has_bytes() const { return program_memory_ || !bytes_.empty(); }
  uint8_t *data(const Level &l) { return base() + l.offset; }

  Device *device_;
  FormatInfo format_;
  nv_image_type type_;
  UINT width_, height_, depth_, levels_, layers_;
  D3DPOOL pool_;
  bool dynamic_; // a D3DUSAGE_DYNAMIC DEFAULT texture: its locks pass DISCARD / NOOVERWRITE on
  uint32_t image_ = 0;
  bool autogen_ = false;
  uint32_t autogen_filter_ = NV_FILTER_LINEAR;
  // Stores without an image (SYSTEMMEM, SCRATCH) keep their dirty boxes for UpdateTexture. As in
  // Windows, a region dirty in one level is dirty, scaled, in all of them.
  std::vector<Level> subresources_; // layer-major
  size_t size_ = 0;
  std::vector<uint8_t> bytes_; // every level, as subresources_ lays them out; empty until first used
  uint8_t *program_memory_ = nullptr; // use_program_memory's, instead of bytes_
};

} // namespace novem
