// IDirect3DDevice9Ex: the D3D9 device, the COM object and its validation. It is one of three
// parts: the device checks each call as Windows does and writes what it sets through the state
// (TrackedState: the live state, or a state block being recorded); at each draw the state encoder
// (StateEncoder) turns what changed into commands for the plugin's thread.
//
// The methods are spread over files by topic: device.cpp (lifetime, Reset, targets, clears),
// device_state.cpp (render states, transforms, viewport, scissor, material, lights, clip
// planes), device_shaders.cpp (shaders, their constants, vertex declarations), device_draw.cpp
// (vertex input, draws), device_state_blocks.cpp (state blocks), device_copies.cpp,
// device_presentation.cpp, device_cursor.cpp, device_process_vertices.cpp, device_palettes.cpp,
// device_patches.cpp, device_text_api.cpp (each the methods its name says) and
// device_fullscreen.cpp (full screen, lost devices); frontend/README.md lists them all.
#pragma once

#include <array>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <d3d9.h>

#include "frame_limiter.hpp"
#include "hud.hpp"
#include "novem/options.hpp"
#include "settings.hpp"
#include "back_buffer_chain.hpp"
#include "command_stream.hpp"
#include "ff_key.hpp"
#include "plugin_loader.hpp"
#include "state_encoder.hpp"
#include "tracked_state.hpp"
#include "window.hpp"

namespace novem {

class Direct3D9;
class StateBlock;
class Surface;
class SwapChain;
struct CompiledShader;

class Device : public IDirect3DDevice9Ex, private StateEncoder {
public:
  // D3DCAPS9.MaxPrimitiveCount: a draw of more primitives is refused (a count near 2^31 from a
  // three-vertex buffer would otherwise run for many seconds on a software rasteriser).
  static constexpr UINT kMaxPrimitiveCount = 0x555555; // as NVIDIA's drivers and DXVK report
  // D3DCAPS9.MaxStreamStride, a value D3D9 hardware commonly reports (both plugins read strides
  // up to 2048): SetStreamSource and the UP draws refuse a larger stride.
  static constexpr UINT kMaxStreamStride = 508;
  // Creates a headless device (no window) on the given plugin. On failure returns the HRESULT
  // Windows would, with one line logged.
  static HRESULT create(Direct3D9 *parent, const LoadedPlugin &plugin,
                        const D3DDEVICE_CREATION_PARAMETERS &creation,
                        D3DPRESENT_PARAMETERS *parameters, Device **out);

  CommandStream &commands() { return *stream_; }
  const nv_adapter_info &adapter() const { return plugin_.adapter; }
  // D3DCREATE_MULTITHREADED: DeviceLock (device_lock.hpp) takes mutex() when this is true.
  bool multithreaded() const { return multithreaded_; }
  std::recursive_mutex &mutex() { return mutex_; }
  // The plugin's counters (novem_get_statistics).
  void statistics(nv_statistics &s) const { stream_->channel().statistics(s); }
  // A texture's LOD changed: the slots it is bound to must be sent again.
  void texture_changed(Texture *texture);
  bool extended() const; // made by Direct3DCreate9Ex
  const D3DPRESENT_PARAMETERS &present_parameters() const { return present_parameters_; }
  UINT present_count() const { return present_count_; }
  // Present, PresentEx and the implicit swap chain's Present (device_presentation.cpp).
  HRESULT present(const RECT *src_rect, const RECT *dst_rect, HWND dst_window, const RGNDATA *dirty_region, DWORD flags);
  // What one swap chain presents: the implicit one's (the device's) or an additional one's.
  struct PresentChain {
    BackBufferChain *buffers;
    HWND window; // NULL: headless
    const D3DPRESENT_PARAMETERS *parameters;
    UINT *present_count;
  };
  // Present for any swap chain: gives the front buffer back buffer 0's frame as the swap effect
  // says (BackBufferChain::present) and, with a window (its own or dst_window), shows src_rect of
  // it in dst_rect of the window.
  HRESULT present_chain(const PresentChain &chain, const RECT *src_rect, const RECT *dst_rect, HWND dst_window,
                        DWORD flags);
  // The plugin swapchain that presents to window (made on first use); 0 when the window is not one
  // Novem can present to. forget_window destroys it (an additional swap chain going away).
  uint32_t window_target(HWND window);
  void forget_window(HWND window);
  // GetFrontBufferData of any swap chain: its front buffer into a D3DPOOL_SYSTEMMEM A8R8G8B8
  // surface of the screen's size (at the window's place; `window` NULL: headless) or the back
  // buffer's.
  HRESULT read_front_buffer(const BackBufferChain &buffers, HWND window, const D3DPRESENT_PARAMETERS &pp,
                            Surface *dst);
  // The implicit swap chain's buffers (its IDirect3DSwapChain9 forwards to the device).
  BackBufferChain &implicit_chain() { return back_buffers_; }
  // READ_IMAGE of level `level` of face `layer` of image into the channel's readback area, then a wait.
  HRESULT read_image(uint32_t image, UINT width, UINT height, size_t texel_bytes, UINT level = 0, UINT layer = 0);
  // read_image of a surface's texels: its own image, or its level and face of a render-target texture.
  HRESULT read_surface(const Surface &surface);
  // D3DPOOL_DEFAULT resources the application created and that still exist (DeviceChild).
  void count_default_pool_resource(int delta) { default_pool_resources_ += delta; }
  // Video memory (GetAvailableTextureMem): what DEFAULT and MANAGED resources with a plugin image or
  // buffer take of the adapter's while they exist (DeviceChild::hold_video_memory gives it back).
  // False, taking nothing, when that much is not left: the creation answers
  // D3DERR_OUTOFVIDEOMEMORY, as Windows does when video memory runs out.
  bool take_video_memory(uint64_t bytes);
  // What a creation the accounting refuses answers: D3DERR_OUTOFVIDEOMEMORY, or on a D3D9Ex
  // device E_OUTOFMEMORY (Wine's d3d9ex test_vidmem_accounting: no D3DERR_OUTOFVIDEOMEMORY there).
  HRESULT video_memory_refusal() const;
  void give_video_memory(uint64_t bytes) { video_memory_used_ -= bytes; }
  // What plugin_answer knows of the plugin's creation failures (creation_answer.hpp): how many it
  // answered to the application, and whether one it did not answer showed the device's memory spent.
  struct CreationFailures {
    uint64_t answered = 0;
    bool memory_spent = false;
  };
  CreationFailures &creation_failures() { return creation_failures_; }
  template <class Buffer, class Format>
  HRESULT create_buffer(UINT length, DWORD usage, Format format, D3DPOOL pool, Buffer **out);
  // CreateVertexBuffer's and CreateIndexBuffer's answer to a pSharedHandle (D3D_OK without one).
  HRESULT buffer_shared_handle(HANDLE *shared_handle) const;
  // Query slots (channel.query_results indices) for occlusion and timestamp queries; false when
  // all NV_MAX_QUERIES are taken.
  bool acquire_query_slot(uint32_t &slot);
  void release_query_slot(uint32_t slot);

    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override;
    ULONG STDMETHODCALLTYPE AddRef() override;
    ULONG STDMETHODCALLTYPE Release() override;
    HRESULT STDMETHODCALLTYPE TestCooperativeLevel() override;
    UINT STDMETHODCALLTYPE GetAvailableTextureMem() override;
    HRESULT STDMETHODCALLTYPE EvictManagedResources() override;
    HRESULT STDMETHODCALLTYPE GetDirect3D(IDirect3D9 **d3d9) override;
    HRESULT STDMETHODCALLTYPE GetDeviceCaps(D3DCAPS9 *caps) override;
    HRESULT STDMETHODCALLTYPE GetDisplayMode(UINT swapchain_idx, D3DDISPLAYMODE *mode) override;
    HRESULT STDMETHODCALLTYPE GetCreationParameters(D3DDEVICE_CREATION_PARAMETERS *parameters) override;
    HRESULT STDMETHODCALLTYPE SetCursorProperties(UINT hotspot_x, UINT hotspot_y, IDirect3DSurface9 *bitmap) override;
    void STDMETHODCALLTYPE SetCursorPosition(int x, int y, DWORD flags) override;
    WINBOOL STDMETHODCALLTYPE ShowCursor(WINBOOL show) override;
    HRESULT STDMETHODCALLTYPE CreateAdditionalSwapChain(D3DPRESENT_PARAMETERS *parameters, IDirect3DSwapChain9 **swapchain) override;
    HRESULT STDMETHODCALLTYPE GetSwapChain(UINT swapchain_idx, IDirect3DSwapChain9 **swapchain) override;
    UINT STDMETHODCALLTYPE GetNumberOfSwapChains() override;
    HRESULT STDMETHODCALLTYPE Reset(D3DPRESENT_PARAMETERS *parameters) override;
    HRESULT STDMETHODCALLTYPE Present(const RECT *src_rect, const RECT *dst_rect, HWND dst_window_override, const RGNDATA *dirty_region) override;
    HRESULT STDMETHODCALLTYPE GetBackBuffer(UINT swapchain_idx, UINT backbuffer_idx, D3DBACKBUFFER_TYPE backbuffer_type, IDirect3DSurface9 **backbuffer) override;
    HRESULT STDMETHODCALLTYPE GetRasterStatus(UINT swapchain_idx, D3DRASTER_STATUS *raster_status) override;
    HRESULT STDMETHODCALLTYPE SetDialogBoxMode(WINBOOL enable) override;
    void STDMETHODCALLTYPE SetGammaRamp(UINT swapchain_idx, DWORD flags, const D3DGAMMARAMP *ramp) override;
    void STDMETHODCALLTYPE GetGammaRamp(UINT swapchain_idx, D3DGAMMARAMP *ramp) override;
    HRESULT STDMETHODCALLTYPE CreateTexture(UINT width, UINT height, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool, IDirect3DTexture9 **texture, HANDLE *shared_handle) override;
    HRESULT STDMETHODCALLTYPE CreateVolumeTexture(UINT width, UINT height, UINT depth, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool, IDirect3DVolumeTexture9 **texture, HANDLE *shared_handle) override;
    HRESULT STDMETHODCALLTYPE CreateCubeTexture(UINT edge_length, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool, IDirect3DCubeTexture9 **texture, HANDLE *shared_handle) override;
    HRESULT STDMETHODCALLTYPE CreateVertexBuffer(UINT size, DWORD usage, DWORD fvf, D3DPOOL pool, IDirect3DVertexBuffer9 **buffer, HANDLE *shared_handle) override;
    HRESULT STDMETHODCALLTYPE CreateIndexBuffer(UINT size, DWORD usage, D3DFORMAT format, D3DPOOL pool, IDirect3DIndexBuffer9 **buffer, HANDLE *shared_handle) override;
    HRESULT STDMETHODCALLTYPE CreateRenderTarget(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample_type, DWORD multisample_quality, WINBOOL lockable, IDirect3DSurface9 **surface, HANDLE *shared_handle) override;
    HRESULT STDMETHODCALLTYPE CreateDepthStencilSurface(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample_type, DWORD multisample_quality, WINBOOL discard, IDirect3DSurface9 **surface, HANDLE *shared_handle) override;
    HRESULT STDMETHODCALLTYPE UpdateSurface(IDirect3DSurface9 *src_surface, const RECT *src_rect, IDirect3DSurface9 *dst_surface, const POINT *dst_point) override;
    HRESULT STDMETHODCALLTYPE UpdateTexture(IDirect3DBaseTexture9 *src_texture, IDirect3DBaseTexture9 *dst_texture) override;
    HRESULT STDMETHODCALLTYPE GetRenderTargetData(IDirect3DSurface9 *render_target, IDirect3DSurface9 *dst_surface) override;
    HRESULT STDMETHODCALLTYPE GetFrontBufferData(UINT swapchain_idx, IDirect3DSurface9 *dst_surface) override;
    HRESULT STDMETHODCALLTYPE StretchRect(IDirect3DSurface9 *src_surface, const RECT *src_rect, IDirect3DSurface9 *dst_surface, const RECT *dst_rect, D3DTEXTUREFILTERTYPE filter) override;
    HRESULT STDMETHODCALLTYPE ColorFill(IDirect3DSurface9 *surface, const RECT *rect, D3DCOLOR colour) override;
    HRESULT STDMETHODCALLTYPE CreateOffscreenPlainSurface(UINT width, UINT height, D3DFORMAT format, D3DPOOL pool, IDirect3DSurface9 **surface, HANDLE *shared_handle) override;
    HRESULT STDMETHODCALLTYPE SetRenderTarget(DWORD idx, IDirect3DSurface9 *surface) override;
    HRESULT STDMETHODCALLTYPE GetRenderTarget(DWORD idx, IDirect3DSurface9 **surface) override;
    HRESULT STDMETHODCALLTYPE SetDepthStencilSurface(IDirect3DSurface9 *depth_stencil) override;
    HRESULT STDMETHODCALLTYPE GetDepthStencilSurface(IDirect3DSurface9 **depth_stencil) override;
    HRESULT STDMETHODCALLTYPE BeginScene() override;
    HRESULT STDMETHODCALLTYPE EndScene() override;
    HRESULT STDMETHODCALLTYPE Clear(DWORD rect_count, const D3DRECT *rects, DWORD flags, D3DCOLOR colour, float z, DWORD stencil) override;
    HRESULT STDMETHODCALLTYPE SetTransform(D3DTRANSFORMSTATETYPE state, const D3DMATRIX *matrix) override;
    HRESULT STDMETHODCALLTYPE GetTransform(D3DTRANSFORMSTATETYPE State, D3DMATRIX *matrix) override;
    HRESULT STDMETHODCALLTYPE MultiplyTransform(D3DTRANSFORMSTATETYPE state, const D3DMATRIX *matrix) override;
    HRESULT STDMETHODCALLTYPE SetViewport(const D3DVIEWPORT9 *viewport) override;
    HRESULT STDMETHODCALLTYPE GetViewport(D3DVIEWPORT9 *viewport) override;
    HRESULT STDMETHODCALLTYPE SetMaterial(const D3DMATERIAL9 *material) override;
    HRESULT STDMETHODCALLTYPE GetMaterial(D3DMATERIAL9 *material) override;
    HRESULT STDMETHODCALLTYPE SetLight(DWORD idx, const D3DLIGHT9 *light) override;
    HRESULT STDMETHODCALLTYPE GetLight(DWORD idx, D3DLIGHT9 *light) override;
    HRESULT STDMETHODCALLTYPE LightEnable(DWORD idx, WINBOOL enable) override;
    HRESULT STDMETHODCALLTYPE GetLightEnable(DWORD idx, WINBOOL *enable) override;
    HRESULT STDMETHODCALLTYPE SetClipPlane(DWORD idx, const float *plane) override;
    HRESULT STDMETHODCALLTYPE GetClipPlane(DWORD idx, float *plane) override;
    HRESULT STDMETHODCALLTYPE SetRenderState(D3DRENDERSTATETYPE state, DWORD value) override;
    HRESULT STDMETHODCALLTYPE GetRenderState(D3DRENDERSTATETYPE state, DWORD *value) override;
    HRESULT STDMETHODCALLTYPE CreateStateBlock(D3DSTATEBLOCKTYPE type, IDirect3DStateBlock9 **stateblock) override;
    HRESULT STDMETHODCALLTYPE BeginStateBlock() override;
    HRESULT STDMETHODCALLTYPE EndStateBlock(IDirect3DStateBlock9 **stateblock) override;
    HRESULT STDMETHODCALLTYPE SetClipStatus(const D3DCLIPSTATUS9 *clip_status) override;
    HRESULT STDMETHODCALLTYPE GetClipStatus(D3DCLIPSTATUS9 *clip_status) override;
    HRESULT STDMETHODCALLTYPE GetTexture(DWORD stage, IDirect3DBaseTexture9 **texture) override;
    HRESULT STDMETHODCALLTYPE SetTexture(DWORD stage, IDirect3DBaseTexture9 *texture) override;
    HRESULT STDMETHODCALLTYPE GetTextureStageState(DWORD stage, D3DTEXTURESTAGESTATETYPE state, DWORD *value) override;
    HRESULT STDMETHODCALLTYPE SetTextureStageState(DWORD stage, D3DTEXTURESTAGESTATETYPE state, DWORD value) override;
    HRESULT STDMETHODCALLTYPE GetSamplerState(DWORD sampler_idx, D3DSAMPLERSTATETYPE state, DWORD *value) override;
    HRESULT STDMETHODCALLTYPE SetSamplerState(DWORD sampler_idx, D3DSAMPLERSTATETYPE state, DWORD value) override;
    HRESULT STDMETHODCALLTYPE ValidateDevice(DWORD *pass_count) override;
    HRESULT STDMETHODCALLTYPE SetPaletteEntries(UINT palette_idx, const PALETTEENTRY *entries) override;
    HRESULT STDMETHODCALLTYPE GetPaletteEntries(UINT palette_idx, PALETTEENTRY *entries) override;
    HRESULT STDMETHODCALLTYPE SetCurrentTexturePalette(UINT palette_idx) override;
    HRESULT STDMETHODCALLTYPE GetCurrentTexturePalette(UINT *palette_idx) override;
    HRESULT STDMETHODCALLTYPE SetScissorRect(const RECT *rect) override;
    HRESULT STDMETHODCALLTYPE GetScissorRect(RECT *rect) override;
    HRESULT STDMETHODCALLTYPE SetSoftwareVertexProcessing(WINBOOL software) override;
    WINBOOL STDMETHODCALLTYPE GetSoftwareVertexProcessing() override;
    HRESULT STDMETHODCALLTYPE SetNPatchMode(float segment_count) override;
    float STDMETHODCALLTYPE GetNPatchMode() override;
    HRESULT STDMETHODCALLTYPE DrawPrimitive(D3DPRIMITIVETYPE primitive_type, UINT start_vertex, UINT primitive_count) override;
    HRESULT STDMETHODCALLTYPE DrawIndexedPrimitive(D3DPRIMITIVETYPE primitive_type, INT base_vertex_idx, UINT min_vertex_idx, UINT vertex_count, UINT start_idx, UINT primitive_count) override;
    HRESULT STDMETHODCALLTYPE DrawPrimitiveUP(D3DPRIMITIVETYPE primitive_type, UINT primitive_count, const void *data, UINT stride) override;
    HRESULT STDMETHODCALLTYPE DrawIndexedPrimitiveUP(D3DPRIMITIVETYPE primitive_type, UINT min_vertex_idx, UINT vertex_count, UINT primitive_count, const void *index_data, D3DFORMAT index_format, const void *data, UINT stride) override;
    HRESULT STDMETHODCALLTYPE ProcessVertices(UINT src_start_idx, UINT dst_idx, UINT vertex_count, IDirect3DVertexBuffer9 *dst_buffer, IDirect3DVertexDeclaration9 *declaration, DWORD flags) override;
    HRESULT STDMETHODCALLTYPE CreateVertexDeclaration(const D3DVERTEXELEMENT9 *elements, IDirect3DVertexDeclaration9 **declaration) override;
    HRESULT STDMETHODCALLTYPE SetVertexDeclaration(IDirect3DVertexDeclaration9 *declaration) override;
    HRESULT STDMETHODCALLTYPE GetVertexDeclaration(IDirect3DVertexDeclaration9 **declaration) override;
    HRESULT STDMETHODCALLTYPE SetFVF(DWORD fvf) override;
    HRESULT STDMETHODCALLTYPE GetFVF(DWORD *fvf) override;
    HRESULT STDMETHODCALLTYPE CreateVertexShader(const DWORD *byte_code, IDirect3DVertexShader9 **shader) override;
    HRESULT STDMETHODCALLTYPE SetVertexShader(IDirect3DVertexShader9 *shader) override;
    HRESULT STDMETHODCALLTYPE GetVertexShader(IDirect3DVertexShader9 **shader) override;
    HRESULT STDMETHODCALLTYPE SetVertexShaderConstantF(UINT reg_idx, const float *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE GetVertexShaderConstantF(UINT reg_idx, float *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE SetVertexShaderConstantI(UINT reg_idx, const int *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE GetVertexShaderConstantI(UINT reg_idx, int *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE SetVertexShaderConstantB(UINT reg_idx, const WINBOOL *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE GetVertexShaderConstantB(UINT reg_idx, WINBOOL *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE SetStreamSource(UINT stream_idx, IDirect3DVertexBuffer9 *buffer, UINT offset, UINT stride) override;
    HRESULT STDMETHODCALLTYPE GetStreamSource(UINT stream_idx, IDirect3DVertexBuffer9 **buffer, UINT *offset, UINT *stride) override;
    HRESULT STDMETHODCALLTYPE SetStreamSourceFreq(UINT stream_idx, UINT frequency) override;
    HRESULT STDMETHODCALLTYPE GetStreamSourceFreq(UINT stream_idx, UINT *frequency) override;
    HRESULT STDMETHODCALLTYPE SetIndices(IDirect3DIndexBuffer9 *buffer) override;
    HRESULT STDMETHODCALLTYPE GetIndices(IDirect3DIndexBuffer9 **buffer) override;
    HRESULT STDMETHODCALLTYPE CreatePixelShader(const DWORD *byte_code, IDirect3DPixelShader9 **shader) override;
    HRESULT STDMETHODCALLTYPE SetPixelShader(IDirect3DPixelShader9 *shader) override;
    HRESULT STDMETHODCALLTYPE GetPixelShader(IDirect3DPixelShader9 **shader) override;
    HRESULT STDMETHODCALLTYPE SetPixelShaderConstantF(UINT reg_idx, const float *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE GetPixelShaderConstantF(UINT reg_idx, float *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE SetPixelShaderConstantI(UINT reg_idx, const int *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE GetPixelShaderConstantI(UINT reg_idx, int *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE SetPixelShaderConstantB(UINT reg_idx, const WINBOOL *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE GetPixelShaderConstantB(UINT reg_idx, WINBOOL *data, UINT count) override;
    HRESULT STDMETHODCALLTYPE DrawRectPatch(UINT handle, const float *segment_count, const D3DRECTPATCH_INFO *patch_info) override;
    HRESULT STDMETHODCALLTYPE DrawTriPatch(UINT handle, const float *segment_count, const D3DTRIPATCH_INFO *patch_info) override;
    HRESULT STDMETHODCALLTYPE DeletePatch(UINT handle) override;
    HRESULT STDMETHODCALLTYPE CreateQuery(D3DQUERYTYPE type, IDirect3DQuery9 **query) override;
    HRESULT STDMETHODCALLTYPE SetConvolutionMonoKernel(UINT width, UINT height, float *rows, float *columns) override;
    HRESULT STDMETHODCALLTYPE ComposeRects(IDirect3DSurface9 *src_surface, IDirect3DSurface9 *dst_surface, IDirect3DVertexBuffer9 *src_descs, UINT rect_count, IDirect3DVertexBuffer9 *dst_descs, D3DCOMPOSERECTSOP operation, INT offset_x, INT offset_y) override;
    HRESULT STDMETHODCALLTYPE PresentEx(const RECT *src_rect, const RECT *dst_rect, HWND dst_window_override, const RGNDATA *dirty_region, DWORD flags) override;
    HRESULT STDMETHODCALLTYPE GetGPUThreadPriority(INT *priority) override;
    HRESULT STDMETHODCALLTYPE SetGPUThreadPriority(INT priority) override;
    HRESULT STDMETHODCALLTYPE WaitForVBlank(UINT swapchain_idx) override;
    HRESULT STDMETHODCALLTYPE CheckResourceResidency(IDirect3DResource9 **resources, UINT32 resource_count) override;
    HRESULT STDMETHODCALLTYPE SetMaximumFrameLatency(UINT max_latency) override;
    HRESULT STDMETHODCALLTYPE GetMaximumFrameLatency(UINT *max_latency) override;
    HRESULT STDMETHODCALLTYPE CheckDeviceState(HWND dst_window) override;
    HRESULT STDMETHODCALLTYPE CreateRenderTargetEx(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample_type, DWORD multisample_quality, WINBOOL lockable, IDirect3DSurface9 **surface, HANDLE *shared_handle, DWORD usage) override;
    HRESULT STDMETHODCALLTYPE CreateOffscreenPlainSurfaceEx(UINT width, UINT Height, D3DFORMAT format, D3DPOOL pool, IDirect3DSurface9 **surface, HANDLE *shared_handle, DWORD usage) override;
    HRESULT STDMETHODCALLTYPE CreateDepthStencilSurfaceEx(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample_type, DWORD multisample_quality, WINBOOL discard, IDirect3DSurface9 **surface, HANDLE *shared_handle, DWORD usage) override;
    HRESULT STDMETHODCALLTYPE ResetEx(D3DPRESENT_PARAMETERS *parameters, D3DDISPLAYMODEEX *mode) override;
    HRESULT STDMETHODCALLTYPE GetDisplayModeEx(UINT swapchain_idx, D3DDISPLAYMODEEX *mode, D3DDISPLAYROTATION *rotation) override;

protected: // LockedDevice (locked_device.hpp) is the device D3DCREATE_MULTITHREADED gets
  Device(Direct3D9 *parent, const LoadedPlugin &plugin, const D3DDEVICE_CREATION_PARAMETERS &creation,
         const D3DPRESENT_PARAMETERS &parameters);
  virtual ~Device();

private:
  friend class StateBlock;   // captures and applies the DeviceState
  friend class StateEncoder; // reads the bound targets, makes shaders

  // The state encoder (the private base): turns live_ into commands at each draw.
  StateEncoder &encoder() { return *this; }

  HRESULT init();

  void set_defaults();
  // Reset and ResetEx: `extended` skips the D3DPOOL_DEFAULT check, as D3D9Ex devices do.
  HRESULT reset(D3DPRESENT_PARAMETERS *parameters, bool extended);
  // Full screen and lost devices (device_fullscreen.cpp). The device window made full-screen in
  // the display mode of a full-screen device, or given back its size as a windowed one.
  void apply_window_mode();
  void leave_fullscreen_window();
  // Before Reset: a windowed Reset gives the window back its size first (a back buffer of size 0
  // takes it). After: a Reset that succeeded applies the new parameters' window mode and ends a
  // loss; a refused one puts the window back as the device has it and (not D3D9Ex) leaves the
  // device not reset.
  void prepare_window_mode(const D3DPRESENT_PARAMETERS *parameters);
  HRESULT reset_done(HRESULT hr, const D3DPRESENT_PARAMETERS *parameters);
  // D3DERR_DEVICELOST while a lost device cannot be reset yet.
  HRESULT reset_blocked();
  // What Present answers instead of presenting: D3DERR_DEVICELOST for a lost (or not reset)
  // device, S_PRESENT_OCCLUDED for an occluded D3D9Ex one; D3D_OK to present.
  HRESULT presentation_blocked();
  enum class Lost : uint8_t {
    kNo,
    kLost,     // a full-screen device whose program lost the focus or whose window is minimised
    kNotReset, // back, or a Reset refused: waiting for a Reset that succeeds
  };
  // Follows the window into and out of a loss (never for D3D9Ex devices, nor windowed ones).
  Lost update_lost();
  // A full-screen device's program is not the active one or its window is minimised (hidden).
  bool fullscreen_in_background();
  // Drops every binding of the application-side state (references included) and ends a recording.
  void unbind_all();
  void create_implicit_surfaces();
  void set_sampler_defaults();
  void set_texture_stage_defaults();
  HRESULT create_target_surface(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample,
                                DWORD quality, DWORD usage, bool lockable, IDirect3DSurface9 **surface,
                                HANDLE *shared_handle);
  // StretchRect between depth-stencil surfaces (device_copies.cpp).
  HRESULT stretch_depth_stencil(const Surface &src, const RECT *src_rect, const Surface &dst, const RECT *dst_rect);
  // A surface's backend image, mip level and cube face, as BLIT_IMAGE and FILL_IMAGE address it.
  struct ImageLevel {
    uint32_t image = 0;
    uint32_t level = 0;
    uint32_t layer = 0;
  };
  static ImageLevel image_level(const Surface &s);
  void regenerate_mips(const Surface &written);
  // StretchRect through a temporary image (device_copies.cpp).
  void blit_through_scratch(ImageLevel from, nv_rect src_rect, ImageLevel to, nv_rect dst_rect, uint32_t storage,
                            uint32_t filter);
  void bind_render_target(DWORD index, Surface *surface);
  // SET_RENDER_TARGETS for the bound targets.
  nv_cmd_set_render_targets targets_command() const;
  // The depth-stencil surface draws and clears use: the bound one when its sample count is render
  // target 0's, else none (D3D9 requires them to match; Windows still draws and clears the colour).
  Surface *drawn_depth_stencil() const;
  void push_clear(uint32_t nv_flags, D3DCOLOR color, float z, DWORD stencil, const std::vector<nv_rect> &rects);
  bool clear_sizes_differ(DWORD flags) const;
  void clear_each_target(uint32_t nv_flags, D3DCOLOR color, float z, DWORD stencil);
  void bind_depth_stencil(Surface *surface);
  // CREATE_SHADER; 0, with one line logged, when the SPIR-V does not fit one record of the ring.
  uint32_t create_shader(nv_shader_stage stage, const std::vector<uint32_t> &words);
  VertexDeclaration *fvf_declaration(DWORD fvf);
  // Parses, checks and translates bytecode (or finds its translation); nullptr when refused.
  std::shared_ptr<const CompiledShader> compile_shader(const DWORD *function, bool pixel, std::vector<DWORD> &tokens);
  // Appends bytes to a device-owned UP buffer (see UpBuffer); returns the offset they went to.
  struct UpBuffer;
  // Appends bytes to up at a multiple of `unit` (the stride, the index size) and returns that
  // offset / unit: the draws then name their first vertex or index, the buffer stays bound at 0,
  // and consecutive UP draws reach the plugin with no command between them (multi-draws).
  uint32_t up_upload(UpBuffer &up, uint32_t usage, const void *data, uint32_t bytes, uint32_t unit);
  // The HUD (device_hud.cpp): draws it into `image` (width x height), the image about to be shown,
  // and leaves the application's state to be sent again by its next draw.
  void draw_hud(uint32_t image, UINT width, UINT height);
  bool create_hud_resources();
  void destroy_hud_resources();

  std::atomic<ULONG> refs_{1};
  std::atomic<int> default_pool_resources_{0};
  std::atomic<uint64_t> video_memory_used_{0};
  CreationFailures creation_failures_; // under the device's lock, as every creation
  Direct3D9 *parent_;
  LoadedPlugin plugin_;
  D3DDEVICE_CREATION_PARAMETERS creation_;
  D3DPRESENT_PARAMETERS present_parameters_;
  FrameLimiter frame_limiter_{library_settings().frame_rate}; // NOVEM_FRAME_RATE, for every swap chain's Present
  std::unique_ptr<CommandStream> stream_;
  const bool multithreaded_;
  std::recursive_mutex mutex_;

  // Implicit surfaces: the device owns them (a private reference each). The back buffers and the
  // front buffer are the implicit swap chain's.
  BackBufferChain back_buffers_;
  Surface *auto_depth_stencil_ = nullptr;
  SwapChain *swap_chain_ = nullptr; // implicit swap chain 0 (a private reference)
  HWND device_window_ = nullptr;     // hDeviceWindow, else hFocusWindow; NULL headless
  std::unordered_map<HWND, uint32_t> window_targets_; // plugin swapchains, per window presented to

  // ---- full screen and lost devices (device_fullscreen.cpp) ----
  Lost lost_ = Lost::kNo;
  HWND fullscreen_window_ = nullptr; // the window this device made full-screen
  WindowPlace windowed_place_;       // its place before, given back when it leaves
  bool seen_active_ = false; // the program was seen active since full screen (see update_lost)

  // ---- cursor (device_cursor.cpp) ----
  bool cursor_visible_ = false; // a new device's cursor is hidden until ShowCursor(TRUE)
  bool cursor_set_ = false;     // SetCursorProperties succeeded once

  // ---- presentation (device_presentation.cpp) ----
  UINT present_count_ = 0;
  D3DGAMMARAMP gamma_ramp_{};
  INT gpu_thread_priority_ = 0;
  std::chrono::steady_clock::time_point created_ = std::chrono::steady_clock::now();

  // ---- stored and answered, with nothing to draw differently (device_state.cpp) ----
  D3DCLIPSTATUS9 clip_status_{};
  bool software_vertex_processing_ = false;
  float npatch_segments_ = 0.0f;
  // Texture palettes (device_palettes.cpp): no format reads them; Reset drops them.
  struct Palettes {
    static constexpr UINT kEntries = 256, kMaxNumber = 0xFFFF, kNone = 0xFFFF;
    std::map<UINT, std::array<PALETTEENTRY, kEntries>> entries; // the palettes set, by number
    UINT current = kNone;
  } palettes_;

  // ---- application-side state: what the getters answer and state blocks capture ----
  // The live state, and where the Set* calls write: the live state, or while BeginStateBlock
  // records, the recording block's (TrackedState).
  TrackedState live_;
  TrackedState *update_ = &live_;
  std::unordered_map<DWORD, VertexDeclaration *> fvf_declarations_; // one per FVF used, private references
  Surface *render_target_ = nullptr;  // a private reference
  Surface *more_targets_[NV_MAX_COLOR_TARGETS - 1] = {}; // render targets 1..3, private references
  Surface *depth_stencil_ = nullptr;  // a private reference
  bool in_scene_ = false;
  // The block BeginStateBlock records into (a private reference): while set, update_ is its state.
  StateBlock *recording_ = nullptr;

  std::unordered_map<uint64_t, std::weak_ptr<const CompiledShader>> compiled_shaders_; // bytecode hash

  // DrawPrimitiveUP and DrawIndexedPrimitiveUP data go through device-owned buffers used as
  // rings: appended with NO_OVERWRITE, restarted with DISCARD when full.
  struct UpBuffer {
    uint32_t buffer = 0;
    uint32_t size = 0;
    uint32_t cursor = 0;
  };
  UpBuffer up_vertices_, up_indices_;

  // ---- the HUD (device_hud.cpp) ----
  hud::Overlay hud_{hud::settings(process_options())}; // NOVEM_HUD* as at the device's creation
  struct HudResources {
    uint32_t font = 0, vertex_shader = 0, pixel_shader = 0;
    uint32_t vertices = 0, vertex_bytes = 0; // a vertex buffer, rewritten each frame
    bool failed = false;                     // logged once; no HUD on this device
  } hud_resources_;
  uint64_t frame_draws_ = 0; // the application's draw calls since the last Present

  std::vector<uint32_t> free_query_slots_;
  uint32_t query_slots_used_ = 0;

  // Present throttling: fences of the frames in flight, and where the last frame began in the
  // ring (its byte count, RingCounters::bytes), so that Present waits for room for the next.
  std::deque<uint64_t> frame_fences_;
  UINT max_frame_latency_ = library_settings().max_frame_latency.value_or(3); // SetMaximumFrameLatency's, default 3
  uint64_t frame_start_bytes_ = 0;
};

inline Device &StateEncoder::device() { return static_cast<Device &>(*this); }
inline const Device &StateEncoder::device() const { return static_cast<const Device &>(*this); }
inline TrackedState &StateEncoder::live() { return device().live_; }
inline const TrackedState &StateEncoder::live() const { return device().live_; }
inline CommandStream &StateEncoder::commands() const { return *device().stream_; }
inline const nv_adapter_info &StateEncoder::adapter() const { return device().adapter(); }
inline const Surface &StateEncoder::render_target() const { return *device().render_target_; }
inline Surface *StateEncoder::drawn_depth_stencil() const { return device().drawn_depth_stencil(); }
inline nv_cmd_set_render_targets StateEncoder::targets_command() const { return device().targets_command(); }
inline uint32_t StateEncoder::create_shader(nv_shader_stage stage, const std::vector<uint32_t> &words) {
  return device().create_shader(stage, words);
}

} // namespace novem
