#include "volume_texture.hpp"

#include "creation_answer.hpp"

namespace novem {

ULONG Volume::AddRef() { return texture_->AddRef(); }
ULONG Volume::Release() { return texture_->Release(); }

HRESULT Volume::GetContainer(REFIID iid, void **container) {
  if (!container) return D3DERR_INVALIDCALL;
  return texture_->QueryInterface(iid, container);
}

HRESULT Volume::GetDesc(D3DVOLUME_DESC *desc) {
  if (!desc) return D3DERR_INVALIDCALL;
  *desc = texture_->volume_desc(level_);
  return D3D_OK;
}

HRESULT Volume::LockBox(D3DLOCKED_BOX *locked_box, const D3DBOX *box, DWORD flags) {
  return texture_->LockBox(level_, locked_box, box, flags);
}

HRESULT Volume::UnlockBox() { return texture_->UnlockBox(level_); }

HRESULT VolumeTexture::create(Device *device, UINT width, UINT height, UINT depth, UINT levels, DWORD usage,
                              D3DFORMAT format, D3DPOOL pool, VolumeTexture **out) {
  *out = nullptr;
  // Volumes are never render targets (Windows refuses them too); SCRATCH ones are not bound by
  // the device's extent (Texture::check).
  if ((pool != D3DPOOL_SCRATCH && std::max({width, height, depth}) > kMaxExtent) ||
      (usage & (D3DUSAGE_RENDERTARGET | D3DUSAGE_AUTOGENMIPMAP)))
    return D3DERR_INVALIDCALL;
  if (HRESULT hr = check(device, NV_IMAGE_TYPE_3D, width, height, depth, levels, usage, format, pool); FAILED(hr))
    return hr;
  // DXTn and 3Dc volumes are decoded into B8G8R8A8 (volume_format_info), which must be sampled.
  const FormatInfo info = volume_format_info(format);
  if (pool != D3DPOOL_SCRATCH && !(device->adapter().format_support[info.storage] & NV_SUPPORT_SAMPLED))
    return D3DERR_INVALIDCALL;
  const uint64_t bytes = video_bytes(pool, format, NV_IMAGE_TYPE_3D, width, height, depth, levels);
  if (!device->take_video_memory(bytes)) return device->video_memory_refusal();
  auto *created = new VolumeTexture(device, width, height, depth, levels, usage, format, pool);
  created->hold_video_memory(bytes);
  if (HRESULT hr = plugin_answer(*device, PluginResource::Image, created->image(), bytes, pool); FAILED(hr)) {
    delete created; // gives the video memory back
    return hr;
  }
  *out = created;
  return D3D_OK;
}

VolumeTexture::VolumeTexture(Device *device, UINT width, UINT height, UINT depth, UINT levels, DWORD usage,
                             D3DFORMAT format, D3DPOOL pool)
    : TextureObject(device, NV_IMAGE_TYPE_3D, width, height, depth, levels, usage, format, pool),
      volumes_(levels, nullptr) {
  remember_vtable<VolumeTexture, IDirect3DVolumeTexture9>(this);
}

VolumeTexture::~VolumeTexture() {
  for (Volume *v : volumes_) delete v;
}

D3DVOLUME_DESC VolumeTexture::volume_desc(UINT level) const {
  return D3DVOLUME_DESC{format_d3d_, D3DRTYPE_VOLUME, usage_, pool_, store_.width(level), store_.height(level),
                        store_.depth(level)};
}

HRESULT VolumeTexture::GetLevelDesc(UINT level, D3DVOLUME_DESC *desc) {
  if (!desc || level >= levels()) return D3DERR_INVALIDCALL;
  *desc = volume_desc(level);
  return D3D_OK;
}

HRESULT VolumeTexture::GetVolumeLevel(UINT level, IDirect3DVolume9 **out) {
  DeviceLock lock(*owner_); // the level's volume is made on first use
  if (!out) return D3DERR_INVALIDCALL;
  *out = nullptr;
  if (level >= levels()) return D3DERR_INVALIDCALL;
  if (!volumes_[level]) volumes_[level] = new Volume(device_, this, level);
  volumes_[level]->AddRef(); // counts on the texture
  *out = volumes_[level];
  return D3D_OK;
}

HRESULT VolumeTexture::LockBox(UINT level, D3DLOCKED_BOX *locked_box, const D3DBOX *box, DWORD flags) {
  DeviceLock lock(*owner_);
  if (!locked_box) return D3DERR_INVALIDCALL;
  if (lock_clears_output(LockEntry::Volume, pool_))
    locked_box->pBits = nullptr, locked_box->RowPitch = 0, locked_box->SlicePitch = 0;
  if (level >= levels() || !lockable()) return D3DERR_INVALIDCALL;
  const RegionCheck check = lock_region_check(LockEntry::Volume, pool_, format(), level);
  const LockRegion region = box ? LockRegion{box->Left, box->Top, box->Front, box->Right, box->Bottom, box->Back}
                                : LockRegion{};
  return store_.lock(0, level, box ? &region : nullptr, check, flags, &locked_box->pBits, &locked_box->RowPitch,
                     &locked_box->SlicePitch);
}

HRESULT VolumeTexture::AddDirtyBox(const D3DBOX *dirty_box) {
  DeviceLock lock(*owner_);
  const LockRegion region = dirty_box ? LockRegion{dirty_box->Left, dirty_box->Top, dirty_box->Front, dirty_box->Right,
                                                   dirty_box->Bottom, dirty_box->Back}
                                      : LockRegion{};
  return store_.add_dirty(0, dirty_box ? &region : nullptr);
}

} // namespace novem
