// The library's only exports: Direct3DCreate9 and Direct3DCreate9Ex (see d3d9.map).
#include "direct3d9.hpp"

extern "C" __attribute__((visibility("default"))) IDirect3D9 *WINAPI Direct3DCreate9(UINT sdk_version) {
  (void)sdk_version; // every D3D_SDK_VERSION of the D3D9 era is accepted, as Windows does
  return new novem::Direct3D9(false);
}

extern "C" __attribute__((visibility("default"))) HRESULT WINAPI Direct3DCreate9Ex(UINT sdk_version, IDirect3D9Ex **out) {
  (void)sdk_version;
  if (!out) return D3DERR_INVALIDCALL;
  *out = new novem::Direct3D9(true);
  return D3D_OK;
}
