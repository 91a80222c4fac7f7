// IDirect3DVertexDeclaration9, and the declaration an FVF stands for.
#pragma once

#include <vector>

#include "device_child.hpp"

namespace novem {

class VertexDeclaration final : public DeviceObject<IDirect3DVertexDeclaration9> {
public:
  // elements: up to and excluding D3DDECL_END. fvf: what GetFVF answers while it is bound (the FVF
  // SetFVF made it from, or declaration_fvf of an application's elements).
  VertexDeclaration(Device *device, ULONG public_refs, std::vector<D3DVERTEXELEMENT9> elements, DWORD fvf);

  const std::vector<D3DVERTEXELEMENT9> &elements() const { return elements_; }
  DWORD fvf() const { return fvf_; }
  // The element with this usage and usage index, or nullptr.
  const D3DVERTEXELEMENT9 *find(BYTE usage, BYTE usage_index) const;
  // Whether it has POSITIONT 0: pre-transformed vertices for the fixed-function pipeline (asked
  // at every draw, so found once).
  bool pretransformed() const { return pretransformed_; }

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override { return query(iid, IID_IDirect3DVertexDeclaration9, out); }
  HRESULT STDMETHODCALLTYPE GetDeclaration(D3DVERTEXELEMENT9 *elements, UINT *count) override;

private:
  std::vector<D3DVERTEXELEMENT9> elements_;
  DWORD fvf_;
  bool pretransformed_;
};

// Checks an application's element array (ending with D3DDECL_END) as Windows does: D3D_OK, or
// the error CreateVertexDeclaration returns. On success `out` holds the elements without the end
// marker.
HRESULT parse_vertex_elements(const D3DVERTEXELEMENT9 *elements, std::vector<D3DVERTEXELEMENT9> &out);

// The FVF GetFVF reports after SetVertexDeclaration of an application's declaration: the FVF
// whose layout it is exactly, if that FVF has a position (XYZ, XYZBn or XYZRHW); 0 otherwise.
DWORD declaration_fvf(const std::vector<D3DVERTEXELEMENT9> &elements);

// The elements an FVF stands for, in stream 0, as Windows' SetFVF makes them; an FVF without a
// position gives the other elements from offset 0.
std::vector<D3DVERTEXELEMENT9> fvf_to_elements(DWORD fvf);

// Bytes per element of a declaration type (D3DDECLTYPE_UNUSED and unknown: 0).
UINT decl_type_size(BYTE type);

// Size in bytes of one vertex of an FVF (D3DXGetFVFVertexSize).
UINT fvf_vertex_size(DWORD fvf);

} // namespace novem
