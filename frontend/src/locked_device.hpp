// The device made for D3DCREATE_MULTITHREADED: every IDirect3DDevice9Ex method takes the device's
// recursive mutex (DeviceLock, device_lock.hpp) for the length of the call, then runs Device's.
// A device created without the flag is a plain Device and takes no lock. AddRef and Release are
// left alone: the count is atomic, and the last Release has no other caller to race with.
//
// One line per method of d3d9.h's IDirect3DDevice9Ex, in its order; the signatures are the
// interface's, so nothing here changes when a method is implemented.
#pragma once

#include "device_lock.hpp"

namespace novem {

class LockedDevice final : public Device {
  friend class Device; // Device::create makes one
  using Device::Device;

public:
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override { DeviceLock lock(*this); return Device::QueryInterface(iid, out); }
  HRESULT STDMETHODCALLTYPE TestCooperativeLevel() override { DeviceLock lock(*this); return Device::TestCooperativeLevel(); }
  UINT STDMETHODCALLTYPE GetAvailableTextureMem() override { DeviceLock lock(*this); return Device::GetAvailableTextureMem(); }
  HRESULT STDMETHODCALLTYPE EvictManagedResources() override { DeviceLock lock(*this); return Device::EvictManagedResources(); }
  HRESULT STDMETHODCALLTYPE GetDirect3D(IDirect3D9 **d3d9) override { DeviceLock lock(*this); return Device::GetDirect3D(d3d9); }
  HRESULT STDMETHODCALLTYPE GetDeviceCaps(D3DCAPS9 *caps) override { DeviceLock lock(*this); return Device::GetDeviceCaps(caps); }
  HRESULT STDMETHODCALLTYPE GetDisplayMode(UINT swapchain_idx, D3DDISPLAYMODE *mode) override { DeviceLock lock(*this); return Device::GetDisplayMode(swapchain_idx, mode); }
  HRESULT STDMETHODCALLTYPE GetCreationParameters(D3DDEVICE_CREATION_PARAMETERS *parameters) override { DeviceLock lock(*this); return Device::GetCreationParameters(parameters); }
  HRESULT STDMETHODCALLTYPE SetCursorProperties(UINT hotspot_x, UINT hotspot_y, IDirect3DSurface9 *bitmap) override { DeviceLock lock(*this); return Device::SetCursorProperties(hotspot_x, hotspot_y, bitmap); }
  void STDMETHODCALLTYPE SetCursorPosition(int x, int y, DWORD flags) override { DeviceLock lock(*this); return Device::SetCursorPosition(x, y, flags); }
  WINBOOL STDMETHODCALLTYPE ShowCursor(WINBOOL show) override { DeviceLock lock(*this); return Device::ShowCursor(show); }
  HRESULT STDMETHODCALLTYPE CreateAdditionalSwapChain(D3DPRESENT_PARAMETERS *parameters, IDirect3DSwapChain9 **swapchain) override { DeviceLock lock(*this); return Device::CreateAdditionalSwapChain(parameters, swapchain); }
  HRESULT STDMETHODCALLTYPE GetSwapChain(UINT swapchain_idx, IDirect3DSwapChain9 **swapchain) override { DeviceLock lock(*this); return Device::GetSwapChain(swapchain_idx, swapchain); }
  UINT STDMETHODCALLTYPE GetNumberOfSwapChains() override { DeviceLock lock(*this); return Device::GetNumberOfSwapChains(); }
  HRESULT STDMETHODCALLTYPE Reset(D3DPRESENT_PARAMETERS *parameters) override { DeviceLock lock(*this); return Device::Reset(parameters); }
  HRESULT STDMETHODCALLTYPE Present(const RECT *src_rect, const RECT *dst_rect, HWND dst_window_override, const RGNDATA *dirty_region) override { DeviceLock lock(*this); return Device::Present(src_rect, dst_rect, dst_window_override, dirty_region); }
  HRESULT STDMETHODCALLTYPE GetBackBuffer(UINT swapchain_idx, UINT backbuffer_idx, D3DBACKBUFFER_TYPE backbuffer_type, IDirect3DSurface9 **backbuffer) override { DeviceLock lock(*this); return Device::GetBackBuffer(swapchain_idx, backbuffer_idx, backbuffer_type, backbuffer); }
  HRESULT STDMETHODCALLTYPE GetRasterStatus(UINT swapchain_idx, D3DRASTER_STATUS *raster_status) override { DeviceLock lock(*this); return Device::GetRasterStatus(swapchain_idx, raster_status); }
  HRESULT STDMETHODCALLTYPE SetDialogBoxMode(WINBOOL enable) override { DeviceLock lock(*this); return Device::SetDialogBoxMode(enable); }
  void STDMETHODCALLTYPE SetGammaRamp(UINT swapchain_idx, DWORD flags, const D3DGAMMARAMP *ramp) override { DeviceLock lock(*this); return Device::SetGammaRamp(swapchain_idx, flags, ramp); }
  void STDMETHODCALLTYPE GetGammaRamp(UINT swapchain_idx, D3DGAMMARAMP *ramp) override { DeviceLock lock(*this); return Device::GetGammaRamp(swapchain_idx, ramp); }
  HRESULT STDMETHODCALLTYPE CreateTexture(UINT width, UINT height, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool, IDirect3DTexture9 **texture, HANDLE *shared_handle) override { DeviceLock lock(*this); return Device::CreateTexture(width, height, levels, usage, format, pool, texture, shared_handle); }
  HRESULT STDMETHODCALLTYPE CreateVolumeTexture(UINT width, UINT height, UINT depth, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool, IDirect3DVolumeTexture9 **texture, HANDLE *shared_handle) override { DeviceLock lock(*this); return Device::CreateVolumeTexture(width, height, depth, levels, usage, format, pool, texture, shared_handle); }
  HRESULT STDMETHODCALLTYPE CreateCubeTexture(UINT edge_length, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool, IDirect3DCubeTexture9 **texture, HANDLE *shared_handle) override { DeviceLock lock(*this); return Device::CreateCubeTexture(edge_length, levels, usage, format, pool, texture, shared_handle); }
  HRESULT STDMETHODCALLTYPE CreateVertexBuffer(UINT size, DWORD usage, DWORD fvf, D3DPOOL pool, IDirect3DVertexBuffer9 **buffer, HANDLE *shared_handle) override { DeviceLock lock(*this); return Device::CreateVertexBuffer(size, usage, fvf, pool, buffer, shared_handle); }
  HRESULT STDMETHODCALLTYPE CreateIndexBuffer(UINT size, DWORD usage, D3DFORMAT format, D3DPOOL pool, IDirect3DIndexBuffer9 **buffer, HANDLE *shared_handle) override { DeviceLock lock(*this); return Device::CreateIndexBuffer(size, usage, format, pool, buffer, shared_handle); }
  HRESULT STDMETHODCALLTYPE CreateRenderTarget(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample_type, DWORD multisample_quality, WINBOOL lockable, IDirect3DSurface9 **surface, HANDLE *shared_handle) override { DeviceLock lock(*this); return Device::CreateRenderTarget(width, height, format, multisample_type, multisample_quality, lockable, surface, shared_handle); }
  HRESULT STDMETHODCALLTYPE CreateDepthStencilSurface(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample_type, DWORD multisample_quality, WINBOOL discard, IDirect3DSurface9 **surface, HANDLE *shared_handle) override { DeviceLock lock(*this); return Device::CreateDepthStencilSurface(width, height, format, multisample_type, multisample_quality, discard, surface, shared_handle); }
  HRESULT STDMETHODCALLTYPE UpdateSurface(IDirect3DSurface9 *src_surface, const RECT *src_rect, IDirect3DSurface9 *dst_surface, const POINT *dst_point) override { DeviceLock lock(*this); return Device::UpdateSurface(src_surface, src_rect, dst_surface, dst_point); }
  HRESULT STDMETHODCALLTYPE UpdateTexture(IDirect3DBaseTexture9 *src_texture, IDirect3DBaseTexture9 *dst_texture) override { DeviceLock lock(*this); return Device::UpdateTexture(src_texture, dst_texture); }
  HRESULT STDMETHODCALLTYPE GetRenderTargetData(IDirect3DSurface9 *render_target, IDirect3DSurface9 *dst_surface) override { DeviceLock lock(*this); return Device::GetRenderTargetData(render_target, dst_surface); }
  HRESULT STDMETHODCALLTYPE GetFrontBufferData(UINT swapchain_idx, IDirect3DSurface9 *dst_surface) override { DeviceLock lock(*this); return Device::GetFrontBufferData(swapchain_idx, dst_surface); }
  HRESULT STDMETHODCALLTYPE StretchRect(IDirect3DSurface9 *src_surface, const RECT *src_rect, IDirect3DSurface9 *dst_surface, const RECT *dst_rect, D3DTEXTUREFILTERTYPE filter) override { DeviceLock lock(*this); return Device::StretchRect(src_surface, src_rect, dst_surface, dst_rect, filter); }
  HRESULT STDMETHODCALLTYPE ColorFill(IDirect3DSurface9 *surface, const RECT *rect, D3DCOLOR colour) override { DeviceLock lock(*this); return Device::ColorFill(surface, rect, colour); }
  HRESULT STDMETHODCALLTYPE CreateOffscreenPlainSurface(UINT width, UINT height, D3DFORMAT format, D3DPOOL pool, IDirect3DSurface9 **surface, HANDLE *shared_handle) override { DeviceLock lock(*this); return Device::CreateOffscreenPlainSurface(width, height, format, pool, surface, shared_handle); }
  HRESULT STDMETHODCALLTYPE SetRenderTarget(DWORD idx, IDirect3DSurface9 *surface) override { DeviceLock lock(*this); return Device::SetRenderTarget(idx, surface); }
  HRESULT STDMETHODCALLTYPE GetRenderTarget(DWORD idx, IDirect3DSurface9 **surface) override { DeviceLock lock(*this); return Device::GetRenderTarget(idx, surface); }
  HRESULT STDMETHODCALLTYPE SetDepthStencilSurface(IDirect3DSurface9 *depth_stencil) override { DeviceLock lock(*this); return Device::SetDepthStencilSurface(depth_stencil); }
  HRESULT STDMETHODCALLTYPE GetDepthStencilSurface(IDirect3DSurface9 **depth_stencil) override { DeviceLock lock(*this); return Device::GetDepthStencilSurface(depth_stencil); }
  HRESULT STDMETHODCALLTYPE BeginScene() override { DeviceLock lock(*this); return Device::BeginScene(); }
  HRESULT STDMETHODCALLTYPE EndScene() override { DeviceLock lock(*this); return Device::EndScene(); }
  HRESULT STDMETHODCALLTYPE Clear(DWORD rect_count, const D3DRECT *rects, DWORD flags, D3DCOLOR colour, float z, DWORD stencil) override { DeviceLock lock(*this); return Device::Clear(rect_count, rects, flags, colour, z, stencil); }
  HRESULT STDMETHODCALLTYPE SetTransform(D3DTRANSFORMSTATETYPE state, const D3DMATRIX *matrix) override { DeviceLock lock(*this); return Device::SetTransform(state, matrix); }
  HRESULT STDMETHODCALLTYPE GetTransform(D3DTRANSFORMSTATETYPE State, D3DMATRIX *matrix) override { DeviceLock lock(*this); return Device::GetTransform(State, matrix); }
  HRESULT STDMETHODCALLTYPE MultiplyTransform(D3DTRANSFORMSTATETYPE state, const D3DMATRIX *matrix) override { DeviceLock lock(*this); return Device::MultiplyTransform(state, matrix); }
  HRESULT STDMETHODCALLTYPE SetViewport(const D3DVIEWPORT9 *viewport) override { DeviceLock lock(*this); return Device::SetViewport(viewport); }
  HRESULT STDMETHODCALLTYPE GetViewport(D3DVIEWPORT9 *viewport) override { DeviceLock lock(*this); return Device::GetViewport(viewport); }
  HRESULT STDMETHODCALLTYPE SetMaterial(const D3DMATERIAL9 *material) override { DeviceLock lock(*this); return Device::SetMaterial(material); }
  HRESULT STDMETHODCALLTYPE GetMaterial(D3DMATERIAL9 *material) override { DeviceLock lock(*this); return Device::GetMaterial(material); }
  HRESULT STDMETHODCALLTYPE SetLight(DWORD idx, const D3DLIGHT9 *light) override { DeviceLock lock(*this); return Device::SetLight(idx, light); }
  HRESULT STDMETHODCALLTYPE GetLight(DWORD idx, D3DLIGHT9 *light) override { DeviceLock lock(*this); return Device::GetLight(idx, light); }
  HRESULT STDMETHODCALLTYPE LightEnable(DWORD idx, WINBOOL enable) override { DeviceLock lock(*this); return Device::LightEnable(idx, enable); }
  HRESULT STDMETHODCALLTYPE GetLightEnable(DWORD idx, WINBOOL *enable) override { DeviceLock lock(*this); return Device::GetLightEnable(idx, enable); }
  HRESULT STDMETHODCALLTYPE SetClipPlane(DWORD idx, const float *plane) override { DeviceLock lock(*this); return Device::SetClipPlane(idx, plane); }
  HRESULT STDMETHODCALLTYPE GetClipPlane(DWORD idx, float *plane) override { DeviceLock lock(*this); return Device::GetClipPlane(idx, plane); }
  HRESULT STDMETHODCALLTYPE SetRenderState(D3DRENDERSTATETYPE state, DWORD value) override { DeviceLock lock(*this); return Device::SetRenderState(state, value); }
  HRESULT STDMETHODCALLTYPE GetRenderState(D3DRENDERSTATETYPE state, DWORD *value) override { DeviceLock lock(*this); return Device::GetRenderState(state, value); }
  HRESULT STDMETHODCALLTYPE CreateStateBlock(D3DSTATEBLOCKTYPE type, IDirect3DStateBlock9 **stateblock) override { DeviceLock lock(*this); return Device::CreateStateBlock(type, stateblock); }
  HRESULT STDMETHODCALLTYPE BeginStateBlock() override { DeviceLock lock(*this); return Device::BeginStateBlock(); }
  HRESULT STDMETHODCALLTYPE EndStateBlock(IDirect3DStateBlock9 **stateblock) override { DeviceLock lock(*this); return Device::EndStateBlock(stateblock); }
  HRESULT STDMETHODCALLTYPE SetClipStatus(const D3DCLIPSTATUS9 *clip_status) override { DeviceLock lock(*this); return Device::SetClipStatus(clip_status); }
  HRESULT STDMETHODCALLTYPE GetClipStatus(D3DCLIPSTATUS9 *clip_status) override { DeviceLock lock(*this); return Device::GetClipStatus(clip_status); }
  HRESULT STDMETHODCALLTYPE GetTexture(DWORD stage, IDirect3DBaseTexture9 **texture) override { DeviceLock lock(*this); return Device::GetTexture(stage, texture); }
  HRESULT STDMETHODCALLTYPE SetTexture(DWORD stage, IDirect3DBaseTexture9 *texture) override { DeviceLock lock(*this); return Device::SetTexture(stage, texture); }
  HRESULT STDMETHODCALLTYPE GetTextureStageState(DWORD stage, D3DTEXTURESTAGESTATETYPE state, DWORD *value) override { DeviceLock lock(*this); return Device::GetTextureStageState(stage, state, value); }
  HRESULT STDMETHODCALLTYPE SetTextureStageState(DWORD stage, D3DTEXTURESTAGESTATETYPE state, DWORD value) override { DeviceLock lock(*this); return Device::SetTextureStageState(stage, state, value); }
  HRESULT STDMETHODCALLTYPE GetSamplerState(DWORD sampler_idx, D3DSAMPLERSTATETYPE state, DWORD *value) override { DeviceLock lock(*this); return Device::GetSamplerState(sampler_idx, state, value); }
  HRESULT STDMETHODCALLTYPE SetSamplerState(DWORD sampler_idx, D3DSAMPLERSTATETYPE state, DWORD value) override { DeviceLock lock(*this); return Device::SetSamplerState(sampler_idx, state, value); }
  HRESULT STDMETHODCALLTYPE ValidateDevice(DWORD *pass_count) override { DeviceLock lock(*this); return Device::ValidateDevice(pass_count); }
  HRESULT STDMETHODCALLTYPE SetPaletteEntries(UINT palette_idx, const PALETTEENTRY *entries) override { DeviceLock lock(*this); return Device::SetPaletteEntries(palette_idx, entries); }
  HRESULT STDMETHODCALLTYPE GetPaletteEntries(UINT palette_idx, PALETTEENTRY *entries) override { DeviceLock lock(*this); return Device::GetPaletteEntries(palette_idx, entries); }
  HRESULT STDMETHODCALLTYPE SetCurrentTexturePalette(UINT palette_idx) override { DeviceLock lock(*this); return Device::SetCurrentTexturePalette(palette_idx); }
  HRESULT STDMETHODCALLTYPE GetCurrentTexturePalette(UINT *palette_idx) override { DeviceLock lock(*this); return Device::GetCurrentTexturePalette(palette_idx); }
  HRESULT STDMETHODCALLTYPE SetScissorRect(const RECT *rect) override { DeviceLock lock(*this); return Device::SetScissorRect(rect); }
  HRESULT STDMETHODCALLTYPE GetScissorRect(RECT *rect) override { DeviceLock lock(*this); return Device::GetScissorRect(rect); }
  HRESULT STDMETHODCALLTYPE SetSoftwareVertexProcessing(WINBOOL software) override { DeviceLock lock(*this); return Device::SetSoftwareVertexProcessing(software); }
  WINBOOL STDMETHODCALLTYPE GetSoftwareVertexProcessing() override { DeviceLock lock(*this); return Device::GetSoftwareVertexProcessing(); }
  HRESULT STDMETHODCALLTYPE SetNPatchMode(float segment_count) override { DeviceLock lock(*this); return Device::SetNPatchMode(segment_count); }
  float STDMETHODCALLTYPE GetNPatchMode() override { DeviceLock lock(*this); return Device::GetNPatchMode(); }
  HRESULT STDMETHODCALLTYPE DrawPrimitive(D3DPRIMITIVETYPE primitive_type, UINT start_vertex, UINT primitive_count) override { DeviceLock lock(*this); return Device::DrawPrimitive(primitive_type, start_vertex, primitive_count); }
  HRESULT STDMETHODCALLTYPE DrawIndexedPrimitive(D3DPRIMITIVETYPE primitive_type, INT base_vertex_idx, UINT min_vertex_idx, UINT vertex_count, UINT start_idx, UINT primitive_count) override { DeviceLock lock(*this); return Device::DrawIndexedPrimitive(primitive_type, base_vertex_idx, min_vertex_idx, vertex_count, start_idx, primitive_count); }
  HRESULT STDMETHODCALLTYPE DrawPrimitiveUP(D3DPRIMITIVETYPE primitive_type, UINT primitive_count, const void *data, UINT stride) override { DeviceLock lock(*this); return Device::DrawPrimitiveUP(primitive_type, primitive_count, data, stride); }
  HRESULT STDMETHODCALLTYPE DrawIndexedPrimitiveUP(D3DPRIMITIVETYPE primitive_type, UINT min_vertex_idx, UINT vertex_count, UINT primitive_count, const void *index_data, D3DFORMAT index_format, const void *data, UINT stride) override { DeviceLock lock(*this); return Device::DrawIndexedPrimitiveUP(primitive_type, min_vertex_idx, vertex_count, primitive_count, index_data, index_format, data, stride); }
  HRESULT STDMETHODCALLTYPE ProcessVertices(UINT src_start_idx, UINT dst_idx, UINT vertex_count, IDirect3DVertexBuffer9 *dst_buffer, IDirect3DVertexDeclaration9 *declaration, DWORD flags) override { DeviceLock lock(*this); return Device::ProcessVertices(src_start_idx, dst_idx, vertex_count, dst_buffer, declaration, flags); }
  HRESULT STDMETHODCALLTYPE CreateVertexDeclaration(const D3DVERTEXELEMENT9 *elements, IDirect3DVertexDeclaration9 **declaration) override { DeviceLock lock(*this); return Device::CreateVertexDeclaration(elements, declaration); }
  HRESULT STDMETHODCALLTYPE SetVertexDeclaration(IDirect3DVertexDeclaration9 *declaration) override { DeviceLock lock(*this); return Device::SetVertexDeclaration(declaration); }
  HRESULT STDMETHODCALLTYPE GetVertexDeclaration(IDirect3DVertexDeclaration9 **declaration) override { DeviceLock lock(*this); return Device::GetVertexDeclaration(declaration); }
  HRESULT STDMETHODCALLTYPE SetFVF(DWORD fvf) override { DeviceLock lock(*this); return Device::SetFVF(fvf); }
  HRESULT STDMETHODCALLTYPE GetFVF(DWORD *fvf) override { DeviceLock lock(*this); return Device::GetFVF(fvf); }
  HRESULT STDMETHODCALLTYPE CreateVertexShader(const DWORD *byte_code, IDirect3DVertexShader9 **shader) override { DeviceLock lock(*this); return Device::CreateVertexShader(byte_code, shader); }
  HRESULT STDMETHODCALLTYPE SetVertexShader(IDirect3DVertexShader9 *shader) override { DeviceLock lock(*this); return Device::SetVertexShader(shader); }
  HRESULT STDMETHODCALLTYPE GetVertexShader(IDirect3DVertexShader9 **shader) override { DeviceLock lock(*this); return Device::GetVertexShader(shader); }
  HRESULT STDMETHODCALLTYPE SetVertexShaderConstantF(UINT reg_idx, const float *data, UINT count) override { DeviceLock lock(*this); return Device::SetVertexShaderConstantF(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE GetVertexShaderConstantF(UINT reg_idx, float *data, UINT count) override { DeviceLock lock(*this); return Device::GetVertexShaderConstantF(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE SetVertexShaderConstantI(UINT reg_idx, const int *data, UINT count) override { DeviceLock lock(*this); return Device::SetVertexShaderConstantI(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE GetVertexShaderConstantI(UINT reg_idx, int *data, UINT count) override { DeviceLock lock(*this); return Device::GetVertexShaderConstantI(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE SetVertexShaderConstantB(UINT reg_idx, const WINBOOL *data, UINT count) override { DeviceLock lock(*this); return Device::SetVertexShaderConstantB(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE GetVertexShaderConstantB(UINT reg_idx, WINBOOL *data, UINT count) override { DeviceLock lock(*this); return Device::GetVertexShaderConstantB(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE SetStreamSource(UINT stream_idx, IDirect3DVertexBuffer9 *buffer, UINT offset, UINT stride) override { DeviceLock lock(*this); return Device::SetStreamSource(stream_idx, buffer, offset, stride); }
  HRESULT STDMETHODCALLTYPE GetStreamSource(UINT stream_idx, IDirect3DVertexBuffer9 **buffer, UINT *offset, UINT *stride) override { DeviceLock lock(*this); return Device::GetStreamSource(stream_idx, buffer, offset, stride); }
  HRESULT STDMETHODCALLTYPE SetStreamSourceFreq(UINT stream_idx, UINT frequency) override { DeviceLock lock(*this); return Device::SetStreamSourceFreq(stream_idx, frequency); }
  HRESULT STDMETHODCALLTYPE GetStreamSourceFreq(UINT stream_idx, UINT *frequency) override { DeviceLock lock(*this); return Device::GetStreamSourceFreq(stream_idx, frequency); }
  HRESULT STDMETHODCALLTYPE SetIndices(IDirect3DIndexBuffer9 *buffer) override { DeviceLock lock(*this); return Device::SetIndices(buffer); }
  HRESULT STDMETHODCALLTYPE GetIndices(IDirect3DIndexBuffer9 **buffer) override { DeviceLock lock(*this); return Device::GetIndices(buffer); }
  HRESULT STDMETHODCALLTYPE CreatePixelShader(const DWORD *byte_code, IDirect3DPixelShader9 **shader) override { DeviceLock lock(*this); return Device::CreatePixelShader(byte_code, shader); }
  HRESULT STDMETHODCALLTYPE SetPixelShader(IDirect3DPixelShader9 *shader) override { DeviceLock lock(*this); return Device::SetPixelShader(shader); }
  HRESULT STDMETHODCALLTYPE GetPixelShader(IDirect3DPixelShader9 **shader) override { DeviceLock lock(*this); return Device::GetPixelShader(shader); }
  HRESULT STDMETHODCALLTYPE SetPixelShaderConstantF(UINT reg_idx, const float *data, UINT count) override { DeviceLock lock(*this); return Device::SetPixelShaderConstantF(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE GetPixelShaderConstantF(UINT reg_idx, float *data, UINT count) override { DeviceLock lock(*this); return Device::GetPixelShaderConstantF(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE SetPixelShaderConstantI(UINT reg_idx, const int *data, UINT count) override { DeviceLock lock(*this); return Device::SetPixelShaderConstantI(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE GetPixelShaderConstantI(UINT reg_idx, int *data, UINT count) override { DeviceLock lock(*this); return Device::GetPixelShaderConstantI(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE SetPixelShaderConstantB(UINT reg_idx, const WINBOOL *data, UINT count) override { DeviceLock lock(*this); return Device::SetPixelShaderConstantB(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE GetPixelShaderConstantB(UINT reg_idx, WINBOOL *data, UINT count) override { DeviceLock lock(*this); return Device::GetPixelShaderConstantB(reg_idx, data, count); }
  HRESULT STDMETHODCALLTYPE DrawRectPatch(UINT handle, const float *segment_count, const D3DRECTPATCH_INFO *patch_info) override { DeviceLock lock(*this); return Device::DrawRectPatch(handle, segment_count, patch_info); }
  HRESULT STDMETHODCALLTYPE DrawTriPatch(UINT handle, const float *segment_count, const D3DTRIPATCH_INFO *patch_info) override { DeviceLock lock(*this); return Device::DrawTriPatch(handle, segment_count, patch_info); }
  HRESULT STDMETHODCALLTYPE DeletePatch(UINT handle) override { DeviceLock lock(*this); return Device::DeletePatch(handle); }
  HRESULT STDMETHODCALLTYPE CreateQuery(D3DQUERYTYPE type, IDirect3DQuery9 **query) override { DeviceLock lock(*this); return Device::CreateQuery(type, query); }
  HRESULT STDMETHODCALLTYPE SetConvolutionMonoKernel(UINT width, UINT height, float *rows, float *columns) override { DeviceLock lock(*this); return Device::SetConvolutionMonoKernel(width, height, rows, columns); }
  HRESULT STDMETHODCALLTYPE ComposeRects(IDirect3DSurface9 *src_surface, IDirect3DSurface9 *dst_surface, IDirect3DVertexBuffer9 *src_descs, UINT rect_count, IDirect3DVertexBuffer9 *dst_descs, D3DCOMPOSERECTSOP operation, INT offset_x, INT offset_y) override { DeviceLock lock(*this); return Device::ComposeRects(src_surface, dst_surface, src_descs, rect_count, dst_descs, operation, offset_x, offset_y); }
  HRESULT STDMETHODCALLTYPE PresentEx(const RECT *src_rect, const RECT *dst_rect, HWND dst_window_override, const RGNDATA *dirty_region, DWORD flags) override { DeviceLock lock(*this); return Device::PresentEx(src_rect, dst_rect, dst_window_override, dirty_region, flags); }
  HRESULT STDMETHODCALLTYPE GetGPUThreadPriority(INT *priority) override { DeviceLock lock(*this); return Device::GetGPUThreadPriority(priority); }
  HRESULT STDMETHODCALLTYPE SetGPUThreadPriority(INT priority) override { DeviceLock lock(*this); return Device::SetGPUThreadPriority(priority); }
  HRESULT STDMETHODCALLTYPE WaitForVBlank(UINT swapchain_idx) override { DeviceLock lock(*this); return Device::WaitForVBlank(swapchain_idx); }
  HRESULT STDMETHODCALLTYPE CheckResourceResidency(IDirect3DResource9 **resources, UINT32 resource_count) override { DeviceLock lock(*this); return Device::CheckResourceResidency(resources, resource_count); }
  HRESULT STDMETHODCALLTYPE SetMaximumFrameLatency(UINT max_latency) override { DeviceLock lock(*this); return Device::SetMaximumFrameLatency(max_latency); }
  HRESULT STDMETHODCALLTYPE GetMaximumFrameLatency(UINT *max_latency) override { DeviceLock lock(*this); return Device::GetMaximumFrameLatency(max_latency); }
  HRESULT STDMETHODCALLTYPE CheckDeviceState(HWND dst_window) override { DeviceLock lock(*this); return Device::CheckDeviceState(dst_window); }
  HRESULT STDMETHODCALLTYPE CreateRenderTargetEx(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample_type, DWORD multisample_quality, WINBOOL lockable, IDirect3DSurface9 **surface, HANDLE *shared_handle, DWORD usage) override { DeviceLock lock(*this); return Device::CreateRenderTargetEx(width, height, format, multisample_type, multisample_quality, lockable, surface, shared_handle, usage); }
  HRESULT STDMETHODCALLTYPE CreateOffscreenPlainSurfaceEx(UINT width, UINT Height, D3DFORMAT format, D3DPOOL pool, IDirect3DSurface9 **surface, HANDLE *shared_handle, DWORD usage) override { DeviceLock lock(*this); return Device::CreateOffscreenPlainSurfaceEx(width, Height, format, pool, surface, shared_handle, usage); }
  HRESULT STDMETHODCALLTYPE CreateDepthStencilSurfaceEx(UINT width, UINT height, D3DFORMAT format, D3DMULTISAMPLE_TYPE multisample_type, DWORD multisample_quality, WINBOOL discard, IDirect3DSurface9 **surface, HANDLE *shared_handle, DWORD usage) override { DeviceLock lock(*this); return Device::CreateDepthStencilSurfaceEx(width, height, format, multisample_type, multisample_quality, discard, surface, shared_handle, usage); }
  HRESULT STDMETHODCALLTYPE ResetEx(D3DPRESENT_PARAMETERS *parameters, D3DDISPLAYMODEEX *mode) override { DeviceLock lock(*this); return Device::ResetEx(parameters, mode); }
  HRESULT STDMETHODCALLTYPE GetDisplayModeEx(UINT swapchain_idx, D3DDISPLAYMODEEX *mode, D3DDISPLAYROTATION *rotation) override { DeviceLock lock(*this); return Device::GetDisplayModeEx(swapchain_idx, mode, rotation); }
};

} // namespace novem
