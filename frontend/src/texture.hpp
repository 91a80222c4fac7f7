// Textures. `Texture` is what the device knows of every kind (2D, cube, volume): its image, type,
// pool, LOD and levels, and its texels (TexelStore); the COM classes (Texture2D here,
// CubeTexture, VolumeTexture) put their interface on it. Surfaces and volumes a texture hands out
// (GetSurfaceLevel, GetCubeMapSurface, GetVolumeLevel) belong to it: their AddRef/Release count on
// the texture, GetContainer returns it, and their locks lock its levels.
#pragma once

#include <vector>

#include "device_child.hpp"
#include "ff_key.hpp"
#include "format.hpp"
#include "lock_rules.hpp"
#include "texel_store.hpp"

namespace novem {

class Surface;

class Texture {
public:
  virtual ~Texture() = default;
  virtual IDirect3DBaseTexture9 *base() = 0;
  virtual void add_private_ref() = 0;
  virtual void release_private_ref() = 0;

  uint32_t image() const { return store_.image(); }
  nv_image_type type() const { return type_; }
  const FormatInfo &format() const { return store_.format(); }
  D3DFORMAT d3d_format() const { return format_d3d_; }
  D3DPOOL pool() const { return pool_; }
  DWORD usage() const { return usage_; }
  DWORD lod() const { return lod_; }
  UINT levels() const { return store_.levels(); }
  TexelStore &store() { return store_; }

  // LockRect/UnlockRect of a level of a layer (cube face) coming in through entry, with Windows'
  // rules (lock_rules.hpp).
  HRESULT lock_rect(LockEntry entry, UINT layer, UINT level, D3DLOCKED_RECT *locked_rect, const RECT *rect,
                    DWORD flags);
  HRESULT unlock_rect(LockEntry entry, UINT layer, UINT level);

  // Checks CreateTexture/CreateCubeTexture/CreateVolumeTexture's arguments as Windows does;
  // levels 0 becomes the full chain.
  static HRESULT check(Device *device, nv_image_type type, UINT width, UINT height, UINT depth, UINT &levels,
                       DWORD usage, D3DFORMAT format, D3DPOOL pool);
  // The video memory a texture's image takes (Device::take_video_memory): its bytes, in DEFAULT and
  // MANAGED, which have a plugin image; 0 in SYSTEMMEM and SCRATCH.
  static uint64_t video_bytes(D3DPOOL pool, D3DFORMAT format, nv_image_type type, UINT width, UINT height, UINT depth,
                              UINT levels) {
    if (pool != D3DPOOL_DEFAULT && pool != D3DPOOL_MANAGED) return 0;
    return TexelStore::memory_size(format, type, width, height, depth, levels);
  }
  // The levels the application sees: one for an AUTOGENMIPMAP texture (the plugin makes the rest).
  UINT exposed_levels() const { return autogen_ ? 1 : levels(); }

protected:
  Texture(Device *device, nv_image_type type, UINT width, UINT height, UINT depth, UINT levels, DWORD usage,
          D3DFORMAT format, D3DPOOL pool);
  // Whether a lock is allowed at all: DEFAULT textures lock only when dynamic, as in Windows.
  bool lockable() const { return pool_ != D3DPOOL_DEFAULT || (usage_ & D3DUSAGE_DYNAMIC); }
  DWORD set_lod(DWORD lod);
  HRESULT set_autogen_filter(D3DTEXTUREFILTERTYPE filter);
  D3DTEXTUREFILTERTYPE autogen_filter() const { return autogen_filter_; }
  void generate_mip_sub_levels() {
    DeviceLock lock(*owner_);
    store_.generate_mips();
  }
  DWORD get_lod() const { return pool_ == D3DPOOL_MANAGED ? lod_ : 0; }
  HRESULT add_dirty_rect(UINT layer, const RECT *rect);
  D3DSURFACE_DESC level_desc(UINT level) const;
  // The surface of a level of a layer, made on first use and kept.
  Surface *surface(UINT layer, UINT level);
  void delete_surfaces();

  Device *owner_;
  nv_image_type type_;
  D3DFORMAT format_d3d_;
  DWORD usage_;
  D3DPOOL pool_;
  DWORD lod_ = 0;
  bool autogen_ = false; // AUTOGENMIPMAP where the backend generates this format's levels
  D3DTEXTUREFILTERTYPE autogen_filter_ = D3DTEXF_LINEAR;
  TexelStore store_;
  std::vector<Surface *> surfaces_; // layer-major, nullptr until asked for
};

// The COM side every texture kind shares on top of Texture: the resource plumbing and
// IDirect3DBaseTexture9's methods. Iface is IDirect3DTexture9, IDirect3DCubeTexture9 or
// IDirect3DVolumeTexture9, kType its D3DRESOURCETYPE.
template <class Iface, D3DRESOURCETYPE kType> class TextureObject : public DeviceChild<Iface>, public Texture {
public:
  ~TextureObject() override { delete_surfaces(); }

  IDirect3DBaseTexture9 *base() override { return this; }
  void add_private_ref() override { DeviceChild<Iface>::add_private_ref(); }
  void release_private_ref() override { DeviceChild<Iface>::release_private_ref(); }

  D3DRESOURCETYPE STDMETHODCALLTYPE GetType() override { return kType; }
  DWORD STDMETHODCALLTYPE SetLOD(DWORD lod) override { return set_lod(lod); }
  DWORD STDMETHODCALLTYPE GetLOD() override { return get_lod(); }
  DWORD STDMETHODCALLTYPE GetLevelCount() override { return exposed_levels(); }
  HRESULT STDMETHODCALLTYPE SetAutoGenFilterType(D3DTEXTUREFILTERTYPE filter) override { return set_autogen_filter(filter); }
  D3DTEXTUREFILTERTYPE STDMETHODCALLTYPE GetAutoGenFilterType() override { return autogen_filter(); }
  void STDMETHODCALLTYPE GenerateMipSubLevels() override { generate_mip_sub_levels(); }

protected:
  TextureObject(Device *device, nv_image_type type, UINT width, UINT height, UINT depth, UINT levels, DWORD usage,
                D3DFORMAT format, D3DPOOL pool)
      : DeviceChild<Iface>(device, 1), Texture(device, type, width, height, depth, levels, usage, format, pool) {}
  // QueryInterface for IUnknown, IDirect3DResource9, IDirect3DBaseTexture9 and `own`.
  HRESULT query_texture(REFIID iid, const IID &own, void **out) {
    if (out && IsEqualGUID(iid, IID_IDirect3DBaseTexture9)) {
      this->AddRef();
      *out = static_cast<Iface *>(this);
      return S_OK;
    }
    return this->query(iid, own, out);
  }
};

// IDirect3DTexture9.
class Texture2D final : public TextureObject<IDirect3DTexture9, D3DRTYPE_TEXTURE> {
public:
  static HRESULT create(Device *device, UINT width, UINT height, UINT levels, DWORD usage, D3DFORMAT format,
                        D3DPOOL pool, Texture2D **out);
  // CreateTexture's checks for a depth texture (D3DUSAGE_DEPTHSTENCIL); levels becomes 1.
  static HRESULT check_depth(Device *device, UINT width, UINT height, UINT &levels, DWORD usage, D3DFORMAT format,
                             D3DPOOL pool);
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override {
    return query_texture(iid, IID_IDirect3DTexture9, out);
  }
  HRESULT STDMETHODCALLTYPE GetLevelDesc(UINT level, D3DSURFACE_DESC *desc) override;
  HRESULT STDMETHODCALLTYPE GetSurfaceLevel(UINT level, IDirect3DSurface9 **surface) override;
  HRESULT STDMETHODCALLTYPE LockRect(UINT level, D3DLOCKED_RECT *locked_rect, const RECT *rect, DWORD flags) override {
    return lock_rect(LockEntry::Texture, 0, level, locked_rect, rect, flags);
  }
  HRESULT STDMETHODCALLTYPE UnlockRect(UINT level) override { return unlock_rect(LockEntry::Texture, 0, level); }
  HRESULT STDMETHODCALLTYPE AddDirtyRect(const RECT *dirty_rect) override { return add_dirty_rect(0, dirty_rect); }

private:
  Texture2D(Device *device, UINT width, UINT height, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool)
      : TextureObject(device, NV_IMAGE_TYPE_2D, width, height, 1, levels, usage, format, pool) {
    remember_vtable<Texture2D, IDirect3DTexture9>(this);
  }
};

// A depth texture sampled with a comparison (D16, D24X8, D24S8), as the vendors' drivers sample
// one bound to a 2D sampler.
inline bool compares_depth(const Texture *t) {
  return t && (t->usage() & D3DUSAGE_DEPTHSTENCIL) && t->format().depth_sampling == DepthSampling::Compare;
}
// What a fixed-function stage's key reads of the texture bound to it.
ff::TextureKind ff_texture_kind(const Texture *t);

} // namespace novem
