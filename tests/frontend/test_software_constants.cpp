// The vertex shader constant files of software vertex processing: a device created with
// D3DCREATE_SOFTWARE_VERTEXPROCESSING or D3DCREATE_MIXED_VERTEXPROCESSING takes 8192 float and
// 2048 integer and boolean vertex shader constants (in either mode of a mixed device), a hardware
// device 256, 16 and 16; the pixel files are the same on every device. Only a software device
// reports 8192 in MaxVertexShaderConst. State blocks hold the whole file.
#include "api_fixture.hpp"

#include <array>
#include <cstring>

using namespace api_fixture;

namespace {

constexpr DWORD kHardware = D3DCREATE_HARDWARE_VERTEXPROCESSING;
constexpr DWORD kSoftware = D3DCREATE_SOFTWARE_VERTEXPROCESSING;
constexpr DWORD kMixed = D3DCREATE_MIXED_VERTEXPROCESSING;

// Sets `count` registers from `start` of one file and reads them back.
HRESULT set_and_get(IDirect3DDevice9 *dev, bool pixel, char kind, UINT start, UINT count) {
  std::array<float, 4 * 8> f{};
  std::array<int, 4 * 8> i{};
  std::array<WINBOOL, 8> b{};
  for (size_t n = 0; n < f.size(); ++n) f[n] = float(n + start), i[n] = int(n + start);
  for (size_t n = 0; n < b.size(); ++n) b[n] = WINBOOL((n + start) & 1);
  HRESULT hr = E_FAIL;
  if (kind == 'f')
    hr = pixel ? dev->SetPixelShaderConstantF(start, f.data(), count) : dev->SetVertexShaderConstantF(start, f.data(), count);
  else if (kind == 'i')
    hr = pixel ? dev->SetPixelShaderConstantI(start, i.data(), count) : dev->SetVertexShaderConstantI(start, i.data(), count);
  else
    hr = pixel ? dev->SetPixelShaderConstantB(start, b.data(), count) : dev->SetVertexShaderConstantB(start, b.data(), count);
  if (hr != D3D_OK) return hr;
  std::array<float, 4 * 8> f2{};
  std::array<int, 4 * 8> i2{};
  std::array<WINBOOL, 8> b2{};
  if (kind == 'f') {
    REQUIRE((pixel ? dev->GetPixelShaderConstantF(start, f2.data(), count) : dev->GetVertexShaderConstantF(start, f2.data(), count)) == D3D_OK);
    CHECK(std::memcmp(f.data(), f2.data(), 16u * count) == 0);
  } else if (kind == 'i') {
    REQUIRE((pixel ? dev->GetPixelShaderConstantI(start, i2.data(), count) : dev->GetVertexShaderConstantI(start, i2.data(), count)) == D3D_OK);
    CHECK(std::memcmp(i.data(), i2.data(), 16u * count) == 0);
  } else {
    REQUIRE((pixel ? dev->GetPixelShaderConstantB(start, b2.data(), count) : dev->GetVertexShaderConstantB(start, b2.data(), count)) == D3D_OK);
    CHECK(std::memcmp(b.data(), b2.data(), sizeof(WINBOOL) * count) == 0);
  }
  return hr;
}

} // namespace

TEST_CASE("Software vertex processing has Windows' vertex shader constant files", "[api][constants]") {
  struct Case {
    DWORD behaviour;
    bool pixel;
    char kind;
    UINT start, count;
    HRESULT expected;
  };
  const Case cases[] = {
      {kHardware, false, 'f', 255, 1, D3D_OK},
      {kHardware, false, 'f', 256, 1, D3DERR_INVALIDCALL},
      {kHardware, false, 'i', 16, 1, D3DERR_INVALIDCALL},
      {kHardware, false, 'b', 16, 1, D3DERR_INVALIDCALL},
      {kSoftware, false, 'f', 255, 2, D3D_OK},
      {kSoftware, false, 'f', 4095, 4, D3D_OK},
      {kSoftware, false, 'f', 8191, 1, D3D_OK},
      {kSoftware, false, 'f', 8191, 2, D3DERR_INVALIDCALL},
      {kSoftware, false, 'f', 8192, 1, D3DERR_INVALIDCALL},
      {kSoftware, false, 'i', 2047, 1, D3D_OK},
      {kSoftware, false, 'i', 2048, 1, D3DERR_INVALIDCALL},
      {kSoftware, false, 'b', 2040, 8, D3D_OK},
      {kSoftware, false, 'b', 2047, 2, D3DERR_INVALIDCALL},
      {kMixed, false, 'f', 8191, 1, D3D_OK},
      {kMixed, false, 'f', 8192, 1, D3DERR_INVALIDCALL},
      {kMixed, false, 'i', 2047, 1, D3D_OK},
      {kMixed, false, 'b', 2048, 1, D3DERR_INVALIDCALL},
      // The pixel files do not grow.
      {kSoftware, true, 'f', 223, 1, D3D_OK},
      {kSoftware, true, 'f', 224, 1, D3DERR_INVALIDCALL},
      {kSoftware, true, 'i', 16, 1, D3DERR_INVALIDCALL},
      {kMixed, true, 'b', 16, 1, D3DERR_INVALIDCALL},
  };
  for (const Case &c : cases) {
    CAPTURE(c.behaviour, c.pixel, c.kind, c.start, c.count);
    NullDevice d(c.behaviour);
    CHECK(set_and_get(d.device, c.pixel, c.kind, c.start, c.count) == c.expected);
    if (c.behaviour == kMixed) { // the same in the other mode
      REQUIRE(d.device->SetSoftwareVertexProcessing(TRUE) == D3D_OK);
      CHECK(set_and_get(d.device, c.pixel, c.kind, c.start, c.count) == c.expected);
    }
  }
}

TEST_CASE("Only a software vertex-processing device reports 8192 vertex shader constants", "[api][constants]") {
  for (auto [behaviour, expected] : {std::pair{kHardware, 256u}, {kSoftware, 8192u}, {kMixed, 256u}}) {
    CAPTURE(behaviour);
    NullDevice d(behaviour);
    D3DCAPS9 caps{};
    REQUIRE(d.device->GetDeviceCaps(&caps) == D3D_OK);
    CHECK(caps.MaxVertexShaderConst == expected);
    REQUIRE(d.d3d->GetDeviceCaps(0, D3DDEVTYPE_HAL, &caps) == D3D_OK);
    CHECK(caps.MaxVertexShaderConst == 256u); // the adapter's: hardware vertex processing
  }
}

TEST_CASE("State blocks hold software vertex processing's constants", "[api][constants][stateblock]") {
  NullDevice d(kSoftware);
  IDirect3DDevice9 *dev = d.device;
  const float one[4] = {1, 2, 3, 4}, two[4] = {5, 6, 7, 8};
  const int i_one[4] = {1, 1, 1, 1};
  const WINBOOL b_one = TRUE;
  float back[4] = {};

  SECTION("D3DSBT_ALL captures and applies c5000, i1000 and b1500") {
    REQUIRE(dev->SetVertexShaderConstantF(5000, one, 1) == D3D_OK);
    REQUIRE(dev->SetVertexShaderConstantI(1000, i_one, 1) == D3D_OK);
    REQUIRE(dev->SetVertexShaderConstantB(1500, &b_one, 1) == D3D_OK);
    IDirect3DStateBlock9 *block = nullptr;
    REQUIRE(dev->CreateStateBlock(D3DSBT_ALL, &block) == D3D_OK);
    const int i_zero[4] = {};
    const WINBOOL b_zero = FALSE;
    REQUIRE(dev->SetVertexShaderConstantF(5000, two, 1) == D3D_OK);
    REQUIRE(dev->SetVertexShaderConstantI(1000, i_zero, 1) == D3D_OK);
    REQUIRE(dev->SetVertexShaderConstantB(1500, &b_zero, 1) == D3D_OK);
    REQUIRE(block->Apply() == D3D_OK);
    REQUIRE(dev->GetVertexShaderConstantF(5000, back, 1) == D3D_OK);
    CHECK(std::memcmp(back, one, sizeof one) == 0);
    int i_back[4] = {};
    WINBOOL b_back = FALSE;
    REQUIRE(dev->GetVertexShaderConstantI(1000, i_back, 1) == D3D_OK);
    CHECK(std::memcmp(i_back, i_one, sizeof i_one) == 0);
    REQUIRE(dev->GetVertexShaderConstantB(1500, &b_back, 1) == D3D_OK);
    CHECK(b_back == TRUE);
    CHECK(block->Release() == 0);
  }
  SECTION("a recorded block holds the registers set while recording, up to c8191") {
    REQUIRE(dev->BeginStateBlock() == D3D_OK);
    REQUIRE(dev->SetVertexShaderConstantF(8191, one, 1) == D3D_OK);
    CHECK(dev->SetVertexShaderConstantF(8192, one, 1) == D3DERR_INVALIDCALL);
    IDirect3DStateBlock9 *block = nullptr;
    REQUIRE(dev->EndStateBlock(&block) == D3D_OK);
    REQUIRE(dev->GetVertexShaderConstantF(8191, back, 1) == D3D_OK); // recording left the device alone
    CHECK(back[0] == 0.0f);
    REQUIRE(block->Apply() == D3D_OK);
    REQUIRE(dev->GetVertexShaderConstantF(8191, back, 1) == D3D_OK);
    CHECK(std::memcmp(back, one, sizeof one) == 0);
    CHECK(block->Release() == 0);
  }
  SECTION("Reset clears the whole file") {
    REQUIRE(dev->SetVertexShaderConstantF(7000, one, 1) == D3D_OK);
    D3DPRESENT_PARAMETERS pp = headless();
    REQUIRE(dev->Reset(&pp) == D3D_OK);
    REQUIRE(dev->GetVertexShaderConstantF(7000, back, 1) == D3D_OK);
    CHECK(back[3] == 0.0f);
  }
}
