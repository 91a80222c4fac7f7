// A texture's memory as Windows lays it out (SYSTEMMEM, MANAGED, SCRATCH): every level of every
// cube face in one allocation, levels largest first with no gap, each face starting 16-byte
// aligned; rows 4-byte aligned, DXTn rows a row of 4x4 blocks. Programs write a whole mip chain
// through level 0's pointer and compute a level's pointer from the one before: under the sanitizer
// job a chain written past level 0's own bytes is a heap overflow if the levels are apart.
#include <algorithm>
#include <cstring>
#include <vector>

#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

struct LayoutCase {
  D3DFORMAT format;
  UINT bytes;       // per texel, or per 4x4 block
  UINT block;       // 1, or 4 for DXTn
  D3DPOOL pool;
};

// The bytes of a level: rows (of blocks) times the pitch.
size_t level_bytes(const LayoutCase &c, UINT width, UINT height) {
  const size_t pitch = c.block == 1 ? (size_t(width) * c.bytes + 3) & ~size_t(3) : size_t((width + 3) / 4) * c.bytes;
  return pitch * ((height + c.block - 1) / c.block);
}

const LayoutCase kCases[] = {
    {D3DFMT_A8R8G8B8, 4, 1, D3DPOOL_MANAGED}, {D3DFMT_A8R8G8B8, 4, 1, D3DPOOL_SYSTEMMEM},
    {D3DFMT_A8R8G8B8, 4, 1, D3DPOOL_SCRATCH}, {D3DFMT_L8, 1, 1, D3DPOOL_MANAGED},
    {D3DFMT_L8, 1, 1, D3DPOOL_SYSTEMMEM},     {D3DFMT_R5G6B5, 2, 1, D3DPOOL_SCRATCH},
    {D3DFMT_DXT1, 8, 4, D3DPOOL_MANAGED},     {D3DFMT_DXT5, 16, 4, D3DPOOL_SYSTEMMEM},
    {D3DFMT_DXT3, 16, 4, D3DPOOL_SCRATCH},
};

} // namespace

TEST_CASE("texture memory: 2D levels follow each other in one allocation", "[api][texture][layout]") {
  NullDevice d;
  for (const LayoutCase &c : kCases) {
    CAPTURE(c.format, c.pool);
    IDirect3DTexture9 *texture = nullptr;
    REQUIRE(d.device->CreateTexture(60, 36, 0, 0, c.format, c.pool, &texture, nullptr) == D3D_OK);
    const UINT levels = texture->GetLevelCount();
    D3DLOCKED_RECT base;
    REQUIRE(texture->LockRect(0, &base, nullptr, 0) == D3D_OK);
    auto *first = static_cast<uint8_t *>(base.pBits);
    // Locks of the other levels while level 0 is locked, as programs do.
    size_t offset = 0, total = 0;
    for (UINT i = 0; i < levels; ++i) {
      const UINT w = std::max(60u >> i, 1u), h = std::max(36u >> i, 1u);
      D3DLOCKED_RECT lr;
      if (i > 0) {
        REQUIRE(texture->LockRect(i, &lr, nullptr, 0) == D3D_OK);
        CHECK(static_cast<uint8_t *>(lr.pBits) == first + offset);
        CHECK(texture->UnlockRect(i) == D3D_OK);
      }
      offset += level_bytes(c, w, h);
    }
    total = offset;
    // The whole chain through level 0's pointer.
    std::memset(first, 0x5a, total);
    CHECK(texture->UnlockRect(0) == D3D_OK);
    D3DLOCKED_RECT last;
    REQUIRE(texture->LockRect(levels - 1, &last, nullptr, D3DLOCK_READONLY) == D3D_OK);
    CHECK(static_cast<uint8_t *>(last.pBits)[0] == 0x5a);
    CHECK(texture->UnlockRect(levels - 1) == D3D_OK);
    CHECK(texture->Release() == 0);
  }
}

TEST_CASE("texture memory: cube faces follow each other, each 16-byte aligned", "[api][texture][layout][cube]") {
  NullDevice d;
  for (const LayoutCase &c : kCases) {
    CAPTURE(c.format, c.pool);
    IDirect3DCubeTexture9 *cube = nullptr;
    REQUIRE(d.device->CreateCubeTexture(20, 0, 0, c.format, c.pool, &cube, nullptr) == D3D_OK);
    const UINT levels = cube->GetLevelCount();
    D3DLOCKED_RECT base;
    REQUIRE(cube->LockRect(D3DCUBEMAP_FACE_POSITIVE_X, 0, &base, nullptr, 0) == D3D_OK);
    auto *first = static_cast<uint8_t *>(base.pBits);
    size_t offset = 0;
    for (UINT face = 0; face < 6; ++face) {
      for (UINT i = 0; i < levels; ++i) {
        const UINT edge = std::max(20u >> i, 1u);
        if (face || i) {
          D3DLOCKED_RECT lr;
          REQUIRE(cube->LockRect(D3DCUBEMAP_FACES(face), i, &lr, nullptr, 0) == D3D_OK);
          CHECK(static_cast<uint8_t *>(lr.pBits) == first + offset);
          CHECK(cube->UnlockRect(D3DCUBEMAP_FACES(face), i) == D3D_OK);
        }
        offset += level_bytes(c, edge, edge);
      }
      offset = (offset + 15) & ~size_t(15);
    }
    std::memset(first, 0x33, offset); // every face through face 0's level 0
    CHECK(cube->UnlockRect(D3DCUBEMAP_FACE_POSITIVE_X, 0) == D3D_OK);
    CHECK(cube->Release() == 0);
  }
}

TEST_CASE("texture memory: volume levels follow each other", "[api][texture][layout][volume]") {
  NullDevice d;
  for (D3DPOOL pool : {D3DPOOL_MANAGED, D3DPOOL_SYSTEMMEM, D3DPOOL_SCRATCH}) {
    CAPTURE(pool);
    IDirect3DVolumeTexture9 *volume = nullptr;
    REQUIRE(d.device->CreateVolumeTexture(12, 6, 5, 0, 0, D3DFMT_A8R8G8B8, pool, &volume, nullptr) == D3D_OK);
    D3DLOCKED_BOX base;
    REQUIRE(volume->LockBox(0, &base, nullptr, 0) == D3D_OK);
    CHECK(base.RowPitch == 12 * 4);
    CHECK(base.SlicePitch == 12 * 4 * 6);
    auto *first = static_cast<uint8_t *>(base.pBits);
    size_t offset = 0;
    for (UINT i = 0; i < volume->GetLevelCount(); ++i) {
      const size_t w = std::max(12u >> i, 1u), h = std::max(6u >> i, 1u), depth = std::max(5u >> i, 1u);
      if (i) {
        D3DLOCKED_BOX lb;
        REQUIRE(volume->LockBox(i, &lb, nullptr, 0) == D3D_OK);
        CHECK(static_cast<uint8_t *>(lb.pBits) == first + offset);
        CHECK(volume->UnlockBox(i) == D3D_OK);
      }
      offset += w * 4 * h * depth;
    }
    std::memset(first, 0x11, offset);
    CHECK(volume->UnlockBox(0) == D3D_OK);
    CHECK(volume->Release() == 0);
  }
}
