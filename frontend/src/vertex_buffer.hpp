// IDirect3DVertexBuffer9: its bytes and Lock/Unlock live in a BufferShadow (buffer_shadow.hpp).
#pragma once

#include "buffer_shadow.hpp"
#include "device_child.hpp"

namespace novem {

class VertexBuffer final : public DeviceChild<IDirect3DVertexBuffer9> {
public:
  VertexBuffer(Device *device, UINT length, DWORD usage, DWORD fvf, D3DPOOL pool);

  uint32_t buffer() const { return shadow_.handle(); }
  // A draw reads the buffer now: a lock still open has its bytes sent first (buffer_shadow.hpp).
  void send_for_draw() { shadow_.send_for_draw(); }

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override { return query(iid, IID_IDirect3DVertexBuffer9, out); }
  D3DRESOURCETYPE STDMETHODCALLTYPE GetType() override { return D3DRTYPE_VERTEXBUFFER; }
  HRESULT STDMETHODCALLTYPE Lock(UINT offset, UINT size, void **data, DWORD flags) override {
    DeviceLock lock(*device_);
    return shadow_.lock(offset, size, data, flags);
  }
  HRESULT STDMETHODCALLTYPE Unlock() override {
    DeviceLock lock(*device_);
    return shadow_.unlock();
  }
  HRESULT STDMETHODCALLTYPE GetDesc(D3DVERTEXBUFFER_DESC *desc) override;

private:
  D3DVERTEXBUFFER_DESC desc_;
  BufferShadow shadow_;
};

} // namespace novem
