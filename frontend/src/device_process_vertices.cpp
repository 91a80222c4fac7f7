// IDirect3DDevice9::ProcessVertices: the fixed-function vertex transform run on the CPU for
// software vertex processing. Positions go through the world matrices (tweened or blended),
// View and Projection and the viewport
// to XYZRHW; each destination TEXCOORDn gets stage n's coordinates (TEXCOORDINDEX's set or the
// generated ones, through the stage's texture transform), as the fixed-function vertex shader
// writes them; with LIGHTING the colours are lit as there; other elements are copied from the
// source unless D3DPV_DONOTCOPYDATA. docs/d3d9-behaviour.md lists what is refused and what is not done.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include "device.hpp"
#include "math.hpp"
#include "vertex_buffer.hpp"
#include "vertex_declaration.hpp"

namespace novem {

namespace {

struct Vec4 {
  float v[4] = {0, 0, 0, 1};
};

// A source element of a type the transform reads, as floats with D3D's defaults for the
// components the type lacks (0, 0, 0, 1). False for a type it cannot read.
bool read_element(BYTE type, const uint8_t *p, Vec4 &out) {
  out = Vec4{};
  auto f = [&](int n) {
    std::memcpy(out.v, p, size_t(n) * 4);
    return true;
  };
  switch (type) {
  case D3DDECLTYPE_FLOAT1: return f(1);
  case D3DDECLTYPE_FLOAT2: return f(2);
  case D3DDECLTYPE_FLOAT3: return f(3);
  case D3DDECLTYPE_FLOAT4: return f(4);
  case D3DDECLTYPE_D3DCOLOR: {
    DWORD c;
    std::memcpy(&c, p, 4);
    color_to_floats(c, out.v);
    return true;
  }
  case D3DDECLTYPE_UBYTE4:
    for (int i = 0; i < 4; ++i) out.v[i] = float(p[i]);
    return true;
  case D3DDECLTYPE_UBYTE4N:
    for (int i = 0; i < 4; ++i) out.v[i] = float(p[i]) / 255.0f;
    return true;
  case D3DDECLTYPE_SHORT2: case D3DDECLTYPE_SHORT4: case D3DDECLTYPE_SHORT2N: case D3DDECLTYPE_SHORT4N: {
    const int n = type == D3DDECLTYPE_SHORT2 || type == D3DDECLTYPE_SHORT2N ? 2 : 4;
    const bool norm = type == D3DDECLTYPE_SHORT2N || type == D3DDECLTYPE_SHORT4N;
    for (int i = 0; i < n; ++i) {
      int16_t s;
      std::memcpy(&s, p + 2 * i, 2);
      out.v[i] = norm ? std::max(float(s) / 32767.0f, -1.0f) : float(s);
    }
    return true;
  }
  default: return false;
  }
}

// Components of a type read_element reads.
UINT components_of(BYTE type) {
  if (type >= D3DDECLTYPE_FLOAT1 && type <= D3DDECLTYPE_FLOAT4) return UINT(type - D3DDECLTYPE_FLOAT1) + 1;
  return type == D3DDECLTYPE_SHORT2 || type == D3DDECLTYPE_SHORT2N ? 2 : 4;
}

// A destination element written from floats: FLOAT1..4 write their components, D3DCOLOR packs
// (saturated). False for another type.
bool write_element(BYTE type, const float *v, uint8_t *p) {
  switch (type) {
  case D3DDECLTYPE_FLOAT1: case D3DDECLTYPE_FLOAT2: case D3DDECLTYPE_FLOAT3: case D3DDECLTYPE_FLOAT4:
    std::memcpy(p, v, size_t(type - D3DDECLTYPE_FLOAT1 + 1) * 4);
    return true;
  case D3DDECLTYPE_D3DCOLOR: {
    auto q = [](float x) { return DWORD(std::lround(std::clamp(x, 0.0f, 1.0f) * 255.0f)); };
    const DWORD c = q(v[3]) << 24 | q(v[0]) << 16 | q(v[1]) << 8 | q(v[2]);
    std::memcpy(p, &c, 4);
    return true;
  }
  default: return false;
  }
}

Vec4 row_times(const Vec4 &a, const D3DMATRIX &m) {
  Vec4 r;
  for (int j = 0; j < 4; ++j) r.v[j] = a.v[0] * m.m[0][j] + a.v[1] * m.m[1][j] + a.v[2] * m.m[2][j] + a.v[3] * m.m[3][j];
  return r;
}

// The upper 3x3 inverse transpose of a matrix, which carries normals (cofactors); of a singular
// matrix, the matrix itself, as the shaders' (state_encoder_fixed_function.cpp).
struct NormalMatrix {
  float m[3][3] = {};
};

NormalMatrix normal_matrix(const D3DMATRIX &m) {
  const float a = m._11, b = m._12, c = m._13, d = m._21, e = m._22, f = m._23, g = m._31, h = m._32, i = m._33;
  const float cof[3][3] = {{e * i - f * h, f * g - d * i, d * h - e * g},
                           {c * h - b * i, a * i - c * g, b * g - a * h},
                           {b * f - c * e, c * d - a * f, a * e - b * d}};
  const float det = a * cof[0][0] + b * cof[0][1] + c * cof[0][2];
  // (M^-1)^T = cofactor matrix / det.
  NormalMatrix r;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j) r.m[k][j] = det != 0.0f ? cof[k][j] / det : m.m[k][j];
  return r;
}

// A row vector n times the normal matrix: out_j = sum_k n_k m[k][j].
void transform_normal(const NormalMatrix &m, const float n[3], float out[3]) {
  for (int j = 0; j < 3; ++j) out[j] = n[0] * m.m[0][j] + n[1] * m.m[1][j] + n[2] * m.m[2][j];
}

float dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

void normalize3(float v[3]) {
  const float len = std::sqrt(dot3(v, v));
  if (len > 0.0f)
    for (int i = 0; i < 3; ++i) v[i] /= len;
}

// One enabled light in view space, as flush_ff_vertex_constants sends it to the shader.
struct ViewLight {
  D3DLIGHT9 light;
  float position[3];
  float to_light[3];   // directional and spot: -Direction, normalised
};

// D3D9's lighting ("Mathematics of Lighting"), the formulas of the fixed-function vertex shader
// (frontend/shader/ff/README.md): diffuse and specular of one vertex, clamped to [0, 1].
struct Lighting {
  std::vector<ViewLight> lights;
  D3DCOLORVALUE cd, ca, cs, ce;   // the material's
  DWORD diffuse_source, ambient_source, specular_source, emissive_source;   // D3DMCS_* (COLORVERTEX applied)
  float ambient[4];
  float power;
  bool specular, local_viewer;

  void run(const float pos[3], const float n[3], const float *vertex_diffuse, const float *vertex_specular,
           float out_diffuse[4], float out_specular[4]) const {
    auto source = [&](DWORD which, const D3DCOLORVALUE &material, float out[4]) {
      const float *v = which == D3DMCS_COLOR1 ? vertex_diffuse : which == D3DMCS_COLOR2 ? vertex_specular : nullptr;
      if (v) std::memcpy(out, v, 16);
      else out[0] = material.r, out[1] = material.g, out[2] = material.b, out[3] = material.a;
    };
    float cd4[4], ca4[4], cs4[4], ce4[4];
    source(diffuse_source, cd, cd4), source(ambient_source, ca, ca4);
    source(specular_source, cs, cs4), source(emissive_source, ce, ce4);
    float amb[3] = {ambient[0], ambient[1], ambient[2]}, dif[3] = {0, 0, 0}, spe[3] = {0, 0, 0};
    float viewer[3] = {0, 0, -1};
    if (local_viewer) {
      for (int c = 0; c < 3; ++c) viewer[c] = -pos[c];
      normalize3(viewer);
    }
    for (const ViewLight &vl : lights) {
      const D3DLIGHT9 &l = vl.light;
      float dir[3], factor = 1.0f;
      if (l.Type == D3DLIGHT_DIRECTIONAL) {
        std::memcpy(dir, vl.to_light, sizeof dir);
      } else {
        for (int c = 0; c < 3; ++c) dir[c] = vl.position[c] - pos[c];
        const float d = std::sqrt(dot3(dir, dir));
        for (float &c : dir) c /= d;
        factor = d <= l.Range ? 1.0f / (l.Attenuation0 + l.Attenuation1 * d + l.Attenuation2 * d * d) : 0.0f;
        if (l.Type == D3DLIGHT_SPOT) {
          const float cos_theta = std::cos(l.Theta / 2), cos_phi = std::cos(l.Phi / 2);
          const float rho = dot3(vl.to_light, dir);
          float spot = std::pow(std::max((rho - cos_phi) / (cos_theta - cos_phi), 0.0f), l.Falloff);
          if (rho > cos_theta) spot = 1.0f;
          if (rho <= cos_phi) spot = 0.0f;
          factor *= spot;
        }
      }
      const float n_dot_l = dot3(n, dir);
      const float la[3] = {l.Ambient.r, l.Ambient.g, l.Ambient.b}, ld[3] = {l.Diffuse.r, l.Diffuse.g, l.Diffuse.b};
      const float ls[3] = {l.Specular.r, l.Specular.g, l.Specular.b};
      for (int c = 0; c < 3; ++c) {
        amb[c] += la[c] * factor;
        dif[c] += ld[c] * std::max(n_dot_l, 0.0f) * factor;
      }
      if (specular && n_dot_l > 0.0f) {
        float half[3] = {dir[0] + viewer[0], dir[1] + viewer[1], dir[2] + viewer[2]};
        normalize3(half);
        const float highlight = std::pow(std::max(dot3(n, half), 0.0f), power) * factor;
        for (int c = 0; c < 3; ++c) spe[c] += ls[c] * highlight;
      }
    }
    auto sat = [](float x) { return std::clamp(x, 0.0f, 1.0f); };
    for (int c = 0; c < 3; ++c) {
      out_diffuse[c] = sat(ce4[c] + ca4[c] * amb[c] + cd4[c] * dif[c]);
      out_specular[c] = specular ? sat(cs4[c] * spe[c]) : 0.0f;
    }
    out_diffuse[3] = sat(cd4[3]);
    out_specular[3] = specular ? sat(cs4[3]) : 0.0f;
  }
};

// The bytes of one stream-0 vertex of a destination layout.
UINT layout_stride(const std::vector<D3DVERTEXELEMENT9> &elements) {
  UINT stride = 0;
  for (const auto &e : elements) stride = std::max(stride, UINT(e.Offset) + decl_type_size(e.Type));
  return stride;
}

} // namespace

HRESULT Device::ProcessVertices(UINT src_start_idx, UINT dst_idx, UINT vertex_count, IDirect3DVertexBuffer9 *dst_buffer,
                                IDirect3DVertexDeclaration9 *declaration, DWORD flags) {
  // Every device processes vertices, hardware and mixed ones too, as Windows' runtime does (the
  // transform runs on the CPU whatever the device's vertex processing); vertex shaders are not
  // run on the CPU (refused: docs/d3d9-behaviour.md).
  if (!dst_buffer || live_.state.vertex_shader || !live_.state.vertex_declaration) return D3DERR_INVALIDCALL;
  auto *dst = known_object<VertexBuffer>(dst_buffer);
  if (!dst) return D3DERR_INVALIDCALL; // not Novem's object
  D3DVERTEXBUFFER_DESC dst_desc;
  dst->GetDesc(&dst_desc);
  // The destination layout: the declaration given, else the FVF the buffer was created with (a
  // buffer without one needs a declaration, as the documentation says).
  std::vector<D3DVERTEXELEMENT9> dst_elements;
  if (declaration) {
    auto *d = known_object<VertexDeclaration>(declaration);
    if (!d) return D3DERR_INVALIDCALL; // not Novem's object
    dst_elements = d->elements();
  } else if (dst_desc.FVF) dst_elements = fvf_to_elements(dst_desc.FVF);
  else return D3DERR_INVALIDCALL;
  const UINT dst_stride = declaration ? layout_stride(dst_elements) : fvf_vertex_size(dst_desc.FVF);
  const D3DVERTEXELEMENT9 *dst_position = nullptr;
  for (const auto &e : dst_elements) {
    if (e.Stream != 0) return D3DERR_INVALIDCALL;   // one interleaved destination stream
    if (e.Usage == D3DDECLUSAGE_POSITIONT && e.UsageIndex == 0) dst_position = &e;
  }
  // The output is screen space: the destination must hold XYZRHW.
  if (!dst_position || dst_position->Type != D3DDECLTYPE_FLOAT4) return D3DERR_INVALIDCALL;
  if (uint64_t(dst_idx + uint64_t(vertex_count)) * dst_stride > dst_desc.Size) return D3DERR_INVALIDCALL;

  const VertexDeclaration &src_decl = *live_.state.vertex_declaration;
  const D3DVERTEXELEMENT9 *src_position = src_decl.find(D3DDECLUSAGE_POSITION, 0);
  // Pre-transformed sources have nothing to transform; a position must be a type read here.
  Vec4 probe;
  const uint8_t zeros[16] = {};
  if (!src_position || !read_element(src_position->Type, zeros, probe)) return D3DERR_INVALIDCALL;
  if (vertex_count == 0) return D3D_OK;

  // The source streams' bytes, each range checked against its buffer.
  struct SourceStream {
    const uint8_t *base = nullptr;
    UINT stride = 0;
  };
  std::array<SourceStream, NV_MAX_VERTEX_BUFFERS> streams{};
  std::vector<VertexBuffer *> locked;
  HRESULT hr = D3D_OK;
  for (const auto &e : src_decl.elements()) {
    if (e.Stream >= streams.size() || streams[e.Stream].base) continue;
    const StreamBinding &binding = live_.state.streams[e.Stream];
    if (!binding.buffer) continue;   // an element of an unbound stream reads as absent
    void *bytes = nullptr;
    if (FAILED(hr = binding.buffer->Lock(0, 0, &bytes, D3DLOCK_READONLY))) break;
    locked.push_back(binding.buffer);
    streams[e.Stream] = {static_cast<const uint8_t *>(bytes) + binding.offset, binding.stride};
  }
  for (const auto &e : src_decl.elements())   // every element of a bound stream must fit
    if (SUCCEEDED(hr) && e.Stream < streams.size() && streams[e.Stream].base) {
      const StreamBinding &binding = live_.state.streams[e.Stream];
      D3DVERTEXBUFFER_DESC desc;
      binding.buffer->GetDesc(&desc);
      const uint64_t end = binding.offset + uint64_t(src_start_idx + uint64_t(vertex_count) - 1) * binding.stride +
                           e.Offset + decl_type_size(e.Type);
      if (end > desc.Size) hr = D3DERR_INVALIDCALL;
    }
  if (!streams[src_position->Stream].base) hr = D3DERR_INVALIDCALL;
  uint8_t *out = nullptr;
  if (SUCCEEDED(hr)) hr = dst->Lock(dst_idx * dst_stride, vertex_count * dst_stride, reinterpret_cast<void **>(&out), 0);
  if (FAILED(hr)) {
    for (VertexBuffer *b : locked) b->Unlock();
    return hr;
  }

  auto source = [&](const D3DVERTEXELEMENT9 *e, UINT i) -> const uint8_t * {
    if (!e || e->Stream >= streams.size() || !streams[e->Stream].base) return nullptr;
    return streams[e->Stream].base + (src_start_idx + i) * streams[e->Stream].stride + e->Offset;
  };
  const auto &rs = live_.state.render_states;
  // Vertex blending as the fixed-function vertex shader does it: D3DVBF_1..3WEIGHTS blend 2..4
  // world matrices (the last weight is 1 - the others), D3DVBF_0WEIGHTS one; with
  // INDEXEDVERTEXBLENDENABLE the matrices are World(index), indices from BLENDINDICES.
  // Once per call, not per vertex: each blend matrix and the matrix that carries its normals.
  std::array<D3DMATRIX, 8> world_views;
  std::array<NormalMatrix, 8> normal_matrices;
  for (uint32_t n = 0; n < world_views.size(); ++n) {
    world_views[n] = multiply(live_.state.transforms[256 + n], live_.state.transforms[D3DTS_VIEW]);   // D3DTS_WORLDMATRIX(n)
    normal_matrices[n] = normal_matrix(world_views[n]);
  }
  const DWORD blend = live_.state.render_states[D3DRS_VERTEXBLEND];
  const UINT matrices = blend >= D3DVBF_1WEIGHTS && blend <= D3DVBF_3WEIGHTS ? UINT(blend) + 1 : 1;
  const D3DVERTEXELEMENT9 *src_weights = matrices > 1 ? src_decl.find(D3DDECLUSAGE_BLENDWEIGHT, 0) : nullptr;
  const D3DVERTEXELEMENT9 *src_indices = nullptr;
  if ((matrices > 1 || blend == D3DVBF_0WEIGHTS) && live_.state.render_states[D3DRS_INDEXEDVERTEXBLENDENABLE]) {
    src_indices = src_decl.find(D3DDECLUSAGE_BLENDINDICES, 0);
    if (src_indices && components_of(src_indices->Type) != 4) src_indices = nullptr;
  }
  const D3DMATRIX &projection = live_.state.transforms[D3DTS_PROJECTION];
  const D3DVIEWPORT9 &vp = live_.state.viewport;
  const bool copy = !(flags & D3DPV_DONOTCOPYDATA);
  // Tweening, as the fixed-function vertex shader does it (ff_vertex.cpp).
  const bool tweening = rs[D3DRS_VERTEXBLEND] == D3DVBF_TWEENING;
  const float tween = std::bit_cast<float>(rs[D3DRS_TWEENFACTOR]);
  const D3DVERTEXELEMENT9 *src_position1 = tweening ? src_decl.find(D3DDECLUSAGE_POSITION, 1) : nullptr;
  const D3DVERTEXELEMENT9 *src_normal = src_decl.find(D3DDECLUSAGE_NORMAL, 0);
  const D3DVERTEXELEMENT9 *src_normal1 = tweening ? src_decl.find(D3DDECLUSAGE_NORMAL, 1) : nullptr;
  // Lighting, as the fixed-function vertex shader does it (only the colours the source has feed
  // the material with COLORVERTEX).
  const bool lit = rs[D3DRS_LIGHTING] != FALSE;
  const D3DVERTEXELEMENT9 *src_colors[2] = {src_decl.find(D3DDECLUSAGE_COLOR, 0), src_decl.find(D3DDECLUSAGE_COLOR, 1)};
  Lighting lighting{};
  if (lit) {
    const D3DMATRIX &view_matrix = live_.state.transforms[D3DTS_VIEW];
    for (const auto &[index, slot] : live_.state.lights) {
      if (!slot.enabled || lighting.lights.size() == 8) continue;
      ViewLight vl{slot.light, {}, {}};
      const Vec4 p = row_times(Vec4{{slot.light.Position.x, slot.light.Position.y, slot.light.Position.z, 1}}, view_matrix);
      const Vec4 d = row_times(Vec4{{slot.light.Direction.x, slot.light.Direction.y, slot.light.Direction.z, 0}}, view_matrix);
      for (int c = 0; c < 3; ++c) vl.position[c] = p.v[c], vl.to_light[c] = -d.v[c];
      normalize3(vl.to_light);
      lighting.lights.push_back(vl);
    }
    const D3DMATERIAL9 &m = live_.state.material;
    lighting.cd = m.Diffuse, lighting.ca = m.Ambient, lighting.cs = m.Specular, lighting.ce = m.Emissive;
    lighting.power = m.Power;
    auto material_source = [&](DWORD value) -> DWORD {
      if (!rs[D3DRS_COLORVERTEX]) return D3DMCS_MATERIAL;
      if (value == D3DMCS_COLOR1 && src_colors[0]) return D3DMCS_COLOR1;
      if (value == D3DMCS_COLOR2 && src_colors[1]) return D3DMCS_COLOR2;
      return D3DMCS_MATERIAL;
    };
    lighting.diffuse_source = material_source(rs[D3DRS_DIFFUSEMATERIALSOURCE]);
    lighting.ambient_source = material_source(rs[D3DRS_AMBIENTMATERIALSOURCE]);
    lighting.specular_source = material_source(rs[D3DRS_SPECULARMATERIALSOURCE]);
    lighting.emissive_source = material_source(rs[D3DRS_EMISSIVEMATERIALSOURCE]);
    color_to_floats(rs[D3DRS_AMBIENT], lighting.ambient);
    lighting.specular = rs[D3DRS_SPECULARENABLE] != FALSE;
    lighting.local_viewer = rs[D3DRS_LOCALVIEWER] != FALSE;
  }
  for (UINT i = 0; i < vertex_count; ++i) {
    uint8_t *vertex = out + i * dst_stride;
    Vec4 pos, other;
    read_element(src_position->Type, source(src_position, i), pos);
    pos.v[3] = 1.0f;
    if (const uint8_t *p1 = source(src_position1, i); p1 && read_element(src_position1->Type, p1, other))
      for (int c = 0; c < 3; ++c) pos.v[c] += (other.v[c] - pos.v[c]) * tween;
    float nv[3] = {0, 0, 0};
    const bool has_normal = source(src_normal, i) && read_element(src_normal->Type, source(src_normal, i), other);
    if (has_normal) {
      std::memcpy(nv, other.v, sizeof nv);
      if (const uint8_t *n1 = source(src_normal1, i); n1 && read_element(src_normal1->Type, n1, other))
        for (int c = 0; c < 3; ++c) nv[c] += (other.v[c] - nv[c]) * tween;
    }
    Vec4 weights{{0, 0, 0, 0}}, indices{{0, 0, 0, 0}};
    if (const uint8_t *w = source(src_weights, i)) read_element(src_weights->Type, w, weights);
    if (const uint8_t *x = source(src_indices, i)) {
      read_element(src_indices->Type, x, indices);
      // A D3DCOLOR holds index 0 in its first byte, which reads as blue.
      if (src_indices->Type == D3DDECLTYPE_D3DCOLOR)
        indices = Vec4{{indices.v[2] * 255, indices.v[1] * 255, indices.v[0] * 255, indices.v[3] * 255}};
    }
    Vec4 view{{0, 0, 0, 0}};
    float normal[3] = {0, 0, 0}, weight_sum = 0.0f;
    for (UINT m = 0; m < matrices; ++m) {
      float w = 1.0f - weight_sum;
      if (m + 1 < matrices) weight_sum += (w = weights.v[m]);
      const uint32_t k = src_indices ? uint32_t(std::clamp(std::floor(indices.v[m] + 0.5f), 0.0f, 7.0f)) : m;
      const Vec4 p = row_times(pos, world_views[k]);
      float n[3];
      transform_normal(normal_matrices[k], nv, n);
      for (int c = 0; c < 4; ++c) view.v[c] += w * p.v[c];
      for (int c = 0; c < 3; ++c) normal[c] += w * n[c];
    }
    if (has_normal && rs[D3DRS_NORMALIZENORMALS]) normalize3(normal);
    const Vec4 clip = row_times(view, projection);
    float lit_colors[2][4] = {};
    if (lit) {
      Vec4 colors[2];
      const float *vertex_colors[2] = {};
      for (int c = 0; c < 2; ++c)
        if (const uint8_t *p = source(src_colors[c], i); p && read_element(src_colors[c]->Type, p, colors[c])) vertex_colors[c] = colors[c].v;
      lighting.run(view.v, normal, vertex_colors[0], vertex_colors[1], lit_colors[0], lit_colors[1]);
    }
    // Screen space: x = X + (1 + x/w) Width/2, y = Y + (1 - y/w) Height/2,
    // z = MinZ + z/w (MaxZ - MinZ), rhw = 1/w.
    const float rhw = clip.v[3] != 0.0f ? 1.0f / clip.v[3] : 0.0f;
    const float screen[4] = {float(vp.X) + (1.0f + clip.v[0] * rhw) * float(vp.Width) * 0.5f,
                             float(vp.Y) + (1.0f - clip.v[1] * rhw) * float(vp.Height) * 0.5f,
                             vp.MinZ + clip.v[2] * rhw * (vp.MaxZ - vp.MinZ), rhw};
    std::memcpy(vertex + dst_position->Offset, screen, sizeof screen);

    for (const auto &e : dst_elements) {
      if (&e == dst_position) continue;
      uint8_t *to = vertex + e.Offset;
      if (e.Usage == D3DDECLUSAGE_TEXCOORD && e.UsageIndex < 8) {
        // Stage n's coordinates, as the fixed-function vertex shader computes them.
        const auto &ts = live_.state.texture_stage_states[e.UsageIndex];
        const DWORD gen = ts[D3DTSS_TEXCOORDINDEX] >> 16;
        const DWORD count = std::min<DWORD>(ts[D3DTSS_TEXTURETRANSFORMFLAGS] & 0xffu, 4);
        const D3DVERTEXELEMENT9 *set = src_decl.find(D3DDECLUSAGE_TEXCOORD, BYTE(ts[D3DTSS_TEXCOORDINDEX] & 7u));
        Vec4 tc;
        UINT components = 0;   // what was produced (the rest of the destination is left alone)
        if (gen == (D3DTSS_TCI_CAMERASPACENORMAL >> 16)) {
          tc = Vec4{{normal[0], normal[1], normal[2], 1}}, components = 3;
        } else if (gen == (D3DTSS_TCI_CAMERASPACEPOSITION >> 16)) {
          tc = Vec4{{view.v[0], view.v[1], view.v[2], 1}}, components = 3;
        } else if (gen == (D3DTSS_TCI_CAMERASPACEREFLECTIONVECTOR >> 16) || gen == (D3DTSS_TCI_SPHEREMAP >> 16)) {
          // R = I - 2 (N.I) N, I = normalize(view position) with LOCALVIEWER, else (0, 0, 1).
          float in[3] = {0, 0, 1};
          if (rs[D3DRS_LOCALVIEWER]) {
            const float len = std::sqrt(view.v[0] * view.v[0] + view.v[1] * view.v[1] + view.v[2] * view.v[2]);
            for (int c = 0; c < 3; ++c) in[c] = len > 0.0f ? view.v[c] / len : 0.0f;
          }
          const float d = normal[0] * in[0] + normal[1] * in[1] + normal[2] * in[2];
          float r[3];
          for (int c = 0; c < 3; ++c) r[c] = in[c] - 2.0f * d * normal[c];
          if (gen == (D3DTSS_TCI_CAMERASPACEREFLECTIONVECTOR >> 16)) {
            tc = Vec4{{r[0], r[1], r[2], 1}}, components = 3;
          } else {
            const float m = 2.0f * std::sqrt(r[0] * r[0] + r[1] * r[1] + (r[2] + 1.0f) * (r[2] + 1.0f));
            tc = Vec4{{r[0] / m + 0.5f, r[1] / m + 0.5f, 0, 1}}, components = 2;
          }
        } else if (const uint8_t *p = source(set, i)) {
          if (!count) {   // passed through unchanged: a copy
            if (!copy) continue;
            if (set->Type == e.Type) {
              std::memcpy(to, p, decl_type_size(e.Type));
              continue;
            }
          }
          if (!read_element(set->Type, p, tc)) continue;
          // D3D extends the set for the transform: the component after its last is 1, the rest 0.
          components = components_of(set->Type);
          for (UINT c = components; c < 4; ++c) tc.v[c] = c == components ? 1.0f : 0.0f;
        } else {
          continue;
        }
        if (count) {
          tc = row_times(tc, live_.state.transforms[D3DTS_TEXTURE0 + e.UsageIndex]);
          components = count;
        }
        const UINT dst_components = e.Type >= D3DDECLTYPE_FLOAT1 && e.Type <= D3DDECLTYPE_FLOAT4 ? e.Type - D3DDECLTYPE_FLOAT1 + 1u : 0u;
        std::memcpy(to, tc.v, std::min(components, dst_components) * 4);
        continue;
      }
      // Lit colours are computed; anything else (unlit colours, normals, point sizes) is copied
      // from the source's element of the same usage.
      if (lit && e.Usage == D3DDECLUSAGE_COLOR && e.UsageIndex < 2) {
        write_element(e.Type, lit_colors[e.UsageIndex], to);
        continue;
      }
      if (!copy) continue;
      const D3DVERTEXELEMENT9 *from = src_decl.find(e.Usage, e.UsageIndex);
      const uint8_t *p = source(from, i);
      if (p && from->Type == e.Type) {
        std::memcpy(to, p, decl_type_size(e.Type));
      } else if (p && read_element(from->Type, p, other)) {
        write_element(e.Type, other.v, to);
      } else if (e.Usage == D3DDECLUSAGE_COLOR) {
        // A colour the source lacks: the defaults the pipeline uses (diffuse white, specular 0).
        const float white[4] = {1, 1, 1, 1}, zero[4] = {0, 0, 0, 0};
        write_element(e.Type, e.UsageIndex == 0 ? white : zero, to);
      }
    }
  }
  dst->Unlock();
  for (VertexBuffer *b : locked) b->Unlock();
  return D3D_OK;
}

} // namespace novem
