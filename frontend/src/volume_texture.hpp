// IDirect3DVolumeTexture9: a 3D texture with a mip chain (each level halves width, height and
// depth), and IDirect3DVolume9, a level of it (GetVolumeLevel): no reference of its own (AddRef
// and Release count on the texture), GetContainer returns the texture, LockBox locks its level.
#pragma once

#include <vector>

#include "texture.hpp"

namespace novem {

class VolumeTexture;

class Volume final : public DeviceObject<IDirect3DVolume9> {
public:
  Volume(Device *device, VolumeTexture *texture, UINT level) : DeviceObject(device, 0), texture_(texture), level_(level) {}

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override { return query(iid, IID_IDirect3DVolume9, out); }
  ULONG STDMETHODCALLTYPE AddRef() override;
  ULONG STDMETHODCALLTYPE Release() override;
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, const void *data, DWORD size, DWORD flags) override {
    DeviceLock lock(*device_);
    return private_data_.set(guid, data, size, flags);
  }
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, void *data, DWORD *size) override {
    DeviceLock lock(*device_);
    return private_data_.get(guid, data, size);
  }
  HRESULT STDMETHODCALLTYPE FreePrivateData(REFGUID guid) override {
    DeviceLock lock(*device_);
    return private_data_.free(guid);
  }
  HRESULT STDMETHODCALLTYPE GetContainer(REFIID iid, void **container) override;
  HRESULT STDMETHODCALLTYPE GetDesc(D3DVOLUME_DESC *desc) override;
  HRESULT STDMETHODCALLTYPE LockBox(D3DLOCKED_BOX *locked_box, const D3DBOX *box, DWORD flags) override;
  HRESULT STDMETHODCALLTYPE UnlockBox() override;

private:
  VolumeTexture *texture_;
  UINT level_;
  PrivateData private_data_;
};

// AUTOGENMIPMAP is refused at creation, so the shared autogen methods answer as Windows does for
// volumes (SetAutoGenFilterType D3DERR_INVALIDCALL, GenerateMipSubLevels nothing).
class VolumeTexture final : public TextureObject<IDirect3DVolumeTexture9, D3DRTYPE_VOLUMETEXTURE> {
public:
  // Volumes are at most this many texels on a side: the least both Vulkan (maxImageDimension3D)
  // and GL guarantee.
  static constexpr UINT kMaxExtent = 256;

  static HRESULT create(Device *device, UINT width, UINT height, UINT depth, UINT levels, DWORD usage,
                        D3DFORMAT format, D3DPOOL pool, VolumeTexture **out);
  ~VolumeTexture() override;

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override {
    return query_texture(iid, IID_IDirect3DVolumeTexture9, out);
  }
  HRESULT STDMETHODCALLTYPE GetLevelDesc(UINT level, D3DVOLUME_DESC *desc) override;
  HRESULT STDMETHODCALLTYPE GetVolumeLevel(UINT level, IDirect3DVolume9 **volume) override;
  HRESULT STDMETHODCALLTYPE LockBox(UINT level, D3DLOCKED_BOX *locked_box, const D3DBOX *box, DWORD flags) override;
  HRESULT STDMETHODCALLTYPE UnlockBox(UINT level) override {
    DeviceLock lock(*owner_);
    return store_.unlock(0, level);
  }
  HRESULT STDMETHODCALLTYPE AddDirtyBox(const D3DBOX *dirty_box) override;

  D3DVOLUME_DESC volume_desc(UINT level) const;

private:
  VolumeTexture(Device *device, UINT width, UINT height, UINT depth, UINT levels, DWORD usage, D3DFORMAT format,
                D3DPOOL pool);

  std::vector<Volume *> volumes_; // GetVolumeLevel's, made on first use
};

} // namespace novem
