// The fixed-function vertex shader generator (README.md: what it computes, after D3D9's
// "Vertex Blending", "Mathematics of Lighting", "Attenuation and Spotlight Factor",
// "Texture Coordinate Processing" and "Fog Formulas" pages).
#include "ff_constants.hpp"
#include "ff_emit.hpp"
#include "ff_epilogue.hpp"
#include "ff_shaders.hpp"

#include "conventions.hpp"

namespace novem::ff {

namespace {

using Id = SpirvBuilder::Id;
namespace conv = novem::d3d9::conv;
static_assert(kLocationClip0 == conv::kLocationClipDistance0 && kLocationClip1 == conv::kLocationClipDistance1);

class VertexGenerator {
public:
  explicit VertexGenerator(const VertexKey& key) : k_(key) {}
  std::vector<uint32_t> build();

private:
  void declare_interface();
  void transform();
  void light();
  void texcoords();
  void fog();
  void point_size();
  void clip_distances();
  Id vertex_texcoord(uint32_t set);   // TEXCOORDn of the vertex as D3D extends it for a transform
  Id material(uint8_t source, uint32_t material_index);

  const VertexKey& k_;
  Emitter e_;
  SpirvBuilder& b_ = e_.b;

  Id per_vertex_ = 0, in_position_ = 0, in_weight_ = 0, in_indices_ = 0, in_normal_ = 0, in_psize_ = 0;
  Id in_position1_ = 0, in_normal1_ = 0;
  Id in_color_[2] = {}, in_texcoord_[kStages] = {};
  Id out_color_[2] = {}, out_texcoord_[kStages] = {}, out_fog_ = 0, out_clip_[2] = {};

  Id position_ = 0;         // the vertex position input
  Id view_ = 0;             // view-space position (vec4, w = 1)
  Id normal_ = 0;           // view-space normal (vec3)
  Id clip_ = 0;             // clip-space position
  Id color_[2] = {};        // vertex colours (defaults filled)
  Id out_diffuse_ = 0, out_specular_ = 0;
};

std::vector<uint32_t> VertexGenerator::build() {
  e_.declare_block(vs::kCount, conv::kVertexUniformSet, conv::kVertexUniformBinding, "FFVertexConstants");
  declare_interface();
  const Id main_fn = b_.begin_function(e_.t_void, {}, "main");
  position_ = b_.load(in_position_);
  color_[0] = k_.has_color0 ? b_.load(in_color_[0]) : e_.v4(1, 1, 1, 1);   // D3D9's default diffuse
  color_[1] = k_.has_color1 ? b_.load(in_color_[1]) : e_.v4(0, 0, 0, 0);   // and specular
  transform();
  out_diffuse_ = color_[0];
  out_specular_ = color_[1];
  if (k_.lighting && !k_.pretransformed) light();
  b_.store(out_color_[0], out_diffuse_);
  b_.store(out_color_[1], out_specular_);
  texcoords();
  fog();
  point_size();
  clip_distances();
  b_.store(b_.access_chain(per_vertex_, {b_.const_int(0)}), clip_);
  b_.end_function();
  b_.entry_point(spv::ExecutionModel::Vertex, main_fn, "main", b_.interface_variables());
  return b_.finish();
}

void VertexGenerator::declare_interface() {
  const Id t_per_vertex = b_.type_struct({e_.t_vec4, e_.t_float});
  b_.name(t_per_vertex, "gl_PerVertex");
  b_.decorate(t_per_vertex, spv::Decoration::Block);
  b_.member_decorate(t_per_vertex, 0, spv::Decoration::BuiltIn, {uint32_t(spv::BuiltIn::Position)});
  b_.member_decorate(t_per_vertex, 1, spv::Decoration::BuiltIn, {uint32_t(spv::BuiltIn::PointSize)});
  per_vertex_ = b_.variable(spv::StorageClass::Output, t_per_vertex);

  in_position_ = e_.input(kInPosition, "in_position");
  if (!k_.pretransformed) {
    if (k_.blend_matrices > 1 && k_.blend_weights) in_weight_ = e_.input(kInBlendWeight, "in_blendweight");
    if (k_.blend_indexed && k_.blend_matrices) in_indices_ = e_.input(kInBlendIndices, "in_blendindices");
    if (k_.has_normal) in_normal_ = e_.input(kInNormal, "in_normal");
    if (k_.tween_position) in_position1_ = e_.input(kInPosition1, "in_position1");
    if (k_.tween_normal) in_normal1_ = e_.input(kInNormal1, "in_normal1");
  }
  if (k_.has_psize) in_psize_ = e_.input(kInPSize, "in_psize");
  if (k_.has_color0) in_color_[0] = e_.input(kInColor0, "in_color0");
  if (k_.has_color1) in_color_[1] = e_.input(kInColor1, "in_color1");
  for (uint32_t i = 0; i < kStages; ++i)
    if (k_.texcoord_size[i]) in_texcoord_[i] = e_.input(kInTexcoord0 + i, "in_texcoord");
  out_color_[0] = e_.output(conv::kLocationColor, "out_diffuse");
  out_color_[1] = e_.output(conv::kLocationColor + 1, "out_specular");
  for (uint32_t i = 0; i < kStages; ++i) out_texcoord_[i] = e_.output(conv::kLocationTexcoord + i, "out_texcoord");
  out_fog_ = e_.output(conv::kLocationFog, "out_fog");
  if (k_.clip_planes) {
    out_clip_[0] = e_.output(kLocationClip0, "out_clip0");
    if (k_.clip_planes & 0x30) out_clip_[1] = e_.output(kLocationClip1, "out_clip1");
  }
}

// Position (and normal) to view space, blended over the world matrices, then to clip space.
void VertexGenerator::transform() {
  if (k_.pretransformed) {
    // Window coordinates back to clip space: ndc.xy = (pos.xy - viewport.xy) * viewport.zw + (-1, 1),
    // w = 1 / rhw (rhw = 0, undefined in D3D9, gives w = 1), clip = (ndc * w, w) so that
    // attributes interpolate perspective-correctly as in D3D9. z is the final depth: these draws
    // get the depth range [0, 1] (StateEncoder::flush_state) and a pipeline that clamps to it
    // per pixel rather than clipping, as Windows' drivers without D3DPMISCCAPS_CLIPTLVERTS do.
    const Id vp = e_.uvec(vs::kViewport);
    const Id pos_xy = b_.swizzle(position_, {0, 1});
    const Id origin = b_.swizzle(vp, {0, 1});
    const Id scale = b_.swizzle(vp, {2, 3});
    const Id bias = b_.const_fvec({-1.0f, 1.0f});
    const Id ndc_xy = b_.fadd(b_.fmul(b_.fsub(pos_xy, origin), scale), bias);
    const Id ndc_z = e_.comp(position_, 2);
    const Id rhw = e_.comp(position_, 3);
    const Id rhw_zero = b_.compare(spv::Op::OpFOrdEqual, rhw, e_.f(0.0f));
    const Id inv_rhw = b_.fdiv(e_.f(1.0f), rhw);
    const Id w = b_.select(rhw_zero, e_.f(1.0f), inv_rhw);
    const Id clip_xy = b_.vector_times_scalar(ndc_xy, w);
    const Id clip_z = b_.fmul(ndc_z, w);
    clip_ = b_.composite_construct(e_.t_vec4, {clip_xy, clip_z, w});
    view_ = position_;
    normal_ = e_.v3(0, 0, 0);
    return;
  }
  Id pos_xyz = e_.xyz(position_);
  Id normal_in = k_.has_normal ? e_.xyz(b_.load(in_normal_)) : e_.v3(0, 0, 0);
  // Tweening (D3DVBF_TWEENING): POSITION = POSITION0 (1 - TWEENFACTOR) + POSITION1 TWEENFACTOR,
  // the normals likewise, before the world matrix.
  if (k_.tween_position || k_.tween_normal) {
    const Id factor = e_.comp(e_.uvec(vs::kTween), 0);
    auto lerp = [&](Id a, Id b) { return b_.glsl(GLSLstd450FMix, {a, b, e_.splat3(factor)}); };
    if (k_.tween_position) pos_xyz = lerp(pos_xyz, e_.xyz(b_.load(in_position1_)));
    if (k_.tween_normal) normal_in = lerp(normal_in, e_.xyz(b_.load(in_normal1_)));
  }
  const Id pos = e_.vec4_of(pos_xyz, e_.f(1.0f));
  const uint32_t matrices = k_.blend_matrices ? k_.blend_matrices : 1;
  Id weights = 0, indices = 0;
  if (in_weight_) weights = b_.load(in_weight_);
  if (in_indices_) {
    // D3DCOLOR indices hold index 0 in the byte that reads as .z (the vertex format's BGRA order).
    Id raw = b_.load(in_indices_);
    if (k_.blend_indices_color) raw = b_.vector_times_scalar(b_.swizzle(raw, {2, 1, 0, 3}), e_.f(255.0f));
    const Id rounded = b_.glsl(GLSLstd450Floor, {b_.fadd(raw, e_.splat4(e_.f(0.5f)))});
    const Id clamped = b_.glsl(GLSLstd450FClamp, {rounded, e_.splat4(e_.f(0.0f)), e_.splat4(e_.f(float(kBlendMatrices - 1)))});
    indices = b_.convert(spv::Op::OpConvertFToS, b_.type_ivec(4), clamped);
  }
  Id view = 0, normal = 0, weight_sum = e_.f(0.0f);
  for (uint32_t i = 0; i < matrices; ++i) {
    // Weight i from the vertex (a missing one reads 0); the last matrix gets 1 - the others' sum.
    Id w;
    if (i + 1 < matrices) {
      w = weights ? e_.comp(weights, i) : e_.f(0.0f);
      weight_sum = b_.fadd(weight_sum, w);
    } else {
      w = b_.fsub(e_.f(1.0f), weight_sum);
    }
    Id m, n;
    if (indices) {
      const Id index = b_.composite_extract(indices, {i});
      const Id base = b_.imul(index, b_.const_int(4));
      const Id wv_base = b_.const_int(int32_t(vs::kWorldView));
      m = e_.umat_dynamic(b_.iadd(base, wv_base));
      const Id n_base = b_.const_int(int32_t(vs::kNormalMatrix));
      n = e_.umat_dynamic(b_.iadd(base, n_base));
    } else {
      m = e_.umat(vs::kWorldView + 4 * i);
      n = e_.umat(vs::kNormalMatrix + 4 * i);
    }
    const Id p = b_.vector_times_scalar(b_.matrix_times_vector(m, pos), w);
    const Id normal4 = e_.vec4_of(normal_in, e_.f(0.0f));
    const Id nv = e_.xyz(b_.matrix_times_vector(n, normal4));
    const Id nw = b_.vector_times_scalar(nv, w);
    view = view ? b_.fadd(view, p) : p;
    normal = normal ? b_.fadd(normal, nw) : nw;
  }
  view_ = view;
  normal_ = k_.normalize && k_.has_normal ? b_.glsl(GLSLstd450Normalize, {normal}) : normal;
  clip_ = b_.matrix_times_vector(e_.umat(vs::kProjection), view_);
}

Id VertexGenerator::material(uint8_t source, uint32_t material_index) {
  if (source == kSourceColor1) return color_[0];
  if (source == kSourceColor2) return color_[1];
  return e_.uvec(material_index);
}

// D3D9's lighting, in view space:
//   diffuse  = Ce + Ca * (Ga + sum(La_i * Atten_i * Spot_i)) + Cd * sum(Ld_i * max(N.L_i, 0) * Atten_i * Spot_i)
//   specular = Cs * sum(Ls_i * max(N.H_i, 0)^P * Atten_i * Spot_i), only where N.L_i > 0
//   Atten = 1 / (a0 + a1 d + a2 d^2), 0 beyond Range (directional: 1)
//   Spot = 1 inside Theta, 0 outside Phi, ((rho - cos(Phi/2)) / (cos(Theta/2) - cos(Phi/2)))^Falloff between
//   H = normalize(L + V), V = normalize(-position) with LOCALVIEWER, else (0, 0, -1)
// Diffuse alpha is Cd's, specular alpha Cs's; both clamped to [0, 1].
void VertexGenerator::light() {
  const Id cd = material(k_.diffuse_source, vs::kMaterialDiffuse);
  const Id ca = material(k_.ambient_source, vs::kMaterialAmbient);
  const Id cs = material(k_.specular_source, vs::kMaterialSpecular);
  const Id ce = material(k_.emissive_source, vs::kMaterialEmissive);
  const Id power = e_.comp(e_.uvec(vs::kMaterialPower), 0);
  const Id pos = e_.xyz(view_);
  Id viewer = e_.v3(0, 0, -1);
  if (k_.specular && k_.local_viewer) viewer = b_.glsl(GLSLstd450Normalize, {b_.fnegate(pos)});
  Id ambient = e_.xyz(e_.uvec(vs::kAmbient));
  Id diffuse = e_.v3(0, 0, 0), specular = e_.v3(0, 0, 0);
  for (uint32_t i = 0; i < kLights; ++i) {
    const uint8_t type = k_.light_type[i];
    if (type == kLightNone) continue;
    const uint32_t base = vs::kLight + i * vs::kLightSize;
    const Id l_diffuse = e_.xyz(e_.uvec(base + 0));
    const Id l_specular = e_.xyz(e_.uvec(base + 1));
    const Id l_ambient = e_.xyz(e_.uvec(base + 2));
    Id dir, factor;
    if (type == kLightDirectional) {
      dir = e_.xyz(e_.uvec(base + 4));
      factor = e_.f(1.0f);
    } else {
      const Id to_light = b_.fsub(e_.xyz(e_.uvec(base + 3)), pos);
      const Id dist = b_.glsl(GLSLstd450Length, {to_light});
      dir = b_.vector_times_scalar(to_light, b_.fdiv(e_.f(1.0f), dist));
      const Id ra = e_.uvec(base + 5);
      const Id a1d = b_.fmul(e_.comp(ra, 2), dist);
      const Id dd = b_.fmul(dist, dist);
      const Id a2dd = b_.fmul(e_.comp(ra, 3), dd);
      const Id denom = b_.fadd(b_.fadd(e_.comp(ra, 1), a1d), a2dd);
      const Id atten = b_.fdiv(e_.f(1.0f), denom);
      const Id in_range = b_.compare(spv::Op::OpFOrdLessThanEqual, dist, e_.comp(ra, 0));
      factor = b_.select(in_range, atten, e_.f(0.0f));
      if (type == kLightSpot) {
        const Id sp = e_.uvec(base + 6);
        const Id cos_theta = e_.comp(sp, 0);
        const Id cos_phi = e_.comp(sp, 1);
        const Id rho = b_.dot(e_.xyz(e_.uvec(base + 4)), dir);
        const Id num = b_.fsub(rho, cos_phi);
        const Id t = b_.fdiv(num, b_.fsub(cos_theta, cos_phi));
        const Id between = b_.glsl(GLSLstd450Pow, {e_.max0(t), e_.comp(sp, 2)});
        const Id inside = b_.compare(spv::Op::OpFOrdGreaterThan, rho, cos_theta);
        const Id outside = b_.compare(spv::Op::OpFOrdLessThanEqual, rho, cos_phi);
        const Id partial = b_.select(inside, e_.f(1.0f), between);
        const Id spot = b_.select(outside, e_.f(0.0f), partial);
        factor = b_.fmul(factor, spot);
      }
    }
    ambient = b_.fadd(ambient, b_.vector_times_scalar(l_ambient, factor));
    const Id n_dot_l = b_.dot(normal_, dir);
    const Id lambert = b_.fmul(e_.max0(n_dot_l), factor);
    diffuse = b_.fadd(diffuse, b_.vector_times_scalar(l_diffuse, lambert));
    if (k_.specular) {
      const Id half = b_.glsl(GLSLstd450Normalize, {b_.fadd(dir, viewer)});
      const Id n_dot_h = e_.max0(b_.dot(normal_, half));
      const Id lit = b_.compare(spv::Op::OpFOrdGreaterThan, n_dot_l, e_.f(0.0f));
      const Id highlight = b_.fmul(b_.glsl(GLSLstd450Pow, {n_dot_h, power}), factor);
      const Id amount = b_.select(lit, highlight, e_.f(0.0f));
      specular = b_.fadd(specular, b_.vector_times_scalar(l_specular, amount));
    }
  }
  const Id lit_ambient = b_.fmul(e_.xyz(ca), ambient);
  const Id lit_diffuse = b_.fmul(e_.xyz(cd), diffuse);
  const Id rgb = b_.fadd(b_.fadd(e_.xyz(ce), lit_ambient), lit_diffuse);
  const Id cd_alpha = e_.comp(cd, 3);
  out_diffuse_ = e_.clamp01(e_.vec4_of(rgb, cd_alpha));
  if (k_.specular) {
    const Id spec_rgb = b_.fmul(e_.xyz(cs), specular);
    const Id cs_alpha = e_.comp(cs, 3);
    out_specular_ = e_.clamp01(e_.vec4_of(spec_rgb, cs_alpha));
  } else {
    out_specular_ = e_.v4(0, 0, 0, 0);
  }
}

// TEXCOORDn as a 4-vector for the texture transform: the component after the last one the vertex
// has is 1, the others 0 (so that a 2D coordinate (u, v, 1, 0) is translated by _31, _32).
Id VertexGenerator::vertex_texcoord(uint32_t set) {
  const uint8_t size = k_.texcoord_size[set];
  if (!size) return e_.v4(0, 0, 0, 1);
  const Id tc = b_.load(in_texcoord_[set]);
  const Id zero = e_.f(0.0f), one = e_.f(1.0f);
  switch (size) {
  case 1: return b_.composite_construct(e_.t_vec4, {e_.comp(tc, 0), one, zero, zero});
  case 2: return b_.composite_construct(e_.t_vec4, {b_.swizzle(tc, {0, 1}), one, zero});
  case 3: return e_.vec4_of(e_.xyz(tc), one);
  default: return tc;
  }
}

// Per stage: the generated or vertex coordinates, through the stage's texture transform.
void VertexGenerator::texcoords() {
  for (uint32_t s = 0; s < kStages; ++s) {
    const uint32_t set = k_.tex_index[s] & 7u;
    Id tc;
    if (k_.pretransformed) {
      // D3D9 leaves transformed vertices' coordinates alone.
      tc = k_.texcoord_size[set] ? b_.load(in_texcoord_[set]) : e_.v4(0, 0, 0, 1);
      b_.store(out_texcoord_[s], tc);
      continue;
    }
    const Id one = e_.f(1.0f);
    switch (k_.tex_gen[s]) {
    case kTexGenNormal: tc = e_.vec4_of(normal_, one); break;
    case kTexGenPosition: tc = e_.vec4_of(e_.xyz(view_), one); break;
    case kTexGenReflection:
    case kTexGenSphere: {
      // R = I - 2 (N.I) N, with I the eye-to-vertex direction: normalize(position) with
      // LOCALVIEWER, else (0, 0, 1).
      const Id incident = k_.local_viewer ? b_.glsl(GLSLstd450Normalize, {e_.xyz(view_)}) : e_.v3(0, 0, 1);
      const Id r = b_.glsl(GLSLstd450Reflect, {incident, normal_});
      if (k_.tex_gen[s] == kTexGenReflection) {
        tc = e_.vec4_of(r, one);
      } else {
        // Sphere map: m = 2 sqrt(Rx^2 + Ry^2 + (Rz + 1)^2), (u, v) = R.xy / m + 0.5.
        const Id r1 = b_.fadd(r, e_.v3(0, 0, 1));
        const Id m = b_.fmul(e_.f(2.0f), b_.glsl(GLSLstd450Length, {r1}));
        const Id inv_m = b_.fdiv(one, m);
        const Id r_xy = b_.swizzle(r, {0, 1});
        const Id half = b_.const_fvec({0.5f, 0.5f});
        const Id uv = b_.fadd(b_.vector_times_scalar(r_xy, inv_m), half);
        tc = b_.composite_construct(e_.t_vec4, {uv, e_.f(0.0f), one});
      }
      break;
    }
    default: tc = k_.tex_transform[s] ? vertex_texcoord(set) : (k_.texcoord_size[set] ? b_.load(in_texcoord_[set]) : e_.v4(0, 0, 0, 1));
    }
    if (k_.tex_transform[s]) tc = b_.matrix_times_vector(e_.umat(vs::kTexture + 4 * s), tc);
    b_.store(out_texcoord_[s], tc);
  }
}

// FOG varying: the vertex fog factor (D3D9's Fog Formulas over the view-space depth's magnitude,
// or the distance with RANGEFOGENABLE), else the specular alpha, which D3D9 uses as the fog factor when
// no fog mode is set; 1 (no fog) when the vertex has no specular colour.
void VertexGenerator::fog() {
  Id factor;
  if (k_.fog_mode && !k_.pretransformed) {
    const Id params = e_.uvec(vs::kFog);
    // A vertex behind the eye (negative view z, as under a right-handed view) fogs as one as far
    // in front: Windows' drivers take |z| (Wine's test_negative_fixedfunction_fog; wined3d and
    // DXVK alike).
    const Id d = k_.fog_range ? b_.glsl(GLSLstd450Length, {e_.xyz(view_)}) : b_.glsl(GLSLstd450FAbs, {e_.comp(view_, 2)});
    if (k_.fog_mode == 3 /* D3DFOG_LINEAR */) {
      const Id end = e_.comp(params, 1);
      const Id start = e_.comp(params, 0);
      factor = linear_fog(b_, d, start, end);
    } else {
      Id x = b_.fmul(d, e_.comp(params, 2));
      if (k_.fog_mode == 2 /* D3DFOG_EXP2 */) x = b_.fmul(x, x);
      factor = b_.glsl(GLSLstd450Exp, {b_.fnegate(x)});
    }
    factor = e_.clamp01(factor);
  } else {
    factor = k_.has_color1 ? e_.comp(color_[1], 3) : e_.f(1.0f);
  }
  b_.store(out_fog_, e_.splat4(factor));
}

// PointSize: the vertex's PSIZE or D3DRS_POINTSIZE; with POINTSCALEENABLE
// size = ViewportHeight * size * sqrt(1 / (A + B De + C De^2)), De the eye distance;
// clamped to [POINTSIZE_MIN, POINTSIZE_MAX].
void VertexGenerator::point_size() {
  const Id point = e_.uvec(vs::kPoint);
  Id size = in_psize_ ? e_.comp(b_.load(in_psize_), 0) : e_.comp(point, 0);
  if (k_.point_scale && !k_.pretransformed) {
    const Id abc = e_.uvec(vs::kPointScale);
    const Id de = b_.glsl(GLSLstd450Length, {e_.xyz(view_)});
    const Id bd = b_.fmul(e_.comp(abc, 1), de);
    const Id dede = b_.fmul(de, de);
    const Id cdd = b_.fmul(e_.comp(abc, 2), dede);
    const Id denom = b_.fadd(b_.fadd(e_.comp(abc, 0), bd), cdd);
    const Id scale = b_.glsl(GLSLstd450Sqrt, {b_.fdiv(e_.f(1.0f), denom)});
    size = b_.fmul(b_.fmul(e_.comp(point, 3), size), scale);
  }
  size = b_.glsl(GLSLstd450FClamp, {size, e_.comp(point, 1), e_.comp(point, 2)});
  b_.store(b_.access_chain(per_vertex_, {b_.const_int(1)}), size);
}

// User clip planes (world-space planes, sent in view space): the signed distances go to the pixel
// shader, which discards where the interpolated distance is negative (exact: the distance is
// linear in the position). Planes not enabled read +1.
void VertexGenerator::clip_distances() {
  if (!k_.clip_planes) return;
  Id d[8];
  for (uint32_t i = 0; i < 8; ++i) {
    if (i < kClipPlanes && (k_.clip_planes >> i & 1u) && !k_.pretransformed) {
      d[i] = b_.dot(view_, e_.uvec(vs::kClipPlane + i));
    } else {
      d[i] = e_.f(1.0f);
    }
  }
  b_.store(out_clip_[0], b_.composite_construct(e_.t_vec4, {d[0], d[1], d[2], d[3]}));
  if (out_clip_[1]) b_.store(out_clip_[1], b_.composite_construct(e_.t_vec4, {d[4], d[5], d[6], d[7]}));
}

}  // namespace

std::vector<uint32_t> build_vertex_shader(const VertexKey& key) { return VertexGenerator(key).build(); }

}  // namespace novem::ff
