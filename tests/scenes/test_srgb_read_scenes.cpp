// D3DSAMP_SRGBTEXTURE on every format and texture kind for which CheckDeviceFormat answers
// D3DUSAGE_QUERY_SRGBREAD: each decodes (sRGB 188 reads linear 0.5, written 128), on every
// backend. Formats outside the table must not answer it, so the table is every format that does.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "scene_harness.hpp"

using namespace scenes;

namespace {

struct Vertex {
  float x, y, z, w;
  float u, v, s, q;
};

const D3DVERTEXELEMENT9 kElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 16, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
    D3DDECL_END()};

// What a 4 x 4 texel region of each format holds: 188 (0xbc) in every colour channel, or as
// near as the format stores it, and what SRGBTEXTURE decodes that to.
struct Format {
  D3DFORMAT format;
  const char *name;
  std::vector<uint8_t> region; // rows of texels (or one block) filling 4 x 4
  UINT row_bytes;              // bytes of one row of `region`
  D3DCOLOR decoded;
  uint32_t tolerance;
};

std::vector<uint8_t> repeat(std::vector<uint8_t> unit, size_t times) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i < times; ++i) out.insert(out.end(), unit.begin(), unit.end());
  return out;
}

// DXT colour block: colour 0 = RGB565 (23, 47, 23), which reads (189, 190, 189) and decodes to
// (0.509, 0.515, 0.509); every index 0. DXT2/3 put explicit alpha 15s before it, DXT4/5 an
// alpha block of 255s.
const std::vector<uint8_t> kColourBlock = {0xF7, 0xBD, 0xF7, 0xBD, 0, 0, 0, 0};
std::vector<uint8_t> with_prefix(std::vector<uint8_t> prefix) {
  prefix.insert(prefix.end(), kColourBlock.begin(), kColourBlock.end());
  return prefix;
}

const std::vector<Format> &formats() {
  static const std::vector<Format> table = {
      {D3DFMT_A8R8G8B8, "A8R8G8B8", repeat({0xbc, 0xbc, 0xbc, 0xff}, 16), 16, 0xff808080, 1},
      {D3DFMT_X8R8G8B8, "X8R8G8B8", repeat({0xbc, 0xbc, 0xbc, 0x00}, 16), 16, 0xff808080, 1},
      {D3DFMT_DXT1, "DXT1", kColourBlock, 8, 0xff828382, 2},
      {D3DFMT_DXT2, "DXT2", with_prefix(repeat({0xff}, 8)), 16, 0xff828382, 2},
      {D3DFMT_DXT3, "DXT3", with_prefix(repeat({0xff}, 8)), 16, 0xff828382, 2},
      {D3DFMT_DXT4, "DXT4", with_prefix({0xff, 0xff, 0, 0, 0, 0, 0, 0}), 16, 0xff828382, 2},
      {D3DFMT_DXT5, "DXT5", with_prefix({0xff, 0xff, 0, 0, 0, 0, 0, 0}), 16, 0xff828382, 2},
  };
  return table;
}

// Every other texture format D3D9 names: none may answer QUERY_SRGBREAD.
constexpr D3DFORMAT kOtherFormats[] = {
    D3DFMT_R8G8B8,       D3DFMT_R5G6B5,        D3DFMT_X1R5G5B5,      D3DFMT_A1R5G5B5,     D3DFMT_A4R4G4B4,
    D3DFMT_R3G3B2,       D3DFMT_A8,            D3DFMT_A8R3G3B2,      D3DFMT_X4R4G4B4,     D3DFMT_A2B10G10R10,
    D3DFMT_A8B8G8R8,     D3DFMT_X8B8G8R8,      D3DFMT_G16R16,        D3DFMT_A2R10G10B10,  D3DFMT_A16B16G16R16,
    D3DFMT_A8P8,         D3DFMT_P8,            D3DFMT_L8,            D3DFMT_A8L8,         D3DFMT_A4L4,
    D3DFMT_V8U8,         D3DFMT_L6V5U5,        D3DFMT_X8L8V8U8,      D3DFMT_Q8W8V8U8,     D3DFMT_V16U16,
    D3DFMT_A2W10V10U10,  D3DFMT_UYVY,          D3DFMT_R8G8_B8G8,     D3DFMT_YUY2,         D3DFMT_G8R8_G8B8,
    D3DFMT_L16,          D3DFMT_Q16W16V16U16,  D3DFMT_R16F,          D3DFMT_G16R16F,      D3DFMT_A16B16G16R16F,
    D3DFMT_R32F,         D3DFMT_G32R32F,       D3DFMT_A32B32G32R32F, D3DFMT_CxV8U8,       D3DFMT_A1,
};

struct Kind {
  D3DRESOURCETYPE type;
  const char *name, *pixel_shader;
  float u, v, s; // a coordinate inside the texture (cube: a direction onto +X)
};
constexpr Kind kKinds[] = {
    {D3DRTYPE_TEXTURE, "2D", "ps20_texld", 0.5f, 0.5f, 0.0f},
    {D3DRTYPE_CUBETEXTURE, "cube", "ps20_texld_cube", 1.0f, 0.2f, 0.2f},
    {D3DRTYPE_VOLUMETEXTURE, "volume", "ps20_texld_volume", 0.5f, 0.5f, 0.5f},
};

bool advertises(IDirect3DDevice9 *dev, D3DRESOURCETYPE type, D3DFORMAT format) {
  IDirect3D9 *d3d = nullptr;
  HR(dev->GetDirect3D(&d3d));
  const bool yes = d3d->CheckDeviceFormat(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, D3DFMT_X8R8G8B8, D3DUSAGE_QUERY_SRGBREAD,
                                          type, format) == D3D_OK;
  d3d->Release();
  return yes;
}

void copy_rows(const Format &f, uint8_t *dst, INT pitch) {
  const UINT rows = UINT(f.region.size()) / f.row_bytes;
  for (UINT r = 0; r < rows; ++r) std::memcpy(dst + r * pitch, f.region.data() + r * f.row_bytes, f.row_bytes);
}

// A 4 x 4 (x 4) texture of `kind` in `f`, every face and slice holding f.region.
IDirect3DBaseTexture9 *make_texture(IDirect3DDevice9 *dev, const Kind &kind, const Format &f) {
  if (kind.type == D3DRTYPE_TEXTURE) {
    IDirect3DTexture9 *t = nullptr;
    HR(dev->CreateTexture(4, 4, 1, 0, f.format, D3DPOOL_MANAGED, &t, nullptr));
    D3DLOCKED_RECT lr;
    HR(t->LockRect(0, &lr, nullptr, 0));
    copy_rows(f, static_cast<uint8_t *>(lr.pBits), lr.Pitch);
    HR(t->UnlockRect(0));
    return t;
  }
  if (kind.type == D3DRTYPE_CUBETEXTURE) {
    IDirect3DCubeTexture9 *t = nullptr;
    HR(dev->CreateCubeTexture(4, 1, 0, f.format, D3DPOOL_MANAGED, &t, nullptr));
    for (UINT face = 0; face < 6; ++face) {
      D3DLOCKED_RECT lr;
      HR(t->LockRect(D3DCUBEMAP_FACES(face), 0, &lr, nullptr, 0));
      copy_rows(f, static_cast<uint8_t *>(lr.pBits), lr.Pitch);
      HR(t->UnlockRect(D3DCUBEMAP_FACES(face), 0));
    }
    return t;
  }
  IDirect3DVolumeTexture9 *t = nullptr;
  HR(dev->CreateVolumeTexture(4, 4, 4, 1, 0, f.format, D3DPOOL_MANAGED, &t, nullptr));
  D3DLOCKED_BOX lb;
  HR(t->LockBox(0, &lb, nullptr, 0));
  for (UINT z = 0; z < 4; ++z) copy_rows(f, static_cast<uint8_t *>(lb.pBits) + z * lb.SlicePitch, lb.RowPitch);
  HR(t->UnlockBox(0));
  return t;
}

} // namespace

TEST_CASE("SRGBTEXTURE decodes every format and texture kind that answers QUERY_SRGBREAD", "[scenes][srgb]") {
  for (const Kind &kind : kKinds) {
    SECTION(kind.name) {
      // Format i fills column [8i, 8i + 8) where it answers QUERY_SRGBREAD; the others stay black.
      std::vector<std::vector<bool>> advertised; // per backend, per format
      auto images = render_all(std::string("srgb_read_") + kind.name, SceneSetup{}, [&](IDirect3DDevice9 *dev) {
        HR(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xff000000, 1.0f, 0));
        ShaderSet s(dev, "vs20_pass_texcoord_v1", kind.pixel_shader, kElements);
        HR(dev->SetSamplerState(0, D3DSAMP_SRGBTEXTURE, TRUE));
        advertised.emplace_back();
        for (size_t i = 0; i < formats().size(); ++i) {
          const Format &f = formats()[i];
          advertised.back().push_back(advertises(dev, kind.type, f.format));
          if (!advertised.back().back()) continue;
          IDirect3DBaseTexture9 *tex = make_texture(dev, kind, f);
          HR(dev->SetTexture(0, tex));
          const float x0 = float(i) / 4.0f - 1.0f, x1 = x0 + 0.25f;
          const Vertex v[4] = {{x0, 1, 0.5f, 1, kind.u, kind.v, kind.s, 1},
                               {x1, 1, 0.5f, 1, kind.u, kind.v, kind.s, 1},
                               {x0, -1, 0.5f, 1, kind.u, kind.v, kind.s, 1},
                               {x1, -1, 0.5f, 1, kind.u, kind.v, kind.s, 1}};
          HR(dev->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, v, sizeof(Vertex)));
          HR(dev->SetTexture(0, nullptr));
          CHECK(tex->Release() == 0);
        }
        HR(dev->SetSamplerState(0, D3DSAMP_SRGBTEXTURE, FALSE));
        // The table is complete: no other format answers for this kind.
        for (D3DFORMAT other : kOtherFormats) {
          INFO("format " << other);
          CHECK_FALSE(advertises(dev, kind.type, other));
        }
        s.release(dev);
      }, 2);
      REQUIRE(advertised.size() == images.size());
      // A8R8G8B8 answers for every kind on every backend here.
      for (const auto &per_backend : advertised) CHECK(per_backend[0]);
      for (size_t b = 0; b < images.size(); ++b)
        for (size_t i = 0; i < formats().size(); ++i) {
          INFO(kind.name << " " << formats()[i].name);
          const Format &f = formats()[i];
          probe(images[b], UINT(8 * i + 4), 32, advertised[b][i] ? f.decoded : D3DCOLOR(0xff000000), f.tolerance);
        }
    }
  }
}
