// IDirect3DIndexBuffer9 (D3DFMT_INDEX16 or D3DFMT_INDEX32): its bytes and Lock/Unlock live in a
// BufferShadow (buffer_shadow.hpp), as a vertex buffer's do.
#pragma once

#include "buffer_shadow.hpp"
#include "device_child.hpp"

namespace novem {

class IndexBuffer final : public DeviceChild<IDirect3DIndexBuffer9> {
public:
  IndexBuffer(Device *device, UINT length, DWORD usage, D3DFORMAT format, D3DPOOL pool);

  uint32_t buffer() const { return shadow_.handle(); }
  // A draw reads the buffer now: a lock still open has its bytes sent first (buffer_shadow.hpp).
  void send_for_draw() { shadow_.send_for_draw(); }
  uint32_t index_size() const { return desc_.Format == D3DFMT_INDEX32 ? 4 : 2; }
  UINT size() const { return desc_.Size; }

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override { return query(iid, IID_IDirect3DIndexBuffer9, out); }
  D3DRESOURCETYPE STDMETHODCALLTYPE GetType() override { return D3DRTYPE_INDEXBUFFER; }
  HRESULT STDMETHODCALLTYPE Lock(UINT offset, UINT size, void **data, DWORD flags) override {
    DeviceLock lock(*device_);
    return shadow_.lock(offset, size, data, flags);
  }
  HRESULT STDMETHODCALLTYPE Unlock() override {
    DeviceLock lock(*device_);
    return shadow_.unlock();
  }
  HRESULT STDMETHODCALLTYPE GetDesc(D3DINDEXBUFFER_DESC *desc) override;

private:
  D3DINDEXBUFFER_DESC desc_;
  BufferShadow shadow_;
};

} // namespace novem
