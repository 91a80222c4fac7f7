#include "direct3d9.hpp"

#include "settings.hpp"

#include <bit>
#include <cstdio>
#include <cstring>

#include "device.hpp"
#include "display.hpp"
#include "format.hpp"
#include "log.hpp"

namespace novem {

namespace {

// The display formats a windowed device's display may have (the adapter format the Check* calls
// take); full screen takes those the display has modes of (display.hpp).
bool is_display_format(D3DFORMAT f) { return f == D3DFMT_X8R8G8B8 || f == D3DFMT_R5G6B5; }

// The counts N > 1 the plugin renders, as bits of value N.
uint32_t multisample_counts(const nv_adapter_info &adapter) { return adapter.sample_counts & 0x1FFFEu; }

} // namespace

HRESULT Direct3D9::QueryInterface(REFIID iid, void **out) {
  if (!out) return E_POINTER;
  if (IsEqualGUID(iid, IID_IUnknown) || IsEqualGUID(iid, IID_IDirect3D9) ||
      (extended_ && IsEqualGUID(iid, IID_IDirect3D9Ex))) {
    AddRef();
    *out = static_cast<IDirect3D9Ex *>(this);
    return S_OK;
  }
  *out = nullptr;
  return E_NOINTERFACE;
}

ULONG Direct3D9::AddRef() { return ++refs_; }

ULONG Direct3D9::Release() {
  ULONG refs = --refs_;
  if (refs == 0) delete this;
  return refs;
}

bool Direct3D9::backend_ready() {
  std::call_once(resolved_, [this] {
    std::string error;
    available_ = load_backend(backend_, error);
    if (!available_) log_error("%s", error.c_str());
    // A fallback is no surprise: the one line says which backend and why (once per process).
    static std::once_flag fallback_said;
    if (available_ && !error.empty()) std::call_once(fallback_said, [&] { log_warn("%s", error.c_str()); });
    if (available_) log_info("backend '%s' from %s: %s", backend_.plugin->name, backend_.path.c_str(), backend_.adapter.device_name);
  });
  return available_;
}

HRESULT Direct3D9::check_adapter(UINT adapter, D3DDEVTYPE device_type) {
  if (adapter != 0) return D3DERR_INVALIDCALL;
  if (device_type != D3DDEVTYPE_HAL) return D3DERR_NOTAVAILABLE; // no reference rasterizer
  return backend_ready() ? D3D_OK : D3DERR_NOTAVAILABLE;
}

HRESULT Direct3D9::RegisterSoftwareDevice(void *) { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }

UINT Direct3D9::GetAdapterCount() { return 1; }

HRESULT Direct3D9::GetAdapterIdentifier(UINT adapter, DWORD, D3DADAPTER_IDENTIFIER9 *id) {
  if (adapter != 0 || !id) return D3DERR_INVALIDCALL;
  std::memset(id, 0, sizeof *id);
  if (backend_ready()) {
    std::snprintf(id->Driver, sizeof id->Driver, "libnovem_d3d9.so (%s)", backend_.plugin->name);
    std::snprintf(id->Description, sizeof id->Description, "%s (Novem %s)", backend_.adapter.device_name, backend_.plugin->name);
    id->VendorId = library_settings().vendor_id.value_or(backend_.adapter.vendor_id);
    id->DeviceId = library_settings().device_id.value_or(backend_.adapter.device_id);
  } else {
    std::snprintf(id->Driver, sizeof id->Driver, "libnovem_d3d9.so");
    std::snprintf(id->Description, sizeof id->Description, "Novem (no backend could start)");
  }
  std::snprintf(id->DeviceName, sizeof id->DeviceName, "\\\\.\\DISPLAY1");
  id->DriverVersion.QuadPart = (0ll << 48) | (1ll << 32); // Novem 0.1
  id->WHQLLevel = 0;
  return D3D_OK;
}

// The display's modes (display.hpp): SDL's display 0, else the virtual display. A format that is
// no display format (A8R8G8B8 included) lists none, as Windows (Wine's test_display_modes).
UINT Direct3D9::GetAdapterModeCount(UINT adapter, D3DFORMAT format) {
  return adapter == 0 ? UINT(display_modes(format).size()) : 0;
}

HRESULT Direct3D9::EnumAdapterModes(UINT adapter, D3DFORMAT format, UINT mode_idx, D3DDISPLAYMODE *mode) {
  if (adapter != 0 || !mode) return D3DERR_INVALIDCALL;
  const std::vector<DisplayMode> modes = display_modes(format);
  if (mode_idx >= modes.size()) return D3DERR_INVALIDCALL;
  *mode = modes[mode_idx].mode;
  return D3D_OK;
}

HRESULT Direct3D9::GetAdapterDisplayMode(UINT adapter, D3DDISPLAYMODE *mode) {
  if (adapter != 0 || !mode) return D3DERR_INVALIDCALL;
  *mode = current_display_mode();
  return D3D_OK;
}

HRESULT Direct3D9::CheckDeviceType(UINT adapter, D3DDEVTYPE device_type, D3DFORMAT display_format,
                                   D3DFORMAT backbuffer_format, WINBOOL windowed) {
  if (HRESULT hr = check_adapter(adapter, device_type); FAILED(hr)) return hr;
  // Full screen: a display format the display has modes of (display.hpp).
  if (windowed ? !is_display_format(display_format) : display_modes(display_format).empty()) return D3DERR_NOTAVAILABLE;
  if (backbuffer_format == D3DFMT_UNKNOWN) return windowed ? D3D_OK : D3DERR_INVALIDCALL;
  bool matches = backbuffer_format == display_format || display_format_of(backbuffer_format) == display_format;
  FormatInfo info = format_info(backbuffer_format);
  if (!matches || !info.color || !(backend_.adapter.format_support[info.storage] & NV_SUPPORT_RENDER_TARGET))
    return D3DERR_NOTAVAILABLE;
  return D3D_OK;
}

HRESULT Direct3D9::CheckDeviceFormat(UINT adapter, D3DDEVTYPE device_type, D3DFORMAT adapter_format,
                                     DWORD usage, D3DRESOURCETYPE resource_type, D3DFORMAT format) {
  if (HRESULT hr = check_adapter(adapter, device_type); FAILED(hr)) return hr;
  if (!is_display_format(adapter_format)) return D3DERR_INVALIDCALL;
  if (resource_type == D3DRTYPE_VERTEXBUFFER)
    return format == D3DFMT_VERTEXDATA && !(usage & ~(D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY)) ? D3D_OK : D3DERR_NOTAVAILABLE;
  if (resource_type == D3DRTYPE_INDEXBUFFER)
    return (format == D3DFMT_INDEX16 || format == D3DFMT_INDEX32) && !(usage & ~(D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY))
               ? D3D_OK : D3DERR_NOTAVAILABLE;
  if (resource_type == D3DRTYPE_TEXTURE || resource_type == D3DRTYPE_CUBETEXTURE ||
      resource_type == D3DRTYPE_VOLUMETEXTURE) {
    // 2D, cube and volume textures of every format format_info marks as one, that the backend
    // samples (volumes of the block formats as the B8G8R8A8 they are decoded into); 2D depth
    // textures (D3DUSAGE_DEPTHSTENCIL) of the depth formats that have one, where the backend
    // samples them.
    FormatInfo info = resource_type == D3DRTYPE_VOLUMETEXTURE ? volume_format_info(format) : format_info(format);
    const uint32_t support = backend_.adapter.format_support[info.storage];
    if (usage & D3DUSAGE_DEPTHSTENCIL) {
      if (resource_type != D3DRTYPE_TEXTURE || info.depth_sampling == DepthSampling::None ||
          !(support & NV_SUPPORT_DEPTH_SAMPLED))
        return D3DERR_NOTAVAILABLE;
      // A depth texture that compares filters (PCF); the depth values of INTZ are
      // read nearest. It is nothing else.
      if ((usage & D3DUSAGE_QUERY_FILTER) && info.depth_sampling != DepthSampling::Compare) return D3DERR_NOTAVAILABLE;
      constexpr DWORD depth_known = D3DUSAGE_DEPTHSTENCIL | D3DUSAGE_QUERY_FILTER | D3DUSAGE_QUERY_WRAPANDMIP;
      return (usage & ~depth_known) ? D3DERR_NOTAVAILABLE : D3D_OK;
    }
    if (!info.texture) return D3DERR_NOTAVAILABLE;
    if (!(support & NV_SUPPORT_SAMPLED)) return D3DERR_NOTAVAILABLE;
    if ((usage & D3DUSAGE_QUERY_FILTER) && !(support & NV_SUPPORT_FILTER)) return D3DERR_NOTAVAILABLE;
    // Render-target textures: 2D or cube, of a render-target format.
    if ((usage & D3DUSAGE_RENDERTARGET) &&
        (resource_type == D3DRTYPE_VOLUMETEXTURE || !info.color || !(support & NV_SUPPORT_RENDER_TARGET)))
      return D3DERR_NOTAVAILABLE;
    if ((usage & D3DUSAGE_QUERY_POSTPIXELSHADER_BLENDING) && !(support & NV_SUPPORT_BLEND)) return D3DERR_NOTAVAILABLE;
    // sRGB: D3DSAMP_SRGBTEXTURE decodes where the plugin reads the format as sRGB;
    // D3DRS_SRGBWRITEENABLE encodes into render targets it writes as sRGB.
    if ((usage & D3DUSAGE_QUERY_SRGBREAD) && !info.srgb_readable(support)) return D3DERR_NOTAVAILABLE;
    if ((usage & D3DUSAGE_QUERY_SRGBWRITE) && !(info.color && (support & NV_SUPPORT_SRGB_WRITE)))
      return D3DERR_NOTAVAILABLE;
    constexpr DWORD known = D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY | D3DUSAGE_SOFTWAREPROCESSING |
                            D3DUSAGE_QUERY_FILTER | D3DUSAGE_QUERY_WRAPANDMIP | D3DUSAGE_QUERY_VERTEXTEXTURE |
                            D3DUSAGE_RENDERTARGET | D3DUSAGE_QUERY_POSTPIXELSHADER_BLENDING | D3DUSAGE_AUTOGENMIPMAP |
                            D3DUSAGE_QUERY_SRGBREAD | D3DUSAGE_QUERY_SRGBWRITE;
    if (usage & ~known) return D3DERR_NOTAVAILABLE;
    // AUTOGENMIPMAP (2D and cube, render targets too): D3DOK_NOAUTOGEN where the backend cannot
    // generate the levels, as Windows answers for a format it takes without autogeneration.
    if (usage & D3DUSAGE_AUTOGENMIPMAP) {
      if (resource_type == D3DRTYPE_VOLUMETEXTURE) return D3DERR_NOTAVAILABLE;
      if (!(support & NV_SUPPORT_GENERATE_MIPS)) return D3DOK_NOAUTOGEN;
    }
    return D3D_OK;
  }
  if (resource_type != D3DRTYPE_SURFACE) return D3DERR_NOTAVAILABLE;
  FormatInfo info = format_info(format);
  // The NULL format is a render-target surface and nothing else (what NVIDIA and AMD report).
  if (info.null_target) return usage == D3DUSAGE_RENDERTARGET ? D3D_OK : D3DERR_NOTAVAILABLE;
  if (info.storage == NV_FORMAT_UNDEFINED) return D3DERR_NOTAVAILABLE;
  uint32_t support = backend_.adapter.format_support[info.storage];
  if ((usage & D3DUSAGE_RENDERTARGET) && !(info.color && (support & NV_SUPPORT_RENDER_TARGET))) return D3DERR_NOTAVAILABLE;
  if ((usage & D3DUSAGE_DEPTHSTENCIL) && !(info.depth && (support & NV_SUPPORT_DEPTH_STENCIL))) return D3DERR_NOTAVAILABLE;
  if ((usage & D3DUSAGE_QUERY_POSTPIXELSHADER_BLENDING) && !(support & NV_SUPPORT_BLEND)) return D3DERR_NOTAVAILABLE;
  if ((usage & D3DUSAGE_QUERY_SRGBWRITE) && !(info.color && (support & NV_SUPPORT_SRGB_WRITE))) return D3DERR_NOTAVAILABLE;
  constexpr DWORD known = D3DUSAGE_RENDERTARGET | D3DUSAGE_DEPTHSTENCIL | D3DUSAGE_QUERY_POSTPIXELSHADER_BLENDING |
                          D3DUSAGE_QUERY_SRGBWRITE;
  if (usage & ~known) return D3DERR_NOTAVAILABLE; // other usages need textures
  // Plain surfaces: colour and YUV formats, and the compressed ones (DXTn, 3Dc), which
  // CreateOffscreenPlainSurface makes in every pool.
  if (!(usage & (D3DUSAGE_RENDERTARGET | D3DUSAGE_DEPTHSTENCIL)) && !info.color && !info.yuv() && info.block == 1)
    return D3DERR_NOTAVAILABLE;
  return D3D_OK;
}

uint32_t multisample_quality_levels(const nv_adapter_info &adapter, D3DMULTISAMPLE_TYPE type) {
  if (type == D3DMULTISAMPLE_NONE) return 1;
  if (type == D3DMULTISAMPLE_NONMASKABLE) return uint32_t(std::popcount(multisample_counts(adapter)));
  const uint32_t n = uint32_t(type);
  if (n < 2 || n > 16 || !std::has_single_bit(n)) return 0;
  return (multisample_counts(adapter) & n) ? 1 : 0;
}

uint32_t multisample_count(const nv_adapter_info &adapter, D3DMULTISAMPLE_TYPE type, DWORD quality) {
  if (quality >= multisample_quality_levels(adapter, type)) return 0;
  if (type == D3DMULTISAMPLE_NONE) return 1;
  if (type != D3DMULTISAMPLE_NONMASKABLE) return uint32_t(type);
  uint32_t counts = multisample_counts(adapter);
  for (DWORD skip = 0; skip < quality; ++skip) counts &= counts - 1;
  return counts & (~counts + 1); // the lowest count left
}

// Truthful for what the plugin renders: the sample counts it reports for colour and depth
// targets (what it makes exactly, not rounded up), of a format that is a target.
HRESULT Direct3D9::CheckDeviceMultiSampleType(UINT adapter, D3DDEVTYPE device_type, D3DFORMAT surface_format,
                                              WINBOOL, D3DMULTISAMPLE_TYPE multisample_type, DWORD *quality_levels) {
  if (HRESULT hr = check_adapter(adapter, device_type); FAILED(hr)) return hr;
  if (quality_levels) *quality_levels = 0;
  FormatInfo info = format_info(surface_format);
  // A NULL target has no samples of its own: any count the depth-stencil surface can have.
  if (info.storage == NV_FORMAT_UNDEFINED && !info.null_target) return D3DERR_NOTAVAILABLE;
  const uint32_t support = backend_.adapter.format_support[info.storage];
  if (multisample_type != D3DMULTISAMPLE_NONE && !info.null_target &&
      !(support & (info.depth ? NV_SUPPORT_DEPTH_STENCIL : NV_SUPPORT_RENDER_TARGET)))
    return D3DERR_NOTAVAILABLE;
  const uint32_t levels = multisample_quality_levels(backend_.adapter, multisample_type);
  if (!levels) return D3DERR_NOTAVAILABLE;
  if (quality_levels) *quality_levels = levels;
  return D3D_OK;
}

HRESULT Direct3D9::CheckDepthStencilMatch(UINT adapter, D3DDEVTYPE device_type, D3DFORMAT adapter_format,
                                          D3DFORMAT rt_format, D3DFORMAT ds_format) {
  if (HRESULT hr = check_adapter(adapter, device_type); FAILED(hr)) return hr;
  if (!is_display_format(adapter_format)) return D3DERR_INVALIDCALL;
  FormatInfo rt = format_info(rt_format), ds = format_info(ds_format);
  if (!(rt.color || rt.null_target) || !ds.depth) return D3DERR_NOTAVAILABLE;
  if (!(rt.null_target || (backend_.adapter.format_support[rt.storage] & NV_SUPPORT_RENDER_TARGET)) ||
      !(backend_.adapter.format_support[ds.storage] & NV_SUPPORT_DEPTH_STENCIL))
    return D3DERR_NOTAVAILABLE;
  return D3D_OK; // any implemented depth format works with any colour format
}

HRESULT Direct3D9::CheckDeviceFormatConversion(UINT adapter, D3DDEVTYPE device_type, D3DFORMAT src, D3DFORMAT dst) {
  if (HRESULT hr = check_adapter(adapter, device_type); FAILED(hr)) return hr;
  // StretchRect converts nothing, except YUY2 and UYVY into render targets of the RGB format
  // they are kept in (B8G8R8A8).
  const FormatInfo from = format_info(src), to = format_info(dst);
  if (src == dst && from.color) return D3D_OK;
  const bool target = backend_.adapter.format_support[to.storage] & NV_SUPPORT_RENDER_TARGET;
  return from.yuv() && to.color && to.storage == from.storage && target ? D3D_OK : D3DERR_NOTAVAILABLE;
}

HRESULT Direct3D9::GetDeviceCaps(UINT adapter, D3DDEVTYPE device_type, D3DCAPS9 *caps) {
  if (!caps) return D3DERR_INVALIDCALL;
  if (HRESULT hr = check_adapter(adapter, device_type); FAILED(hr)) return hr;
  fill_device_caps(backend_.adapter, caps);
  return D3D_OK;
}

HMONITOR Direct3D9::GetAdapterMonitor(UINT adapter) {
  // Headless: no monitor; a non-null token for adapter 0 so that callers can compare it.
  return adapter == 0 ? reinterpret_cast<HMONITOR>(uintptr_t(1)) : nullptr;
}

HRESULT Direct3D9::CreateDevice(UINT adapter, D3DDEVTYPE device_type, HWND focus_window, DWORD flags,
                                D3DPRESENT_PARAMETERS *parameters, IDirect3DDevice9 **device) {
  if (!device) return D3DERR_INVALIDCALL;
  *device = nullptr;
  if (!parameters) return D3DERR_INVALIDCALL;
  if (HRESULT hr = check_adapter(adapter, device_type); FAILED(hr)) return hr;
  // Exactly one way of processing vertices, as Windows asks.
  const DWORD processing = flags & (D3DCREATE_SOFTWARE_VERTEXPROCESSING | D3DCREATE_HARDWARE_VERTEXPROCESSING |
                                    D3DCREATE_MIXED_VERTEXPROCESSING);
  if (processing == 0 || (processing & (processing - 1)) != 0) return D3DERR_INVALIDCALL;
  D3DDEVICE_CREATION_PARAMETERS creation{adapter, device_type, focus_window, flags};
  Device *created = nullptr;
  HRESULT hr = Device::create(this, backend_, creation, parameters, &created);
  if (SUCCEEDED(hr)) *device = created;
  return hr;
}

// Every mode is progressive: an interlaced filter finds none.
UINT Direct3D9::GetAdapterModeCountEx(UINT adapter, const D3DDISPLAYMODEFILTER *filter) {
  if (!filter || filter->ScanLineOrdering == D3DSCANLINEORDERING_INTERLACED) return 0;
  return GetAdapterModeCount(adapter, filter->Format);
}

HRESULT Direct3D9::EnumAdapterModesEx(UINT adapter, const D3DDISPLAYMODEFILTER *filter, UINT mode_idx,
                                      D3DDISPLAYMODEEX *mode) {
  if (!filter || !mode || filter->ScanLineOrdering == D3DSCANLINEORDERING_INTERLACED) return D3DERR_INVALIDCALL;
  D3DDISPLAYMODE plain;
  if (HRESULT hr = EnumAdapterModes(adapter, filter->Format, mode_idx, &plain); FAILED(hr)) return hr;
  *mode = D3DDISPLAYMODEEX{sizeof(D3DDISPLAYMODEEX), plain.Width, plain.Height, plain.RefreshRate,
                           plain.Format, D3DSCANLINEORDERING_PROGRESSIVE};
  return D3D_OK;
}

HRESULT Direct3D9::GetAdapterDisplayModeEx(UINT adapter, D3DDISPLAYMODEEX *mode, D3DDISPLAYROTATION *rotation) {
  D3DDISPLAYMODE plain;
  if (!mode) return D3DERR_INVALIDCALL;
  if (HRESULT hr = GetAdapterDisplayMode(adapter, &plain); FAILED(hr)) return hr;
  *mode = D3DDISPLAYMODEEX{sizeof(D3DDISPLAYMODEEX), plain.Width, plain.Height, plain.RefreshRate,
                           plain.Format, D3DSCANLINEORDERING_PROGRESSIVE};
  if (rotation) *rotation = D3DDISPLAYROTATION_IDENTITY;
  return D3D_OK;
}

HRESULT Direct3D9::CreateDeviceEx(UINT adapter, D3DDEVTYPE device_type, HWND focus_window, DWORD flags,
                                  D3DPRESENT_PARAMETERS *parameters, D3DDISPLAYMODEEX *, IDirect3DDevice9Ex **device) {
  if (!device) return D3DERR_INVALIDCALL;
  IDirect3DDevice9 *plain = nullptr;
  HRESULT hr = CreateDevice(adapter, device_type, focus_window, flags, parameters, &plain);
  *device = static_cast<IDirect3DDevice9Ex *>(plain);
  return hr;
}

HRESULT Direct3D9::GetAdapterLUID(UINT adapter, LUID *luid) {
  if (adapter != 0 || !luid) return D3DERR_INVALIDCALL;
  *luid = LUID{1, 0};
  return D3D_OK;
}

} // namespace novem
