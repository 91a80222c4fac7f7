// The library's functions: Direct3DCreate9, Direct3DCreate9Ex, Direct3DShaderValidatorCreate9 and
// novem_get_statistics (see d3d9.map).
#include <new>

#include "device.hpp"
#include "direct3d9.hpp"
#include "novem/statistics.h"
#include "shader_validator.hpp"
#include "settings.hpp"
#include "traced_direct3d9.hpp"

namespace {

// The object Direct3DCreate9(Ex) returns: one that writes each call when NOVEM_LOG=trace.
novem::Direct3D9 *make_direct3d9(const char *function, UINT sdk_version, bool extended) {
  novem::library_settings(); // the settings' problems are written now, once
  if (!novem::call_trace_enabled()) return new novem::Direct3D9(extended);
  novem::Direct3D9 *d3d = new novem::TracedDirect3D9(extended);
  std::string result;
  novem::call_trace::append_value(result, d3d);
  novem::call_trace::write(function, novem::call_trace::arguments("SDKVersion", sdk_version), result);
  return d3d;
}

} // namespace

extern "C" __attribute__((visibility("default"))) IDirect3D9 *WINAPI Direct3DCreate9(UINT sdk_version) {
  // Every D3D_SDK_VERSION of the D3D9 era is accepted, as Windows does.
  return make_direct3d9("Direct3DCreate9", sdk_version, false);
}

extern "C" __attribute__((visibility("default"))) HRESULT WINAPI Direct3DCreate9Ex(UINT sdk_version, IDirect3D9Ex **out) {
  if (!out) return D3DERR_INVALIDCALL;
  *out = make_direct3d9("Direct3DCreate9Ex", sdk_version, true);
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
