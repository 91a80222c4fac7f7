#include "vertex_declaration.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace novem {

namespace {

constexpr D3DVERTEXELEMENT9 kEnd = D3DDECL_END();

bool is_end(const D3DVERTEXELEMENT9 &e) { return e.Stream == 0xff && e.Type == D3DDECLTYPE_UNUSED; }

D3DVERTEXELEMENT9 element(WORD offset, BYTE type, BYTE usage, BYTE index) {
  return D3DVERTEXELEMENT9{0, offset, type, D3DDECLMETHOD_DEFAULT, usage, index};
}

} // namespace

VertexDeclaration::VertexDeclaration(Device *device, ULONG public_refs, std::vector<D3DVERTEXELEMENT9> elements, DWORD fvf)
    : DeviceObject(device, public_refs), elements_(std::move(elements)), fvf_(fvf),
      pretransformed_(find(D3DDECLUSAGE_POSITIONT, 0) != nullptr) {
  remember_vtable<VertexDeclaration, IDirect3DVertexDeclaration9>(this);
}

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

HRESULT parse_vertex_elements(const D3DVERTEXELEMENT9 *elements, std::vector<D3DVERTEXELEMENT9> &out) {
  out.clear();
  for (size_t i = 0;; ++i) {
    const D3DVERTEXELEMENT9 &e = elements[i];
    if (is_end(e)) return D3D_OK;
    if (i >= MAXD3DDECLLENGTH || e.Stream >= 16 || e.Method > D3DDECLMETHOD_LOOKUPPRESAMPLED ||
        e.Usage > D3DDECLUSAGE_SAMPLE)
      return D3DERR_INVALIDCALL;
    // Windows answers E_FAIL for an offset that is not a multiple of 4 and for an UNUSED element
    // that is not the end marker (Wine's test_vertex_declaration_alignment and
    // test_unused_declaration_type, run on Windows); an unknown type fails the same way in Wine.
    if ((e.Offset & 3) || e.Type >= D3DDECLTYPE_UNUSED) return E_FAIL;
    out.push_back(e);
  }
}

DWORD declaration_fvf(const std::vector<D3DVERTEXELEMENT9> &elements) {
  // Windows converts a declaration that is exactly what an FVF with a position stands for, and
  // answers 0 for anything else: Wine's test_fvf_decl_conversion records a lone FLOAT3 POSITION
  // (D3DFVF_XYZ) and FLOAT4 POSITIONT (D3DFVF_XYZRHW) converting, and lone NORMAL, COLOR,
  // TEXCOORD or BLENDWEIGHT elements, POSITION with usage index 1, and a declaration with an
  // element no FVF has, giving 0; DXVK found (Windows' WHQL FVF test) that whole FVF layouts
  // convert. Novem builds the FVF the elements name and keeps it only if that FVF's layout is
  // the declaration, element for element.
  DWORD fvf = 0, position = 0, betas = 0, lastbeta = 0, texcount = 0;
  for (const D3DVERTEXELEMENT9 &e : elements) {
    const BYTE type = e.Type, index = e.UsageIndex;
    if (e.Usage == D3DDECLUSAGE_POSITION && type == D3DDECLTYPE_FLOAT3 && index == 0) position = D3DFVF_XYZ;
    else if (e.Usage == D3DDECLUSAGE_POSITIONT && type == D3DDECLTYPE_FLOAT4 && index == 0) position = D3DFVF_XYZRHW;
    else if (e.Usage == D3DDECLUSAGE_BLENDWEIGHT && index == 0 && type <= D3DDECLTYPE_FLOAT4) betas += type - D3DDECLTYPE_FLOAT1 + 1u;
    else if (e.Usage == D3DDECLUSAGE_BLENDWEIGHT && index == 0 && type == D3DDECLTYPE_D3DCOLOR) betas += 1, lastbeta = D3DFVF_LASTBETA_D3DCOLOR; // XYZB2's odd layout
    else if (e.Usage == D3DDECLUSAGE_BLENDINDICES && index == 0 && type == D3DDECLTYPE_UBYTE4) betas += 1, lastbeta = lastbeta ? lastbeta : D3DFVF_LASTBETA_UBYTE4;
    else if (e.Usage == D3DDECLUSAGE_BLENDINDICES && index == 0 && type == D3DDECLTYPE_D3DCOLOR) betas += 1, lastbeta = D3DFVF_LASTBETA_D3DCOLOR;
    else if (e.Usage == D3DDECLUSAGE_BLENDINDICES && index == 0 && type == D3DDECLTYPE_FLOAT1) betas += 1;
    else if (e.Usage == D3DDECLUSAGE_NORMAL && type == D3DDECLTYPE_FLOAT3 && index == 0) fvf |= D3DFVF_NORMAL;
    else if (e.Usage == D3DDECLUSAGE_PSIZE && type == D3DDECLTYPE_FLOAT1 && index == 0) fvf |= D3DFVF_PSIZE;
    else if (e.Usage == D3DDECLUSAGE_COLOR && type == D3DDECLTYPE_D3DCOLOR && index < 2) fvf |= index ? D3DFVF_SPECULAR : D3DFVF_DIFFUSE;
    else if (e.Usage == D3DDECLUSAGE_TEXCOORD && type <= D3DDECLTYPE_FLOAT4 && index < 8) {
      // D3DFVF_TEXCOORDSIZE1..4 are 3, 0, 1, 2.
      static constexpr DWORD size_codes[4] = {3, 0, 1, 2};
      fvf |= size_codes[type] << (16 + 2 * index);
      texcount = std::max<DWORD>(texcount, index + 1u);
    } else
      return 0;
  }
  if (position == D3DFVF_XYZ && betas > 0) position = betas <= 5 ? D3DFVF_XYZB1 + 2 * (betas - 1) : 0;
  else if (betas > 0) position = 0;
  if (!position) return 0;
  fvf |= position | lastbeta | texcount << D3DFVF_TEXCOUNT_SHIFT;
  const std::vector<D3DVERTEXELEMENT9> layout = fvf_to_elements(fvf);
  if (layout.size() != elements.size() || std::memcmp(layout.data(), elements.data(), layout.size() * sizeof layout[0]) != 0)
    return 0;
  return fvf;
}

UINT decl_type_size(BYTE type) {
  static constexpr UINT sizes[] = {4, 8, 12, 16, 4, 4, 4, 8, 4, 4, 8, 4, 8, 4, 4, 4, 8};
  return type < std::size(sizes) ? sizes[type] : 0;
}

std::vector<D3DVERTEXELEMENT9> fvf_to_elements(DWORD fvf) {
  // The layouts are Windows' as Wine's test_fvf_decl_conversion records them.
  std::vector<D3DVERTEXELEMENT9> out;
  WORD offset = 0;
  auto add = [&](BYTE type, BYTE usage, BYTE index) {
    out.push_back(element(offset, type, usage, index));
    offset = WORD(offset + decl_type_size(type));
  };
  const DWORD position = fvf & D3DFVF_POSITION_MASK;
  switch (position) {
  case D3DFVF_XYZ: add(D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION, 0); break;
  case D3DFVF_XYZRHW: add(D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_POSITIONT, 0); break;
  case D3DFVF_XYZW: add(D3DDECLTYPE_FLOAT4, D3DDECLUSAGE_POSITION, 0); break;
  case D3DFVF_XYZB1: case D3DFVF_XYZB2: case D3DFVF_XYZB3: case D3DFVF_XYZB4: case D3DFVF_XYZB5: {
    add(D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_POSITION, 0);
    // n betas follow the position. The last is the blend indices with a LASTBETA flag (UBYTE4
    // wins over D3DCOLOR), and always with five; the others are FLOAT1..4 weights.
    const int betas = int(position - D3DFVF_XYZB1) / 2 + 1;
    const bool ubyte4 = fvf & D3DFVF_LASTBETA_UBYTE4, color = fvf & D3DFVF_LASTBETA_D3DCOLOR;
    const bool indices = betas == 5 || ubyte4 || color;
    const int weights = betas - (indices ? 1 : 0);
    // Windows' odd case: XYZB2 with LASTBETA_D3DCOLOR gives a D3DCOLOR weight and UBYTE4
    // indices (recorded on Windows by Wine's test; Wine does the same).
    const bool b2_color = position == D3DFVF_XYZB2 && color && !ubyte4;
    if (weights > 0) add(b2_color ? BYTE(D3DDECLTYPE_D3DCOLOR) : BYTE(D3DDECLTYPE_FLOAT1 + weights - 1), D3DDECLUSAGE_BLENDWEIGHT, 0);
    if (indices) {
      BYTE type = ubyte4 || b2_color ? D3DDECLTYPE_UBYTE4 : color ? D3DDECLTYPE_D3DCOLOR : D3DDECLTYPE_FLOAT1;
      add(type, D3DDECLUSAGE_BLENDINDICES, 0);
    }
    break;
  }
  default: break; // no position: the other elements start at offset 0
  }
  if (fvf & D3DFVF_NORMAL) add(D3DDECLTYPE_FLOAT3, D3DDECLUSAGE_NORMAL, 0);
  if (fvf & D3DFVF_PSIZE) add(D3DDECLTYPE_FLOAT1, D3DDECLUSAGE_PSIZE, 0);
  if (fvf & D3DFVF_DIFFUSE) add(D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 0);
  if (fvf & D3DFVF_SPECULAR) add(D3DDECLTYPE_D3DCOLOR, D3DDECLUSAGE_COLOR, 1);
  const UINT coords = std::min<UINT>((fvf & D3DFVF_TEXCOUNT_MASK) >> D3DFVF_TEXCOUNT_SHIFT, 8);
  for (UINT i = 0; i < coords; ++i) {
    // D3DFVF_TEXCOORDSIZEn(i): 2 bits at 16 + 2i; D3DFVF_TEXTUREFORMAT2 (0), 3 (1), 4 (2), 1 (3).
    static constexpr BYTE types[4] = {D3DDECLTYPE_FLOAT2, D3DDECLTYPE_FLOAT3, D3DDECLTYPE_FLOAT4, D3DDECLTYPE_FLOAT1};
    add(types[(fvf >> (16 + 2 * i)) & 3], D3DDECLUSAGE_TEXCOORD, BYTE(i));
  }
  return out;
}

UINT fvf_vertex_size(DWORD fvf) {
  std::vector<D3DVERTEXELEMENT9> elements = fvf_to_elements(fvf);
  if (elements.empty()) return 0;
  const D3DVERTEXELEMENT9 &last = elements.back();
  return last.Offset + decl_type_size(last.Type);
}

} // namespace novem
