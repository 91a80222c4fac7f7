// IDirect3DCubeTexture9: six square faces (D3DCUBEMAP_FACES order, the plugin image's layers),
// each with the same mip chain; GetCubeMapSurface and LockRect address a face's level.
#pragma once

#include "texture.hpp"

namespace novem {

class CubeTexture final : public DeviceChild<IDirect3DCubeTexture9>, public Texture {
public:
  static HRESULT create(Device *device, UINT edge, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool,
                        CubeTexture **out);
  ~CubeTexture() override { delete_surfaces(); }

  IDirect3DBaseTexture9 *base() override { return this; }
  void add_private_ref() override { DeviceChild::add_private_ref(); }
  void release_private_ref() override { DeviceChild::release_private_ref(); }

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override;
  D3DRESOURCETYPE STDMETHODCALLTYPE GetType() override { return D3DRTYPE_CUBETEXTURE; }
  DWORD STDMETHODCALLTYPE SetLOD(DWORD lod) override { return set_lod(lod); }
  DWORD STDMETHODCALLTYPE GetLOD() override { return get_lod(); }
  DWORD STDMETHODCALLTYPE GetLevelCount() override { return exposed_levels(); }
  HRESULT STDMETHODCALLTYPE SetAutoGenFilterType(D3DTEXTUREFILTERTYPE filter) override { return set_autogen_filter(filter); }
  D3DTEXTUREFILTERTYPE STDMETHODCALLTYPE GetAutoGenFilterType() override { return autogen_filter(); }
  void STDMETHODCALLTYPE GenerateMipSubLevels() override { generate_mip_sub_levels(); }
  HRESULT STDMETHODCALLTYPE GetLevelDesc(UINT level, D3DSURFACE_DESC *desc) override;
  HRESULT STDMETHODCALLTYPE GetCubeMapSurface(D3DCUBEMAP_FACES face, UINT level, IDirect3DSurface9 **surface) override;
  HRESULT STDMETHODCALLTYPE LockRect(D3DCUBEMAP_FACES face, UINT level, D3DLOCKED_RECT *locked_rect, const RECT *rect,
                                     DWORD flags) override;
  HRESULT STDMETHODCALLTYPE UnlockRect(D3DCUBEMAP_FACES face, UINT level) override;
  HRESULT STDMETHODCALLTYPE AddDirtyRect(D3DCUBEMAP_FACES face, const RECT *dirty_rect) override;

private:
  CubeTexture(Device *device, UINT edge, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool)
      : DeviceChild(device, 1), Texture(device, NV_IMAGE_TYPE_CUBE, edge, edge, 1, levels, usage, format, pool) {}
};

} // namespace novem
