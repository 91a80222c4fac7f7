// Windows' answers to LockRect, LockBox and their unlocks that depend on how the lock came in,
// on the resource's pool and on its format: whether the rectangle is checked at all, whether a
// refused lock clears the D3DLOCKED_RECT it was given, what unlocking a level that is not locked
// answers. They are measured facts (Wine's d3d9 tests as they pass on Windows, DXVK's measures;
// docs/d3d9-behaviour.md, "Lock rectangles"), not a design: the differences between entry points
// are Windows' own.
#pragma once

#include <cstdint>

#include <d3d9.h>

#include "format.hpp"

namespace novem {

// How a lock came in.
enum class LockEntry {
  Texture,     // IDirect3DTexture9::LockRect / UnlockRect
  CubeTexture, // IDirect3DCubeTexture9::LockRect / UnlockRect
  Surface,     // IDirect3DSurface9::LockRect / UnlockRect (a texture level's, a plain surface's, a target's)
  CubeSurface, // IDirect3DSurface9 of a cube texture's face
  Volume,      // IDirect3DVolumeTexture9::LockBox, IDirect3DVolume9::LockBox
};

// What a lock checks of its rectangle (box).
enum class RegionCheck {
  None,            // any rectangle locks, even empty, inverted or outside the level
  Bounds,          // inside the level and not empty
  BoundsAndBlocks, // and DXTn edges on block edges (or on the level's edge)
};

// In DEFAULT Windows always checks, and volumes check in every pool. Outside DEFAULT a texture's
// own LockRect takes any rectangle; a surface's checks it, except for DXTn formats, whose
// rectangles no surface checks there. Blocks are checked at level 0 only (below it, only the
// bounds; DXVK measured it on Windows). Where pBits points for a rectangle that is not checked
// is TexelStore::lock's.
inline RegionCheck lock_region_check(LockEntry entry, D3DPOOL pool, const FormatInfo &format, UINT level) {
  const bool checked = pool == D3DPOOL_DEFAULT || entry == LockEntry::Volume ||
                       ((entry == LockEntry::Surface || entry == LockEntry::CubeSurface) && format.block == 1);
  if (!checked) return RegionCheck::None;
  return level == 0 ? RegionCheck::BoundsAndBlocks : RegionCheck::Bounds;
}

// Whether a rectangle's edges lie on `block`-texel block edges, or on the level's own right and
// bottom edge (what RegionCheck::BoundsAndBlocks asks of DXTn rectangles).
inline bool on_block_edges(int64_t left, int64_t top, int64_t right, int64_t bottom, int64_t block, int64_t width,
                           int64_t height) {
  return left % block == 0 && top % block == 0 && (right % block == 0 || right == width) &&
         (bottom % block == 0 || bottom == height);
}

// Whether a lock clears the D3DLOCKED_RECT (D3DLOCKED_BOX) it is given before it may fail: in
// DEFAULT, and for volumes. Elsewhere a refused lock leaves it as it was.
inline bool lock_clears_output(LockEntry entry, D3DPOOL pool) {
  return pool == D3DPOOL_DEFAULT || entry == LockEntry::Volume;
}

// What unlocking a texture's level that is not locked answers: D3D_OK through a 2D texture, its
// level's surface or a cube texture; a cube face's surface and a volume refuse. (Plain surfaces
// and render targets refuse too; they answer for themselves.)
inline HRESULT unlock_when_not_locked(LockEntry entry) {
  return entry == LockEntry::Texture || entry == LockEntry::Surface || entry == LockEntry::CubeTexture
             ? D3D_OK
             : D3DERR_INVALIDCALL;
}

} // namespace novem
