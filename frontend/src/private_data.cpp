#include "private_data.hpp"

#include <algorithm>
#include <cstring>

namespace novem {

PrivateData::~PrivateData() {
  for (Entry &e : entries_) release(e);
}

void PrivateData::release(Entry &entry) {
  if (entry.object) entry.object->Release();
  entry.object = nullptr;
}

std::vector<PrivateData::Entry>::iterator PrivateData::find(REFGUID guid) {
  return std::find_if(entries_.begin(), entries_.end(), [&](const Entry &e) { return IsEqualGUID(e.guid, guid); });
}

HRESULT PrivateData::set(REFGUID guid, const void *data, DWORD size, DWORD flags) {
  // An IUnknown is passed as the pointer itself, so its size is a pointer's (Windows refuses
  // others); a plain block needs its bytes.
  if (flags & D3DSPD_IUNKNOWN) {
    if (size != sizeof(IUnknown *) || !data) return D3DERR_INVALIDCALL;
  } else if (size && !data) {
    return D3DERR_INVALIDCALL;
  }
  Entry entry{guid, nullptr, {}};
  if (flags & D3DSPD_IUNKNOWN) {
    entry.object = static_cast<IUnknown *>(const_cast<void *>(data));
    entry.object->AddRef();
  } else {
    entry.bytes.assign(static_cast<const unsigned char *>(data), static_cast<const unsigned char *>(data) + size);
  }
  free(guid); // a GUID set again replaces its data
  entries_.push_back(std::move(entry));
  return D3D_OK;
}

HRESULT PrivateData::get(REFGUID guid, void *data, DWORD *size) const {
  if (!size) return D3DERR_INVALIDCALL;
  auto it = const_cast<PrivateData *>(this)->find(guid);
  if (it == entries_.end()) return D3DERR_NOTFOUND;
  const DWORD stored = it->object ? DWORD(sizeof(IUnknown *)) : DWORD(it->bytes.size());
  const DWORD room = *size;
  *size = stored; // NULL data asks for the size only
  if (!data) return D3D_OK;
  if (room < stored) return D3DERR_MOREDATA;
  if (it->object) {
    it->object->AddRef();
    std::memcpy(data, &it->object, sizeof(IUnknown *));
  } else if (stored) {
    std::memcpy(data, it->bytes.data(), stored);
  }
  return D3D_OK;
}

HRESULT PrivateData::free(REFGUID guid) {
  auto it = find(guid);
  if (it == entries_.end()) return D3DERR_NOTFOUND;
  release(*it);
  entries_.erase(it);
  return D3D_OK;
}

} // namespace novem
