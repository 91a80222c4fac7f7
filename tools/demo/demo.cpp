// novem-demo: renders a spinning, depth-tested cube with a blended overlay through the D3D9 API,
// headless or (--window) in an SDL2 window, and writes the last frame as a PNG. It is an
// ordinary D3D9 program: only the window (an SDL_Window* as the HWND) and the PNG writing are
// Linux-specific.
//
//   novem-demo [--window] [--backend vulkan|opengl|null|PATH] [--frames N] [--size WxH] [--out FILE.png]
#include <SDL2/SDL.h>
#include <d3d9.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "headless.hpp"

namespace {

struct Vertex {
  float x, y, z;
  D3DCOLOR color;
};
struct OverlayVertex {
  float x, y, z, rhw;
  D3DCOLOR color;
};

D3DMATRIX identity() {
  D3DMATRIX m{};
  m._11 = m._22 = m._33 = m._44 = 1.0f;
  return m;
}

D3DMATRIX multiply(const D3DMATRIX &a, const D3DMATRIX &b) {
  D3DMATRIX r{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) r.m[i][j] += a.m[i][k] * b.m[k][j];
  return r;
}

D3DMATRIX rotation(float yaw, float pitch) {
  D3DMATRIX y = identity(), x = identity();
  y._11 = std::cos(yaw), y._13 = -std::sin(yaw), y._31 = std::sin(yaw), y._33 = std::cos(yaw);
  x._22 = std::cos(pitch), x._23 = std::sin(pitch), x._32 = -std::sin(pitch), x._33 = std::cos(pitch);
  return multiply(y, x);
}

D3DMATRIX perspective_lh(float fov_y, float aspect, float zn, float zf) {
  float ys = 1.0f / std::tan(fov_y / 2), xs = ys / aspect;
  D3DMATRIX m{};
  m._11 = xs, m._22 = ys, m._33 = zf / (zf - zn), m._34 = 1.0f, m._43 = -zn * zf / (zf - zn);
  return m;
}

// 12 clockwise triangles of a unit cube, one colour per face.
void cube(Vertex out[36]) {
  const float p[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}};
  const int faces[6][4] = {{0, 3, 2, 1}, {5, 6, 7, 4}, {4, 7, 3, 0}, {1, 2, 6, 5}, {3, 7, 6, 2}, {4, 0, 1, 5}};
  const D3DCOLOR colors[6] = {0xffe04040, 0xff40e040, 0xff4040e0, 0xffe0e040, 0xff40e0e0, 0xffe040e0};
  int n = 0;
  for (int f = 0; f < 6; ++f) {
    const int order[6] = {0, 1, 2, 0, 2, 3};
    for (int i : order) {
      const float *v = p[faces[f][i]];
      // Shade each corner a little so the faces show their interpolation.
      D3DCOLOR c = colors[f] - (i == 2 ? 0x00303030u : 0u);
      out[n++] = Vertex{v[0], v[1], v[2], c};
    }
  }
}

#define CHECK_HR(call)                                                                 \
  do {                                                                                 \
    HRESULT hr_ = (call);                                                              \
    if (FAILED(hr_)) {                                                                 \
      std::fprintf(stderr, "novem-demo: %s failed: 0x%08x\n", #call, unsigned(hr_));   \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

} // namespace

int main(int argc, char **argv) {
  // --window: present every frame to an SDL window of the back buffer's size (the other options
  // are the headless samples' own).
  bool windowed = false;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--window") == 0) {
      windowed = true;
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      --argc;
      break;
    }
  novem::headless::Options o{"novem-demo.png", 60, 320, 240};
  if (int status = novem::headless::parse("novem-demo", "renders a cube headless through Novem and writes the last frame as a PNG",
                                          argc, argv, o);
      status >= 0)
    return status;
  const UINT width = o.width, height = o.height;
  const int frames = o.frames;

  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DADAPTER_IDENTIFIER9 id;
  CHECK_HR(d3d->GetAdapterIdentifier(0, 0, &id));
  SDL_Window *window = nullptr;
  if (windowed) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0 ||
        !(window = SDL_CreateWindow("novem-demo", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, int(width),
                                    int(height), SDL_WINDOW_SHOWN | SDL_WINDOW_RESIZABLE))) {
      std::fprintf(stderr, "novem-demo: no SDL window: %s\n", SDL_GetError());
      return 1;
    }
  }
  D3DPRESENT_PARAMETERS pp{};
  pp.hDeviceWindow = reinterpret_cast<HWND>(window); // NULL: headless
  pp.BackBufferWidth = width;
  pp.BackBufferHeight = height;
  pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.Windowed = TRUE;
  pp.EnableAutoDepthStencil = TRUE;
  pp.AutoDepthStencilFormat = D3DFMT_D24S8;
  IDirect3DDevice9 *device = nullptr;
  CHECK_HR(d3d->CreateDevice(0, D3DDEVTYPE_HAL, pp.hDeviceWindow, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device));
  std::printf("device: %s\n", id.Description);

  Vertex vertices[36];
  cube(vertices);
  IDirect3DVertexBuffer9 *vb = nullptr;
  CHECK_HR(device->CreateVertexBuffer(sizeof vertices, D3DUSAGE_WRITEONLY, D3DFVF_XYZ | D3DFVF_DIFFUSE, D3DPOOL_DEFAULT, &vb, nullptr));
  void *data = nullptr;
  CHECK_HR(vb->Lock(0, 0, &data, 0));
  std::memcpy(data, vertices, sizeof vertices);
  CHECK_HR(vb->Unlock());

  D3DMATRIX view = identity();
  view._43 = 5.0f; // the camera 5 units in front of the cube
  D3DMATRIX proj = perspective_lh(3.14159265f / 3, float(width) / float(height), 0.5f, 50.0f);
  CHECK_HR(device->SetTransform(D3DTS_VIEW, &view));
  CHECK_HR(device->SetTransform(D3DTS_PROJECTION, &proj));
  CHECK_HR(device->SetRenderState(D3DRS_LIGHTING, FALSE));

  const float w = float(width), h = float(height);
  OverlayVertex overlay[4] = {{8, h - 40, 0, 1, 0x80203080}, {w - 8, h - 40, 0, 1, 0x80203080},
                              {8, h - 8, 0, 1, 0x80a0c0ff}, {w - 8, h - 8, 0, 1, 0x80a0c0ff}};
  auto start = std::chrono::steady_clock::now();
  for (int frame = 0; frame < frames; ++frame) {
    for (SDL_Event event; window && SDL_PollEvent(&event);)
      if (event.type == SDL_QUIT) frame = frames; // the last frame is still drawn and written
    float t = float(frame) / 60.0f;
    CHECK_HR(device->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff101820, 1.0f, 0));
    CHECK_HR(device->BeginScene());
    D3DMATRIX world = rotation(0.6f + t * 1.3f, 0.4f + t * 0.7f);
    CHECK_HR(device->SetTransform(D3DTS_WORLD, &world));
    CHECK_HR(device->SetFVF(D3DFVF_XYZ | D3DFVF_DIFFUSE));
    CHECK_HR(device->SetStreamSource(0, vb, 0, sizeof(Vertex)));
    CHECK_HR(device->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 12));
    CHECK_HR(device->SetRenderState(D3DRS_ALPHABLENDENABLE, TRUE));
    CHECK_HR(device->SetRenderState(D3DRS_SRCBLEND, D3DBLEND_SRCALPHA));
    CHECK_HR(device->SetRenderState(D3DRS_DESTBLEND, D3DBLEND_INVSRCALPHA));
    CHECK_HR(device->SetRenderState(D3DRS_ZENABLE, D3DZB_FALSE));
    CHECK_HR(device->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE));
    CHECK_HR(device->DrawPrimitiveUP(D3DPT_TRIANGLESTRIP, 2, overlay, sizeof(OverlayVertex)));
    CHECK_HR(device->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE));
    CHECK_HR(device->SetRenderState(D3DRS_ALPHABLENDENABLE, FALSE));
    CHECK_HR(device->EndScene());
    CHECK_HR(device->Present(nullptr, nullptr, nullptr, nullptr));
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (!novem::headless::write_front_buffer("novem-demo", device, width, height, o.out)) return 1;
  std::printf("rendered %d frames of %ux%u in %.3f s (%.1f frames/s), wrote %s\n", frames, width, height, seconds,
              frames / seconds, o.out.c_str());
  vb->Release();
  device->Release();
  d3d->Release();
  if (window) {
    SDL_DestroyWindow(window);
    SDL_Quit();
  }
  return 0;
}
