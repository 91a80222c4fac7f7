#include "scene_harness.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace scenes {

namespace {

bool backend_required(const std::string &name) {
  const char *env = std::getenv("NOVEM_TEST_REQUIRE_BACKENDS");
  if (!env) return false;
  std::stringstream list(env);
  std::string item;
  while (std::getline(list, item, ','))
    if (item == name) return true;
  return false;
}

bool can_start(const std::string &backend) {
  setenv("NOVEM_BACKEND", backend.c_str(), 1);
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DCAPS9 caps;
  bool ok = d3d->GetDeviceCaps(0, D3DDEVTYPE_HAL, &caps) == D3D_OK;
  d3d->Release();
  return ok;
}

} // namespace

std::vector<std::string> available_backends() {
  static const std::vector<std::string> backends = [] {
    std::vector<std::string> out;
    for (const char *name : {"vulkan", "opengl"}) {
      if (can_start(name)) out.push_back(name);
      else if (backend_required(name)) FAIL("backend " << name << " is required but cannot start");
      else WARN("backend " << name << " cannot start here: skipped");
    }
    return out;
  }();
  return backends;
}

novem::image::Image render(const std::string &backend, const SceneSetup &setup, const DrawFn &draw) {
  setenv("NOVEM_BACKEND", backend.c_str(), 1);
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  REQUIRE(d3d != nullptr);
  D3DPRESENT_PARAMETERS pp{};
  pp.BackBufferWidth = setup.width;
  pp.BackBufferHeight = setup.height;
  pp.BackBufferFormat = setup.back_buffer;
  pp.BackBufferCount = 1;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.Windowed = TRUE;
  pp.EnableAutoDepthStencil = setup.depth != D3DFMT_UNKNOWN;
  pp.AutoDepthStencilFormat = setup.depth;
  IDirect3DDevice9 *device = nullptr;
  HR(d3d->CreateDevice(0, D3DDEVTYPE_HAL, nullptr, setup.behavior, &pp, &device));

  HR(device->BeginScene());
  draw(device);
  HR(device->EndScene());

  IDirect3DSurface9 *back = nullptr, *readback = nullptr;
  HR(device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back));
  HR(device->CreateOffscreenPlainSurface(setup.width, setup.height, setup.back_buffer, D3DPOOL_SYSTEMMEM, &readback, nullptr));
  HR(device->GetRenderTargetData(back, readback));
  HR(device->Present(nullptr, nullptr, nullptr, nullptr));
  D3DLOCKED_RECT locked;
  HR(readback->LockRect(&locked, nullptr, D3DLOCK_READONLY));
  novem::image::Image image = novem::image::from_bgra8(locked.pBits, setup.width, setup.height, size_t(locked.Pitch),
                                                       setup.back_buffer == D3DFMT_X8R8G8B8);
  HR(readback->UnlockRect());
  CHECK(readback->Release() == 0);
  CHECK(back->Release() == 0);
  CHECK(device->Release() == 0);
  CHECK(d3d->Release() == 0);
  return image;
}

std::vector<Rendered> render_all(const std::string &name, const SceneSetup &setup, const DrawFn &draw,
                                 uint32_t tolerance) {
  std::vector<Rendered> out;
  const std::filesystem::path dir = std::filesystem::path(NOVEM_BUILD_DIR) / "test-output";
  std::filesystem::create_directories(dir);
  for (const std::string &backend : available_backends()) {
    INFO("backend " << backend);
    out.push_back(Rendered{backend, render(backend, setup, draw)});
    novem::image::write_png(dir / (name + "_" + backend + ".png"), out.back().image);
  }
  for (size_t i = 1; i < out.size(); ++i) {
    novem::image::Image diff;
    auto result = novem::image::compare(out[0].image, out[i].image, tolerance, &diff);
    INFO(name << ": " << out[0].backend << " vs " << out[i].backend << ": max channel difference "
              << result.max_channel_diff << ", " << result.pixels_over_tolerance << " pixels over " << tolerance
              << ", first at (" << result.first_over_x << ", " << result.first_over_y << ")");
    if (!result.within_tolerance()) novem::image::write_png(dir / (name + "_diff.png"), diff);
    CHECK(result.within_tolerance());
  }
  return out;
}

std::vector<DWORD> shader(const std::string &name) {
  const std::filesystem::path path = std::filesystem::path(NOVEM_SCENE_SHADER_DIR) / (name + ".bin");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    FAIL("scene shader " << path.string() << " is missing: tests/scenes/shaders/" << name
                         << ".asm is assembled at build time by target novem_scene_shaders");
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO("scene shader " << path.string() << " (" << bytes.size() << " bytes)");
  REQUIRE((!bytes.empty() && bytes.size() % sizeof(DWORD) == 0)); // whole tokens
  std::vector<DWORD> tokens(bytes.size() / sizeof(DWORD));
  std::memcpy(tokens.data(), bytes.data(), bytes.size());
  return tokens;
}

ShaderSet::ShaderSet(IDirect3DDevice9 *dev, const std::string &vs_name, const std::string &ps_name,
                     const D3DVERTEXELEMENT9 *elements) {
  if (!vs_name.empty()) HR(dev->CreateVertexShader(shader(vs_name).data(), &vs));
  if (!ps_name.empty()) HR(dev->CreatePixelShader(shader(ps_name).data(), &ps));
  HR(dev->CreateVertexDeclaration(elements, &decl));
  HR(dev->SetVertexDeclaration(decl));
  HR(dev->SetVertexShader(vs));
  HR(dev->SetPixelShader(ps));
}

void ShaderSet::release(IDirect3DDevice9 *dev) {
  HR(dev->SetVertexShader(nullptr));
  HR(dev->SetPixelShader(nullptr));
  HR(dev->SetVertexDeclaration(nullptr));
  if (vs) CHECK(vs->Release() == 0);
  if (ps) CHECK(ps->Release() == 0);
  CHECK(decl->Release() == 0);
}

void cube_direction(UINT face, float sc, float tc, float d[3]) {
  switch (face) {
  case D3DCUBEMAP_FACE_POSITIVE_X: d[0] = 1, d[1] = -tc, d[2] = -sc; break;
  case D3DCUBEMAP_FACE_NEGATIVE_X: d[0] = -1, d[1] = -tc, d[2] = sc; break;
  case D3DCUBEMAP_FACE_POSITIVE_Y: d[0] = sc, d[1] = 1, d[2] = tc; break;
  case D3DCUBEMAP_FACE_NEGATIVE_Y: d[0] = sc, d[1] = -1, d[2] = -tc; break;
  case D3DCUBEMAP_FACE_POSITIVE_Z: d[0] = sc, d[1] = -tc, d[2] = 1; break;
  default: d[0] = -sc, d[1] = -tc, d[2] = -1; break;
  }
}

void probe(const Rendered &r, uint32_t x, uint32_t y, D3DCOLOR expected, uint32_t tolerance) {
  const uint8_t *p = r.image.at(x, y);
  const int want[3] = {int((expected >> 16) & 0xff), int((expected >> 8) & 0xff), int(expected & 0xff)};
  INFO(r.backend << " pixel (" << x << ", " << y << ") is (" << int(p[0]) << ", " << int(p[1]) << ", " << int(p[2])
                 << "), expected (" << want[0] << ", " << want[1] << ", " << want[2] << ") within " << tolerance);
  for (int c = 0; c < 3; ++c) CHECK(std::abs(int(p[c]) - want[c]) <= int(tolerance));
}

void probe(const std::vector<Rendered> &images, std::initializer_list<Probe> probes) {
  for (const Rendered &r : images)
    for (const Probe &p : probes) probe(r, p.x, p.y, p.expected, p.tolerance);
}

IDirect3DTexture9 *filled_texture(IDirect3DDevice9 *dev, UINT edge, const std::function<D3DCOLOR(UINT, UINT)> &texel) {
  IDirect3DTexture9 *tex = nullptr;
  HR(dev->CreateTexture(edge, edge, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_MANAGED, &tex, nullptr));
  D3DLOCKED_RECT lr;
  HR(tex->LockRect(0, &lr, nullptr, 0));
  for (UINT j = 0; j < edge; ++j)
    for (UINT i = 0; i < edge; ++i) {
      const D3DCOLOR c = texel(i, j);
      std::memcpy(static_cast<uint8_t *>(lr.pBits) + j * UINT(lr.Pitch) + i * 4, &c, 4);
    }
  HR(tex->UnlockRect(0));
  return tex;
}

} // namespace scenes
