// IDirect3DTexture9: a 2D texture with a mip chain. Its texels live in the frontend, level by
// level, like a buffer's shadow: LockRect hands out a pointer into the level's bytes and
// UnlockRect sends the dirty rectangle to the plugin's image (UPDATE_IMAGE), so a lock never waits
// for the GPU. DEFAULT and MANAGED textures have a plugin image (NV_IMAGE_SAMPLED); SYSTEMMEM and
// SCRATCH ones are bytes only. GetSurfaceLevel's surfaces belong to the texture: their
// AddRef/Release count on the texture, and GetContainer returns it.
#pragma once

#include <vector>

#include "device_child.hpp"
#include "format.hpp"

namespace novem {

class Surface;

class Texture final : public DeviceChild<IDirect3DTexture9> {
public:
  // Checks the arguments as Windows does; D3D_OK with *out set, or the error.
  static HRESULT create(Device *device, UINT width, UINT height, UINT levels, DWORD usage, D3DFORMAT format,
                        D3DPOOL pool, Texture **out);
  ~Texture() override;

  uint32_t image() const { return image_; }
  const FormatInfo &format() const { return format_; }
  D3DFORMAT d3d_format() const { return format_d3d_; }
  D3DPOOL pool() const { return pool_; }
  DWORD lod() const { return lod_; }
  UINT levels() const { return UINT(levels_.size()); }

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override;
  D3DRESOURCETYPE STDMETHODCALLTYPE GetType() override { return D3DRTYPE_TEXTURE; }
  DWORD STDMETHODCALLTYPE SetLOD(DWORD lod) override;
  DWORD STDMETHODCALLTYPE GetLOD() override;
  DWORD STDMETHODCALLTYPE GetLevelCount() override { return DWORD(levels_.size()); }
  HRESULT STDMETHODCALLTYPE SetAutoGenFilterType(D3DTEXTUREFILTERTYPE filter) override;
  D3DTEXTUREFILTERTYPE STDMETHODCALLTYPE GetAutoGenFilterType() override { return D3DTEXF_LINEAR; }
  void STDMETHODCALLTYPE GenerateMipSubLevels() override {}
  HRESULT STDMETHODCALLTYPE GetLevelDesc(UINT level, D3DSURFACE_DESC *desc) override;
  HRESULT STDMETHODCALLTYPE GetSurfaceLevel(UINT level, IDirect3DSurface9 **surface) override;
  HRESULT STDMETHODCALLTYPE LockRect(UINT level, D3DLOCKED_RECT *locked_rect, const RECT *rect, DWORD flags) override;
  HRESULT STDMETHODCALLTYPE UnlockRect(UINT level) override;
  HRESULT STDMETHODCALLTYPE AddDirtyRect(const RECT *dirty_rect) override;

private:
  Texture(Device *device, UINT width, UINT height, UINT levels, DWORD usage, D3DFORMAT format, D3DPOOL pool);

  struct Level {
    UINT width = 0, height = 0, pitch = 0;
    std::vector<uint8_t> bytes; // allocated on the first lock
    bool locked = false;
    RECT dirty{0, 0, 0, 0}; // empty: nothing to send
    Surface *surface = nullptr; // GetSurfaceLevel's, made on first use
  };
  D3DSURFACE_DESC level_desc(UINT level) const;
  // Whether r covers whole blocks of the format (DXTn: 4x4), or reaches the level's edge.
  bool block_aligned(const RECT &r, const Level &l) const;
  // Grows r outwards to whole blocks, within the level.
  void grow_to_blocks(RECT &r, const Level &l) const;
  // Sends the dirty rectangle of a level to the plugin's image, then forgets it.
  void send_dirty(UINT level);

  D3DFORMAT format_d3d_;
  FormatInfo format_;
  DWORD usage_;
  D3DPOOL pool_;
  DWORD lod_ = 0;
  uint32_t image_ = 0;
  std::vector<Level> levels_;
};

} // namespace novem
