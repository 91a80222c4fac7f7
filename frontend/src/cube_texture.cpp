#include "cube_texture.hpp"

#include "creation_answer.hpp"
#include "surface.hpp"

namespace novem {

namespace {

bool is_face(D3DCUBEMAP_FACES face) { return UINT(face) <= D3DCUBEMAP_FACE_NEGATIVE_Z; }

} // namespace

HRESULT CubeTexture::create(Device *device, UINT edge, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool,
                            CubeTexture **out) {
  *out = nullptr;
  if (HRESULT hr = check(device, NV_IMAGE_TYPE_CUBE, edge, edge, 1, levels, usage, format, pool); FAILED(hr)) return hr;
  const uint64_t bytes = video_bytes(pool, format, NV_IMAGE_TYPE_CUBE, edge, edge, 1, levels);
  if (!device->take_video_memory(bytes)) return device->video_memory_refusal();
  auto *created = new CubeTexture(device, edge, levels, usage, format, pool);
  created->hold_video_memory(bytes);
  if (HRESULT hr = plugin_answer(*device, PluginResource::Image, created->image(), bytes, pool); FAILED(hr)) {
    delete created; // gives the video memory back
    return hr;
  }
  *out = created;
  return D3D_OK;
}

HRESULT CubeTexture::GetLevelDesc(UINT level, D3DSURFACE_DESC *desc) {
  if (!desc || level >= exposed_levels()) return D3DERR_INVALIDCALL;
  *desc = level_desc(level);
  return D3D_OK;
}

HRESULT CubeTexture::GetCubeMapSurface(D3DCUBEMAP_FACES face, UINT level, IDirect3DSurface9 **out) {
  DeviceLock lock(*owner_); // the face's surface is made on first use
  if (!out) return D3DERR_INVALIDCALL;
  *out = nullptr;
  if (!is_face(face) || level >= exposed_levels()) return D3DERR_INVALIDCALL;
  Surface *s = surface(UINT(face), level);
  s->AddRef(); // counts on the texture
  *out = s;
  return D3D_OK;
}

HRESULT CubeTexture::LockRect(D3DCUBEMAP_FACES face, UINT level, D3DLOCKED_RECT *locked_rect, const RECT *rect,
                              DWORD flags) {
  if (!is_face(face)) return D3DERR_INVALIDCALL;
  return lock_rect(LockEntry::CubeTexture, UINT(face), level, locked_rect, rect, flags);
}

HRESULT CubeTexture::UnlockRect(D3DCUBEMAP_FACES face, UINT level) {
  if (!is_face(face)) return D3DERR_INVALIDCALL;
  return unlock_rect(LockEntry::CubeTexture, UINT(face), level);
}

HRESULT CubeTexture::AddDirtyRect(D3DCUBEMAP_FACES face, const RECT *dirty_rect) {
  if (!is_face(face)) return D3DERR_INVALIDCALL;
  return add_dirty_rect(UINT(face), dirty_rect);
}

} // namespace novem
