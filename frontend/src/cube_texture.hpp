// IDirect3DCubeTexture9: six square faces (D3DCUBEMAP_FACES order, the plugin image's layers),
// each with the same mip chain; GetCubeMapSurface and LockRect address a face's level.
#pragma once

#include "texture.hpp"

namespace novem {

class CubeTexture final : public TextureObject<IDirect3DCubeTexture9, D3DRTYPE_CUBETEXTURE> {
public:
  static HRESULT create(Device *device, UINT edge, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool,
                        CubeTexture **out);

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override {
    return query_texture(iid, IID_IDirect3DCubeTexture9, out);
  }
  HRESULT STDMETHODCALLTYPE GetLevelDesc(UINT level, D3DSURFACE_DESC *desc) override;
  HRESULT STDMETHODCALLTYPE GetCubeMapSurface(D3DCUBEMAP_FACES face, UINT level, IDirect3DSurface9 **surface) override;
  HRESULT STDMETHODCALLTYPE LockRect(D3DCUBEMAP_FACES face, UINT level, D3DLOCKED_RECT *locked_rect, const RECT *rect,
                                     DWORD flags) override;
  HRESULT STDMETHODCALLTYPE UnlockRect(D3DCUBEMAP_FACES face, UINT level) override;
  HRESULT STDMETHODCALLTYPE AddDirtyRect(D3DCUBEMAP_FACES face, const RECT *dirty_rect) override;

private:
  CubeTexture(Device *device, UINT edge, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool)
      : TextureObject(device, NV_IMAGE_TYPE_CUBE, edge, edge, 1, levels, usage, format, pool) {
    remember_vtable<CubeTexture, IDirect3DCubeTexture9>(this);
  }
};

} // namespace novem
