// What every object a device creates shares: COM reference counting as native d3d9 does it
// (see com.hpp) and the device it belongs to; resources add IDirect3DResource9's bookkeeping.
#pragma once

#include "com.hpp"
#include "device.hpp"
#include "device_lock.hpp"
#include "known_object.hpp"
#include "log.hpp"
#include "private_data.hpp"

namespace novem {

// Reference counting and GetDevice: every object a device creates (resources, shaders,
// vertex declarations).
template <class Iface> class DeviceObject : public Iface, public RefCounts {
public:
  DeviceObject(Device *device, ULONG public_refs) : RefCounts(public_refs), device_(device) {}
  virtual ~DeviceObject() = default;
  Device *device() const { return device_; }

  // Under the device's lock (D3DCREATE_MULTITHREADED), so that the choice to delete is not made
  // while a device call drops a private reference; the device is released after the lock.
  ULONG STDMETHODCALLTYPE AddRef() override {
    DeviceLock lock(*device_);
    ULONG refs = add_public();
    if (refs == 1) device_->AddRef();
    return refs;
  }
  // A Release with no public reference left (the back buffer never got from GetBackBuffer, one
  // Release too many) changes nothing and answers 0, as native d3d9 does.
  ULONG STDMETHODCALLTYPE Release() override {
    Device *device = device_;
    ULONG refs;
    {
      DeviceLock lock(*device);
      if (public_count() == 0) return 0;
      refs = drop_public();
      if (refs == 0 && unreferenced()) delete this;
    }
    if (refs == 0) device->Release();
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

protected:
  // QueryInterface for IUnknown, `own` and, when given, `base`.
  HRESULT query(REFIID iid, const IID &own, void **out, const IID *base = nullptr) {
    if (!out) return E_POINTER;
    if (IsEqualGUID(iid, IID_IUnknown) || IsEqualGUID(iid, own) || (base && IsEqualGUID(iid, *base))) {
      AddRef();
      *out = static_cast<Iface *>(this);
      return S_OK;
    }
    *out = nullptr;
    return E_NOINTERFACE;
  }

  Device *const device_;
};

// A resource: IDirect3DResource9's bookkeeping on top of DeviceObject.
template <class Iface> class DeviceChild : public DeviceObject<Iface> {
public:
  using DeviceObject<Iface>::DeviceObject;
  ~DeviceChild() override {
    if (default_pool_) this->device_->count_default_pool_resource(-1);
    this->device_->give_video_memory(video_bytes_);
  }

  // A resource the application created in D3DPOOL_DEFAULT: the device counts it until it is
  // destroyed, because Reset refuses while one exists (device.cpp). Implicit surfaces are not.
  void count_default_pool() {
    default_pool_ = true;
    this->device_->count_default_pool_resource(+1);
  }
  // The video memory the creation took for this resource (Device::take_video_memory), given back
  // when it is destroyed.
  void hold_video_memory(uint64_t bytes) { video_bytes_ = bytes; }

  HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, const void *data, DWORD size, DWORD flags) override {
    DeviceLock lock(*this->device_);
    return private_data_.set(guid, data, size, flags);
  }
  HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, void *data, DWORD *size) override {
    DeviceLock lock(*this->device_);
    return private_data_.get(guid, data, size);
  }
  HRESULT STDMETHODCALLTYPE FreePrivateData(REFGUID guid) override {
    DeviceLock lock(*this->device_);
    return private_data_.free(guid);
  }
  // Priorities only matter to managed resources, which do not exist yet.
  DWORD STDMETHODCALLTYPE SetPriority(DWORD priority) override {
    DeviceLock lock(*this->device_);
    const DWORD old = priority_;
    priority_ = priority;
    return old;
  }
  DWORD STDMETHODCALLTYPE GetPriority() override {
    DeviceLock lock(*this->device_);
    return priority_;
  }
  void STDMETHODCALLTYPE PreLoad() override {}

protected:
  HRESULT query(REFIID iid, const IID &own, void **out) {
    return DeviceObject<Iface>::query(iid, own, out, &IID_IDirect3DResource9);
  }

  DWORD priority_ = 0;

private:
  bool default_pool_ = false;
  uint64_t video_bytes_ = 0;
  PrivateData private_data_;
};

} // namespace novem
