/* Expected Direct3D 9 ABI facts (Windows x64), as X-macro lists shared by the C and the C++ side
 * of test_d3d9_abi. Written from the Windows SDK's d3d9.h / d3d9types.h / d3d9caps.h (method
 * order; struct layouts with LLP64 rules, 8-byte pointers, natural alignment: the SDK's
 * `#pragma pack(4)` applies to x86 only), not generated from the headers under test.
 * IDirect3DShaderValidator9 is in no SDK header: its order is the one Wine's d3d9 tests record
 * for Windows (d3d9_shader_validator.h). */
#ifndef NOVEM_TEST_D3D9_ABI_LISTS_H
#define NOVEM_TEST_D3D9_ABI_LISTS_H

/* ---- vtable order: X(interface, method), slot = position in the list ------------------------ */
#define NOVEM_IUNKNOWN_METHODS(X, I) X(I, QueryInterface) X(I, AddRef) X(I, Release)

#define NOVEM_DIRECT3D9_METHODS(X, I) NOVEM_IUNKNOWN_METHODS(X, I) \
    X(I, RegisterSoftwareDevice) X(I, GetAdapterCount) X(I, GetAdapterIdentifier) \
    X(I, GetAdapterModeCount) X(I, EnumAdapterModes) X(I, GetAdapterDisplayMode) \
    X(I, CheckDeviceType) X(I, CheckDeviceFormat) X(I, CheckDeviceMultiSampleType) \
    X(I, CheckDepthStencilMatch) X(I, CheckDeviceFormatConversion) X(I, GetDeviceCaps) \
    X(I, GetAdapterMonitor) X(I, CreateDevice)

#define NOVEM_DIRECT3D9EX_METHODS(X, I) NOVEM_DIRECT3D9_METHODS(X, I) \
    X(I, GetAdapterModeCountEx) X(I, EnumAdapterModesEx) X(I, GetAdapterDisplayModeEx) \
    X(I, CreateDeviceEx) X(I, GetAdapterLUID)

#define NOVEM_DEVICE9_METHODS(X, I) NOVEM_IUNKNOWN_METHODS(X, I) \
    X(I, TestCooperativeLevel) X(I, GetAvailableTextureMem) X(I, EvictManagedResources) \
    X(I, GetDirect3D) X(I, GetDeviceCaps) X(I, GetDisplayMode) X(I, GetCreationParameters) \
    X(I, SetCursorProperties) X(I, SetCursorPosition) X(I, ShowCursor) \
    X(I, CreateAdditionalSwapChain) X(I, GetSwapChain) X(I, GetNumberOfSwapChains) \
    X(I, Reset) X(I, Present) X(I, GetBackBuffer) X(I, GetRasterStatus) X(I, SetDialogBoxMode) \
    X(I, SetGammaRamp) X(I, GetGammaRamp) X(I, CreateTexture) X(I, CreateVolumeTexture) \
    X(I, CreateCubeTexture) X(I, CreateVertexBuffer) X(I, CreateIndexBuffer) \
    X(I, CreateRenderTarget) X(I, CreateDepthStencilSurface) X(I, UpdateSurface) \
    X(I, UpdateTexture) X(I, GetRenderTargetData) X(I, GetFrontBufferData) X(I, StretchRect) \
    X(I, ColorFill) X(I, CreateOffscreenPlainSurface) X(I, SetRenderTarget) \
    X(I, GetRenderTarget) X(I, SetDepthStencilSurface) X(I, GetDepthStencilSurface) \
    X(I, BeginScene) X(I, EndScene) X(I, Clear) X(I, SetTransform) X(I, GetTransform) \
    X(I, MultiplyTransform) X(I, SetViewport) X(I, GetViewport) X(I, SetMaterial) \
    X(I, GetMaterial) X(I, SetLight) X(I, GetLight) X(I, LightEnable) X(I, GetLightEnable) \
    X(I, SetClipPlane) X(I, GetClipPlane) X(I, SetRenderState) X(I, GetRenderState) \
    X(I, CreateStateBlock) X(I, BeginStateBlock) X(I, EndStateBlock) X(I, SetClipStatus) \
    X(I, GetClipStatus) X(I, GetTexture) X(I, SetTexture) X(I, GetTextureStageState) \
    X(I, SetTextureStageState) X(I, GetSamplerState) X(I, SetSamplerState) \
    X(I, ValidateDevice) X(I, SetPaletteEntries) X(I, GetPaletteEntries) \
    X(I, SetCurrentTexturePalette) X(I, GetCurrentTexturePalette) X(I, SetScissorRect) \
    X(I, GetScissorRect) X(I, SetSoftwareVertexProcessing) X(I, GetSoftwareVertexProcessing) \
    X(I, SetNPatchMode) X(I, GetNPatchMode) X(I, DrawPrimitive) X(I, DrawIndexedPrimitive) \
    X(I, DrawPrimitiveUP) X(I, DrawIndexedPrimitiveUP) X(I, ProcessVertices) \
    X(I, CreateVertexDeclaration) X(I, SetVertexDeclaration) X(I, GetVertexDeclaration) \
    X(I, SetFVF) X(I, GetFVF) X(I, CreateVertexShader) X(I, SetVertexShader) \
    X(I, GetVertexShader) X(I, SetVertexShaderConstantF) X(I, GetVertexShaderConstantF) \
    X(I, SetVertexShaderConstantI) X(I, GetVertexShaderConstantI) \
    X(I, SetVertexShaderConstantB) X(I, GetVertexShaderConstantB) X(I, SetStreamSource) \
    X(I, GetStreamSource) X(I, SetStreamSourceFreq) X(I, GetStreamSourceFreq) \
    X(I, SetIndices) X(I, GetIndices) X(I, CreatePixelShader) X(I, SetPixelShader) \
    X(I, GetPixelShader) X(I, SetPixelShaderConstantF) X(I, GetPixelShaderConstantF) \
    X(I, SetPixelShaderConstantI) X(I, GetPixelShaderConstantI) \
    X(I, SetPixelShaderConstantB) X(I, GetPixelShaderConstantB) X(I, DrawRectPatch) \
    X(I, DrawTriPatch) X(I, DeletePatch) X(I, CreateQuery)

#define NOVEM_DEVICE9EX_METHODS(X, I) NOVEM_DEVICE9_METHODS(X, I) \
    X(I, SetConvolutionMonoKernel) X(I, ComposeRects) X(I, PresentEx) \
    X(I, GetGPUThreadPriority) X(I, SetGPUThreadPriority) X(I, WaitForVBlank) \
    X(I, CheckResourceResidency) X(I, SetMaximumFrameLatency) X(I, GetMaximumFrameLatency) \
    X(I, CheckDeviceState) X(I, CreateRenderTargetEx) X(I, CreateOffscreenPlainSurfaceEx) \
    X(I, CreateDepthStencilSurfaceEx) X(I, ResetEx) X(I, GetDisplayModeEx)

#define NOVEM_SWAPCHAIN9_METHODS(X, I) NOVEM_IUNKNOWN_METHODS(X, I) \
    X(I, Present) X(I, GetFrontBufferData) X(I, GetBackBuffer) X(I, GetRasterStatus) \
    X(I, GetDisplayMode) X(I, GetDevice) X(I, GetPresentParameters)

#define NOVEM_SWAPCHAIN9EX_METHODS(X, I) NOVEM_SWAPCHAIN9_METHODS(X, I) \
    X(I, GetLastPresentCount) X(I, GetPresentStats) X(I, GetDisplayModeEx)

#define NOVEM_RESOURCE9_METHODS(X, I) NOVEM_IUNKNOWN_METHODS(X, I) \
    X(I, GetDevice) X(I, SetPrivateData) X(I, GetPrivateData) X(I, FreePrivateData) \
    X(I, SetPriority) X(I, GetPriority) X(I, PreLoad) X(I, GetType)

#define NOVEM_SURFACE9_METHODS(X, I) NOVEM_RESOURCE9_METHODS(X, I) \
    X(I, GetContainer) X(I, GetDesc) X(I, LockRect) X(I, UnlockRect) X(I, GetDC) X(I, ReleaseDC)

#define NOVEM_BUFFER9_METHODS(X, I) NOVEM_RESOURCE9_METHODS(X, I) \
    X(I, Lock) X(I, Unlock) X(I, GetDesc)

#define NOVEM_BASETEXTURE9_METHODS(X, I) NOVEM_RESOURCE9_METHODS(X, I) \
    X(I, SetLOD) X(I, GetLOD) X(I, GetLevelCount) X(I, SetAutoGenFilterType) \
    X(I, GetAutoGenFilterType) X(I, GenerateMipSubLevels)

#define NOVEM_TEXTURE9_METHODS(X, I) NOVEM_BASETEXTURE9_METHODS(X, I) \
    X(I, GetLevelDesc) X(I, GetSurfaceLevel) X(I, LockRect) X(I, UnlockRect) X(I, AddDirtyRect)

#define NOVEM_CUBETEXTURE9_METHODS(X, I) NOVEM_BASETEXTURE9_METHODS(X, I) \
    X(I, GetLevelDesc) X(I, GetCubeMapSurface) X(I, LockRect) X(I, UnlockRect) X(I, AddDirtyRect)

#define NOVEM_VOLUMETEXTURE9_METHODS(X, I) NOVEM_BASETEXTURE9_METHODS(X, I) \
    X(I, GetLevelDesc) X(I, GetVolumeLevel) X(I, LockBox) X(I, UnlockBox) X(I, AddDirtyBox)

#define NOVEM_VOLUME9_METHODS(X, I) NOVEM_IUNKNOWN_METHODS(X, I) \
    X(I, GetDevice) X(I, SetPrivateData) X(I, GetPrivateData) X(I, FreePrivateData) \
    X(I, GetContainer) X(I, GetDesc) X(I, LockBox) X(I, UnlockBox)

#define NOVEM_VERTEXDECLARATION9_METHODS(X, I) NOVEM_IUNKNOWN_METHODS(X, I) \
    X(I, GetDevice) X(I, GetDeclaration)
#define NOVEM_SHADER9_METHODS(X, I) NOVEM_IUNKNOWN_METHODS(X, I) X(I, GetDevice) X(I, GetFunction)
#define NOVEM_STATEBLOCK9_METHODS(X, I) NOVEM_IUNKNOWN_METHODS(X, I) \
    X(I, GetDevice) X(I, Capture) X(I, Apply)
#define NOVEM_QUERY9_METHODS(X, I) NOVEM_IUNKNOWN_METHODS(X, I) \
    X(I, GetDevice) X(I, GetType) X(I, GetDataSize) X(I, Issue) X(I, GetData)
#define NOVEM_SHADERVALIDATOR9_METHODS(X, I) NOVEM_IUNKNOWN_METHODS(X, I) \
    X(I, Begin) X(I, Instruction) X(I, End)

/* Y(interface, method list, expected method count) */
#define NOVEM_D3D9_INTERFACES(Y) \
    Y(IDirect3D9, NOVEM_DIRECT3D9_METHODS, 17) \
    Y(IDirect3D9Ex, NOVEM_DIRECT3D9EX_METHODS, 22) \
    Y(IDirect3DDevice9, NOVEM_DEVICE9_METHODS, 119) \
    Y(IDirect3DDevice9Ex, NOVEM_DEVICE9EX_METHODS, 134) \
    Y(IDirect3DSwapChain9, NOVEM_SWAPCHAIN9_METHODS, 10) \
    Y(IDirect3DSwapChain9Ex, NOVEM_SWAPCHAIN9EX_METHODS, 13) \
    Y(IDirect3DResource9, NOVEM_RESOURCE9_METHODS, 11) \
    Y(IDirect3DSurface9, NOVEM_SURFACE9_METHODS, 17) \
    Y(IDirect3DVertexBuffer9, NOVEM_BUFFER9_METHODS, 14) \
    Y(IDirect3DIndexBuffer9, NOVEM_BUFFER9_METHODS, 14) \
    Y(IDirect3DBaseTexture9, NOVEM_BASETEXTURE9_METHODS, 17) \
    Y(IDirect3DTexture9, NOVEM_TEXTURE9_METHODS, 22) \
    Y(IDirect3DCubeTexture9, NOVEM_CUBETEXTURE9_METHODS, 22) \
    Y(IDirect3DVolumeTexture9, NOVEM_VOLUMETEXTURE9_METHODS, 22) \
    Y(IDirect3DVolume9, NOVEM_VOLUME9_METHODS, 11) \
    Y(IDirect3DVertexDeclaration9, NOVEM_VERTEXDECLARATION9_METHODS, 5) \
    Y(IDirect3DVertexShader9, NOVEM_SHADER9_METHODS, 5) \
    Y(IDirect3DPixelShader9, NOVEM_SHADER9_METHODS, 5) \
    Y(IDirect3DStateBlock9, NOVEM_STATEBLOCK9_METHODS, 6) \
    Y(IDirect3DQuery9, NOVEM_QUERY9_METHODS, 8) \
    Y(IDirect3DShaderValidator9, NOVEM_SHADERVALIDATOR9_METHODS, 6)

/* ---- struct sizes on Windows x64: X(type, size) ---------------------------------------------
 * Where x86 differs (the SDK packs to 4 bytes there), the x86 value is noted. */
#define NOVEM_D3D9_STRUCT_SIZES(X) \
    X(GUID, 16) X(RECT, 16) X(POINT, 8) X(SIZE, 8) X(LUID, 8) X(LARGE_INTEGER, 8) \
    X(PALETTEENTRY, 4) X(RGNDATAHEADER, 32) X(RGNDATA, 36) \
    X(D3DCAPS9, 304) X(D3DVSHADERCAPS2_0, 16) X(D3DPSHADERCAPS2_0, 20) \
    X(D3DPRESENT_PARAMETERS, 64)          /* x86: 56 */ \
    X(D3DADAPTER_IDENTIFIER9, 1104)       /* x86: 1100 (LARGE_INTEGER 8-aligned, tail padding) */ \
    X(D3DVIEWPORT9, 24) X(D3DMATERIAL9, 68) X(D3DLIGHT9, 104) X(D3DSURFACE_DESC, 32) \
    X(D3DLOCKED_RECT, 16)                 /* x86: 8 */ \
    X(D3DLOCKED_BOX, 16)                  /* x86: 12 */ \
    X(D3DVERTEXELEMENT9, 8) X(D3DMATRIX, 64) X(D3DDISPLAYMODE, 16) X(D3DDISPLAYMODEEX, 24) \
    X(D3DDISPLAYMODEFILTER, 12) X(D3DVECTOR, 12) X(D3DCOLORVALUE, 16) X(D3DRECT, 16) \
    X(D3DBOX, 24) X(D3DVOLUME_DESC, 28) X(D3DVERTEXBUFFER_DESC, 24) X(D3DINDEXBUFFER_DESC, 20) \
    X(D3DRASTER_STATUS, 8) X(D3DCLIPSTATUS9, 8) X(D3DGAMMARAMP, 1536) X(D3DRANGE, 8) \
    X(D3DDEVICE_CREATION_PARAMETERS, 24)  /* x86: 16 */ \
    X(D3DPRESENTSTATS, 32)                /* x86: 28 */ \
    X(D3DTRIPATCH_INFO, 16) X(D3DRECTPATCH_INFO, 28) X(D3DRESOURCESTATS, 44) \
    X(D3DMEMORYPRESSURE, 24)              /* x86: 20 */ \
    X(D3DCONTENTPROTECTIONCAPS, 40)       /* x86: 36 */

/* ---- member offsets on Windows x64: X(type, member, offset) -------------------------------- */
#define NOVEM_D3D9_STRUCT_OFFSETS(X) \
    X(GUID, Data4, 8) X(RGNDATA, Buffer, 32) X(LARGE_INTEGER, QuadPart, 0) \
    X(D3DPRESENT_PARAMETERS, BackBufferCount, 12) X(D3DPRESENT_PARAMETERS, SwapEffect, 24) \
    X(D3DPRESENT_PARAMETERS, hDeviceWindow, 32) X(D3DPRESENT_PARAMETERS, Windowed, 40) \
    X(D3DPRESENT_PARAMETERS, EnableAutoDepthStencil, 44) \
    X(D3DPRESENT_PARAMETERS, AutoDepthStencilFormat, 48) X(D3DPRESENT_PARAMETERS, Flags, 52) \
    X(D3DPRESENT_PARAMETERS, FullScreen_RefreshRateInHz, 56) \
    X(D3DPRESENT_PARAMETERS, PresentationInterval, 60) \
    X(D3DADAPTER_IDENTIFIER9, Description, 512) X(D3DADAPTER_IDENTIFIER9, DeviceName, 1024) \
    X(D3DADAPTER_IDENTIFIER9, DriverVersion, 1056) X(D3DADAPTER_IDENTIFIER9, VendorId, 1064) \
    X(D3DADAPTER_IDENTIFIER9, Revision, 1076) X(D3DADAPTER_IDENTIFIER9, DeviceIdentifier, 1080) \
    X(D3DADAPTER_IDENTIFIER9, WHQLLevel, 1096) \
    X(D3DCAPS9, Caps, 8) X(D3DCAPS9, DevCaps, 28) X(D3DCAPS9, MaxTextureWidth, 88) \
    X(D3DCAPS9, MaxVertexW, 112) X(D3DCAPS9, TextureOpCaps, 144) X(D3DCAPS9, MaxPointSize, 176) \
    X(D3DCAPS9, MaxStreams, 188) X(D3DCAPS9, VertexShaderVersion, 196) \
    X(D3DCAPS9, PixelShaderVersion, 204) X(D3DCAPS9, MasterAdapterOrdinal, 224) \
    X(D3DCAPS9, NumSimultaneousRTs, 240) X(D3DCAPS9, VS20Caps, 248) X(D3DCAPS9, PS20Caps, 264) \
    X(D3DCAPS9, VertexTextureFilterCaps, 284) \
    X(D3DCAPS9, MaxPixelShader30InstructionSlots, 300) \
    X(D3DLIGHT9, Diffuse, 4) X(D3DLIGHT9, Position, 52) X(D3DLIGHT9, Direction, 64) \
    X(D3DLIGHT9, Range, 76) X(D3DLIGHT9, Phi, 100) \
    X(D3DMATERIAL9, Emissive, 48) X(D3DMATERIAL9, Power, 64) \
    X(D3DVIEWPORT9, MinZ, 16) X(D3DSURFACE_DESC, Width, 24) \
    X(D3DLOCKED_RECT, pBits, 8) X(D3DLOCKED_BOX, pBits, 8) \
    X(D3DVERTEXELEMENT9, Offset, 2) X(D3DVERTEXELEMENT9, Type, 4) \
    X(D3DVERTEXELEMENT9, Method, 5) X(D3DVERTEXELEMENT9, Usage, 6) \
    X(D3DVERTEXELEMENT9, UsageIndex, 7) \
    X(D3DDISPLAYMODE, Format, 12) \
    X(D3DDEVICE_CREATION_PARAMETERS, hFocusWindow, 8) \
    X(D3DDEVICE_CREATION_PARAMETERS, BehaviorFlags, 16) \
    X(D3DPRESENTSTATS, SyncQPCTime, 16) X(D3DPRESENTSTATS, SyncGPUTime, 24) \
    X(D3DCONTENTPROTECTIONCAPS, ProtectedMemorySize, 32)

#endif /* NOVEM_TEST_D3D9_ABI_LISTS_H */
