// Renders a D3D9 scene headless through a chosen backend and reads the back buffer back.
#pragma once

#include <d3d9.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "novem/image.hpp"

namespace scenes {

struct SceneSetup {
  UINT width = 64;
  UINT height = 64;
  D3DFORMAT back_buffer = D3DFMT_X8R8G8B8;
  D3DFORMAT depth = D3DFMT_UNKNOWN; // D3DFMT_UNKNOWN: no automatic depth-stencil surface
  DWORD behavior = D3DCREATE_HARDWARE_VERTEXPROCESSING; // CreateDevice's vertex-processing flag
};

struct Rendered {
  std::string backend;
  novem::image::Image image;
};

using DrawFn = std::function<void(IDirect3DDevice9 *)>;

// The backends a scene runs on: those of vulkan and opengl that can start here. When the
// environment variable NOVEM_TEST_REQUIRE_BACKENDS lists backends (comma separated), one of
// them failing to start fails the test instead of being skipped.
std::vector<std::string> available_backends();

// Renders `draw` (between BeginScene and EndScene, then Present) on `backend` and returns the
// back buffer read with GetRenderTargetData. Every D3D9 call is checked; every object is
// released and the device's reference count must drop to zero.
novem::image::Image render(const std::string &backend, const SceneSetup &setup, const DrawFn &draw);

// Renders on every available backend, saves PNGs under <build>/test-output/<name>_<backend>.png,
// and checks every pair of images agrees within `tolerance` per channel.
std::vector<Rendered> render_all(const std::string &name, const SceneSetup &setup, const DrawFn &draw,
                                 uint32_t tolerance);

// The bytecode of tests/scenes/shaders/<name>.asm, assembled at build time by novem-shader into
// <build>/tests/scenes/shaders/<name>.bin (the test fails, naming the file, when it is missing).
std::vector<DWORD> shader(const std::string &name);

// A vertex and a pixel shader from shaders/<name>.asm ("" leaves that stage fixed-function),
// bound with a vertex declaration; release() unbinds them and checks they are freed.
struct ShaderSet {
  IDirect3DVertexShader9 *vs = nullptr;
  IDirect3DPixelShader9 *ps = nullptr;
  IDirect3DVertexDeclaration9 *decl = nullptr;
  ShaderSet(IDirect3DDevice9 *dev, const std::string &vs_name, const std::string &ps_name,
            const D3DVERTEXELEMENT9 *elements);
  void release(IDirect3DDevice9 *dev);
};

// Checks the pixel at (x, y) against a D3DCOLOR (alpha ignored) within `tolerance` per channel.
void probe(const Rendered &r, uint32_t x, uint32_t y, D3DCOLOR expected, uint32_t tolerance = 1);

// One row of a scene's table of expected pixels: probe(r, x, y, expected, tolerance).
// A vertex in clip space with a colour and four texture coordinates, and its declaration
// (POSITION, COLOR and TEXCOORD0 in one stream): what the shader scenes draw with.
struct ShaderVertex {
  float x, y, z, w;
  D3DCOLOR color;
  float u, v, s, q;
};
inline constexpr D3DVERTEXELEMENT9 kShaderVertexElements[] = {
    {0, 0, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_POSITION, 0},
    {0, 16, D3DDECLTYPE_D3DCOLOR, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_COLOR, 0},
    {0, 20, D3DDECLTYPE_FLOAT4, D3DDECLMETHOD_DEFAULT, D3DDECLUSAGE_TEXCOORD, 0},
    D3DDECL_END()};

// An edge x edge A8R8G8B8 managed texture of one level, texel (i, j) = texel(i, j), filled
// through LockRect.
IDirect3DTexture9 *filled_texture(IDirect3DDevice9 *dev, UINT edge, const std::function<D3DCOLOR(UINT, UINT)> &texel);

struct Probe {
  uint32_t x, y;
  D3DCOLOR expected;
  uint32_t tolerance = 1;
};

// Checks every row of `probes` on every image, one image after the other.
void probe(const std::vector<Rendered> &images, std::initializer_list<Probe> probes);

// The direction that reaches face coordinates (sc, tc) in [-1, 1] of cube face `face`: D3D9's
// cube-map table, sc to the right and tc down on the face as rendered (row 0 at the top).
void cube_direction(UINT face, float sc, float tc, float d[3]);

// Vertex formats used by the scenes.
struct TLVertex {
  float x, y, z, rhw;
  D3DCOLOR color;
};
constexpr DWORD kTLVertexFVF = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;

struct ColorVertex {
  float x, y, z;
  D3DCOLOR color;
};
constexpr DWORD kColorVertexFVF = D3DFVF_XYZ | D3DFVF_DIFFUSE;

} // namespace scenes

// Fails the current test with the call's text when it does not return D3D_OK.
#define HR(call) REQUIRE((call) == D3D_OK)
