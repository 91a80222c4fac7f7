// LockRect and LockBox as Windows answers them: which rectangles each entry point refuses, per
// pool and format; where pBits points for a rectangle it takes; what a refused lock leaves in
// D3DLOCKED_RECT; UnlockRect of a level that is not locked; DXTn textures made of whole blocks.
// The facts are those Wine's d3d9 tests assert on Windows (test_lockrect_invalid,
// test_surface_blocks, test_lockbox_invalid, test_volume_locking, add_dirty_rect_test);
// docs/d3d9-behaviour.md (Resources) lists them and where Novem chose.
#include <cstdint>
#include <cstring>

#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

// Where a lock comes in: IDirect3DTexture9::LockRect, IDirect3DCubeTexture9::LockRect, or
// IDirect3DSurface9::LockRect on a level of either (GetSurfaceLevel, GetCubeMapSurface).
enum class Entry { Texture, CubeTexture, Surface, CubeSurface };

const char *name(Entry e) {
  switch (e) {
  case Entry::Texture: return "texture";
  case Entry::CubeTexture: return "cube texture";
  case Entry::Surface: return "texture level's surface";
  case Entry::CubeSurface: return "cube face's surface";
  }
  return "?";
}

bool is_dxt(D3DFORMAT f) { return f == D3DFMT_DXT1 || f == D3DFMT_DXT5; }

// A level of a texture (face +X of a cube) to lock through one entry point.
struct Level {
  Level(IDirect3DDevice9 *dev, Entry through, D3DPOOL pool, D3DFORMAT format, UINT edge, UINT levels, UINT index)
      : entry(through), level(index) {
    const DWORD usage = pool == D3DPOOL_DEFAULT ? D3DUSAGE_DYNAMIC : 0;
    if (entry == Entry::Texture || entry == Entry::Surface) {
      REQUIRE(dev->CreateTexture(edge, edge, levels, usage, format, pool, &tex, nullptr) == D3D_OK);
      if (entry == Entry::Surface) REQUIRE(tex->GetSurfaceLevel(level, &surface) == D3D_OK);
    } else {
      REQUIRE(dev->CreateCubeTexture(edge, levels, usage, format, pool, &cube, nullptr) == D3D_OK);
      if (entry == Entry::CubeSurface)
        REQUIRE(cube->GetCubeMapSurface(D3DCUBEMAP_FACE_POSITIVE_X, level, &surface) == D3D_OK);
    }
  }
  ~Level() {
    if (surface) surface->Release();
    if (tex) CHECK(tex->Release() == 0);
    if (cube) CHECK(cube->Release() == 0);
  }
  HRESULT lock(D3DLOCKED_RECT *lr, const RECT *r, DWORD flags = 0) {
    if (surface) return surface->LockRect(lr, r, flags);
    if (tex) return tex->LockRect(level, lr, r, flags);
    return cube->LockRect(D3DCUBEMAP_FACE_POSITIVE_X, level, lr, r, flags);
  }
  HRESULT unlock() {
    if (surface) return surface->UnlockRect();
    if (tex) return tex->UnlockRect(level);
    return cube->UnlockRect(D3DCUBEMAP_FACE_POSITIVE_X, level);
  }
  // The level's first byte: where a lock of the whole level points.
  uint8_t *base() {
    D3DLOCKED_RECT lr{};
    REQUIRE(lock(&lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
    REQUIRE(unlock() == D3D_OK);
    pitch = lr.Pitch;
    return static_cast<uint8_t *>(lr.pBits);
  }

  Entry entry;
  UINT level;
  INT pitch = 0;
  IDirect3DTexture9 *tex = nullptr;
  IDirect3DCubeTexture9 *cube = nullptr;
  IDirect3DSurface9 *surface = nullptr;
};

// Where Windows points pBits for a rectangle starting at (left, top): that texel's row and
// column, or for DXTn the block holding it (rows of blocks, 8 or 16 bytes a block), counted from
// the level's first byte even when the rectangle starts outside the level.
intptr_t offset_of(const RECT &r, INT pitch, D3DFORMAT format) {
  auto floor_div = [](LONG v, LONG d) { return v >= 0 ? v / d : -((-v + d - 1) / d); };
  if (!is_dxt(format)) return intptr_t(r.top) * pitch + intptr_t(r.left) * 4;
  const intptr_t block_bytes = format == D3DFMT_DXT1 ? 8 : 16;
  return intptr_t(floor_div(r.top, 4)) * pitch + intptr_t(floor_div(r.left, 4)) * block_bytes;
}

// What a test hands LockRect, to see whether a refused lock writes it.
void *const kPoison = reinterpret_cast<void *>(uintptr_t(0xdeadbeef));
D3DLOCKED_RECT poisoned() { return D3DLOCKED_RECT{1, kPoison}; }

// Rectangles outside a 16x16 level, empty or inverted.
const RECT kInvalid[] = {
    {4, 4, 4, 8},   // no width
    {4, 4, 8, 4},   // no height
    {8, 4, 4, 8},   // left > right
    {4, 8, 8, 4},   // top > bottom
    {-4, 4, 0, 8},  // left before the level
    {4, -4, 8, 0},  // top before the level
    {4, 4, 20, 8},  // right past the level
    {4, 4, 8, 20},  // bottom past the level
    {20, 4, 24, 8}, // left past the level
    {0, 0, 0, 0},   // empty
};

const Entry kEntries[] = {Entry::Texture, Entry::CubeTexture, Entry::Surface, Entry::CubeSurface};
const D3DPOOL kPools[] = {D3DPOOL_DEFAULT, D3DPOOL_MANAGED, D3DPOOL_SYSTEMMEM, D3DPOOL_SCRATCH};

} // namespace

TEST_CASE("LockRect: which rectangles outside the level each entry point takes, per pool and format",
          "[api][texture][lock]") {
  // Windows checks a LockRect rectangle in DEFAULT always. Outside DEFAULT a texture's own
  // LockRect takes any rectangle (add_dirty_rect_test locks out-of-bounds, inverted and empty
  // ones in SYSTEMMEM); a surface's refuses them (Windows 7 and later, test_lockrect_invalid)
  // except for DXTn formats, whose rectangles no surface checks there (test_surface_blocks).
  NullDevice d;
  for (Entry entry : kEntries)
    for (D3DPOOL pool : kPools)
      for (D3DFORMAT format : {D3DFMT_A8R8G8B8, D3DFMT_DXT1}) {
        const bool surface = entry == Entry::Surface || entry == Entry::CubeSurface;
        const bool takes = pool != D3DPOOL_DEFAULT && (!surface || is_dxt(format));
        Level level(d.device, entry, pool, format, 16, 1, 0);
        uint8_t *base = level.base();
        for (const RECT &r : kInvalid) {
          INFO(name(entry) << ", pool " << pool << ", format " << format << ", rect " << r.left << "," << r.top
                           << "," << r.right << "," << r.bottom);
          D3DLOCKED_RECT lr = poisoned();
          const HRESULT hr = level.lock(&lr, &r);
          CHECK(hr == (takes ? D3D_OK : D3DERR_INVALIDCALL));
          if (SUCCEEDED(hr)) {
            CHECK(lr.Pitch == level.pitch);
            CHECK(reinterpret_cast<intptr_t>(lr.pBits) - reinterpret_cast<intptr_t>(base) ==
                  offset_of(r, level.pitch, format));
            CHECK(level.unlock() == D3D_OK);
          } else if (pool == D3DPOOL_DEFAULT) {
            // A refused lock in DEFAULT clears what it was given; elsewhere it leaves it as it was.
            CHECK(lr.pBits == nullptr);
            CHECK(lr.Pitch == 0);
          } else {
            CHECK(lr.pBits == kPoison);
            CHECK(lr.Pitch == 1);
          }
        }
      }
}

TEST_CASE("LockRect: DXTn rectangles inside blocks are refused in DEFAULT only, at level 0", "[api][texture][lock]") {
  NullDevice d;
  // Each edge inside a 4x4 block once; and where pBits points: the block holding (left, top).
  const RECT partial[] = {{2, 0, 4, 4}, {0, 0, 2, 4}, {0, 2, 4, 4}, {0, 0, 4, 2}, {6, 5, 8, 8}};
  for (Entry entry : kEntries)
    for (D3DPOOL pool : kPools)
      for (D3DFORMAT format : {D3DFMT_DXT1, D3DFMT_DXT5}) {
        Level level(d.device, entry, pool, format, 16, 2, 0);
        uint8_t *base = level.base();
        for (const RECT &r : partial) {
          INFO(name(entry) << ", pool " << pool << ", format " << format << ", rect " << r.left << "," << r.top
                           << "," << r.right << "," << r.bottom);
          D3DLOCKED_RECT lr{};
          const HRESULT hr = level.lock(&lr, &r);
          CHECK(hr == (pool == D3DPOOL_DEFAULT ? D3DERR_INVALIDCALL : D3D_OK));
          if (FAILED(hr)) continue;
          CHECK(static_cast<uint8_t *>(lr.pBits) - base == offset_of(r, level.pitch, format));
          CHECK(level.unlock() == D3D_OK);
        }
        // Whole blocks always lock.
        const RECT whole{4, 4, 12, 8};
        D3DLOCKED_RECT lr{};
        REQUIRE(level.lock(&lr, &whole) == D3D_OK);
        CHECK(static_cast<uint8_t *>(lr.pBits) - base == offset_of(whole, level.pitch, format));
        CHECK(level.unlock() == D3D_OK);
      }

  // Below level 0 Windows checks the bounds but not the blocks (DXVK's measure): a level of 2x2
  // texels takes (0, 0, 2, 2), not (0, 0, 4, 4) (test_surface_blocks), and an 8x8 level takes a
  // rectangle inside a block.
  for (Entry entry : {Entry::Texture, Entry::Surface}) {
    INFO(name(entry));
    Level small(d.device, entry, D3DPOOL_DEFAULT, D3DFMT_DXT1, 4, 2, 1);
    D3DLOCKED_RECT lr{};
    const RECT level_sized{0, 0, 2, 2}, block_sized{0, 0, 4, 4};
    REQUIRE(small.lock(&lr, nullptr) == D3D_OK);
    CHECK(small.unlock() == D3D_OK);
    REQUIRE(small.lock(&lr, &level_sized) == D3D_OK);
    CHECK(small.unlock() == D3D_OK);
    CHECK(small.lock(&lr, &block_sized) == D3DERR_INVALIDCALL);
    Level level1(d.device, entry, D3DPOOL_DEFAULT, D3DFMT_DXT1, 16, 2, 1);
    uint8_t *base = level1.base();
    const RECT inside{2, 6, 4, 8};
    REQUIRE(level1.lock(&lr, &inside) == D3D_OK);
    CHECK(static_cast<uint8_t *>(lr.pBits) - base == offset_of(inside, level1.pitch, D3DFMT_DXT1));
    CHECK(level1.unlock() == D3D_OK);
  }
}

TEST_CASE("LockRect: a second lock is refused, D3DLOCKED_RECT cleared in DEFAULT and kept elsewhere",
          "[api][texture][lock]") {
  NullDevice d;
  for (Entry entry : kEntries)
    for (D3DPOOL pool : kPools) {
      INFO(name(entry) << ", pool " << pool);
      Level level(d.device, entry, pool, D3DFMT_A8R8G8B8, 16, 1, 0);
      D3DLOCKED_RECT first{};
      REQUIRE(level.lock(&first, nullptr) == D3D_OK);
      const RECT r{0, 0, 8, 8};
      for (const RECT *again : {static_cast<const RECT *>(nullptr), &r}) {
        D3DLOCKED_RECT lr = poisoned();
        CHECK(level.lock(&lr, again) == D3DERR_INVALIDCALL);
        CHECK(lr.pBits == (pool == D3DPOOL_DEFAULT ? nullptr : kPoison));
        CHECK(lr.Pitch == (pool == D3DPOOL_DEFAULT ? 0 : 1));
      }
      CHECK(level.unlock() == D3D_OK);
    }

  // A DEFAULT texture that is not dynamic never locks, and clears what it was given.
  IDirect3DTexture9 *tex = nullptr;
  REQUIRE(d.device->CreateTexture(16, 16, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &tex, nullptr) == D3D_OK);
  D3DLOCKED_RECT lr = poisoned();
  CHECK(tex->LockRect(0, &lr, nullptr, 0) == D3DERR_INVALIDCALL);
  CHECK(lr.pBits == nullptr);
  CHECK(lr.Pitch == 0);
  CHECK(tex->Release() == 0);
}

TEST_CASE("LockRect: plain surfaces and render targets refuse rectangles outside them", "[api][surface][lock]") {
  NullDevice d;
  struct Case {
    const char *what;
    D3DPOOL pool;
    bool target;
  };
  for (Case c : {Case{"SYSTEMMEM plain", D3DPOOL_SYSTEMMEM, false}, Case{"SCRATCH plain", D3DPOOL_SCRATCH, false},
                 Case{"DEFAULT plain", D3DPOOL_DEFAULT, false}, Case{"lockable render target", D3DPOOL_DEFAULT, true}}) {
    IDirect3DSurface9 *s = nullptr;
    if (c.target)
      REQUIRE(d.device->CreateRenderTarget(16, 16, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, TRUE, &s, nullptr) == D3D_OK);
    else
      REQUIRE(d.device->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, c.pool, &s, nullptr) == D3D_OK);
    for (const RECT &r : kInvalid) {
      INFO(c.what << ", rect " << r.left << "," << r.top << "," << r.right << "," << r.bottom);
      D3DLOCKED_RECT lr = poisoned();
      CHECK(s->LockRect(&lr, &r, 0) == D3DERR_INVALIDCALL);
      CHECK(lr.pBits == (c.pool == D3DPOOL_DEFAULT ? nullptr : kPoison));
      CHECK(lr.Pitch == (c.pool == D3DPOOL_DEFAULT ? 0 : 1));
    }
    D3DLOCKED_RECT lr{};
    REQUIRE(s->LockRect(&lr, nullptr, 0) == D3D_OK);
    auto *base = static_cast<uint8_t *>(lr.pBits);
    const INT pitch = lr.Pitch;
    CHECK(s->UnlockRect() == D3D_OK);
    const RECT inside{3, 5, 9, 16};
    REQUIRE(s->LockRect(&lr, &inside, 0) == D3D_OK);
    CHECK(lr.Pitch == pitch);
    // A memory surface's bytes stay where they are; a DEFAULT one's are read back at each lock.
    if (c.pool != D3DPOOL_DEFAULT) CHECK(static_cast<uint8_t *>(lr.pBits) - base == 5 * pitch + 3 * 4);
    CHECK(s->UnlockRect() == D3D_OK);
    CHECK(s->Release() == 0);
  }
}

TEST_CASE("UnlockRect of a level that is not locked: D3D_OK for textures, refused for other surfaces",
          "[api][texture][lock]") {
  // test_lockrect_invalid: a 2D texture answers D3D_OK through itself and through its level's
  // surface; a cube texture through itself, but its face's surface refuses; plain surfaces and
  // volumes refuse (test_surface_double_unlock, test_lockbox_invalid).
  NullDevice d;
  for (D3DPOOL pool : kPools)
    for (Entry entry : kEntries) {
      INFO(name(entry) << ", pool " << pool);
      Level level(d.device, entry, pool, D3DFMT_A8R8G8B8, 16, 1, 0);
      const HRESULT expected = entry == Entry::CubeSurface ? D3DERR_INVALIDCALL : D3D_OK;
      CHECK(level.unlock() == expected);
      D3DLOCKED_RECT lr{};
      REQUIRE(level.lock(&lr, nullptr) == D3D_OK);
      CHECK(level.unlock() == D3D_OK);
      CHECK(level.unlock() == expected);
      // The level still locks once, and only once.
      REQUIRE(level.lock(&lr, nullptr) == D3D_OK);
      CHECK(level.lock(&lr, nullptr) == D3DERR_INVALIDCALL);
      CHECK(level.unlock() == D3D_OK);
    }
  for (D3DPOOL pool : {D3DPOOL_SYSTEMMEM, D3DPOOL_SCRATCH, D3DPOOL_DEFAULT}) {
    IDirect3DSurface9 *s = nullptr;
    REQUIRE(d.device->CreateOffscreenPlainSurface(16, 16, D3DFMT_A8R8G8B8, pool, &s, nullptr) == D3D_OK);
    CHECK(s->UnlockRect() == D3DERR_INVALIDCALL);
    CHECK(s->Release() == 0);
  }
  IDirect3DVolumeTexture9 *vol = nullptr;
  REQUIRE(d.device->CreateVolumeTexture(4, 4, 2, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SCRATCH, &vol, nullptr) == D3D_OK);
  CHECK(vol->UnlockBox(0) == D3DERR_INVALIDCALL);
  CHECK(vol->Release() == 0);
}

TEST_CASE("LockBox: volumes check the box in every pool", "[api][texture][volume][lock]") {
  // test_lockbox_invalid, on a 4x4x2 volume: unlike surfaces, volumes check the box everywhere.
  struct Case {
    D3DBOX box;
    HRESULT result;
  };
  const Case cases[] = {
      {{0, 0, 2, 2, 0, 1}, D3D_OK},
      {{0, 0, 4, 4, 0, 1}, D3D_OK},
      {{1, 2, 3, 4, 1, 2}, D3D_OK},
      {{0, 0, 0, 4, 0, 1}, D3DERR_INVALIDCALL},  // no width
      {{0, 0, 4, 0, 0, 1}, D3DERR_INVALIDCALL},  // no height
      {{0, 0, 4, 4, 1, 1}, D3DERR_INVALIDCALL},  // no depth
      {{4, 0, 0, 4, 0, 1}, D3DERR_INVALIDCALL},  // left > right
      {{0, 4, 4, 0, 0, 1}, D3DERR_INVALIDCALL},  // top > bottom
      {{0, 0, 4, 4, 1, 0}, D3DERR_INVALIDCALL},  // front > back
      {{0, 0, 8, 4, 0, 1}, D3DERR_INVALIDCALL},  // right past the volume
      {{0, 0, 4, 8, 0, 1}, D3DERR_INVALIDCALL},  // bottom past the volume
      {{0, 0, 4, 4, 0, 3}, D3DERR_INVALIDCALL},  // back past the volume
      {{8, 0, 16, 4, 0, 1}, D3DERR_INVALIDCALL}, // left past the volume
      {{0, 8, 4, 16, 0, 1}, D3DERR_INVALIDCALL}, // top past the volume
      {{0, 0, 4, 4, 2, 4}, D3DERR_INVALIDCALL},  // front past the volume
  };
  NullDevice d;
  for (D3DPOOL pool : kPools) {
    IDirect3DVolumeTexture9 *vol = nullptr;
    const DWORD usage = pool == D3DPOOL_DEFAULT ? D3DUSAGE_DYNAMIC : 0;
    REQUIRE(d.device->CreateVolumeTexture(4, 4, 2, 1, usage, D3DFMT_A8R8G8B8, pool, &vol, nullptr) == D3D_OK);
    D3DLOCKED_BOX lb{};
    REQUIRE(vol->LockBox(0, &lb, nullptr, 0) == D3D_OK);
    auto *base = static_cast<uint8_t *>(lb.pBits);
    REQUIRE(vol->UnlockBox(0) == D3D_OK);
    for (const Case &c : cases) {
      const D3DBOX &b = c.box;
      INFO("pool " << pool << ", box " << b.Left << "," << b.Top << "," << b.Front << " - " << b.Right << ","
                   << b.Bottom << "," << b.Back);
      CHECK(vol->LockBox(0, &lb, &b, 0) == c.result);
      if (c.result != D3D_OK) continue;
      CHECK(static_cast<uint8_t *>(lb.pBits) - base == intptr_t(b.Front) * lb.SlicePitch + b.Top * lb.RowPitch + b.Left * 4);
      CHECK(vol->UnlockBox(0) == D3D_OK);
    }
    CHECK(vol->Release() == 0);
  }
}

TEST_CASE("DXTn textures are made of whole 4x4 blocks at level 0", "[api][texture][format]") {
  // test_surface_blocks: a DXTn texture or cube texture whose top level is not whole blocks is
  // refused in every pool; its smaller levels need not be.
  NullDevice d;
  for (D3DPOOL pool : kPools)
    for (UINT w = 1; w <= 8; ++w)
      for (UINT h = 1; h <= 8; ++h) {
        INFO("pool " << pool << ", " << w << "x" << h);
        const bool whole = w % 4 == 0 && h % 4 == 0;
        IDirect3DTexture9 *tex = nullptr;
        CHECK(d.device->CreateTexture(w, h, 1, 0, D3DFMT_DXT1, pool, &tex, nullptr) ==
              (whole ? D3D_OK : D3DERR_INVALIDCALL));
        if (tex) CHECK(tex->Release() == 0);
        if (w != h) continue;
        IDirect3DCubeTexture9 *cube = nullptr;
        CHECK(d.device->CreateCubeTexture(w, 1, 0, D3DFMT_DXT5, pool, &cube, nullptr) ==
              (whole ? D3D_OK : D3DERR_INVALIDCALL));
        if (cube) CHECK(cube->Release() == 0);
      }
  IDirect3DTexture9 *chain = nullptr;
  REQUIRE(d.device->CreateTexture(4, 4, 0, 0, D3DFMT_DXT1, D3DPOOL_MANAGED, &chain, nullptr) == D3D_OK);
  CHECK(chain->GetLevelCount() == 3); // 4x4, 2x2, 1x1
  CHECK(chain->Release() == 0);
}

TEST_CASE("DXTn offscreen plain surfaces in SYSTEMMEM and SCRATCH lock in blocks", "[api][surface][lock][format]") {
  // Windows makes them (test_surface_blocks locks them): whole 4x4 blocks, as a DXTn texture's
  // level 0; rows of blocks; a rectangle inside blocks taken there, one outside the surface not.
  NullDevice d;
  struct Format {
    D3DFORMAT format;
    INT block_bytes;
  };
  for (Format f : {Format{D3DFMT_DXT1, 8}, Format{D3DFMT_DXT3, 16}, Format{D3DFMT_DXT5, 16}})
    for (D3DPOOL pool : {D3DPOOL_SYSTEMMEM, D3DPOOL_SCRATCH}) {
      INFO("format " << f.format << ", pool " << pool);
      IDirect3DSurface9 *s = nullptr;
      for (UINT edge : {1u, 2u, 6u}) {
        CHECK(d.device->CreateOffscreenPlainSurface(edge, 8, f.format, pool, &s, nullptr) == D3DERR_INVALIDCALL);
        CHECK(d.device->CreateOffscreenPlainSurface(8, edge, f.format, pool, &s, nullptr) == D3DERR_INVALIDCALL);
      }
      REQUIRE(d.device->CreateOffscreenPlainSurface(16, 8, f.format, pool, &s, nullptr) == D3D_OK);
      D3DSURFACE_DESC desc{};
      REQUIRE(s->GetDesc(&desc) == D3D_OK);
      CHECK(desc.Format == f.format);
      CHECK(desc.Pool == pool);
      D3DLOCKED_RECT lr{};
      REQUIRE(s->LockRect(&lr, nullptr, 0) == D3D_OK);
      CHECK(lr.Pitch == 4 * f.block_bytes); // 16 texels: 4 blocks
      auto *base = static_cast<uint8_t *>(lr.pBits);
      std::memset(base, 0xab, size_t(lr.Pitch) * 2); // the whole surface: 2 rows of blocks
      CHECK(s->UnlockRect() == D3D_OK);
      const RECT inside_blocks{5, 5, 7, 7}; // the second row's second block
      REQUIRE(s->LockRect(&lr, &inside_blocks, 0) == D3D_OK);
      CHECK(static_cast<uint8_t *>(lr.pBits) - base == 4 * f.block_bytes + f.block_bytes);
      CHECK(s->UnlockRect() == D3D_OK);
      const RECT outside{8, 4, 20, 8};
      D3DLOCKED_RECT refused = poisoned();
      CHECK(s->LockRect(&refused, &outside, 0) == D3DERR_INVALIDCALL);
      CHECK(refused.pBits == kPoison);
      CHECK(s->Release() == 0);
    }
  IDirect3DSurface9 *s = nullptr;
  CHECK(d.device->CreateOffscreenPlainSurface(16, 16, D3DFMT_DXT1, D3DPOOL_MANAGED, &s, nullptr) == D3DERR_INVALIDCALL);
}

// Windows makes DXTn offscreen plain surfaces in DEFAULT too (test_surface_blocks): there a lock
// rectangle is whole blocks, UpdateSurface writes them, and nothing blits or fills them.
TEST_CASE("DXTn offscreen plain surfaces in DEFAULT lock whole blocks and take UpdateSurface", "[api][surface][lock][format]") {
  NullDevice d;
  IDirect3DSurface9 *s = nullptr, *src = nullptr, *rt = nullptr;
  REQUIRE(d.device->CreateOffscreenPlainSurface(16, 8, D3DFMT_DXT5, D3DPOOL_DEFAULT, &s, nullptr) == D3D_OK);
  D3DSURFACE_DESC desc{};
  REQUIRE(s->GetDesc(&desc) == D3D_OK);
  CHECK(desc.Pool == D3DPOOL_DEFAULT);
  CHECK(desc.Format == D3DFMT_DXT5);
  CHECK(desc.Usage == 0);
  D3DLOCKED_RECT lr{};
  REQUIRE(s->LockRect(&lr, nullptr, 0) == D3D_OK);
  CHECK(lr.Pitch == 64); // 4 blocks of 16 bytes
  auto *base = static_cast<uint8_t *>(lr.pBits);
  for (int i = 0; i < 128; ++i) base[i] = uint8_t(i);
  CHECK(s->UnlockRect() == D3D_OK);
  const RECT blocks{4, 4, 8, 8};
  REQUIRE(s->LockRect(&lr, &blocks, D3DLOCK_READONLY) == D3D_OK);
  CHECK(static_cast<uint8_t *>(lr.pBits) - base == 64 + 16);
  CHECK(*static_cast<uint8_t *>(lr.pBits) == 64 + 16); // what the first lock wrote
  CHECK(s->UnlockRect() == D3D_OK);
  for (RECT inside : {RECT{5, 5, 7, 7}, RECT{0, 0, 2, 4}, RECT{4, 1, 8, 8}}) {
    D3DLOCKED_RECT refused = poisoned();
    CHECK(s->LockRect(&refused, &inside, 0) == D3DERR_INVALIDCALL);
  }
  // UpdateSurface from a SYSTEMMEM one: its blocks land where the point says.
  REQUIRE(d.device->CreateOffscreenPlainSurface(8, 4, D3DFMT_DXT5, D3DPOOL_SYSTEMMEM, &src, nullptr) == D3D_OK);
  REQUIRE(src->LockRect(&lr, nullptr, 0) == D3D_OK);
  std::memset(lr.pBits, 0xcd, 32);
  CHECK(src->UnlockRect() == D3D_OK);
  const POINT at{8, 4};
  CHECK(d.device->UpdateSurface(src, nullptr, s, &at) == D3D_OK);
  const POINT off_block{6, 4};
  CHECK(d.device->UpdateSurface(src, nullptr, s, &off_block) == D3DERR_INVALIDCALL);
  REQUIRE(s->LockRect(&lr, nullptr, D3DLOCK_READONLY) == D3D_OK);
  const auto *bytes = static_cast<const uint8_t *>(lr.pBits);
  CHECK(bytes[64 + 31] == 64 + 31); // block (1, 1) kept
  CHECK(bytes[64 + 32] == 0xcd);    // blocks (2, 1) and (3, 1) written
  CHECK(bytes[127] == 0xcd);
  CHECK(bytes[32] == 32); // the row above kept
  CHECK(s->UnlockRect() == D3D_OK);
  // Nothing blits or fills a compressed surface.
  REQUIRE(d.device->CreateRenderTarget(16, 8, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr) == D3D_OK);
  CHECK(d.device->StretchRect(s, nullptr, rt, nullptr, D3DTEXF_NONE) == D3DERR_INVALIDCALL);
  CHECK(d.device->ColorFill(s, nullptr, 0xffffffff) == D3DERR_INVALIDCALL);
  CHECK(d.device->UpdateSurface(s, nullptr, src, nullptr) == D3DERR_INVALIDCALL);
  CHECK(rt->Release() == 0);
  CHECK(src->Release() == 0);
  CHECK(s->Release() == 0);
  // Past the caps, as other DEFAULT surfaces: refused.
  D3DCAPS9 caps;
  REQUIRE(d.device->GetDeviceCaps(&caps) == D3D_OK);
  CHECK(d.device->CreateOffscreenPlainSurface(caps.MaxTextureWidth + 4, 4, D3DFMT_DXT1, D3DPOOL_DEFAULT, &s, nullptr) ==
        D3DERR_INVALIDCALL);
}

TEST_CASE("UpdateSurface copies blocks from a DXTn SYSTEMMEM plain surface", "[api][surface][format]") {
  NullDevice d;
  IDirect3DSurface9 *src = nullptr, *level = nullptr;
  IDirect3DTexture9 *tex = nullptr;
  REQUIRE(d.device->CreateOffscreenPlainSurface(8, 8, D3DFMT_DXT1, D3DPOOL_SYSTEMMEM, &src, nullptr) == D3D_OK);
  REQUIRE(d.device->CreateTexture(16, 16, 1, 0, D3DFMT_DXT1, D3DPOOL_DEFAULT, &tex, nullptr) == D3D_OK);
  REQUIRE(tex->GetSurfaceLevel(0, &level) == D3D_OK);
  const POINT at{4, 8};
  CHECK(d.device->UpdateSurface(src, nullptr, level, &at) == D3D_OK);
  const RECT blocks{4, 4, 8, 8};
  CHECK(d.device->UpdateSurface(src, &blocks, level, nullptr) == D3D_OK);
  const RECT inside_block{1, 0, 4, 4};
  CHECK(d.device->UpdateSurface(src, &inside_block, level, nullptr) == D3DERR_INVALIDCALL);
  level->Release();
  CHECK(tex->Release() == 0);
  CHECK(src->Release() == 0);
}
