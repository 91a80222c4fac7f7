#include "index_buffer.hpp"

namespace novem {

IndexBuffer::IndexBuffer(Device *device, UINT length, DWORD usage, D3DFORMAT format, D3DPOOL pool)
    : DeviceChild(device, 1), desc_{format, D3DRTYPE_INDEXBUFFER, usage, pool, length},
      shadow_(device->commands(), NV_BUFFER_INDEX, length, usage) {
  remember_vtable<IndexBuffer, IDirect3DIndexBuffer9>(this);
}

HRESULT IndexBuffer::GetDesc(D3DINDEXBUFFER_DESC *desc) {
  if (!desc) return D3DERR_INVALIDCALL;
  *desc = desc_;
  return D3D_OK;
}

} // namespace novem
