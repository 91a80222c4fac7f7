// YUY2 and UYVY offscreen plain surfaces copied into the back buffer with StretchRect, as video
// players show frames and as Wine's yuv_color_test measures Windows: each 4 x 1 surface holds a
// pair of texels under test and a grey pair, and both texels of the pair are probed against the
// RGB that test records on Windows (full-range BT.601; both texels of a pair read its U and V).
#include <catch2/catch.hpp>

#include <cstring>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

struct YuvCase {
  D3DFORMAT format;
  uint32_t in;
  D3DCOLOR left, right;
};

// Inputs where the Windows drivers Wine's test lists agree with the formula within 2.
constexpr YuvCase kCases[] = {
    {D3DFMT_UYVY, 0x00000000, 0x008700, 0x008700}, {D3DFMT_UYVY, 0xff000000, 0x008700, 0x4bff1c},
    {D3DFMT_UYVY, 0x00ff0000, 0xb30000, 0xb30000}, {D3DFMT_UYVY, 0x000000ff, 0x0030e1, 0x0030e1},
    {D3DFMT_UYVY, 0x4cff4c54, 0xff0000, 0xff0000}, {D3DFMT_UYVY, 0x00800080, 0x000000, 0x000000},
    {D3DFMT_UYVY, 0xff80ff80, 0xffffff, 0xffffff}, {D3DFMT_UYVY, 0x1c6b1cff, 0x0000fd, 0x0000fd},
    {D3DFMT_YUY2, 0x00000000, 0x008700, 0x008700}, {D3DFMT_YUY2, 0xff000000, 0xb30000, 0xb30000},
    {D3DFMT_YUY2, 0x00ff0000, 0x008700, 0x4bff1c}, {D3DFMT_YUY2, 0x0000ff00, 0x0030e1, 0x0030e1},
    {D3DFMT_YUY2, 0x4cff4c54, 0x0b8b00, 0xb6ffa3}, {D3DFMT_YUY2, 0x00800080, 0x00ff00, 0x00ff00},
    {D3DFMT_YUY2, 0xff80ff80, 0xff00ff, 0xff00ff},
};

} // namespace

TEST_CASE("scene: StretchRect converts YUY2 and UYVY surfaces to RGB", "[scene][format][copies]") {
  auto images = render_all("yuv_surfaces", SceneSetup{}, [&](IDirect3DDevice9 *dev) {
    IDirect3DSurface9 *back = nullptr;
    HR(dev->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
    HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
    // Case k fills the 16 x 16 cell at (k % 4, k / 4), each texel 4 pixels wide: its pair in the
    // cell's left half.
    for (size_t k = 0; k < std::size(kCases); ++k) {
      IDirect3DSurface9 *s = nullptr;
      HR(dev->CreateOffscreenPlainSurface(4, 1, kCases[k].format, D3DPOOL_DEFAULT, &s, nullptr));
      D3DLOCKED_RECT lr;
      HR(s->LockRect(&lr, nullptr, 0));
      const uint32_t words[2] = {kCases[k].in, 0x00800080};
      std::memcpy(lr.pBits, words, sizeof words);
      HR(s->UnlockRect());
      const LONG x = LONG(k % 4) * 16, y = LONG(k / 4) * 16;
      const RECT cell{x, y, x + 16, y + 16};
      HR(dev->StretchRect(s, nullptr, back, &cell, D3DTEXF_POINT));
      CHECK(s->Release() == 0);
    }
    back->Release();
  }, 0);
  for (const Rendered &r : images)
    for (size_t k = 0; k < std::size(kCases); ++k) {
      INFO(r.backend << ": case " << k);
      const uint32_t x = uint32_t(k % 4) * 16, y = uint32_t(k / 4) * 16 + 8;
      probe(r, x + 2, y, kCases[k].left, 2);
      probe(r, x + 6, y, kCases[k].right, 2);
    }
}
