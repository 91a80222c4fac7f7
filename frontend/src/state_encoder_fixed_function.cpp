// The fixed-function pipeline on the device side: the shader keys built from the application's
// state, the generated shaders cached by key, the vertex inputs the fixed-function vertex shader
// reads, and its uniform blocks (frontend/shader/ff/README.md says what each holds).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>

#include "state_encoder.hpp"

#include "device.hpp"
#include "ff_constants.hpp"
#include "conventions.hpp"
#include "ff_shaders.hpp"
#include "math.hpp"
#include "shader.hpp"
#include "texture.hpp"
#include "vertex_declaration.hpp"

namespace novem {

namespace {

float as_float(DWORD bits) { return std::bit_cast<float>(bits); }

// Components of a vertex element the fixed-function shader can read as a float vector (0: none).
uint8_t element_size(BYTE type) {
  switch (type) {
  case D3DDECLTYPE_FLOAT1: return 1;
  case D3DDECLTYPE_FLOAT2: return 2;
  case D3DDECLTYPE_FLOAT3: return 3;
  case D3DDECLTYPE_FLOAT4: case D3DDECLTYPE_D3DCOLOR: return 4;
  default: return 0;
  }
}

D3DMATRIX transpose(const D3DMATRIX &m) {
  D3DMATRIX r{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) r.m[i][j] = m.m[j][i];
  return r;
}

// The inverse by cofactors (a singular matrix has none).
std::optional<D3DMATRIX> inverse(const D3DMATRIX &a) {
  const float *m = &a.m[0][0];
  float inv[16];
  inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] + m[13] * m[6] * m[11] - m[13] * m[7] * m[10];
  inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] - m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10];
  inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] + m[12] * m[5] * m[11] - m[12] * m[7] * m[9];
  inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] - m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9];
  inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] - m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10];
  inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] + m[12] * m[2] * m[11] - m[12] * m[3] * m[10];
  inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] - m[12] * m[1] * m[11] + m[12] * m[3] * m[9];
  inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] + m[12] * m[1] * m[10] - m[12] * m[2] * m[9];
  inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] + m[13] * m[2] * m[7] - m[13] * m[3] * m[6];
  inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] - m[12] * m[2] * m[7] + m[12] * m[3] * m[6];
  inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] + m[12] * m[1] * m[7] - m[12] * m[3] * m[5];
  inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] - m[12] * m[1] * m[6] + m[12] * m[2] * m[5];
  inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] - m[9] * m[2] * m[7] + m[9] * m[3] * m[6];
  inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] + m[8] * m[2] * m[7] - m[8] * m[3] * m[6];
  inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] - m[8] * m[1] * m[7] + m[8] * m[3] * m[5];
  inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] + m[8] * m[1] * m[6] - m[8] * m[2] * m[5];
  const float det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
  if (det == 0.0f) return std::nullopt;
  D3DMATRIX r{};
  for (int i = 0; i < 16; ++i) (&r.m[0][0])[i] = inv[i] / det;
  return r;
}

// What carries normals to view space: the inverse transpose of the world-view matrix. A singular
// one has none, and Windows still lights through it (Wine's lighting_test: a quad under a singular
// world matrix is lit); the matrix itself then carries them, as in wined3d.
D3DMATRIX normal_matrix(const D3DMATRIX &world_view) {
  const std::optional<D3DMATRIX> inv = inverse(world_view);
  return inv ? transpose(*inv) : world_view;
}

// A row vector times a D3D matrix: (x, y, z, w) * m.
void transform_row(const float v[4], const D3DMATRIX &m, float out[4]) {
  for (int j = 0; j < 4; ++j) out[j] = v[0] * m.m[0][j] + v[1] * m.m[1][j] + v[2] * m.m[2][j] + v[3] * m.m[3][j];
}

void store_color(const D3DCOLORVALUE &c, float out[4]) { out[0] = c.r, out[1] = c.g, out[2] = c.b, out[3] = c.a; }

uint8_t texture_op(DWORD op) { return op >= D3DTOP_DISABLE && op <= D3DTOP_LERP ? uint8_t(op) : uint8_t(D3DTOP_DISABLE); }

} // namespace

ff::VertexKey StateEncoder::ff_vertex_key() const {
  const VertexDeclaration &decl = *live().state.vertex_declaration;
  const auto &rs = live().state.render_states;
  ff::VertexKey k;
  k.pretransformed = decl.pretransformed();
  const D3DVERTEXELEMENT9 *normal = decl.find(D3DDECLUSAGE_NORMAL, 0);
  k.has_normal = !k.pretransformed && normal && element_size(normal->Type) >= 3;
  k.has_color0 = decl.find(D3DDECLUSAGE_COLOR, 0) != nullptr;
  k.has_color1 = decl.find(D3DDECLUSAGE_COLOR, 1) != nullptr;
  const D3DVERTEXELEMENT9 *psize = decl.find(D3DDECLUSAGE_PSIZE, 0);
  k.has_psize = psize && element_size(psize->Type) > 0;   // also for pre-transformed points
  for (uint32_t i = 0; i < ff::kStages; ++i)
    if (const D3DVERTEXELEMENT9 *e = decl.find(D3DDECLUSAGE_TEXCOORD, BYTE(i))) k.texcoord_size[i] = element_size(e->Type);
  for (uint32_t s = 0; s < ff::kStages; ++s) {
    const auto &ts = live().state.texture_stage_states[s];
    k.tex_index[s] = uint8_t(ts[D3DTSS_TEXCOORDINDEX] & 7u);
    if (k.pretransformed) continue;
    const DWORD gen = ts[D3DTSS_TEXCOORDINDEX] >> 16;
    k.tex_gen[s] = gen <= ff::kTexGenSphere ? uint8_t(gen) : uint8_t(ff::kTexGenPassThru);
    const DWORD flags = ts[D3DTSS_TEXTURETRANSFORMFLAGS];
    k.tex_transform[s] = uint8_t(std::min<DWORD>(flags & 0xffu, 4));
  }
  if (k.pretransformed) return k;

  if (rs[D3DRS_LIGHTING]) {
    k.lighting = 1;
    k.specular = rs[D3DRS_SPECULARENABLE] != FALSE;
    k.local_viewer = rs[D3DRS_LOCALVIEWER] != FALSE;
    k.normalize = rs[D3DRS_NORMALIZENORMALS] != FALSE;
    // A vertex colour is a material source only with COLORVERTEX and when the vertex has it.
    auto source = [&](DWORD value) -> uint8_t {
      if (!rs[D3DRS_COLORVERTEX]) return ff::kSourceMaterial;
      if (value == D3DMCS_COLOR1 && k.has_color0) return ff::kSourceColor1;
      if (value == D3DMCS_COLOR2 && k.has_color1) return ff::kSourceColor2;
      return ff::kSourceMaterial;
    };
    k.diffuse_source = source(rs[D3DRS_DIFFUSEMATERIALSOURCE]);
    k.ambient_source = source(rs[D3DRS_AMBIENTMATERIALSOURCE]);
    k.specular_source = source(rs[D3DRS_SPECULARMATERIALSOURCE]);
    k.emissive_source = source(rs[D3DRS_EMISSIVEMATERIALSOURCE]);
    uint32_t n = 0;
    for (const auto &[index, slot] : live().state.lights)
      if (slot.enabled && n < ff::kLights) k.light_type[n++] = uint8_t(slot.light.Type);
  }
  // Vertex blending: D3DVBF_1..3WEIGHTS blend 2..4 matrices; D3DVBF_0WEIGHTS one (with indices:
  // the one the vertex names). D3DVBF_TWEENING blends POSITION0/1 and NORMAL0/1 by TWEENFACTOR
  // instead, with the world matrix alone (what the vertex lacks is not blended).
  const DWORD blend = rs[D3DRS_VERTEXBLEND];
  if (blend == D3DVBF_TWEENING) {
    const D3DVERTEXELEMENT9 *position1 = decl.find(D3DDECLUSAGE_POSITION, 1);
    const D3DVERTEXELEMENT9 *normal1 = decl.find(D3DDECLUSAGE_NORMAL, 1);
    k.tween_position = position1 && element_size(position1->Type) >= 3;
    k.tween_normal = k.has_normal && normal1 && element_size(normal1->Type) >= 3;
  }
  const D3DVERTEXELEMENT9 *weights = decl.find(D3DDECLUSAGE_BLENDWEIGHT, 0);
  const D3DVERTEXELEMENT9 *indices = decl.find(D3DDECLUSAGE_BLENDINDICES, 0);
  uint8_t matrices = blend >= D3DVBF_1WEIGHTS && blend <= D3DVBF_3WEIGHTS ? uint8_t(blend + 1) : blend == D3DVBF_0WEIGHTS ? 1 : 0;
  k.blend_indexed = matrices && rs[D3DRS_INDEXEDVERTEXBLENDENABLE] && indices && element_size(indices->Type) == 4;
  if (matrices == 1 && !k.blend_indexed) matrices = 0;   // the world matrix alone
  k.blend_matrices = matrices;
  k.blend_weights = matrices > 1 && weights ? element_size(weights->Type) : 0;
  k.blend_indices_color = k.blend_indexed && indices->Type == D3DDECLTYPE_D3DCOLOR;
  // Vertex fog: FOGVERTEXMODE when fog is on and no table (pixel) fog mode is set.
  if (rs[D3DRS_FOGENABLE] && rs[D3DRS_FOGTABLEMODE] == D3DFOG_NONE && rs[D3DRS_FOGVERTEXMODE] <= D3DFOG_LINEAR) {
    k.fog_mode = uint8_t(rs[D3DRS_FOGVERTEXMODE]);
    k.fog_range = k.fog_mode && rs[D3DRS_RANGEFOGENABLE];
  }
  k.clip_planes = clip_planes();
  k.point_scale = rs[D3DRS_POINTSCALEENABLE] != FALSE;
  return k;
}

ff::PixelKey StateEncoder::ff_pixel_key(D3DPRIMITIVETYPE type) const {
  const auto &rs = live().state.render_states;
  ff::PixelKey k;
  for (uint32_t s = 0; s < ff::kStages; ++s) {
    const auto &ts = live().state.texture_stage_states[s];
    ff::PixelStage &st = k.stage[s];
    st.color_op = texture_op(ts[D3DTSS_COLOROP]);
    if (st.color_op == D3DTOP_DISABLE) break;   // the stages after it are off too
    st.color_arg[0] = uint8_t(ts[D3DTSS_COLORARG0] & 0x3f);
    st.color_arg[1] = uint8_t(ts[D3DTSS_COLORARG1] & 0x3f);
    st.color_arg[2] = uint8_t(ts[D3DTSS_COLORARG2] & 0x3f);
    st.alpha_op = texture_op(ts[D3DTSS_ALPHAOP]);
    st.alpha_arg[0] = uint8_t(ts[D3DTSS_ALPHAARG0] & 0x3f);
    st.alpha_arg[1] = uint8_t(ts[D3DTSS_ALPHAARG1] & 0x3f);
    st.alpha_arg[2] = uint8_t(ts[D3DTSS_ALPHAARG2] & 0x3f);
    st.result_temp = (ts[D3DTSS_RESULTARG] & D3DTA_SELECTMASK) == D3DTA_TEMP;
    // SetTexture marks the pipeline dirty only when a stage's ff_texture_kind changes: a key
    // field that reads more of the texture must widen that test.
    st.texture = ff_texture_kind(live().state.textures[s]);
    const DWORD flags = ts[D3DTSS_TEXTURETRANSFORMFLAGS];
    if (flags & D3DTTFF_PROJECTED) {
      const DWORD count = flags & 0xffu;
      st.projected = uint8_t(count >= 2 && count <= 4 ? count : 4);
    }
    // The fixed-function vertex shader writes stage n's coordinates to TEXCOORDn; with a vertex
    // shader, the stage reads the set TEXCOORDINDEX names.
    st.coord_location = live().state.vertex_shader ? uint8_t(ts[D3DTSS_TEXCOORDINDEX] & 7u) : uint8_t(s);
  }
  if (rs[D3DRS_FOGENABLE]) {
    switch (rs[D3DRS_FOGTABLEMODE]) {
    case D3DFOG_LINEAR: k.fog = ff::kFogLinear; break;
    case D3DFOG_EXP: k.fog = ff::kFogExp; break;
    case D3DFOG_EXP2: k.fog = ff::kFogExp2; break;
    default: k.fog = ff::kFogVarying; break;
    }
    // Table fog is w-based (eye depth) with a perspective projection (_34 != 0), z-based otherwise.
    k.fog_w = k.fog >= ff::kFogLinear && live().state.transforms[D3DTS_PROJECTION].m[2][3] != 0.0f;
  }
  if (rs[D3DRS_ALPHATESTENABLE] && rs[D3DRS_ALPHAFUNC] >= D3DCMP_NEVER && rs[D3DRS_ALPHAFUNC] <= D3DCMP_ALWAYS)
    k.alpha_func = uint8_t(rs[D3DRS_ALPHAFUNC]);
  k.specular_add = rs[D3DRS_SPECULARENABLE] != FALSE;
  k.flat = rs[D3DRS_SHADEMODE] == D3DSHADE_FLAT;
  // The fixed-function vertex shader and a vertex shader's epilogue both write the distances.
  k.clip_planes = clip_planes();
  if (live().state.vertex_shader) {
    // Only what the vertex shader writes can be read.
    k.texcoord_inputs = 0, k.color_inputs = 0, k.fog_input = 0;
    for (const auto &out : live().state.vertex_shader->compiled().reflection.outputs) {
      if (out.location < ff::kStages) k.texcoord_inputs |= uint8_t(1u << out.location);
      else if (out.location == d3d9::conv::kLocationColor) k.color_inputs |= 1;
      else if (out.location == d3d9::conv::kLocationColor + 1) k.color_inputs |= 2;
      else if (out.location == d3d9::conv::kLocationFog) k.fog_input = 1;
    }
  }
  k.point_sprite = type == D3DPT_POINTLIST && rs[D3DRS_POINTSPRITEENABLE];
  return k;
}

uint32_t StateEncoder::ff_vertex_shader(const ff::VertexKey &key) {
  auto [it, inserted] = ff_vertex_shaders_.try_emplace(key, 0);
  if (inserted) it->second = create_shader(NV_STAGE_VERTEX, ff::build_vertex_shader(key));
  return it->second;
}

uint32_t StateEncoder::ff_pixel_shader(const ff::PixelKey &key) {
  auto [it, inserted] = ff_pixel_shaders_.try_emplace(key, 0);
  if (inserted) it->second = create_shader(NV_STAGE_PIXEL, ff::build_pixel_shader(key));
  // The slots the shader samples: stages with a texture whose value is read.
  ff_samplers_ = 0;
  for (uint32_t s = 0; s < ff::kStages && key.stage[s].color_op != D3DTOP_DISABLE; ++s)
    if (key.stage[s].texture != ff::kTextureNone) ff_samplers_ |= 1u << s;
  return it->second;
}

void StateEncoder::flush_ff_vertex_constants() {
  ff::VertexConstants c{};
  const auto &rs = live().state.render_states;
  const D3DMATRIX &view = live().state.transforms[D3DTS_VIEW];
  for (uint32_t n = 0; n < ff::kBlendMatrices; ++n) {
    const D3DMATRIX world_view = multiply(live().state.transforms[256 + n], view);   // D3DTS_WORLDMATRIX(n)
    const D3DMATRIX normal = normal_matrix(world_view);
    std::memcpy(c.world_view[n], &world_view, sizeof c.world_view[n]);
    std::memcpy(c.normal_matrix[n], &normal, sizeof c.normal_matrix[n]);
  }
  std::memcpy(c.projection, &live().state.transforms[D3DTS_PROJECTION], sizeof c.projection);
  for (uint32_t s = 0; s < ff::kStages; ++s)
    std::memcpy(c.texture[s], &live().state.transforms[D3DTS_TEXTURE0 + s], sizeof c.texture[s]);
  // The enabled lights in the key's order, in view space.
  uint32_t n = 0;
  for (const auto &[index, slot] : live().state.lights) {
    if (!slot.enabled || n == ff::kLights) continue;
    const D3DLIGHT9 &l = slot.light;
    ff::Light &out = c.light[n++];
    store_color(l.Diffuse, out.diffuse);
    store_color(l.Specular, out.specular);
    store_color(l.Ambient, out.ambient);
    const float position[4] = {l.Position.x, l.Position.y, l.Position.z, 1.0f};
    transform_row(position, view, out.position);
    const float direction[4] = {l.Direction.x, l.Direction.y, l.Direction.z, 0.0f};
    float d[4];
    transform_row(direction, view, d);
    const float length = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int i = 0; i < 3; ++i) out.direction[i] = length > 0.0f ? -d[i] / length : 0.0f;
    out.range_att[0] = l.Range, out.range_att[1] = l.Attenuation0, out.range_att[2] = l.Attenuation1, out.range_att[3] = l.Attenuation2;
    out.spot[0] = std::cos(l.Theta / 2.0f), out.spot[1] = std::cos(l.Phi / 2.0f), out.spot[2] = l.Falloff;
  }
  store_color(live().state.material.Diffuse, c.material_diffuse);
  store_color(live().state.material.Ambient, c.material_ambient);
  store_color(live().state.material.Specular, c.material_specular);
  store_color(live().state.material.Emissive, c.material_emissive);
  c.material_power[0] = live().state.material.Power;
  color_to_floats(rs[D3DRS_AMBIENT], c.ambient);
  c.fog[0] = as_float(rs[D3DRS_FOGSTART]), c.fog[1] = as_float(rs[D3DRS_FOGEND]), c.fog[2] = as_float(rs[D3DRS_FOGDENSITY]);
  // World-space planes to view space: d = x . p with x = v * View^-1, so the plane is View^-1 p.
  const D3DMATRIX view_inverse = inverse(view).value_or(D3DMATRIX{}); // a singular view sees no plane
  for (uint32_t i = 0; i < ff::kClipPlanes; ++i)
    for (int r = 0; r < 4; ++r) {
      const auto &p = live().state.clip_planes[i];
      c.clip_plane[i][r] = view_inverse.m[r][0] * p[0] + view_inverse.m[r][1] * p[1] + view_inverse.m[r][2] * p[2] + view_inverse.m[r][3] * p[3];
    }
  const D3DVIEWPORT9 &vp = live().state.viewport;
  c.viewport[0] = float(vp.X), c.viewport[1] = float(vp.Y);
  c.viewport[2] = 2.0f / float(vp.Width), c.viewport[3] = -2.0f / float(vp.Height);
  c.point[0] = as_float(rs[D3DRS_POINTSIZE]);
  c.point[1] = as_float(rs[D3DRS_POINTSIZE_MIN]);
  c.point[2] = std::min(as_float(rs[D3DRS_POINTSIZE_MAX]), adapter().max_point_size);
  c.point[3] = float(vp.Height);
  c.point_scale[0] = as_float(rs[D3DRS_POINTSCALE_A]);
  c.point_scale[1] = as_float(rs[D3DRS_POINTSCALE_B]);
  c.point_scale[2] = as_float(rs[D3DRS_POINTSCALE_C]);
  c.tween[0] = as_float(rs[D3DRS_TWEENFACTOR]);

  auto *args = commands().begin<nv_cmd_set_constants>(sizeof c);
  *args = nv_cmd_set_constants{NV_STAGE_VERTEX, uint32_t(sizeof c)};
  std::memcpy(command_payload(args), &c, sizeof c);
  commands().commit();
  // The stage's block now holds these, not a shader's constants (flush_state resends theirs).
  sent_constants_[NV_STAGE_VERTEX] = Constants::kFixedFunction;
}

void StateEncoder::flush_ff_pixel_constants() {
  ff::PixelConstants c{};
  const auto &rs = live().state.render_states;
  color_to_floats(rs[D3DRS_TEXTUREFACTOR], c.texture_factor);
  for (uint32_t s = 0; s < ff::kStages; ++s) {
    const auto &ts = live().state.texture_stage_states[s];
    color_to_floats(ts[D3DTSS_CONSTANT], c.constant[s]);
    c.bumpenv_mat[s][0] = as_float(ts[D3DTSS_BUMPENVMAT00]);
    c.bumpenv_mat[s][1] = as_float(ts[D3DTSS_BUMPENVMAT01]);
    c.bumpenv_mat[s][2] = as_float(ts[D3DTSS_BUMPENVMAT10]);
    c.bumpenv_mat[s][3] = as_float(ts[D3DTSS_BUMPENVMAT11]);
    c.bumpenv_lum[s][0] = as_float(ts[D3DTSS_BUMPENVLSCALE]);
    c.bumpenv_lum[s][1] = as_float(ts[D3DTSS_BUMPENVLOFFSET]);
  }
  color_to_floats(rs[D3DRS_FOGCOLOR], c.fog_color);
  c.fog[0] = as_float(rs[D3DRS_FOGSTART]), c.fog[1] = as_float(rs[D3DRS_FOGEND]), c.fog[2] = as_float(rs[D3DRS_FOGDENSITY]);
  c.fog[3] = float(rs[D3DRS_ALPHAREF] & 0xffu);   // compared with the alpha as 0..255
  auto *args = commands().begin<nv_cmd_set_constants>(sizeof c);
  *args = nv_cmd_set_constants{NV_STAGE_PIXEL, uint32_t(sizeof c)};
  std::memcpy(command_payload(args), &c, sizeof c);
  commands().commit();
  // The stage's block now holds these, not a shader's constants (flush_state resends theirs).
  sent_constants_[NV_STAGE_PIXEL] = Constants::kFixedFunction;
}

} // namespace novem
