// What every resource shares: COM reference counting as native d3d9 does it (see com.hpp),
// IDirect3DResource9's bookkeeping methods, and the device it belongs to.
#pragma once

#include "com.hpp"
#include "device.hpp"
#include "log.hpp"

namespace novem {

template <class Iface> class DeviceChild : public Iface, public RefCounts {
public:
  DeviceChild(Device *device, ULONG public_refs) : RefCounts(public_refs), device_(device) {}
  virtual ~DeviceChild() = default;
  Device *device() const { return device_; }

  ULONG STDMETHODCALLTYPE AddRef() override {
    ULONG refs = add_public();
    if (refs == 1) device_->AddRef();
    return refs;
  }
  ULONG STDMETHODCALLTYPE Release() override {
    ULONG refs = drop_public();
    if (refs == 0) {
      Device *device = device_;
      if (unreferenced()) delete this;
      device->Release();
    }
    return refs;
  }
  void add_private_ref() { add_private(); }
  void release_private_ref() {
    if (drop_private()) delete this;
  }

  HRESULT STDMETHODCALLTYPE GetDevice(IDirect3DDevice9 **device) override {
    if (!device) return D3DERR_INVALIDCALL;
    device_->AddRef();
    *device = device_;
    return D3D_OK;
  }
  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID, const void *, DWORD, DWORD) override { NOVEM_UNIMPLEMENTED(D3DERR_INVALIDCALL); }
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID, void *, DWORD *) override { NOVEM_UNIMPLEMENTED(D3DERR_NOTFOUND); }
  HRESULT STDMETHODCALLTYPE FreePrivateData(REFGUID) override { NOVEM_UNIMPLEMENTED(D3DERR_NOTFOUND); }
  // Priorities only matter to managed resources, which do not exist yet.
  DWORD STDMETHODCALLTYPE SetPriority(DWORD priority) override { DWORD old = priority_; priority_ = priority; return old; }
  DWORD STDMETHODCALLTYPE GetPriority() override { return priority_; }
  void STDMETHODCALLTYPE PreLoad() override {}

protected:
  // QueryInterface for IUnknown, IDirect3DResource9 and the resource's own interface.
  HRESULT query(REFIID iid, const IID &own, void **out) {
    if (!out) return E_POINTER;
    if (IsEqualGUID(iid, IID_IUnknown) || IsEqualGUID(iid, IID_IDirect3DResource9) || IsEqualGUID(iid, own)) {
      AddRef();
      *out = static_cast<Iface *>(this);
      return S_OK;
    }
    *out = nullptr;
    return E_NOINTERFACE;
  }

  Device *const device_;
  DWORD priority_ = 0;
};

} // namespace novem
