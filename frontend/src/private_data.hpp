// The data an application attaches to a resource or a volume by GUID (SetPrivateData,
// GetPrivateData, FreePrivateData), with Windows' rules: a block is copied; with D3DSPD_IUNKNOWN
// the data is an IUnknown pointer, held with a reference until it is replaced, freed or the
// object goes, and GetPrivateData returns it with a reference added.
#pragma once

#include <vector>

#include <d3d9.h>

namespace novem {

class PrivateData {
public:
  PrivateData() = default;
  PrivateData(const PrivateData &) = delete;
  PrivateData &operator=(const PrivateData &) = delete;
  ~PrivateData();

  HRESULT set(REFGUID guid, const void *data, DWORD size, DWORD flags);
  HRESULT get(REFGUID guid, void *data, DWORD *size) const;
  HRESULT free(REFGUID guid);

private:
  struct Entry {
    GUID guid;
    IUnknown *object; // D3DSPD_IUNKNOWN, else nullptr
    std::vector<unsigned char> bytes;
  };
  std::vector<Entry>::iterator find(REFGUID guid);
  static void release(Entry &entry);

  std::vector<Entry> entries_;
};

} // namespace novem
