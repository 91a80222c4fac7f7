// Device lifetime, presentation, render targets, clears and readback.
#include "device.hpp"

#include <algorithm>
#include <cstring>

#include "direct3d9.hpp"
#include "index_buffer.hpp"
#include "log.hpp"
#include "math.hpp"
#include "shader.hpp"
#include "surface.hpp"
#include "texture.hpp"
#include "vertex_declaration.hpp"
#include "vertex_buffer.hpp"

namespace novem {

namespace {

bool valid_swap_effect(D3DSWAPEFFECT e) {
  return e == D3DSWAPEFFECT_DISCARD || e == D3DSWAPEFFECT_FLIP || e == D3DSWAPEFFECT_COPY ||
         e == D3DSWAPEFFECT_OVERLAY || e == D3DSWAPEFFECT_FLIPEX;
}

} // namespace

HRESULT Device::create(Direct3D9 *parent, const LoadedPlugin &plugin, const D3DDEVICE_CREATION_PARAMETERS &creation,
                       D3DPRESENT_PARAMETERS *pp, Device **out) {
  if (creation.hFocusWindow || pp->hDeviceWindow) {
    log_error("CreateDevice: windows are not supported yet; pass NULL windows for a headless device");
    return D3DERR_NOTAVAILABLE;
  }
  if (!pp->Windowed) {
    log_error("CreateDevice: a headless device must be windowed");
    return D3DERR_INVALIDCALL;
  }
  if (pp->BackBufferWidth == 0 || pp->BackBufferHeight == 0) {
    log_error("CreateDevice: a headless device needs BackBufferWidth and BackBufferHeight (no window to size it)");
    return D3DERR_INVALIDCALL;
  }
  if (pp->BackBufferCount > D3DPRESENT_BACK_BUFFERS_MAX || !valid_swap_effect(pp->SwapEffect) ||
      (pp->SwapEffect == D3DSWAPEFFECT_COPY && pp->BackBufferCount > 1))
    return D3DERR_INVALIDCALL;
  if (pp->MultiSampleType != D3DMULTISAMPLE_NONE) {
    log_error("CreateDevice: multisampled back buffers are not supported yet");
    return D3DERR_NOTAVAILABLE;
  }
  // Windows writes back what it chose.
  if (pp->BackBufferFormat == D3DFMT_UNKNOWN) pp->BackBufferFormat = D3DFMT_X8R8G8B8;
  if (pp->BackBufferCount == 0) pp->BackBufferCount = 1;
  FormatInfo bb = format_info(pp->BackBufferFormat);
  if (!bb.color || !(plugin.adapter.format_support[bb.storage] & NV_SUPPORT_RENDER_TARGET)) return D3DERR_INVALIDCALL;
  if (pp->EnableAutoDepthStencil) {
    FormatInfo ds = format_info(pp->AutoDepthStencilFormat);
    if (!ds.depth || !(plugin.adapter.format_support[ds.storage] & NV_SUPPORT_DEPTH_STENCIL)) return D3DERR_INVALIDCALL;
  }

  auto *device = new Device(parent, plugin, creation, *pp);
  if (HRESULT hr = device->init(); FAILED(hr)) {
    device->Release();
    return hr;
  }
  *out = device;
  return D3D_OK;
}

Device::Device(Direct3D9 *parent, const LoadedPlugin &plugin, const D3DDEVICE_CREATION_PARAMETERS &creation,
               const D3DPRESENT_PARAMETERS &parameters)
    : parent_(parent), plugin_(plugin), creation_(creation), present_parameters_(parameters) {
  parent_->AddRef();
}

HRESULT Device::init() {
  stream_ = std::make_unique<CommandStream>(plugin_, nullptr);
  if (!stream_->ok()) {
    log_error("%s", stream_->error().c_str());
    stream_.reset();
    return D3DERR_NOTAVAILABLE;
  }
  const auto &pp = present_parameters_;
  back_buffer_ = Surface::create_image(this, 0, pp.BackBufferWidth, pp.BackBufferHeight, pp.BackBufferFormat,
                                       D3DUSAGE_RENDERTARGET);
  back_buffer_->add_private_ref();
  if (pp.EnableAutoDepthStencil) {
    auto_depth_stencil_ = Surface::create_image(this, 0, pp.BackBufferWidth, pp.BackBufferHeight,
                                                pp.AutoDepthStencilFormat, D3DUSAGE_DEPTHSTENCIL);
    auto_depth_stencil_->add_private_ref();
  }
  set_defaults();
  return D3D_OK;
}

Device::~Device() {
  if (stream_) {
    for (StreamBinding &stream : state_.streams)
      if (stream.buffer) stream.buffer->release_private_ref();
    if (state_.indices) state_.indices->release_private_ref();
    for (Texture *&t : state_.textures)
      if (t) t->release_private_ref();
    if (state_.vertex_declaration) state_.vertex_declaration->release_private_ref();
    for (auto &[fvf, declaration] : fvf_declarations_) declaration->release_private_ref();
    if (state_.vertex_shader) state_.vertex_shader->release_private_ref();
    if (state_.pixel_shader) state_.pixel_shader->release_private_ref();
    if (render_target_) render_target_->release_private_ref();
    if (depth_stencil_) depth_stencil_->release_private_ref();
    if (back_buffer_) back_buffer_->release_private_ref();
    if (auto_depth_stencil_) auto_depth_stencil_->release_private_ref();
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

HRESULT Device::TestCooperativeLevel() {
  return stream_->channel().device_lost.load() ? D3DERR_DEVICELOST : D3D_OK;
}

UINT Device::GetAvailableTextureMem() {
  uint64_t mib = adapter().video_memory_bytes >> 20;
  return UINT(std::min<uint64_t>(mib, 4095) << 20);
}

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

UINT Device::GetNumberOfSwapChains() { return 1; }

HRESULT Device::Present(const RECT *, const RECT *, HWND, const RGNDATA *) {
  CommandStream &cs = commands();
  cs.push(NV_OP_PRESENT, nv_cmd_present{back_buffer_->image()});
  frame_fences_.push_back(cs.fence());
  // At most max_frame_latency_ frames in flight: the one reason Present waits.
  while (frame_fences_.size() > max_frame_latency_) {
    cs.wait(frame_fences_.front());
    frame_fences_.pop_front();
  }
  return cs.channel().device_lost.load() ? D3DERR_DEVICELOST : D3D_OK;
}

HRESULT Device::GetBackBuffer(UINT swapchain, UINT index, D3DBACKBUFFER_TYPE type, IDirect3DSurface9 **surface) {
  if (!surface) return D3DERR_INVALIDCALL;
  *surface = nullptr;
  // One back buffer is kept whatever BackBufferCount says (headless presentation does not flip).
  if (swapchain != 0 || index != 0 || type != D3DBACKBUFFER_TYPE_MONO) return D3DERR_INVALIDCALL;
  back_buffer_->AddRef();
  *surface = back_buffer_;
  return D3D_OK;
}

HRESULT Device::create_target_surface(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample,
                                      DWORD usage, IDirect3DSurface9 **surface, HANDLE *shared_handle) {
  if (!surface) return D3DERR_INVALIDCALL;
  *surface = nullptr;
  if (shared_handle || width == 0 || height == 0) return D3DERR_INVALIDCALL;
  FormatInfo info = format_info(format);
  bool depth = usage & D3DUSAGE_DEPTHSTENCIL;
  uint32_t needed = depth ? NV_SUPPORT_DEPTH_STENCIL : NV_SUPPORT_RENDER_TARGET;
  if ((depth ? !info.depth : !info.color) || !(adapter().format_support[info.storage] & needed)) return D3DERR_INVALIDCALL;
  if (multisample != D3DMULTISAMPLE_NONE) return D3DERR_NOTAVAILABLE; // not implemented yet
  *surface = Surface::create_image(this, 1, width, height, format, usage);
  AddRef();
  return D3D_OK;
}

// Lockable render targets and discardable depth buffers: the flags are accepted; locking a
// render target is not implemented yet (LockRect refuses it).
HRESULT Device::CreateRenderTarget(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample,
                                   DWORD, WINBOOL, IDirect3DSurface9 **surface, HANDLE *shared_handle) {
  return create_target_surface(width, height, format, multisample, D3DUSAGE_RENDERTARGET, surface, shared_handle);
}

HRESULT Device::CreateDepthStencilSurface(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample,
                                          DWORD, WINBOOL, IDirect3DSurface9 **surface, HANDLE *shared_handle) {
  return create_target_surface(width, height, format, multisample, D3DUSAGE_DEPTHSTENCIL, surface, shared_handle);
}

HRESULT Device::CreateOffscreenPlainSurface(UINT width, UINT height, D3DFORMAT format, D3DPOOL pool,
                                            IDirect3DSurface9 **surface, HANDLE *shared_handle) {
  if (!surface) return D3DERR_INVALIDCALL;
  *surface = nullptr;
  if (shared_handle || width == 0 || height == 0 || pool == D3DPOOL_MANAGED) return D3DERR_INVALIDCALL;
  if (!format_info(format).color) return D3DERR_INVALIDCALL;
  if (pool == D3DPOOL_DEFAULT) {
    static std::atomic<bool> once{false};
    log_unimplemented(once, "CreateOffscreenPlainSurface in D3DPOOL_DEFAULT");
    return D3DERR_NOTAVAILABLE;
  }
  *surface = Surface::create_memory(this, width, height, format, pool);
  AddRef();
  return D3D_OK;
}

void Device::bind_render_target(Surface *surface) {
  if (surface) surface->add_private_ref();
  if (render_target_) render_target_->release_private_ref();
  render_target_ = surface;
  dirty_ |= kDirtyTargets | kDirtyPipeline;
}

void Device::bind_depth_stencil(Surface *surface) {
  if (surface) surface->add_private_ref();
  if (depth_stencil_) depth_stencil_->release_private_ref();
  depth_stencil_ = surface;
  dirty_ |= kDirtyTargets | kDirtyPipeline | kDirtyDynamic; // the depth bias scale follows the format
}

HRESULT Device::SetRenderTarget(DWORD index, IDirect3DSurface9 *iface) {
  if (index != 0) return D3DERR_INVALIDCALL; // NumSimultaneousRTs is 1 for now
  auto *surface = static_cast<Surface *>(iface);
  // A render-target texture renders into level 0 only (its other levels have no target image).
  if (!surface || !(surface->desc().Usage & D3DUSAGE_RENDERTARGET) || !surface->image()) return D3DERR_INVALIDCALL;
  bind_render_target(surface);
  // As Windows: setting render target 0 resets the viewport and the scissor rect to the whole target.
  state_.viewport = D3DVIEWPORT9{0, 0, surface->desc().Width, surface->desc().Height, 0.0f, 1.0f};
  state_.scissor_rect = RECT{0, 0, LONG(surface->desc().Width), LONG(surface->desc().Height)};
  dirty_ |= kDirtyViewport | kDirtyVertexConstants;
  return D3D_OK;
}

HRESULT Device::GetRenderTarget(DWORD index, IDirect3DSurface9 **surface) {
  if (!surface) return D3DERR_INVALIDCALL;
  *surface = nullptr;
  if (index != 0) return D3DERR_INVALIDCALL;
  if (!render_target_) return D3DERR_NOTFOUND;
  render_target_->AddRef();
  *surface = render_target_;
  return D3D_OK;
}

HRESULT Device::SetDepthStencilSurface(IDirect3DSurface9 *iface) {
  auto *surface = static_cast<Surface *>(iface);
  if (surface && !(surface->desc().Usage & D3DUSAGE_DEPTHSTENCIL)) return D3DERR_INVALIDCALL;
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
  if (rect_count && !rects) return D3DERR_INVALIDCALL;
  if (!rect_count && rects) return D3D_OK; // Windows clears nothing then
  if (!(flags & (D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL))) return D3DERR_INVALIDCALL;
  if ((flags & (D3DCLEAR_ZBUFFER | D3DCLEAR_STENCIL)) && !depth_stencil_) return D3DERR_INVALIDCALL;
  if ((flags & D3DCLEAR_STENCIL) && !depth_stencil_->format().stencil) return D3DERR_INVALIDCALL;
  if (z < 0.0f || z > 1.0f) return D3DERR_INVALIDCALL;

  // Clears are clipped to the viewport (and the render target), as in Windows, and to the scissor
  // rect while D3DRS_SCISSORTESTENABLE is on ("The scissor test also affects the device Clear
  // operation": D3D9's Scissor Test page).
  const RECT area = draw_area();
  const LONG vx0 = area.left, vy0 = area.top, vx1 = area.right, vy1 = area.bottom;
  std::vector<nv_rect> clipped;
  auto add = [&](LONG x0, LONG y0, LONG x1, LONG y1) {
    x0 = std::max(x0, vx0), y0 = std::max(y0, vy0), x1 = std::min(x1, vx1), y1 = std::min(y1, vy1);
    if (x0 < x1 && y0 < y1) clipped.push_back(nv_rect{x0, y0, x1 - x0, y1 - y0});
  };
  if (rect_count == 0) add(vx0, vy0, vx1, vy1);
  for (DWORD i = 0; i < rect_count; ++i) add(rects[i].x1, rects[i].y1, rects[i].x2, rects[i].y2);
  if (clipped.empty()) return D3D_OK;

  if (dirty_ & kDirtyTargets) {
    commands().push(NV_OP_SET_RENDER_TARGETS, nv_cmd_set_render_targets{render_target_->image(),
                                                                       depth_stencil_ ? depth_stencil_->image() : 0});
    dirty_ &= ~uint32_t(kDirtyTargets);
  }
  size_t payload = clipped.size() * sizeof(nv_rect);
  const size_t max_rects = commands().max_payload(sizeof(nv_cmd_clear)) / sizeof(nv_rect);
  uint32_t nv_flags = ((flags & D3DCLEAR_TARGET) ? NV_CLEAR_COLOR : 0) | ((flags & D3DCLEAR_ZBUFFER) ? NV_CLEAR_DEPTH : 0) |
                      ((flags & D3DCLEAR_STENCIL) ? NV_CLEAR_STENCIL : 0);
  for (size_t first = 0; first < clipped.size(); first += max_rects) {
    size_t n = std::min(max_rects, clipped.size() - first);
    payload = n * sizeof(nv_rect);
    auto *args = commands().begin<nv_cmd_clear>(NV_OP_CLEAR, payload);
    *args = nv_cmd_clear{nv_flags, {}, z, stencil & 0xff, uint32_t(n)};
    color_to_floats(color, args->color);
    std::memcpy(command_payload(args), clipped.data() + first, payload);
    commands().commit();
  }
  return D3D_OK;
}

HRESULT Device::GetRenderTargetData(IDirect3DSurface9 *src_iface, IDirect3DSurface9 *dst_iface) {
  auto *src = static_cast<Surface *>(src_iface);
  auto *dst = static_cast<Surface *>(dst_iface);
  if (!src || !dst || src == dst) return D3DERR_INVALIDCALL;
  const D3DSURFACE_DESC &s = src->desc(), &d = dst->desc();
  if (!src->image() || !(s.Usage & D3DUSAGE_RENDERTARGET) || d.Pool != D3DPOOL_SYSTEMMEM || s.Width != d.Width ||
      s.Height != d.Height || s.Format != d.Format)
    return D3DERR_INVALIDCALL;

  // Readback is one of the few reasons to wait for the plugin: nothing else is pending on the
  // readback area, so it may be resized here.
  CommandStream &cs = commands();
  const size_t row = size_t(s.Width) * src->format().bytes_per_pixel;
  cs.channel().reserve_readback(row * s.Height);
  cs.push(NV_OP_READ_IMAGE, nv_cmd_read_image{src->image(), nv_rect{0, 0, int32_t(s.Width), int32_t(s.Height)}});
  cs.finish();
  if (cs.channel().device_lost.load()) return D3DERR_DEVICELOST;
  for (UINT y = 0; y < s.Height; ++y)
    std::memcpy(dst->memory() + size_t(y) * dst->pitch(), cs.channel().readback + y * row, row);
  return D3D_OK;
}

} // namespace novem
