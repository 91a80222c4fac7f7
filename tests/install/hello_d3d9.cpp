// A D3D9 program written outside Novem's tree: it knows only <d3d9.h> and pkg-config.
// Clears the back buffer, draws a pre-transformed triangle, reads two pixels back and prints them.
#include <d3d9.h>

#include <cstdio>

struct Vertex {
  float x, y, z, rhw;
  D3DCOLOR color;
};

int main() {
  IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
  D3DPRESENT_PARAMETERS pp = {};
  pp.BackBufferWidth = 32;
  pp.BackBufferHeight = 32;
  pp.BackBufferFormat = D3DFMT_A8R8G8B8;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.Windowed = TRUE;
  IDirect3DDevice9 *device = NULL;
  HRESULT hr = d3d->CreateDevice(0, D3DDEVTYPE_HAL, NULL, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &device);
  if (FAILED(hr)) {
    std::printf("CreateDevice failed: 0x%08x\n", unsigned(hr));
    d3d->Release();
    return 1;
  }
  Vertex tri[3] = {{0, 0, 0.5f, 1, 0xff00ff00}, {32, 0, 0.5f, 1, 0xff00ff00}, {0, 32, 0.5f, 1, 0xff00ff00}};
  device->Clear(0, NULL, D3DCLEAR_TARGET, D3DCOLOR_XRGB(255, 0, 0), 1.0f, 0);
  device->BeginScene();
  device->SetFVF(D3DFVF_XYZRHW | D3DFVF_DIFFUSE);
  device->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, tri, sizeof(Vertex));
  device->EndScene();
  IDirect3DSurface9 *back = NULL, *copy = NULL;
  device->GetBackBuffer(0, 0, D3DBACKBUFFER_TYPE_MONO, &back);
  device->CreateOffscreenPlainSurface(32, 32, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &copy, NULL);
  if (FAILED(device->GetRenderTargetData(back, copy))) return 1;
  D3DLOCKED_RECT lr;
  copy->LockRect(&lr, NULL, D3DLOCK_READONLY);
  const DWORD *row4 = (const DWORD *)((const char *)lr.pBits + 4 * lr.Pitch);
  const DWORD *row28 = (const DWORD *)((const char *)lr.pBits + 28 * lr.Pitch);
  std::printf("pixel(4,4)=%08x pixel(28,28)=%08x\n", unsigned(row4[4]), unsigned(row28[28]));
  copy->UnlockRect();
  copy->Release();
  back->Release();
  device->Release();
  d3d->Release();
  return 0;
}
