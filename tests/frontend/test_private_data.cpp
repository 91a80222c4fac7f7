// SetPrivateData / GetPrivateData / FreePrivateData on resources and volumes, as Windows answers
// (docs/d3d9-behaviour.md, "Private data"). On the null plugin.
#include <catch2/catch.hpp>

#include <cstring>

#include "api_fixture.hpp"

using namespace api_fixture;

namespace {

const GUID kGuidA = {0x2e5afac2, 0x87b5, 0x4e55, {0x8a, 0x1b, 0x0f, 0x3c, 0x48, 0x52, 0x11, 0x9a}};
const GUID kGuidB = {0x9c1d0e47, 0x21f0, 0x4d4b, {0x91, 0x5e, 0x6a, 0x22, 0x0d, 0x7f, 0x3b, 0x01}};

} // namespace

TEST_CASE("private data: blocks are copied, replaced, sized and freed", "[api][private-data]") {
  NullDevice d;
  IDirect3DTexture9 *texture = nullptr;
  REQUIRE(d.device->CreateTexture(16, 16, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &texture, nullptr) == D3D_OK);

  DWORD value = 0x12345678, size = 0;
  CHECK(texture->GetPrivateData(kGuidA, nullptr, &size) == D3DERR_NOTFOUND);
  CHECK(texture->FreePrivateData(kGuidA) == D3DERR_NOTFOUND);
  CHECK(texture->SetPrivateData(kGuidA, nullptr, 4, 0) == D3DERR_INVALIDCALL);
  REQUIRE(texture->SetPrivateData(kGuidA, &value, sizeof value, 0) == D3D_OK);
  value = 0; // the data was copied

  CHECK(texture->GetPrivateData(kGuidA, nullptr, nullptr) == D3DERR_INVALIDCALL);
  size = 0;
  CHECK(texture->GetPrivateData(kGuidA, nullptr, &size) == D3D_OK); // the size only
  CHECK(size == 4);
  size = 2;
  CHECK(texture->GetPrivateData(kGuidA, &value, &size) == D3DERR_MOREDATA);
  CHECK(size == 4);
  CHECK(value == 0);
  CHECK(texture->GetPrivateData(kGuidA, &value, &size) == D3D_OK);
  CHECK(value == 0x12345678);

  const char text[] = "a longer block";
  REQUIRE(texture->SetPrivateData(kGuidA, text, sizeof text, 0) == D3D_OK); // replaces
  char back[32] = {};
  size = sizeof back;
  CHECK(texture->GetPrivateData(kGuidA, back, &size) == D3D_OK);
  CHECK(size == sizeof text);
  CHECK(std::strcmp(back, text) == 0);
  CHECK(texture->GetPrivateData(kGuidB, back, &size) == D3DERR_NOTFOUND);

  // A level's surface keeps data of its own.
  IDirect3DSurface9 *level = nullptr;
  REQUIRE(texture->GetSurfaceLevel(0, &level) == D3D_OK);
  size = sizeof back;
  CHECK(level->GetPrivateData(kGuidA, back, &size) == D3DERR_NOTFOUND);
  level->Release();

  CHECK(texture->FreePrivateData(kGuidA) == D3D_OK);
  CHECK(texture->GetPrivateData(kGuidA, back, &size) == D3DERR_NOTFOUND);
  texture->Release();
}

TEST_CASE("private data: an IUnknown is held with a reference, returned with one, released when freed", "[api][private-data]") {
  NullDevice d;
  IDirect3DVertexBuffer9 *buffer = nullptr, *held = nullptr;
  IDirect3DVolumeTexture9 *volumes = nullptr;
  REQUIRE(d.device->CreateVertexBuffer(64, 0, 0, D3DPOOL_MANAGED, &buffer, nullptr) == D3D_OK);
  REQUIRE(d.device->CreateVertexBuffer(64, 0, 0, D3DPOOL_MANAGED, &held, nullptr) == D3D_OK);
  REQUIRE(d.device->CreateVolumeTexture(4, 4, 4, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &volumes, nullptr) == D3D_OK);
  IDirect3DVolume9 *volume = nullptr;
  REQUIRE(volumes->GetVolumeLevel(0, &volume) == D3D_OK);

  CHECK(buffer->SetPrivateData(kGuidA, held, 4, D3DSPD_IUNKNOWN) == D3DERR_INVALIDCALL); // not a pointer's size
  CHECK(refcount(held) == 1);
  REQUIRE(buffer->SetPrivateData(kGuidA, held, sizeof(IUnknown *), D3DSPD_IUNKNOWN) == D3D_OK);
  CHECK(refcount(held) == 2);
  REQUIRE(volume->SetPrivateData(kGuidB, held, sizeof(IUnknown *), D3DSPD_IUNKNOWN) == D3D_OK);
  CHECK(refcount(held) == 3);

  IUnknown *out = nullptr;
  DWORD size = sizeof out;
  CHECK(buffer->GetPrivateData(kGuidA, &out, &size) == D3D_OK);
  CHECK(size == sizeof(IUnknown *));
  CHECK(out == static_cast<IUnknown *>(held));
  CHECK(refcount(held) == 4);
  out->Release();

  // Replacing and freeing release the object; so does the holder going away.
  DWORD plain = 7;
  REQUIRE(buffer->SetPrivateData(kGuidA, &plain, sizeof plain, 0) == D3D_OK);
  CHECK(refcount(held) == 2);
  CHECK(volume->FreePrivateData(kGuidB) == D3D_OK);
  CHECK(refcount(held) == 1);
  REQUIRE(buffer->SetPrivateData(kGuidB, held, sizeof(IUnknown *), D3DSPD_IUNKNOWN) == D3D_OK);
  CHECK(refcount(held) == 2);
  volume->Release();
  volumes->Release();
  buffer->Release();
  CHECK(refcount(held) == 1);
  held->Release();
}
