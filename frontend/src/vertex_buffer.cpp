#include "vertex_buffer.hpp"

namespace novem {

VertexBuffer::VertexBuffer(Device *device, UINT length, DWORD usage, DWORD fvf, D3DPOOL pool)
    : DeviceChild(device, 1), desc_{D3DFMT_VERTEXDATA, D3DRTYPE_VERTEXBUFFER, usage, pool, length, fvf},
      shadow_(device->commands(), NV_BUFFER_VERTEX, length, usage) {
  remember_vtable<VertexBuffer, IDirect3DVertexBuffer9>(this);
}

HRESULT VertexBuffer::GetDesc(D3DVERTEXBUFFER_DESC *desc) {
  if (!desc) return D3DERR_INVALIDCALL;
  *desc = desc_;
  return D3D_OK;
}

} // namespace novem
