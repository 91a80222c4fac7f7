// IDirect3D9Ex: the object Direct3DCreate9(Ex) returns. One adapter, described by the backend
// plugin that NOVEM_BACKEND selects (resolved at the first call that needs it).
#pragma once

#include <atomic>
#include <mutex>
#include <string>

#include <d3d9.h>

#include "plugin_loader.hpp"

namespace novem {

class Direct3D9 : public IDirect3D9Ex {
public:
  explicit Direct3D9(bool extended) : extended_(extended) {}
  bool extended() const { return extended_; } // made by Direct3DCreate9Ex

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override;
  ULONG STDMETHODCALLTYPE AddRef() override;
  ULONG STDMETHODCALLTYPE Release() override;
  HRESULT STDMETHODCALLTYPE RegisterSoftwareDevice(void *init) override;
  UINT STDMETHODCALLTYPE GetAdapterCount() override;
  HRESULT STDMETHODCALLTYPE GetAdapterIdentifier(UINT adapter, DWORD flags, D3DADAPTER_IDENTIFIER9 *identifier) override;
  UINT STDMETHODCALLTYPE GetAdapterModeCount(UINT adapter, D3DFORMAT format) override;
  HRESULT STDMETHODCALLTYPE EnumAdapterModes(UINT adapter, D3DFORMAT format, UINT mode_idx, D3DDISPLAYMODE *mode) override;
  HRESULT STDMETHODCALLTYPE GetAdapterDisplayMode(UINT adapter, D3DDISPLAYMODE *mode) override;
  HRESULT STDMETHODCALLTYPE CheckDeviceType(UINT adapter, D3DDEVTYPE device_type, D3DFORMAT display_format, D3DFORMAT backbuffer_format, WINBOOL windowed) override;
  HRESULT STDMETHODCALLTYPE CheckDeviceFormat(UINT adapter, D3DDEVTYPE device_type, D3DFORMAT adapter_format, DWORD usage, D3DRESOURCETYPE resource_type, D3DFORMAT format) override;
  HRESULT STDMETHODCALLTYPE CheckDeviceMultiSampleType(UINT adapter, D3DDEVTYPE device_type, D3DFORMAT surface_format, WINBOOL windowed, D3DMULTISAMPLE_TYPE multisample_type, DWORD *quality_levels) override;
  HRESULT STDMETHODCALLTYPE CheckDepthStencilMatch(UINT adapter, D3DDEVTYPE device_type, D3DFORMAT adapter_format, D3DFORMAT rt_format, D3DFORMAT ds_format) override;
  HRESULT STDMETHODCALLTYPE CheckDeviceFormatConversion(UINT adapter, D3DDEVTYPE device_type, D3DFORMAT src_format, D3DFORMAT dst_format) override;
  HRESULT STDMETHODCALLTYPE GetDeviceCaps(UINT adapter, D3DDEVTYPE device_type, D3DCAPS9 *caps) override;
  HMONITOR STDMETHODCALLTYPE GetAdapterMonitor(UINT adapter) override;
  HRESULT STDMETHODCALLTYPE CreateDevice(UINT adapter, D3DDEVTYPE device_type, HWND focus_window, DWORD flags, D3DPRESENT_PARAMETERS *parameters, struct IDirect3DDevice9 **device) override;
  UINT STDMETHODCALLTYPE GetAdapterModeCountEx(UINT adapter, const D3DDISPLAYMODEFILTER *filter) override;
  HRESULT STDMETHODCALLTYPE EnumAdapterModesEx(UINT adapter, const D3DDISPLAYMODEFILTER *filter, UINT mode_idx, D3DDISPLAYMODEEX *mode) override;
  HRESULT STDMETHODCALLTYPE GetAdapterDisplayModeEx(UINT adapter, D3DDISPLAYMODEEX *mode, D3DDISPLAYROTATION *rotation) override;
  HRESULT STDMETHODCALLTYPE CreateDeviceEx(UINT adapter, D3DDEVTYPE device_type, HWND focus_window, DWORD flags, D3DPRESENT_PARAMETERS *parameters, D3DDISPLAYMODEEX *mode, struct IDirect3DDevice9Ex **device) override;
  HRESULT STDMETHODCALLTYPE GetAdapterLUID(UINT adapter, LUID *luid) override;

protected:
  virtual ~Direct3D9() = default; // Release deletes; TracedDirect3D9 derives

private:
  // Loads the backend once; false (with the reason logged once) when none can start.
  bool backend_ready();
  HRESULT check_adapter(UINT adapter, D3DDEVTYPE device_type);

  std::atomic<ULONG> refs_{1};
  bool extended_;
  std::once_flag resolved_; // any thread may be the first to ask
  bool available_ = false;
  LoadedPlugin backend_;
};

// Fills caps honestly: what this frontend implements, within the device's limits.
void fill_device_caps(const nv_adapter_info &adapter, D3DCAPS9 *caps);
// The quality levels CheckDeviceMultiSampleType reports for a multisample type (0: not
// supported): one for D3DMULTISAMPLE_NONE and for each count N > 1 the plugin renders (powers of
// two, nv_adapter_info.sample_counts); for D3DMULTISAMPLE_NONMASKABLE one level per such count.
uint32_t multisample_quality_levels(const nv_adapter_info &adapter, D3DMULTISAMPLE_TYPE type);
// Samples per pixel of a surface of that type and quality (1 for D3DMULTISAMPLE_NONE), or 0 when
// the quality is not below the type's levels. NONMASKABLE's quality q is the (q+1)th smallest
// count the plugin renders.
uint32_t multisample_count(const nv_adapter_info &adapter, D3DMULTISAMPLE_TYPE type, DWORD quality);

} // namespace novem
