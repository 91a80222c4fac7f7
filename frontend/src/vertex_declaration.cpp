#include "vertex_declaration.hpp"

namespace novem {

namespace {

constexpr D3DVERTEXELEMENT9 kEnd = D3DDECL_END();

bool is_end(const D3DVERTEXELEMENT9 &e) { return e.Stream == 0xff && e.Type == D3DDECLTYPE_UNUSED; }

D3DVERTEXELEMENT9 element(WORD offset, BYTE type, BYTE usage, BYTE index) {
  return D3DVERTEXELEMENT9{0, offset, type, D3DDECLMETHOD_DEFAULT, usage, index};
}

} // namespace

VertexDeclaration::VertexDeclaration(Device *device, ULONG public_refs, std::vector<D3DVERTEXELEMENT9> elements, DWORD fvf)
    : DeviceObject(device, public_refs), elements_(std::move(elements)), fvf_(fvf) {}

const D3DVERTEXELEMENT9 *VertexDeclaration::find(BYTE usage, BYTE usage_index) const {
  for (const auto &e : elements_)
    if (e.Usage == usage && e.UsageIndex == usage_index) return &e;
  return nullptr;
}

HRESULT VertexDeclaration::GetDeclaration(D3DVERTEXELEMENT9 *elements, UINT *count) {
  if (!count) return D3DERR_INVALIDCALL;
  *count = UINT(elements_.size() + 1); // with D3DDECL_END, as Windows counts
  if (elements) {
    for (size_t i = 0; i < elements_.size(); ++i) elements[i] = elements_[i];
    elements[elements_.size()] = kEnd;
  }
  return D3D_OK;
}

bool parse_vertex_elements(const D3DVERTEXELEMENT9 *elements, std::vector<D3DVERTEXELEMENT9> &out) {
  out.clear();
  for (size_t i = 0;; ++i) {
    const D3DVERTEXELEMENT9 &e = elements[i];
    if (is_end(e)) return true;
    if (i >= MAXD3DDECLLENGTH || e.Stream >= 16 || e.Type > D3DDECLTYPE_FLOAT16_4 ||
        e.Method > D3DDECLMETHOD_LOOKUPPRESAMPLED || e.Usage > D3DDECLUSAGE_SAMPLE || (e.Offset & 3))
      return false;
    out.push_back(e);
  }
}

std::vector<D3DVERTEXELEMENT9> fvf_to_elements(DWORD fvf) {
  std::vector<D3DVERTEXELEMENT9> out;
  WORD offset = 0;
  switch (fvf & D3DFVF_POSITION_MASK) {
  case D3DFVF_XYZ: out.push_back(element(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION, 0)); offset = 12; break;
  case D3DFVF_XYZRHW: out.push_back(element(0, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_POSITIONT, 0)); offset = 16; break;
  case D3DFVF_XYZW: out.push_back(element(0, D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_POSITION, 0)); offset = 16; break;
  case D3DFVF_XYZB1: case D3DFVF_XYZB2: case D3DFVF_XYZB3: case D3DFVF_XYZB4: case D3DFVF_XYZB5: {
    out.push_back(element(0, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION, 0));
    offset = 12;
    // Blend weights follow; with D3DFVF_LASTBETA_* the last one is indices, not a weight.
    int betas = ((fvf & D3DFVF_POSITION_MASK) - D3DFVF_XYZB1) / 2 + 1;
    bool last_is_index = fvf & (D3DFVF_LASTBETA_UBYTE4 | D3DFVF_LASTBETA_D3DCOLOR);
    int weights = betas - (last_is_index ? 1 : 0);
    if (weights > 0) {
      out.push_back(element(offset, BYTE(D3DDECLTYPE_FLOAT1 + weights - 1), D3DDECLUSAGE_BLENDWEIGHT, 0));
      offset = WORD(offset + 4 * weights);
    }
    if (last_is_index) {
      BYTE type = (fvf & D3DFVF_LASTBETA_D3DCOLOR) ? D3DDECLTYPE_D3DCOLOR : D3DDECLTYPE_UBYTE4;
      out.push_back(element(offset, type, D3DDECLUSAGE_BLENDINDICES, 0));
      offset = WORD(offset + 4);
    }
    break;
  }
  default: return out;
  }
  if (fvf & D3DFVF_NORMAL) out.push_back(element(offset, D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_NORMAL, 0)), offset = WORD(offset + 12);
  if (fvf & D3DFVF_PSIZE) out.push_back(element(offset, D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_PSIZE, 0)), offset = WORD(offset + 4);
  if (fvf & D3DFVF_DIFFUSE) out.push_back(element(offset, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 0)), offset = WORD(offset + 4);
  if (fvf & D3DFVF_SPECULAR) out.push_back(element(offset, D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 1)), offset = WORD(offset + 4);
  UINT coords = (fvf & D3DFVF_TEXCOUNT_MASK) >> D3DFVF_TEXCOUNT_SHIFT;
  for (UINT i = 0; i < coords && i < 8; ++i) {
    // D3DFVF_TEXTUREFORMAT2 (0), 3 (1), 4 (2), 1 (3)
    static constexpr BYTE types[4] = {D3DDECLTYPE_FLOAT2, D3DDECLTYPE_FLOAT3, D3DDECLTYPE_FLOAT4, D3DDECLTYPE_FLOAT1};
    static constexpr WORD sizes[4] = {8, 12, 16, 4};
    DWORD format = (fvf >> (16 + 2 * i)) & 3;
    out.push_back(element(offset, types[format], D3DDECLUSAGE_TEXCOORD, BYTE(i)));
    offset = WORD(offset + sizes[format]);
  }
  return out;
}

UINT fvf_vertex_size(DWORD fvf) {
  std::vector<D3DVERTEXELEMENT9> elements = fvf_to_elements(fvf);
  if (elements.empty()) return 0;
  static constexpr UINT type_sizes[] = {4, 8, 12, 16, 4, 4, 4, 8, 4, 4, 8, 4, 8, 4, 4, 4, 8};
  const D3DVERTEXELEMENT9 &last = elements.back();
  return last.Offset + type_sizes[last.Type];
}

} // namespace novem
