// Device lifetime, presentation, render targets, clears and readback.
#include "device.hpp"

#include <algorithm>
#include <cstring>

#include "creation_answer.hpp"
#include "direct3d9.hpp"
#include "display.hpp"
#include "index_buffer.hpp"
#include "locked_device.hpp"
#include "traced_device.hpp"
#include "log.hpp"
#include "math.hpp"
#include "shader.hpp"
#include "state_block.hpp"
#include "surface.hpp"
#include "swap_chain.hpp"
#include "texture.hpp"
#include "vertex_declaration.hpp"
#include "vertex_buffer.hpp"
#include "window.hpp"

namespace novem {

namespace {

// The swap effects and back-buffer counts Windows takes (Wine's and DXVK's checks agree): DISCARD,
// FLIP and COPY, and OVERLAY and FLIPEX on a D3D9Ex device (of Direct3DCreate9Ex); at most
// D3DPRESENT_BACK_BUFFERS_MAX (3) back buffers, D3DPRESENT_BACK_BUFFERS_MAX_EX (30) on a D3D9Ex
// device; COPY with one.
bool valid_chain(const D3DPRESENT_PARAMETERS &pp, bool extended) {
  const D3DSWAPEFFECT highest = extended ? D3DSWAPEFFECT_FLIPEX : D3DSWAPEFFECT_COPY;
  const UINT most = extended ? D3DPRESENT_BACK_BUFFERS_MAX_EX : D3DPRESENT_BACK_BUFFERS_MAX;
  if (pp.SwapEffect == 0 || pp.SwapEffect > highest || pp.BackBufferCount > most) return false;
  return pp.SwapEffect != D3DSWAPEFFECT_COPY || pp.BackBufferCount <= 1;
}

// The checks CreateDevice and Reset make on presentation parameters; fills in what Windows
// chooses for the application (written back to it on success). `window` is the device window
// (hDeviceWindow, else hFocusWindow): NULL for a headless device. `extended`: a device of
// Direct3DCreate9Ex.
HRESULT check_present_parameters(const char *call, const nv_adapter_info &adapter, HWND window, bool extended,
                                 D3DPRESENT_PARAMETERS *pp) {
  // Full screen: a mode of the display (display.hpp); a size of 0 is refused, not the window's.
  if (!pp->Windowed)
    if (HRESULT hr = check_fullscreen_mode(call, *pp); FAILED(hr)) return hr;
  if (window) {
    nv_window native;
    if (!native_window(window, call, native)) return D3DERR_INVALIDCALL;
    // As Windows: a windowed back buffer of width or height 0 takes the client area's.
    UINT w = 0, h = 0;
    if ((pp->BackBufferWidth == 0 || pp->BackBufferHeight == 0) && !window_client_size(window, w, h)) {
      log_warn("%s: the window's size cannot be read; give BackBufferWidth and BackBufferHeight", call);
      return D3DERR_INVALIDCALL;
    }
    if (pp->BackBufferWidth == 0) pp->BackBufferWidth = w;
    if (pp->BackBufferHeight == 0) pp->BackBufferHeight = h;
  }
  if (pp->BackBufferWidth == 0 || pp->BackBufferHeight == 0) {
    log_warn("%s: a headless device needs BackBufferWidth and BackBufferHeight (no window to size it)", call);
    return D3DERR_INVALIDCALL;
  }
  if (std::max(pp->BackBufferWidth, pp->BackBufferHeight) > adapter.max_texture_size) {
    log_warn("%s: a %ux%u back buffer is larger than the backend's images (%u)", call, pp->BackBufferWidth,
              pp->BackBufferHeight, adapter.max_texture_size);
    return D3DERR_INVALIDCALL;
  }
  if (!valid_chain(*pp, extended)) return D3DERR_INVALIDCALL;
  // A multisampled back buffer needs D3DSWAPEFFECT_DISCARD and a quality below the levels
  // CheckDeviceMultiSampleType reports, as in Windows.
  if (pp->MultiSampleType != D3DMULTISAMPLE_NONE) {
    if (pp->SwapEffect != D3DSWAPEFFECT_DISCARD) return D3DERR_INVALIDCALL;
    if (!multisample_quality_levels(adapter, pp->MultiSampleType)) return D3DERR_NOTAVAILABLE;
    if (!multisample_count(adapter, pp->MultiSampleType, pp->MultiSampleQuality)) return D3DERR_INVALIDCALL;
  }
  // Windows writes back what it chose.
  if (pp->BackBufferFormat == D3DFMT_UNKNOWN) pp->BackBufferFormat = D3DFMT_X8R8G8B8;
  if (pp->BackBufferCount == 0) pp->BackBufferCount = 1;
  // D3D9's back-buffer formats (D3DPRESENT_PARAMETERS: the display formats and their alpha
  // twins; DXVK takes the same six), where the plugin renders them.
  switch (pp->BackBufferFormat) {
  case D3DFMT_A8R8G8B8: case D3DFMT_X8R8G8B8: case D3DFMT_R5G6B5: case D3DFMT_X1R5G5B5: case D3DFMT_A1R5G5B5:
  case D3DFMT_A2R10G10B10:
    break;
  default:
    log_warn("%s: %u is not a back-buffer format", call, unsigned(pp->BackBufferFormat));
    return D3DERR_INVALIDCALL;
  }
  FormatInfo bb = format_info(pp->BackBufferFormat);
  if (!(adapter.format_support[bb.storage] & NV_SUPPORT_RENDER_TARGET)) return D3DERR_INVALIDCALL;
  // A window shows the back buffer through the plugin's PRESENT, which not every format takes:
  // refused as a device that cannot display it would be.
  if (window && !(adapter.format_support[bb.storage] & NV_SUPPORT_BLIT)) {
    log_warn("%s: the backend cannot show back-buffer format %u in a window", call, unsigned(pp->BackBufferFormat));
    return D3DERR_NOTAVAILABLE;
  }
  if (pp->EnableAutoDepthStencil) {
    FormatInfo ds = format_info(pp->AutoDepthStencilFormat);
    if (!ds.depth || !(adapter.format_support[ds.storage] & NV_SUPPORT_DEPTH_STENCIL)) return D3DERR_INVALIDCALL;
  }
  return D3D_OK;
}

} // namespace

HRESULT Device::create(Direct3D9 *parent, const LoadedPlugin &plugin, const D3DDEVICE_CREATION_PARAMETERS &creation,
                       D3DPRESENT_PARAMETERS *pp, Device **out) {
  HWND window = pp->hDeviceWindow ? pp->hDeviceWindow : creation.hFocusWindow;
  if (HRESULT hr = check_present_parameters("CreateDevice", plugin.adapter, window, parent->extended(), pp); FAILED(hr))
    return hr;

  // GetPresentParameters names the window presented to: the focus window when hDeviceWindow is NULL.
  D3DPRESENT_PARAMETERS kept = *pp;
  kept.hDeviceWindow = window;
  Device *device = call_trace_enabled() ? new TracedDevice(parent, plugin, creation, kept)
                   : (creation.BehaviorFlags & D3DCREATE_MULTITHREADED) ? new LockedDevice(parent, plugin, creation, kept)
                                                                        : new Device(parent, plugin, creation, kept);
  if (HRESULT hr = device->init(); FAILED(hr)) {
    device->Release();
    return hr;
  }
  device->apply_window_mode(); // a full-screen device's window goes full-screen (device_fullscreen.cpp)
  *out = device;
  return D3D_OK;
}

// D3D9: hDeviceWindow NULL presents to the device's focus window; a headless device's additional
// swap chain is headless (its own back buffer of the given size). A full-screen one is refused,
// as Windows (and wined3d) allow a device one full-screen swap chain, its own; the automatic
// depth-stencil fields are ignored, as Windows gives additional swap chains no depth buffer.
HRESULT Device::CreateAdditionalSwapChain(D3DPRESENT_PARAMETERS *parameters, IDirect3DSwapChain9 **swap_chain) {
  if (!swap_chain) return D3DERR_INVALIDCALL;
  *swap_chain = nullptr;
  if (!parameters) return D3DERR_INVALIDCALL;
  if (!parameters->Windowed) {
    log_warn("CreateAdditionalSwapChain: an additional swap chain cannot be full-screen");
    return D3DERR_INVALIDCALL;
  }
  D3DPRESENT_PARAMETERS pp = *parameters;
  pp.EnableAutoDepthStencil = FALSE;
  HWND window = pp.hDeviceWindow ? pp.hDeviceWindow : creation_.hFocusWindow;
  if (HRESULT hr = check_present_parameters("CreateAdditionalSwapChain", adapter(), window, extended(), &pp); FAILED(hr))
    return hr;
  pp.EnableAutoDepthStencil = parameters->EnableAutoDepthStencil;
  *parameters = pp;
  *swap_chain = new SwapChain(this, pp, window);
  return D3D_OK;
}

Device::Device(Direct3D9 *parent, const LoadedPlugin &plugin, const D3DDEVICE_CREATION_PARAMETERS &creation,
               const D3DPRESENT_PARAMETERS &parameters)
    : parent_(parent), plugin_(plugin), creation_(creation), present_parameters_(parameters),
      multithreaded_(creation.BehaviorFlags & D3DCREATE_MULTITHREADED),
      live_(vertex_constant_files(creation.BehaviorFlags), StateMask::for_type(D3DSBT_ALL), true) {
  parent_->AddRef();
  device_window_ = parameters.hDeviceWindow ? parameters.hDeviceWindow : creation.hFocusWindow;
}

HRESULT Device::init() {
  // A windowed device tells the plugin its window (the GL plugin makes its context on the
  // window's display); presenting goes through window_target.
  nv_window native{};
  if (device_window_ && !native_window(device_window_, "CreateDevice", native)) return D3DERR_INVALIDCALL;
  const uint32_t flags = software_vertex_files(creation_.BehaviorFlags) ? uint32_t(NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS) : 0u;
  stream_ = std::make_unique<CommandStream>(plugin_, device_window_ ? &native : nullptr, flags);
  if (!stream_->ok()) {
    log_error("%s", stream_->error().c_str());
    stream_.reset();
    return D3DERR_NOTAVAILABLE;
  }
  create_implicit_surfaces();
  software_vertex_processing_ = creation_.BehaviorFlags & D3DCREATE_SOFTWARE_VERTEXPROCESSING;
  for (UINT i = 0; i < 256; ++i) // the identity ramp, as a new device's display has
    gamma_ramp_.red[i] = gamma_ramp_.green[i] = gamma_ramp_.blue[i] = WORD(i * 257);
  set_defaults();
  return D3D_OK;
}

void Device::create_implicit_surfaces() {
  const auto &pp = present_parameters_;
  back_buffers_.create(*this, pp, nullptr); // the implicit swap chain's
  if (pp.EnableAutoDepthStencil) {
    auto_depth_stencil_ = Surface::create_image(this, 0, pp.BackBufferWidth, pp.BackBufferHeight,
                                                pp.AutoDepthStencilFormat, D3DUSAGE_DEPTHSTENCIL, pp.MultiSampleType,
                                                pp.MultiSampleQuality);
    auto_depth_stencil_->set_discardable(pp.Flags & D3DPRESENTFLAG_DISCARD_DEPTHSTENCIL);
    auto_depth_stencil_->add_private_ref();
  }
}

Device::~Device() {
  leave_fullscreen_window(); // as Windows gives the window back (and the display its mode)
  if (stream_) {
    unbind_all();
    for (auto &[fvf, declaration] : fvf_declarations_) declaration->release_private_ref();
    back_buffers_.destroy(*this);
    destroy_hud_resources();
    if (auto_depth_stencil_) auto_depth_stencil_->release_private_ref();
    if (swap_chain_) swap_chain_->release_private_ref();
    for (auto &[window, target] : window_targets_)
      if (target) stream_->push(nv_cmd_destroy_swapchain{target});
    stream_.reset(); // executes what is queued, then stops the plugin's device
  }
  parent_->Release();
}

HRESULT Device::QueryInterface(REFIID iid, void **out) {
  if (!out) return E_POINTER;
  if (IsEqualGUID(iid, IID_IUnknown) || IsEqualGUID(iid, IID_IDirect3DDevice9) ||
      (IsEqualGUID(iid, IID_IDirect3DDevice9Ex) && creation_.AdapterOrdinal == 0)) {
    AddRef();
    *out = static_cast<IDirect3DDevice9Ex *>(this);
    return S_OK;
  }
  *out = nullptr;
  return E_NOINTERFACE;
}

ULONG Device::AddRef() { return ++refs_; }

ULONG Device::Release() {
  ULONG refs = --refs_;
  if (refs == 0) delete this;
  return refs;
}

// ---- Reset ----
// As Windows: Reset refuses (D3DERR_INVALIDCALL) while the application holds an implicit surface
// or while a resource it created in D3DPOOL_DEFAULT still exists; a resource kept alive only by
// the device's bindings does not count, because Reset unbinds everything first (so a refused
// Reset still leaves the device with default state, as DXVK notes Windows does). A state block
// holding such a resource keeps it alive, so it blocks Reset too, as the docs ask the
// application to release state blocks. D3D9Ex devices skip the D3DPOOL_DEFAULT check (their
// resources are never lost). On success the back buffers and the automatic depth-stencil surface
// are made again with the new parameters and every state is a new device's.

void Device::unbind_all() {
  if (recording_) recording_->release_private_ref();
  recording_ = nullptr;
  update_ = &live_;
  release_bound_objects(live_.state);
  live_.state = DeviceState(vertex_constant_files(creation_.BehaviorFlags));
  palettes_ = Palettes{};
  for (DWORD i = 0; i < NV_MAX_COLOR_TARGETS; ++i) bind_render_target(i, nullptr);
  bind_depth_stencil(nullptr);
}

HRESULT Device::reset(D3DPRESENT_PARAMETERS *parameters, bool extended) {
  const char *call = extended ? "ResetEx" : "Reset";
  if (!parameters) return D3DERR_INVALIDCALL;
  D3DPRESENT_PARAMETERS pp = *parameters;
  HWND window = pp.hDeviceWindow ? pp.hDeviceWindow : creation_.hFocusWindow;
  if (HRESULT hr = check_present_parameters(call, adapter(), window, this->extended(), &pp); FAILED(hr)) return hr;
  if (back_buffers_.held() || (auto_depth_stencil_ && auto_depth_stencil_->public_count())) {
    log_warn("%s: the application still holds a back buffer or the automatic depth-stencil surface", call);
    return D3DERR_INVALIDCALL;
  }
  unbind_all();
  if (!extended && default_pool_resources_.load() != 0) {
    log_warn("%s: %d D3DPOOL_DEFAULT resources still exist; release them (and state blocks holding them) first",
              call, default_pool_resources_.load());
    set_defaults();
    return D3DERR_INVALIDCALL;
  }
  *parameters = pp;
  present_parameters_ = pp;
  present_parameters_.hDeviceWindow = window;
  // "The cursor does not survive when the device is lost": SetCursorProperties must be called
  // again after Reset (SetCursorProperties' documentation).
  if (cursor_set_ && device_window_) reset_window_cursor();
  cursor_set_ = false;
  device_window_ = window;
  back_buffers_.destroy(*this);
  if (auto_depth_stencil_) auto_depth_stencil_->release_private_ref();
  auto_depth_stencil_ = nullptr;
  create_implicit_surfaces();
  encoder().forget_sent();
  in_scene_ = false;
  set_defaults();
  return D3D_OK;
}

// Around reset: a lost device cannot be reset yet, and a refused Reset leaves it not reset; the
// device window leaves or enters full screen (device_fullscreen.cpp).
HRESULT Device::Reset(D3DPRESENT_PARAMETERS *parameters) {
  if (HRESULT hr = reset_blocked(); FAILED(hr)) return hr;
  prepare_window_mode(parameters);
  return reset_done(reset(parameters, parent_->extended()), parameters);
}

HRESULT Device::ResetEx(D3DPRESENT_PARAMETERS *parameters, D3DDISPLAYMODEEX *fullscreen_mode) {
  // As documented: the display mode is for full screen and must be NULL for a windowed device.
  // A full-screen device's mode is its back buffer's size and FullScreen_RefreshRateInHz; the
  // D3DDISPLAYMODEEX given with it is not read.
  if (parameters && parameters->Windowed && fullscreen_mode) return D3DERR_INVALIDCALL;
  prepare_window_mode(parameters);
  return reset_done(reset(parameters, true), parameters);
}

namespace {

// What GetAvailableTextureMem can say: a UINT of bytes, in whole MiB as Windows rounds it.
uint64_t video_memory_total(const nv_adapter_info &adapter) {
  return std::min<uint64_t>(adapter.video_memory_bytes >> 20, 4095) << 20;
}

} // namespace

UINT Device::GetAvailableTextureMem() {
  const uint64_t total = video_memory_total(adapter()), used = video_memory_used_.load();
  return UINT(used >= total ? 0 : (total - used) >> 20 << 20);
}

bool Device::take_video_memory(uint64_t bytes) {
  const uint64_t total = video_memory_total(adapter());
  uint64_t used = video_memory_used_.load();
  do {
    if (bytes > total - std::min(used, total)) return false;
  } while (!video_memory_used_.compare_exchange_weak(used, used + bytes));
  return true;
}

HRESULT Device::video_memory_refusal() const { return extended() ? E_OUTOFMEMORY : D3DERR_OUTOFVIDEOMEMORY; }

HRESULT Device::EvictManagedResources() { return D3D_OK; }

HRESULT Device::GetDirect3D(IDirect3D9 **d3d) {
  if (!d3d) return D3DERR_INVALIDCALL;
  parent_->AddRef();
  *d3d = parent_;
  return D3D_OK;
}

HRESULT Device::GetDeviceCaps(D3DCAPS9 *caps) {
  if (!caps) return D3DERR_INVALIDCALL;
  fill_device_caps(adapter(), caps);
  // A software vertex-processing device reports the software pipeline's register file; a mixed
  // one the hardware caps, as Windows (its SetShaderConstant calls still take 8192).
  if (creation_.BehaviorFlags & D3DCREATE_SOFTWARE_VERTEXPROCESSING)
    caps->MaxVertexShaderConst = kSoftwareVertexConstantFiles.f;
  return D3D_OK;
}

HRESULT Device::GetDisplayMode(UINT swapchain, D3DDISPLAYMODE *mode) {
  if (swapchain != 0) return D3DERR_INVALIDCALL;
  return parent_->GetAdapterDisplayMode(0, mode);
}

HRESULT Device::GetCreationParameters(D3DDEVICE_CREATION_PARAMETERS *parameters) {
  if (!parameters) return D3DERR_INVALIDCALL;
  *parameters = creation_;
  return D3D_OK;
}

HRESULT Device::create_target_surface(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample,
                                      DWORD quality, DWORD usage, bool lockable, IDirect3DSurface9 **surface,
                                      HANDLE *shared_handle) {
  if (!surface) return D3DERR_INVALIDCALL;
  *surface = nullptr;
  if (shared_handle || width == 0 || height == 0) return D3DERR_INVALIDCALL;
  // No image larger than the caps' MaxTextureWidth/Height: the plugin could not make it.
  if (std::max(width, height) > adapter().max_texture_size) return D3DERR_INVALIDCALL;
  FormatInfo info = format_info(format);
  bool depth = usage & D3DUSAGE_DEPTHSTENCIL;
  if (info.null_target && !depth) {
    // A render target that takes no memory: nothing to make in the plugin; draws write only
    // the depth-stencil surface.
    if (!multisample_quality_levels(adapter(), multisample)) return D3DERR_NOTAVAILABLE;
    if (!multisample_count(adapter(), multisample, quality)) return D3DERR_INVALIDCALL;
    Surface *created = Surface::create_null(this, width, height, multisample, quality); // never lockable
    created->count_default_pool();
    *surface = created;
    AddRef();
    return D3D_OK;
  }
  uint32_t needed = depth ? NV_SUPPORT_DEPTH_STENCIL : NV_SUPPORT_RENDER_TARGET;
  if ((depth ? !info.depth : !info.color) || !(adapter().format_support[info.storage] & needed)) return D3DERR_INVALIDCALL;
  if (!multisample_quality_levels(adapter(), multisample)) return D3DERR_NOTAVAILABLE;
  // A quality at or past the levels CheckDeviceMultiSampleType reports.
  const uint32_t samples = multisample_count(adapter(), multisample, quality);
  if (!samples) return D3DERR_INVALIDCALL;
  const uint64_t bytes = uint64_t(width) * height * info.bytes_per_pixel * samples;
  if (!take_video_memory(bytes)) return video_memory_refusal();
  Surface *created = Surface::create_image(this, 1, width, height, format, usage, multisample, quality, lockable);
  created->hold_video_memory(bytes);
  if (HRESULT hr = plugin_answer(*this, PluginResource::Image, created->image(), bytes, D3DPOOL_DEFAULT); FAILED(hr)) {
    delete created; // gives the video memory back
    return hr;
  }
  created->count_default_pool(); // render targets and depth-stencil surfaces are D3DPOOL_DEFAULT
  *surface = created;
  AddRef();
  return D3D_OK;
}

// A lockable render target locks (single-sampled ones: a multisampled surface cannot be read);
// a discardable depth-stencil surface is kept as such (StretchRect refuses it, as Windows).
HRESULT Device::CreateRenderTarget(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample,
                                   DWORD quality, WINBOOL lockable, IDirect3DSurface9 **surface, HANDLE *shared_handle) {
  return create_target_surface(width, height, format, multisample, quality, D3DUSAGE_RENDERTARGET, lockable != FALSE,
                               surface, shared_handle);
}

HRESULT Device::CreateDepthStencilSurface(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample,
                                          DWORD quality, WINBOOL discard, IDirect3DSurface9 **surface,
                                          HANDLE *shared_handle) {
  HRESULT hr = create_target_surface(width, height, format, multisample, quality, D3DUSAGE_DEPTHSTENCIL, false, surface,
                                     shared_handle);
  if (SUCCEEDED(hr)) static_cast<Surface *>(*surface)->set_discardable(discard != FALSE);
  return hr;
}

HRESULT Device::CreateOffscreenPlainSurface(UINT width, UINT height, D3DFORMAT format, D3DPOOL pool,
                                            IDirect3DSurface9 **surface, HANDLE *shared_handle) {
  if (!surface) return D3DERR_INVALIDCALL;
  *surface = nullptr;
  if (width == 0 || height == 0 || pool == D3DPOOL_MANAGED || DWORD(pool) > DWORD(D3DPOOL_SCRATCH))
    return D3DERR_INVALIDCALL;
  // D3D9Ex takes the program's memory for a SYSTEMMEM surface (pSharedHandle points at it, Wine's
  // test_user_memory); nothing else shares or takes memory.
  if (shared_handle && (!extended() || pool != D3DPOOL_SYSTEMMEM || !*shared_handle)) return D3DERR_INVALIDCALL;
  const FormatInfo info = format_info(format);
  // Memory surfaces also hold the texture-only formats (DXTn, 3Dc, the bump-map formats): bytes
  // a program fills and UpdateSurface copies into a texture. DXTn ones are whole blocks, as a
  // DXTn texture's level 0 (test_surface_blocks).
  if (!info.color && !info.yuv() && !(info.texture && !info.depth)) return D3DERR_INVALIDCALL;
  if (info.whole_blocks && (width % info.block || height % info.block)) return D3DERR_INVALIDCALL;
  if (pool == D3DPOOL_DEFAULT && std::max(width, height) > adapter().max_texture_size) return D3DERR_INVALIDCALL;
  if (pool == D3DPOOL_DEFAULT) {
    // A backend image that copies, fills and locks write: formats the plugin renders to and
    // samples (the other plain-only formats, the bump-map ones, are not available yet). DXTn and
    // 3Dc ones, which Windows makes in DEFAULT too (test_surface_blocks), keep their blocks in
    // memory instead (Surface::create_compressed_plain). Either is video memory and a DEFAULT
    // resource.
    const bool compressed = info.block > 1;
    const uint32_t needed = NV_SUPPORT_RENDER_TARGET | NV_SUPPORT_SAMPLED;
    if (!compressed && (adapter().format_support[info.storage] & needed) != needed) return D3DERR_NOTAVAILABLE;
    const uint64_t bytes = uint64_t(info.row_bytes(width)) * info.block_rows(height);
    if (!take_video_memory(bytes)) return video_memory_refusal();
    Surface *created = nullptr;
    HRESULT hr = D3D_OK;
    if (compressed) hr = Surface::create_compressed_plain(this, width, height, format, &created);
    else if (!(created = info.yuv() ? Surface::create_yuv_plain(this, width, height, format)
                                    : Surface::create_plain(this, width, height, format)))
      hr = E_OUTOFMEMORY;
    if (FAILED(hr)) {
      give_video_memory(bytes);
      return hr;
    }
    created->hold_video_memory(bytes);
    if (hr = plugin_answer(*this, PluginResource::Image, created->image(), bytes, pool); FAILED(hr)) {
      delete created; // gives the video memory back
      return hr;
    }
    created->count_default_pool();
    *surface = created;
  } else {
    // Memory surfaces are not bounded by the caps, as in Windows: only by the memory there is,
    // and by a row pitch that D3DLOCKED_RECT's INT can hold.
    Surface *created = nullptr;
    uint8_t *program_memory = shared_handle ? static_cast<uint8_t *>(*shared_handle) : nullptr;
    if (HRESULT hr = Surface::create_memory(this, width, height, format, pool, program_memory, &created); FAILED(hr))
      return hr;
    *surface = created;
  }
  AddRef();
  return D3D_OK;
}

void Device::bind_render_target(DWORD index, Surface *surface) {
  Surface *&slot = index == 0 ? render_target_ : more_targets_[index - 1];
  // An AUTOGENMIPMAP render-target texture's sub-levels follow level 0 once it stops being a
  // target, so they are ready before it can be sampled (Windows regenerates them before the
  // next sampling, or at GenerateMipSubLevels).
  if (slot && slot != surface && slot->texture()) slot->texture()->store().generate_mips();
  const Surface *drawn_before = drawn_depth_stencil();
  if (surface) surface->add_private_ref();
  if (slot) slot->release_private_ref();
  slot = surface;
  // The targets' formats shape only the pipeline's state fields (render_states): no shader
  // nor key reads them. Target 0's sample count decides whether the depth-stencil surface is
  // drawn with (bind_depth_stencil).
  live_.dirty |= kDirtyTargets | kDirtyPipelineStates;
  if (drawn_depth_stencil() != drawn_before) live_.dirty |= kDirtyPipeline | kDirtyDynamic;
}

// Wine's test_multisample_mismatch: with a multisampled render target and a single-sampled
// depth-stencil surface (or the reverse) Windows clears and draws the colour; what happens to
// depth differs between drivers (AMD tests and clears it, Nvidia neither, and draws nothing
// while the depth test is on). Novem leaves that depth-stencil surface out, as if none were set:
// its depth and stencil are neither tested nor cleared.
Surface *Device::drawn_depth_stencil() const {
  return depth_stencil_ && render_target_ && depth_stencil_->samples() == render_target_->samples() ? depth_stencil_
                                                                                                   : nullptr;
}

nv_cmd_set_render_targets Device::targets_command() const {
  const Surface *depth_stencil = drawn_depth_stencil();
  nv_cmd_set_render_targets c{render_target_->image(), depth_stencil ? depth_stencil->image() : 0, {}};
  // Targets 1..3 of another multisample type than target 0 are left out, as a depth-stencil
  // surface is (D3D9 requires them to match; drivers differ on what is drawn into them).
  auto drawn = [this](size_t i) -> const Surface * {
    const Surface *s = i == 0 ? render_target_ : more_targets_[i - 1];
    return s && (i == 0 || s->samples() == render_target_->samples()) ? s : nullptr;
  };
  for (size_t i = 0; i < std::size(more_targets_); ++i) c.more_colors[i] = drawn(i + 1) ? drawn(i + 1)->image() : 0;
  // The level and cube face of a render-target texture's surface (0 for other surfaces).
  for (size_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i)
    if (const Surface *s = drawn(i)) {
      c.color_levels[i] = s->level();
      c.color_layers[i] = s->layer();
    }
  // D3DRS_SRGBWRITEENABLE: the plugin encodes the targets whose formats answer QUERY_SRGBWRITE.
  c.srgb_write = live_.state.render_states[D3DRS_SRGBWRITEENABLE] ? 1u : 0u;
  return c;
}

void Device::bind_depth_stencil(Surface *surface) {
  const bool drawn_before = drawn_depth_stencil() != nullptr;
  if (surface) surface->add_private_ref();
  if (depth_stencil_) depth_stencil_->release_private_ref();
  depth_stencil_ = surface;
  // A pixel shader writing oDepth has a variant without that write for drawing with no depth buffer.
  if ((drawn_depth_stencil() != nullptr) != drawn_before) live_.dirty |= kDirtyPipeline;
  live_.dirty |= kDirtyTargets | kDirtyPipelineStates | kDirtyDynamic; // the depth bias scale follows the format
}

// Targets 1..3 (NumSimultaneousRTs is 4) may be NULL and may differ in format from target 0
// (D3DPMISCCAPS_MRTINDEPENDENTBITDEPTHS); drawing covers the area every target covers. Target 0
// may not be NULL, and setting it resets the viewport and the scissor rect, as in Windows.
HRESULT Device::SetRenderTarget(DWORD index, IDirect3DSurface9 *iface) {
  if (index >= NV_MAX_COLOR_TARGETS) return D3DERR_INVALIDCALL;
  auto *surface = known_object<Surface>(iface);
  if (iface && !surface) return D3DERR_INVALIDCALL; // not Novem's object
  // Any level of any face of a render-target texture is a target (an AUTOGENMIPMAP one shows only
  // level 0); a surface without D3DUSAGE_RENDERTARGET is refused, as Windows does.
  if (surface && (!(surface->desc().Usage & D3DUSAGE_RENDERTARGET) || !(surface->has_image() || surface->format().null_target)))
    return D3DERR_INVALIDCALL;
  if (index > 0) {
    bind_render_target(index, surface);
    return D3D_OK;
  }
  if (!surface) return D3DERR_INVALIDCALL;
  bind_render_target(0, surface);
  // As Windows: setting render target 0 resets the viewport and the scissor rect to the whole target.
  live_.state.viewport = D3DVIEWPORT9{0, 0, surface->desc().Width, surface->desc().Height, 0.0f, 1.0f};
  live_.state.scissor_rect = RECT{0, 0, LONG(surface->desc().Width), LONG(surface->desc().Height)};
  live_.dirty |= kDirtyViewport | kDirtyVertexConstants;
  return D3D_OK;
}

HRESULT Device::GetRenderTarget(DWORD index, IDirect3DSurface9 **surface) {
  if (!surface) return D3DERR_INVALIDCALL;
  *surface = nullptr;
  if (index >= NV_MAX_COLOR_TARGETS) return D3DERR_INVALIDCALL;
  Surface *target = index == 0 ? render_target_ : more_targets_[index - 1];
  if (!target) return D3DERR_NOTFOUND;
  target->AddRef();
  *surface = target;
  return D3D_OK;
}

HRESULT Device::SetDepthStencilSurface(IDirect3DSurface9 *iface) {
  auto *surface = known_object<Surface>(iface);
  if (iface && !surface) return D3DERR_INVALIDCALL; // not Novem's object
  // A depth texture's level 0 is a depth-stencil surface too.
  if (surface && (!(surface->desc().Usage & D3DUSAGE_DEPTHSTENCIL) || !surface->has_image())) return D3DERR_INVALIDCALL;
  bind_depth_stencil(surface);
  return D3D_OK;
}

HRESULT Device::GetDepthStencilSurface(IDirect3DSurface9 **surface) {
  if (!surface) return D3DERR_INVALIDCALL;
  *surface = nullptr;
  if (!depth_stencil_) return D3DERR_NOTFOUND;
  depth_stencil_->AddRef();
  *surface = depth_stencil_;
  return D3D_OK;
}

HRESULT Device::BeginScene() {
  if (in_scene_) return D3DERR_INVALIDCALL;
  in_scene_ = true;
  return D3D_OK;
}

HRESULT Device::EndScene() {
  if (!in_scene_) return D3DERR_INVALIDCALL;
  in_scene_ = false;
  return D3D_OK;
}

HRESULT Device::Clear(DWORD rect_count, const D3DRECT *rects, DWORD flags, D3DCOLOR color, float z, DWORD stencil) {
  // A count with no rectangles clears everything, a rectangle array of count 0 nothing: both what
  // Windows does (Wine's tests record it), though the documentation asks for neither.
  if (!rects) rect_count = 0;
  else if (!rect_count) return D3D_OK;
  if (!(flags & (D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL))) return D3DERR_INVALIDCALL;
  if ((flags & (D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL)) && !depth_stencil_) return D3DERR_INVALIDCALL;
  if ((flags & D3DCLEAR_STENCIL) && !depth_stencil_->format().stencil) return D3DERR_INVALIDCALL;
  if (z < 0.0f || z > 1.0f) return D3DERR_INVALIDCALL;

  // Clears are clipped to the viewport (and the render target), as in Windows, and to the scissor
  // rect while D3DRS_SCISSORTESTENABLE is on ("The scissor test also affects the device Clear
  // operation": D3D9's Scissor Test page).
  const RECT area = encoder().draw_area();
  const LONG vx0 = area.left, vy0 = area.top, vx1 = area.right, vy1 = area.bottom;
  std::vector<nv_rect> clipped;
  auto add = [&](LONG x0, LONG y0, LONG x1, LONG y1) {
    x0 = std::max(x0, vx0), y0 = std::max(y0, vy0), x1 = std::min(x1, vx1), y1 = std::min(y1, vy1);
    if (x0 < x1 && y0 < y1) clipped.push_back(nv_rect{x0, y0, x1 - x0, y1 - y0});
  };
  if (rect_count == 0) add(vx0, vy0, vx1, vy1);
  for (DWORD i = 0; i < rect_count; ++i) add(rects[i].x1, rects[i].y1, rects[i].x2, rects[i].y2);
  if (clipped.empty()) return D3D_OK;

  // A clear of the whole presented back buffer: its old texels are dead, so the front image takes
  // them over instead of a copy (Surface::take_front).
  const D3DSURFACE_DESC &rt = render_target_->desc();
  if ((flags & D3DCLEAR_TARGET) && render_target_->front_copy_deferred() && clipped.size() == 1 &&
      clipped[0].x == 0 && clipped[0].y == 0 && UINT(clipped[0].width) == rt.Width && UINT(clipped[0].height) == rt.Height) {
    render_target_->take_front();
    live_.dirty |= kDirtyTargets;
  }
  const uint32_t nv_flags = ((flags & D3DCLEAR_TARGET) ? NV_CLEAR_COLOR : 0) |
                            ((flags & D3DCLEAR_ZBUFFER) ? NV_CLEAR_DEPTH : 0) | ((flags & D3DCLEAR_STENCIL) ? NV_CLEAR_STENCIL : 0);
  // A clear of the whole of target 0 (no rectangles; the viewport, and the scissor rect while it
  // is on, cover it) clears every target and the depth-stencil surface to its own size, as
  // Windows does (Wine's test_clear_different_size_surfaces); the plugins' render area is the
  // area all targets cover, so a target of another size is cleared bound alone.
  if (rect_count == 0 && clipped.size() == 1 && clipped[0].x == 0 && clipped[0].y == 0 &&
      UINT(clipped[0].width) == rt.Width && UINT(clipped[0].height) == rt.Height && clear_sizes_differ(flags)) {
    clear_each_target(nv_flags, color, z, stencil);
    return D3D_OK;
  }
  if (live_.dirty & kDirtyTargets) {
    commands().push(targets_command());
    live_.dirty &= ~uint32_t(kDirtyTargets);
  }
  push_clear(nv_flags, color, z, stencil, clipped);
  return D3D_OK;
}

void Device::push_clear(uint32_t nv_flags, D3DCOLOR color, float z, DWORD stencil, const std::vector<nv_rect> &rects) {
  const size_t max_rects = commands().max_payload(sizeof(nv_cmd_clear)) / sizeof(nv_rect);
  for (size_t first = 0; first < rects.size(); first += max_rects) {
    const size_t n = std::min(max_rects, rects.size() - first);
    const size_t payload = n * sizeof(nv_rect);
    auto *args = commands().begin<nv_cmd_clear>(payload);
    *args = nv_cmd_clear{nv_flags, {}, z, stencil & 0xff, uint32_t(n)};
    color_to_floats(color, args->color);
    std::memcpy(command_payload(args), rects.data() + first, payload);
    commands().commit();
  }
}

// Whether a surface Clear writes (targets 1..3 with D3DCLEAR_TARGET, the depth-stencil surface
// with ZBUFFER or STENCIL) differs in size from target 0.
bool Device::clear_sizes_differ(DWORD flags) const {
  const D3DSURFACE_DESC &rt = render_target_->desc();
  auto differs = [&](const Surface *s) { return s && (s->desc().Width != rt.Width || s->desc().Height != rt.Height); };
  if (flags & D3DCLEAR_TARGET)
    for (const Surface *s : more_targets_)
      if (differs(s)) return true;
  return (flags & (D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL)) && differs(drawn_depth_stencil());
}

// Each target, and the depth-stencil surface, bound alone and cleared whole; the draw after it
// binds the device's targets again.
void Device::clear_each_target(uint32_t nv_flags, D3DCOLOR color, float z, DWORD stencil) {
  const nv_cmd_set_render_targets all = targets_command();
  auto clear_alone = [&](const Surface *s, nv_cmd_set_render_targets alone, uint32_t only) {
    commands().push(alone);
    push_clear(nv_flags & only, color, z, stencil, {nv_rect{0, 0, int32_t(s->desc().Width), int32_t(s->desc().Height)}});
  };
  if (nv_flags & NV_CLEAR_COLOR)
    for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i) {
      const Surface *s = i == 0 ? render_target_ : more_targets_[i - 1];
      if (!s || (i > 0 && !all.more_colors[i - 1])) continue; // unbound, or left out (targets_command)
      nv_cmd_set_render_targets alone{};
      alone.color = i == 0 ? all.color : all.more_colors[i - 1];
      alone.color_levels[0] = all.color_levels[i];
      alone.color_layers[0] = all.color_layers[i];
      alone.srgb_write = all.srgb_write;
      clear_alone(s, alone, NV_CLEAR_COLOR);
    }
  if (const Surface *depth_stencil = drawn_depth_stencil(); depth_stencil && (nv_flags & (NV_CLEAR_DEPTH | NV_CLEAR_STENCIL))) {
    nv_cmd_set_render_targets alone{};
    alone.depth_stencil = all.depth_stencil;
    clear_alone(depth_stencil, alone, NV_CLEAR_DEPTH | NV_CLEAR_STENCIL);
  }
  live_.dirty |= kDirtyTargets;
}

// D3D9Ex's surface calls add a usage; what Novem honours of it (render target, depth-stencil) the
// plain calls already imply, so they are the plain calls (D3DUSAGE_RESTRICTED_CONTENT and the
// other Ex-only bits have no meaning headless).
HRESULT Device::CreateRenderTargetEx(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample,
                                     DWORD quality, WINBOOL lockable, IDirect3DSurface9 **surface,
                                     HANDLE *shared_handle, DWORD) {
  return CreateRenderTarget(width, height, format, multisample, quality, lockable, surface, shared_handle);
}

HRESULT Device::CreateOffscreenPlainSurfaceEx(UINT width, UINT height, D3DFORMAT format, D3DPOOL pool,
                                              IDirect3DSurface9 **surface, HANDLE *shared_handle, DWORD) {
  return CreateOffscreenPlainSurface(width, height, format, pool, surface, shared_handle);
}

HRESULT Device::CreateDepthStencilSurfaceEx(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample,
                                            DWORD quality, WINBOOL discard, IDirect3DSurface9 **surface,
                                            HANDLE *shared_handle, DWORD) {
  return CreateDepthStencilSurface(width, height, format, multisample, quality, discard, surface, shared_handle);
}

} // namespace novem
