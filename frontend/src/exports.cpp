// The library's functions: Direct3DCreate9, Direct3DCreate9Ex, Direct3DShaderValidatorCreate9 and
// novem_get_statistics (see d3d9.map).
#include <new>

#include "device.hpp"
#include "direct3d9.hpp"
#include "novem/statistics.h"
#include "shader_validator.hpp"

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

// Undocumented, exported by Windows' d3d9.dll for D3DX and fxc.exe, which validate the shaders
// they assemble with it (d3d9_shader_validator.h). A new object each call, as on Windows; NULL,
// never an exception, when there is no memory.
extern "C" __attribute__((visibility("default"))) IDirect3DShaderValidator9 *WINAPI Direct3DShaderValidatorCreate9(void) {
  return new (std::nothrow) novem::ShaderValidator();
}

// The device's plugin counters (novem/statistics.h), for benchmarks and tests; -1 for anything
// that is not a Novem device.
extern "C" __attribute__((visibility("default"))) int novem_get_statistics(void *device, nv_statistics *out) {
  auto *d3d = static_cast<IDirect3DDevice9 *>(device);
  auto *novem_device = d3d && out ? dynamic_cast<novem::Device *>(d3d) : nullptr;
  if (!novem_device) return -1;
  novem_device->statistics(*out);
  return 0;
}
