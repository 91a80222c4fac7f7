// IDirect3DSurface9: a render target, depth-stencil or DEFAULT-pool offscreen plain surface (a
// backend image), or a system-memory surface (bytes in the frontend, for readback and CPU access).
#pragma once

#include <utility>
#include <vector>

#include "device_child.hpp"
#include "format.hpp"
#include "lock_rules.hpp"

namespace novem {

class Texture;

class Surface final : public DeviceChild<IDirect3DSurface9> {
public:
  // A backend image for a render target (usage D3DUSAGE_RENDERTARGET) or depth-stencil surface
  // (D3DUSAGE_DEPTHSTENCIL); sends CREATE_IMAGE.
  // multisample, quality: D3DMULTISAMPLE_NONE, or a type and a quality below its levels
  // (multisample_quality_levels). lockable: LockRect works (a single-sampled colour surface:
  // CreateRenderTarget's Lockable, a lockable back buffer).
  static Surface *create_image(Device *device, ULONG public_refs, UINT width, UINT height,
                               D3DFORMAT format, DWORD usage, D3DMULTISAMPLE_TYPE multisample = D3DMULTISAMPLE_NONE,
                               DWORD quality = 0, bool lockable = false);
  // A D3DPOOL_DEFAULT offscreen plain surface (usage 0): a lockable backend image of a
  // render-target format, so that copies and fills can write it.
  static Surface *create_plain(Device *device, UINT width, UINT height, D3DFORMAT format);
  // A D3DPOOL_DEFAULT offscreen plain surface of YUY2 or UYVY: its texels stay in the frontend in
  // D3D9's layout (locks read and write them there) and its backend image holds them converted
  // to RGB, for StretchRect into render targets. nullptr when its bytes cannot be had.
  static Surface *create_yuv_plain(Device *device, UINT width, UINT height, D3DFORMAT format);
  // A D3DPOOL_DEFAULT offscreen plain surface of a compressed format (DXTn, 3Dc): its blocks stay
  // in the frontend and it has no backend image, since nothing on the GPU reads or writes such a
  // surface (StretchRect, ColorFill and GetRenderTargetData refuse it). E_OUTOFMEMORY when its
  // bytes cannot be had.
  static HRESULT create_compressed_plain(Device *device, UINT width, UINT height, D3DFORMAT format, Surface **out);
  // A render target of the NULL format: no backend image (image() is 0), so that draws write
  // only the depth-stencil surface.
  static Surface *create_null(Device *device, UINT width, UINT height, D3DMULTISAMPLE_TYPE multisample,
                              DWORD quality);
  // Bytes in memory: D3DPOOL_SYSTEMMEM or D3DPOOL_SCRATCH.
  // E_OUTOFMEMORY when its bytes cannot be had.
  // program_memory: D3D9Ex's user memory (CreateOffscreenPlainSurface's pSharedHandle in
  // SYSTEMMEM), the surface's bytes, never freed here; nullptr: the surface allocates its own.
  static HRESULT create_memory(Device *device, UINT width, UINT height, D3DFORMAT format, D3DPOOL pool,
                               uint8_t *program_memory, Surface **out);
  // A level of a texture (GetSurfaceLevel) or of a cube face (GetCubeMapSurface, layer = face): no
  // reference of its own (AddRef and Release count on the texture, which deletes it), locks go to
  // the texture's level.
  static Surface *create_level(Device *device, Texture *texture, UINT layer, UINT level, const D3DSURFACE_DESC &desc);
  ~Surface() override;

  // The backend image a target binding or readback uses: the surface's own, or its texture's for
  // a level of a render-target texture (2D or cube; level() and layer() say which) or level 0 of a
  // depth texture; 0 for others (memory surfaces, levels of other textures). A back buffer makes
  // its deferred front copy first (below), since the caller is about to use its texels.
  uint32_t image() const;
  // Whether image() is not 0, without making the deferred copy (binding checks).
  bool has_image() const { return !texture_ ? image_ != 0 : texture_has_image(); }
  // Back buffer 0 of a COPY or DISCARD chain just presented (BackBufferChain::present): the swap
  // chain's front image must receive the presented frame before anything writes the back
  // buffer. Present defers that copy;
  // the first use of image() makes it, unless a clear of the whole back buffer comes first and
  // take_front() exchanges the two images instead, where the copy would only be overwritten.
  void defer_front_copy(uint32_t *front_image) { deferred_front_ = front_image; }
  bool front_copy_deferred() const { return deferred_front_ != nullptr; }
  // The front image takes the presented frame's image; the back buffer goes on in the old front
  // image (same size, format and usage). Render-target bindings must be sent again.
  void take_front();
  // The swap chain's front image is going away: nothing to copy into it any more.
  void forget_front() { deferred_front_ = nullptr; }
  // A FLIP Present (BackBufferChain::present) moves images round the swap chain's ring: the
  // surface takes `image` and hands back its own. Render-target bindings must be sent again.
  void exchange_image(uint32_t &image) { std::swap(image_, image); }
  // A depth-stencil surface whose contents Present or SetDepthStencilSurface may discard
  // (CreateDepthStencilSurface's Discard, D3DPRESENTFLAG_DISCARD_DEPTHSTENCIL).
  bool discardable() const { return discardable_; }
  // Samples per pixel of its image (1 but for multisampled render targets and depth-stencil
  // surfaces): what decides whether a depth-stencil surface can be drawn with a render target.
  uint32_t samples() const { return samples_; }
  void set_discardable(bool discardable) { discardable_ = discardable; }
  // A swap chain's back buffer: GetContainer answers with that swap chain. nullptr: the device's
  // own (implicit) swap chain, made on demand.
  void set_swap_chain(IDirect3DSwapChain9 *chain) { back_buffer_ = true, swap_chain_ = chain; }
  // Its swap chain is gone while the application still holds it: a render target of the device.
  void leave_swap_chain() { back_buffer_ = false, swap_chain_ = nullptr; }
  // UpdateSurface and UnlockRect may write the backend image (UPDATE_IMAGE).
  bool uploadable() const { return uploadable_; }
  // Its image's nv_image_usage (a swap chain's front image is made alike, to exchange with it).
  uint32_t image_usage() const;
  // A texture level's binding references count on the texture (which owns the surface).
  void add_private_ref();
  void release_private_ref();
  const D3DSURFACE_DESC &desc() const { return desc_; }
  const FormatInfo &format() const { return format_; }
  uint8_t *memory() { return program_memory_ ? program_memory_ : memory_.data(); }
  // A YUV or compressed DEFAULT plain surface: memory() holds its texels in D3D9's layout for good.
  bool keeps_texels() const { return keeps_texels_; }
  // Sends a rectangle of those texels to the backend image, converted (nothing with
  // D3DLOCK_READONLY in flags, nor without an image).
  void send_kept(const RECT &rect, DWORD flags);
  UINT pitch() const { return pitch_; }

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override { return query(iid, IID_IDirect3DSurface9, out); }
  ULONG STDMETHODCALLTYPE AddRef() override;
  ULONG STDMETHODCALLTYPE Release() override;
  Texture *texture() const { return texture_; }
  UINT layer() const { return layer_; } // of a texture level: the cube face
  UINT level() const { return level_; }
  D3DRESOURCETYPE STDMETHODCALLTYPE GetType() override { return D3DRTYPE_SURFACE; }
  HRESULT STDMETHODCALLTYPE GetContainer(REFIID iid, void **container) override;
  HRESULT STDMETHODCALLTYPE GetDesc(D3DSURFACE_DESC *desc) override;
  HRESULT STDMETHODCALLTYPE LockRect(D3DLOCKED_RECT *locked_rect, const RECT *rect, DWORD flags) override;
  HRESULT STDMETHODCALLTYPE UnlockRect() override;
  HRESULT STDMETHODCALLTYPE GetDC(HDC *dc) override;
  HRESULT STDMETHODCALLTYPE ReleaseDC(HDC dc) override;

private:
  Surface(Device *device, ULONG public_refs, const D3DSURFACE_DESC &desc);
  // LockRect / UnlockRect of a lockable backend image: reads it back into memory_ (unless
  // D3DLOCK_DISCARD), and sends the locked rectangle back on unlock (unless D3DLOCK_READONLY).
  HRESULT lock_image(const RECT &rect, DWORD flags);
  void unlock_image();
  void copy_to_front() const; // the deferred front copy, if one is due
  LockEntry level_entry() const; // how a texture level's LockRect comes in: a 2D level's or a cube face's
  bool texture_has_image() const;

  D3DSURFACE_DESC desc_;
  FormatInfo format_;
  uint32_t image_ = 0;          // backend image, or 0 for a memory surface
  std::vector<uint8_t> memory_; // memory surfaces, and lockable images while locked
  uint8_t *program_memory_ = nullptr; // a memory surface's bytes in the program's memory (D3D9Ex)
  UINT pitch_ = 0;
  bool locked_ = false;
  bool dc_out_ = false; // GetDC's lock is held; the HDC handed out is &dc_out_
  bool lockable_ = false; // memory surfaces, lockable images
  bool uploadable_ = false;
  bool writes_depth_ = false; // a single-sampled lockable depth format: a lock's writes are sent back
  bool discardable_ = false;
  bool keeps_texels_ = false;
  bool back_buffer_ = false;
  uint32_t samples_ = 1;
  IDirect3DSwapChain9 *swap_chain_ = nullptr;
  RECT locked_rect_{};    // a lockable image's locked rectangle
  DWORD lock_flags_ = 0;
  Texture *texture_ = nullptr; // the container of a texture level
  UINT layer_ = 0;
  UINT level_ = 0;
  mutable uint32_t *deferred_front_ = nullptr; // a back buffer's front image owed the last Present
};

} // namespace novem
