// Lights, user clip planes and the scissor rect: what the getters answer and what is refused.
#include <cstring>

#include "api_fixture.hpp"

using namespace api_fixture;

TEST_CASE("lights: set, enable, defaults for a light never set, refusals", "[api][state]") {
  NullDevice d;
  D3DLIGHT9 light{};
  WINBOOL enabled = 0;
  CHECK(d.device->GetLight(0, &light) == D3DERR_INVALIDCALL); // no light exists yet
  CHECK(d.device->GetLightEnable(0, &enabled) == D3DERR_INVALIDCALL);

  D3DLIGHT9 point{};
  point.Type = D3DLIGHT_POINT;
  point.Diffuse = {0.5f, 0.25f, 1.0f, 1.0f};
  point.Position = {1, 2, 3};
  point.Range = 10.0f;
  point.Attenuation1 = 1.0f;
  REQUIRE(d.device->SetLight(1000, &point) == D3D_OK); // any index is allowed
  REQUIRE(d.device->GetLight(1000, &light) == D3D_OK);
  CHECK(std::memcmp(&light, &point, sizeof light) == 0);
  REQUIRE(d.device->GetLightEnable(1000, &enabled) == D3D_OK);
  CHECK(enabled == FALSE);
  REQUIRE(d.device->LightEnable(1000, TRUE) == D3D_OK);
  REQUIRE(d.device->GetLightEnable(1000, &enabled) == D3D_OK);
  CHECK(enabled == 128);

  // Enabling a light never set creates the default directional light.
  REQUIRE(d.device->LightEnable(7, TRUE) == D3D_OK);
  REQUIRE(d.device->GetLight(7, &light) == D3D_OK);
  CHECK(light.Type == D3DLIGHT_DIRECTIONAL);
  CHECK(light.Diffuse.r == 1.0f);
  CHECK(light.Diffuse.a == 0.0f);
  CHECK(light.Direction.z == 1.0f);

  D3DLIGHT9 bad = point;
  bad.Attenuation2 = -1.0f;
  CHECK(d.device->SetLight(2, &bad) == D3DERR_INVALIDCALL);
  bad = point;
  bad.Type = D3DLIGHTTYPE(0);
  CHECK(d.device->SetLight(2, &bad) == D3DERR_INVALIDCALL);
  CHECK(d.device->SetLight(2, nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->GetLight(2, &light) == D3DERR_INVALIDCALL);

  // Eight lights at once: two are on, six more may be, the ninth is refused.
  for (DWORD i = 10; i < 16; ++i) CHECK(d.device->LightEnable(i, TRUE) == D3D_OK);
  CHECK(d.device->LightEnable(16, TRUE) == D3DERR_INVALIDCALL);
  CHECK(d.device->LightEnable(15, TRUE) == D3D_OK); // already on: not a ninth
  CHECK(d.device->LightEnable(15, FALSE) == D3D_OK);
  CHECK(d.device->LightEnable(16, TRUE) == D3D_OK);
}

TEST_CASE("clip planes: six, read back, an index past the last is the last", "[api][state]") {
  NullDevice d;
  float plane[4] = {9, 9, 9, 9};
  REQUIRE(d.device->GetClipPlane(5, plane) == D3D_OK);
  CHECK((plane[0] == 0 && plane[1] == 0 && plane[2] == 0 && plane[3] == 0));
  const float set[4] = {1, -2, 3, -4};
  REQUIRE(d.device->SetClipPlane(3, set) == D3D_OK);
  REQUIRE(d.device->GetClipPlane(3, plane) == D3D_OK);
  CHECK(std::memcmp(plane, set, sizeof set) == 0);
  // As Windows (Wine's tests record it): an index at or past MaxUserClipPlanes is plane 5.
  const float last[4] = {5, 6, 7, 8};
  CHECK(d.device->SetClipPlane(6, last) == D3D_OK);
  REQUIRE(d.device->GetClipPlane(5, plane) == D3D_OK);
  CHECK(std::memcmp(plane, last, sizeof last) == 0);
  REQUIRE(d.device->GetClipPlane(1000, plane) == D3D_OK);
  CHECK(std::memcmp(plane, last, sizeof last) == 0);
  CHECK(d.device->SetClipPlane(0, nullptr) == D3DERR_INVALIDCALL);
}

TEST_CASE("the scissor rect starts as the whole back buffer and follows render target 0", "[api][state]") {
  NullDevice d;
  RECT rect{};
  REQUIRE(d.device->GetScissorRect(&rect) == D3D_OK);
  CHECK((rect.left == 0 && rect.top == 0 && rect.right == 64 && rect.bottom == 64));
  const RECT set{4, 5, 20, 30};
  REQUIRE(d.device->SetScissorRect(&set) == D3D_OK);
  REQUIRE(d.device->GetScissorRect(&rect) == D3D_OK);
  CHECK((rect.left == 4 && rect.top == 5 && rect.right == 20 && rect.bottom == 30));
  CHECK(d.device->SetScissorRect(nullptr) == D3DERR_INVALIDCALL);
  CHECK(d.device->GetScissorRect(nullptr) == D3DERR_INVALIDCALL);

  IDirect3DSurface9 *target = nullptr;
  REQUIRE(d.device->CreateRenderTarget(32, 16, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &target, nullptr) == D3D_OK);
  REQUIRE(d.device->SetRenderTarget(0, target) == D3D_OK);
  REQUIRE(d.device->GetScissorRect(&rect) == D3D_OK);
  CHECK((rect.left == 0 && rect.top == 0 && rect.right == 32 && rect.bottom == 16));
  target->Release();
}
