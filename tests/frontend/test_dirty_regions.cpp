// Dirty regions as Windows keeps them: which rectangles and boxes AddDirtyRect and AddDirtyBox
// refuse, what UpdateTexture copies (the source's dirty region only, everything of a texture
// never updated, nothing once it is copied), and what reaches a MANAGED or dynamic texture's
// image. The facts are those of Wine's add_dirty_rect_test on Windows; the counting plugin
// (counting_log.hpp) shows which rectangles were sent.
#include <cstring>

#include "counting_device.hpp"

using namespace api_fixture;

namespace {

std::vector<CountingUpdate> images_only(const std::vector<CountingUpdate> &log) {
  std::vector<CountingUpdate> images;
  for (const CountingUpdate &u : log)
    if (u.opcode == NV_OP_UPDATE_IMAGE) images.push_back(u);
  return images;
}

bool same(const nv_rect &a, const nv_rect &b) {
  return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}

// Writes colour over rect of level 0 (nullptr: all of it) with the given lock flags.
void fill(IDirect3DTexture9 *tex, const RECT *rect, DWORD colour, DWORD flags) {
  D3DSURFACE_DESC desc;
  REQUIRE(tex->GetLevelDesc(0, &desc) == D3D_OK);
  const RECT r = rect ? *rect : RECT{0, 0, LONG(desc.Width), LONG(desc.Height)};
  D3DLOCKED_RECT lr;
  REQUIRE(tex->LockRect(0, &lr, rect, flags) == D3D_OK);
  for (LONG y = 0; y < r.bottom - r.top; ++y)
    for (LONG x = 0; x < r.right - r.left; ++x)
      std::memcpy(static_cast<uint8_t *>(lr.pBits) + y * lr.Pitch + x * 4, &colour, 4);
  REQUIRE(tex->UnlockRect(0) == D3D_OK);
}

} // namespace

TEST_CASE("AddDirtyRect and AddDirtyBox refuse regions outside level 0 and empty ones, NULL is all of it",
          "[api][texture][dirty]") {
  NullDevice d;
  // add_dirty_rect_test's out-of-bounds rectangles, for a 32x32 texture.
  const RECT invalid[] = {{0, 0, 20, 40}, {0, 0, 40, 20}, {10, 10, 2, 2}, {20, 40, 2, 2}, {40, 20, 42, 22},
                          {0, 0, 0, 0},   {-2, 0, 4, 4},  {0, -2, 4, 4}};
  const RECT valid[] = {{0, 0, 32, 32}, {4, 4, 8, 8}, {31, 31, 32, 32}};
  for (D3DPOOL pool : {D3DPOOL_DEFAULT, D3DPOOL_MANAGED, D3DPOOL_SYSTEMMEM, D3DPOOL_SCRATCH}) {
    IDirect3DTexture9 *tex = nullptr;
    IDirect3DCubeTexture9 *cube = nullptr;
    REQUIRE(d.device->CreateTexture(32, 32, 0, 0, D3DFMT_A8R8G8B8, pool, &tex, nullptr) == D3D_OK);
    REQUIRE(d.device->CreateCubeTexture(32, 0, 0, D3DFMT_A8R8G8B8, pool, &cube, nullptr) == D3D_OK);
    for (const RECT &r : invalid) {
      INFO("pool " << pool << ", rect " << r.left << "," << r.top << "," << r.right << "," << r.bottom);
      CHECK(tex->AddDirtyRect(&r) == D3DERR_INVALIDCALL);
      CHECK(cube->AddDirtyRect(D3DCUBEMAP_FACE_NEGATIVE_Y, &r) == D3DERR_INVALIDCALL);
    }
    for (const RECT &r : valid) {
      INFO("pool " << pool << ", rect " << r.left << "," << r.top << "," << r.right << "," << r.bottom);
      CHECK(tex->AddDirtyRect(&r) == D3D_OK);
      CHECK(cube->AddDirtyRect(D3DCUBEMAP_FACE_NEGATIVE_Y, &r) == D3D_OK);
    }
    CHECK(tex->AddDirtyRect(nullptr) == D3D_OK);
    CHECK(tex->AddDirtyRect(nullptr) == D3D_OK); // again: redundant calls are fine
    CHECK(cube->AddDirtyRect(D3DCUBEMAP_FACE_POSITIVE_X, nullptr) == D3D_OK);
    // A locked texture takes dirty rectangles too.
    if (pool != D3DPOOL_DEFAULT) {
      D3DLOCKED_RECT lr;
      REQUIRE(tex->LockRect(0, &lr, nullptr, 0) == D3D_OK);
      CHECK(tex->AddDirtyRect(nullptr) == D3D_OK);
      CHECK(tex->UnlockRect(0) == D3D_OK);
    }
    CHECK(tex->Release() == 0);
    CHECK(cube->Release() == 0);

    IDirect3DVolumeTexture9 *vol = nullptr;
    REQUIRE(d.device->CreateVolumeTexture(8, 8, 4, 0, 0, D3DFMT_A8R8G8B8, pool, &vol, nullptr) == D3D_OK);
    for (D3DBOX b : {D3DBOX{0, 0, 9, 8, 0, 4}, D3DBOX{0, 0, 8, 9, 0, 4}, D3DBOX{0, 0, 8, 8, 0, 5},
                     D3DBOX{4, 0, 2, 8, 0, 4}, D3DBOX{0, 0, 8, 8, 2, 2}, D3DBOX{0, 0, 0, 0, 0, 0}}) {
      INFO("pool " << pool << ", box " << b.Left << "," << b.Top << "," << b.Front << " - " << b.Right << ","
                   << b.Bottom << "," << b.Back);
      CHECK(vol->AddDirtyBox(&b) == D3DERR_INVALIDCALL);
    }
    const D3DBOX inside{1, 2, 5, 6, 1, 3};
    CHECK(vol->AddDirtyBox(&inside) == D3D_OK);
    CHECK(vol->AddDirtyBox(nullptr) == D3D_OK);
    CHECK(vol->Release() == 0);
  }
}

TEST_CASE("UpdateTexture copies the source's dirty region, then nothing until it is dirty again",
          "[api][texture][dirty]") {
  CountingDevice c;
  IDirect3DDevice9 *dev = c.device;
  IDirect3DTexture9 *src = nullptr, *dst = nullptr;
  REQUIRE(dev->CreateTexture(16, 16, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &src, nullptr) == D3D_OK);
  REQUIRE(dev->CreateTexture(16, 16, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &dst, nullptr) == D3D_OK);
  c.updates();

  // A texture never locked is dirty all over, and a lock that records nothing leaves it so.
  fill(src, nullptr, 0xff000080, D3DLOCK_NO_DIRTY_UPDATE);
  REQUIRE(dev->UpdateTexture(src, dst) == D3D_OK);
  auto sent = images_only(c.updates());
  REQUIRE(sent.size() == 1);
  CHECK(same(sent[0].rect, nv_rect{0, 0, 16, 16}));
  CHECK(std::memcmp(sent[0].bytes, "\x80\x00\x00\xff", 4) == 0);

  // Copied: the source is clean until something marks it again.
  REQUIRE(dev->UpdateTexture(src, dst) == D3D_OK);
  CHECK(images_only(c.updates()).empty());

  struct Step {
    const char *what;
    RECT rect;
    DWORD flags;
    bool add_dirty; // AddDirtyRect instead of a lock
    nv_rect copied; // width 0: nothing
  };
  const Step steps[] = {
      {"AddDirtyRect", {4, 4, 8, 12}, 0, true, {4, 4, 4, 8}},
      {"a lock", {1, 2, 3, 4}, 0, false, {1, 2, 2, 2}},
      {"a NO_DIRTY_UPDATE lock", {1, 2, 3, 4}, D3DLOCK_NO_DIRTY_UPDATE, false, {0, 0, 0, 0}},
      {"a READONLY lock", {1, 2, 3, 4}, D3DLOCK_READONLY, false, {0, 0, 0, 0}},
      // Outside SYSTEMMEM's level Windows takes the lock; Novem marks the whole level.
      {"a lock past the level", {8, 8, 20, 20}, 0, false, {0, 0, 16, 16}},
  };
  for (const Step &s : steps) {
    INFO(s.what);
    if (s.add_dirty) {
      REQUIRE(src->AddDirtyRect(&s.rect) == D3D_OK);
    } else {
      D3DLOCKED_RECT lr;
      REQUIRE(src->LockRect(0, &lr, &s.rect, s.flags) == D3D_OK);
      REQUIRE(src->UnlockRect(0) == D3D_OK);
    }
    CHECK(images_only(c.updates()).empty()); // a SYSTEMMEM texture has no image
    REQUIRE(dev->UpdateTexture(src, dst) == D3D_OK);
    sent = images_only(c.updates());
    if (s.copied.width == 0) {
      CHECK(sent.empty());
    } else {
      REQUIRE(sent.size() == 1);
      CHECK(same(sent[0].rect, s.copied));
    }
  }

  // AddDirtyRect on the destination changes nothing: its image is what was copied to it.
  CHECK(dst->AddDirtyRect(nullptr) == D3D_OK);
  const RECT part{2, 2, 6, 6};
  CHECK(dst->AddDirtyRect(&part) == D3D_OK);
  CHECK(images_only(c.updates()).empty());
  REQUIRE(dev->UpdateTexture(src, dst) == D3D_OK);
  CHECK(images_only(c.updates()).empty());
  CHECK(src->Release() == 0);
  CHECK(dst->Release() == 0);
}

TEST_CASE("UpdateTexture forgets every level of the source's dirty region, copied or not", "[api][texture][dirty]") {
  CountingDevice c;
  IDirect3DDevice9 *dev = c.device;
  IDirect3DTexture9 *src = nullptr, *small = nullptr, *big = nullptr;
  REQUIRE(dev->CreateTexture(32, 32, 2, 0, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &src, nullptr) == D3D_OK);
  REQUIRE(dev->CreateTexture(16, 16, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &small, nullptr) == D3D_OK);
  REQUIRE(dev->CreateTexture(32, 32, 2, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &big, nullptr) == D3D_OK);
  c.updates();
  // The source's level 0 is skipped (small has one level, 16x16), yet it is no longer dirty.
  REQUIRE(dev->UpdateTexture(src, small) == D3D_OK);
  auto sent = images_only(c.updates());
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].level == 0);
  CHECK(same(sent[0].rect, nv_rect{0, 0, 16, 16}));
  REQUIRE(dev->UpdateTexture(src, big) == D3D_OK);
  CHECK(images_only(c.updates()).empty());

  // Windows keeps one dirty region, level 0's, and takes the same region scaled as dirty in
  // every level: AddDirtyRect's, and a lock's of any level.
  const RECT r{8, 8, 16, 24}, in_level1{2, 2, 4, 4};
  REQUIRE(src->AddDirtyRect(&r) == D3D_OK);
  REQUIRE(dev->UpdateTexture(src, big) == D3D_OK);
  sent = images_only(c.updates());
  REQUIRE(sent.size() == 2);
  CHECK(sent[0].level == 0);
  CHECK(same(sent[0].rect, nv_rect{8, 8, 8, 16}));
  CHECK(sent[1].level == 1);
  CHECK(same(sent[1].rect, nv_rect{4, 4, 4, 8}));
  D3DLOCKED_RECT lr;
  REQUIRE(src->LockRect(1, &lr, &in_level1, 0) == D3D_OK);
  REQUIRE(src->UnlockRect(1) == D3D_OK);
  REQUIRE(dev->UpdateTexture(src, big) == D3D_OK);
  sent = images_only(c.updates());
  REQUIRE(sent.size() == 2);
  CHECK(same(sent[0].rect, nv_rect{4, 4, 4, 4}));
  CHECK(same(sent[1].rect, nv_rect{2, 2, 2, 2}));
  for (IDirect3DTexture9 *t : {src, small, big}) CHECK(t->Release() == 0);
}

TEST_CASE("MANAGED textures send what is dirty, dynamic ones every lock", "[api][texture][dirty]") {
  CountingDevice c;
  IDirect3DDevice9 *dev = c.device;
  IDirect3DTexture9 *managed = nullptr, *dynamic = nullptr;
  REQUIRE(dev->CreateTexture(16, 16, 2, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &managed, nullptr) == D3D_OK);
  REQUIRE(dev->CreateTexture(16, 16, 1, D3DUSAGE_DYNAMIC, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &dynamic, nullptr) ==
          D3D_OK);
  c.updates();

  // A MANAGED lock with NO_DIRTY_UPDATE reaches the image only when AddDirtyRect says so, and
  // then the region only, scaled into every level.
  fill(managed, nullptr, 0xff00ff00, D3DLOCK_NO_DIRTY_UPDATE);
  CHECK(images_only(c.updates()).empty());
  const RECT part{4, 4, 8, 8};
  REQUIRE(managed->AddDirtyRect(&part) == D3D_OK);
  auto sent = images_only(c.updates());
  REQUIRE(sent.size() == 2);
  CHECK(same(sent[0].rect, nv_rect{4, 4, 4, 4}));
  CHECK(std::memcmp(sent[0].bytes, "\x00\xff\x00\xff", 4) == 0);
  CHECK(same(sent[1].rect, nv_rect{2, 2, 2, 2}));
  REQUIRE(managed->AddDirtyRect(nullptr) == D3D_OK);
  sent = images_only(c.updates());
  REQUIRE(sent.size() == 2);
  CHECK(same(sent[0].rect, nv_rect{0, 0, 16, 16}));
  CHECK(same(sent[1].rect, nv_rect{0, 0, 8, 8}));
  // A lock without the flag sends its rectangle at the unlock (Novem sends the locked level only:
  // the bytes of the others have not changed).
  fill(managed, &part, 0xffff0000, 0);
  sent = images_only(c.updates());
  REQUIRE(sent.size() == 1);
  CHECK(same(sent[0].rect, nv_rect{4, 4, 4, 4}));

  // Dynamic textures do not honour D3DLOCK_NO_DIRTY_UPDATE.
  fill(dynamic, &part, 0xff0000ff, D3DLOCK_NO_DIRTY_UPDATE);
  sent = images_only(c.updates());
  REQUIRE(sent.size() == 1);
  CHECK(same(sent[0].rect, nv_rect{4, 4, 4, 4}));
  CHECK(std::memcmp(sent[0].bytes, "\xff\x00\x00\xff", 4) == 0);
  CHECK(managed->Release() == 0);
  CHECK(dynamic->Release() == 0);
}
