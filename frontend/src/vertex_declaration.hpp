// IDirect3DVertexDeclaration9, and the declaration an FVF stands for.
#pragma once

#include <vector>

#include "device_child.hpp"

namespace novem {

class VertexDeclaration final : public DeviceObject<IDirect3DVertexDeclaration9> {
public:
  // elements: up to and excluding D3DDECL_END. fvf: the FVF it was made from, or 0.
  VertexDeclaration(Device *device, ULONG public_refs, std::vector<D3DVERTEXELEMENT9> elements, DWORD fvf);

  const std::vector<D3DVERTEXELEMENT9> &elements() const { return elements_; }
  DWORD fvf() const { return fvf_; }
  // The element with this usage and usage index, or nullptr.
  const D3DVERTEXELEMENT9 *find(BYTE usage, BYTE usage_index) const;

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override { return query(iid, IID_IDirect3DVertexDeclaration9, out); }
  HRESULT STDMETHODCALLTYPE GetDeclaration(D3DVERTEXELEMENT9 *elements, UINT *count) override;

private:
  std::vector<D3DVERTEXELEMENT9> elements_;
  DWORD fvf_;
};

// Checks an application's element array (ending with D3DDECL_END) as Windows does; false when
// it is invalid. On success `out` holds the elements without the end marker.
bool parse_vertex_elements(const D3DVERTEXELEMENT9 *elements, std::vector<D3DVERTEXELEMENT9> &out);

// The elements an FVF stands for, in stream 0; empty when the FVF has no position.
std::vector<D3DVERTEXELEMENT9> fvf_to_elements(DWORD fvf);

// Size in bytes of one vertex of an FVF (0 without a position).
UINT fvf_vertex_size(DWORD fvf);

} // namespace novem
