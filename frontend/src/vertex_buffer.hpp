// IDirect3DVertexBuffer9. The frontend keeps the bytes (Lock hands out a pointer into them);
// Unlock sends the locked range to the plugin's buffer through the ring, so a lock never waits
// for the GPU: draws queued before the Unlock read the old bytes, later ones the new.
#pragma once

#include <vector>

#include "device_child.hpp"

namespace novem {

class VertexBuffer final : public DeviceChild<IDirect3DVertexBuffer9> {
public:
  VertexBuffer(Device *device, UINT length, DWORD usage, DWORD fvf, D3DPOOL pool);
  ~VertexBuffer() override;

  uint32_t buffer() const { return buffer_; }

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override { return query(iid, IID_IDirect3DVertexBuffer9, out); }
  D3DRESOURCETYPE STDMETHODCALLTYPE GetType() override { return D3DRTYPE_VERTEXBUFFER; }
  HRESULT STDMETHODCALLTYPE Lock(UINT offset, UINT size, void **data, DWORD flags) override;
  HRESULT STDMETHODCALLTYPE Unlock() override;
  HRESULT STDMETHODCALLTYPE GetDesc(D3DVERTEXBUFFER_DESC *desc) override;

private:
  D3DVERTEXBUFFER_DESC desc_;
  uint32_t buffer_;
  std::vector<uint8_t> bytes_;
  // Locks nest; the union of the ranges locked for writing is sent at the last Unlock.
  UINT lock_count_ = 0;
  UINT dirty_begin_ = 0, dirty_end_ = 0;
  uint32_t update_flags_ = 0;
};

} // namespace novem
