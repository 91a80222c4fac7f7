// The fixed-function pixel shader generator: D3D9's texture stages ("Texture Blending",
// D3DTEXTUREOP, D3DTA), then specular add, fog ("Fog Formulas"), user clip planes and the alpha
// test (README.md).
#include <d3d9.h>

#include "ff_constants.hpp"
#include "ff_emit.hpp"
#include "ff_epilogue.hpp"
#include "ff_shaders.hpp"

#include "conventions.hpp"

namespace novem::ff {

namespace {

using Id = SpirvBuilder::Id;
namespace conv = novem::d3d9::conv;

bool uses_texture(const PixelStage& st) {
  auto reads = [](const uint8_t args[3]) {
    for (int i = 0; i < 3; ++i)
      if ((args[i] & D3DTA_SELECTMASK) == D3DTA_TEXTURE) return true;
    return false;
  };
  const uint8_t op = st.color_op;
  return reads(st.color_arg) || reads(st.alpha_arg) || op == D3DTOP_BLENDTEXTUREALPHA ||
         op == D3DTOP_BLENDTEXTUREALPHAPM || st.alpha_op == D3DTOP_BLENDTEXTUREALPHA ||
         st.alpha_op == D3DTOP_BLENDTEXTUREALPHAPM || op == D3DTOP_BUMPENVMAP ||
         op == D3DTOP_BUMPENVMAPLUMINANCE;
}

bool reads_texture(uint8_t op, const uint8_t args[3]) {
  for (int i = 0; i < 3; ++i)
    if ((args[i] & D3DTA_SELECTMASK) == D3DTA_TEXTURE) return true;
  return op == D3DTOP_BLENDTEXTUREALPHA || op == D3DTOP_BLENDTEXTUREALPHAPM;
}

bool reads_specular(const PixelStage& st) {
  for (int i = 0; i < 3; ++i)
    if ((st.color_arg[i] & D3DTA_SELECTMASK) == D3DTA_SPECULAR || (st.alpha_arg[i] & D3DTA_SELECTMASK) == D3DTA_SPECULAR)
      return true;
  return false;
}

class PixelGenerator {
public:
  explicit PixelGenerator(const PixelKey& key) : k_(key) {}
  std::vector<uint32_t> build();

private:
  uint32_t active_stages() const;
  bool premodulated(uint32_t s) const {   // the previous stage's COLOROP or ALPHAOP is PREMODULATE
    return s > 0 && (k_.stage[s - 1].color_op == D3DTOP_PREMODULATE || k_.stage[s - 1].alpha_op == D3DTOP_PREMODULATE);
  }
  void declare_interface(uint32_t stages);
  Id sample(uint32_t s);
  Id arg(uint32_t s, uint8_t a);
  Id operation(uint8_t op, const Id args[3], uint32_t s);
  void fog();
  void alpha_test();
  void clip();

  const PixelKey& k_;
  Emitter e_;
  SpirvBuilder& b_ = e_.b;
  Id in_color_[2] = {}, in_fog_ = 0, in_clip_[2] = {}, frag_coord_ = 0, point_coord_ = 0, out_ = 0;
  Id in_texcoord_[kStages] = {}, sampler_[kStages] = {};
  Id diffuse_ = 0, specular_ = 0, current_ = 0, temp_ = 0, texel_[kStages] = {};
};

// Stages up to the first whose COLOROP is DISABLE.
uint32_t PixelGenerator::active_stages() const {
  uint32_t n = 0;
  while (n < kStages && k_.stage[n].color_op != D3DTOP_DISABLE) ++n;
  return n;
}

std::vector<uint32_t> PixelGenerator::build() {
  const uint32_t stages = active_stages();
  e_.declare_block(ps::kCount, conv::kPixelUniformSet, conv::kPixelUniformBinding, "FFPixelConstants");
  declare_interface(stages);
  const Id main_fn = b_.begin_function(e_.t_void, {}, "main");
  clip();
  // A colour the vertex shader does not write reads opaque black (as the translator's inputs).
  diffuse_ = in_color_[0] ? b_.load(in_color_[0]) : e_.v4(0, 0, 0, 1);
  specular_ = in_color_[1] ? b_.load(in_color_[1]) : e_.v4(0, 0, 0, 1);
  current_ = diffuse_;
  temp_ = e_.v4(0, 0, 0, 0);   // D3DTA_TEMP starts at 0
  for (uint32_t s = 0; s < stages; ++s) {
    const PixelStage& st = k_.stage[s];
    texel_[s] = sampler_[s] ? sample(s) : e_.v4(1, 1, 1, 1);
    if (st.color_op == D3DTOP_BUMPENVMAP || st.color_op == D3DTOP_BUMPENVMAPLUMINANCE) continue;  // feeds stage s + 1
    // PREMODULATE (the reference rasterizer's reading of "modulate with the next stage's
    // texture"): the stage itself selects ARG1; the next stage, before its own operation,
    // multiplies CURRENT's colour (COLOROP) or alpha (ALPHAOP) by its texel. Without a texture
    // there CURRENT stays as it is (the project's rule for a stage without one).
    if (premodulated(s) && sampler_[s]) {
      const PixelStage& prev = k_.stage[s - 1];
      const Id rgb = prev.color_op == D3DTOP_PREMODULATE ? b_.fmul(e_.xyz(current_), e_.xyz(texel_[s])) : e_.xyz(current_);
      const Id a = prev.alpha_op == D3DTOP_PREMODULATE ? b_.fmul(e_.comp(current_, 3), e_.comp(texel_[s], 3)) : e_.comp(current_, 3);
      current_ = e_.vec4_of(rgb, a);
    }
    // An operation that reads the texture of a stage without one passes CURRENT through (D3D9
    // leaves it undefined; this keeps untextured draws with the default stage states showing the
    // vertex colour and alpha, as applications expect).
    const bool no_texture = st.texture == kTextureNone;
    const bool color_passes = no_texture && reads_texture(st.color_op, st.color_arg);
    const bool alpha_passes = no_texture && reads_texture(st.alpha_op, st.alpha_arg);
    Id color_args[3], alpha_args[3];
    Id color;
    if (color_passes) {
      color = current_;
    } else {
      for (int i = 0; i < 3; ++i) color_args[i] = arg(s, st.color_arg[i]);
      color = operation(st.color_op, color_args, s);
    }
    Id alpha;
    if (st.color_op == D3DTOP_DOTPRODUCT3 && !color_passes) {
      alpha = e_.comp(color, 3);   // DOTPRODUCT3 replicates into alpha too
    } else if (st.alpha_op == D3DTOP_DISABLE || alpha_passes) {
      alpha = e_.comp(current_, 3);
    } else {
      for (int i = 0; i < 3; ++i) alpha_args[i] = arg(s, st.alpha_arg[i]);
      alpha = e_.comp(operation(st.alpha_op, alpha_args, s), 3);
    }
    const Id result = e_.clamp01(e_.vec4_of(e_.xyz(color), alpha));
    if (st.result_temp) temp_ = result;
    else current_ = result;
  }
  Id color = current_;
  if (k_.specular_add) {
    const Id color_rgb = e_.xyz(color);
    const Id rgb = e_.clamp01(b_.fadd(color_rgb, e_.xyz(specular_)));
    color = e_.vec4_of(rgb, e_.comp(color, 3));
  }
  current_ = color;
  fog();
  alpha_test();
  b_.store(out_, current_);
  b_.end_function();
  b_.entry_point(spv::ExecutionModel::Fragment, main_fn, "main", b_.interface_variables());
  b_.execution_mode(main_fn, spv::ExecutionMode::OriginUpperLeft);
  return b_.finish();
}

// Only the varyings the key reads and the vertex stage writes are declared (Vulkan refuses a
// fragment input no vertex output feeds).
void PixelGenerator::declare_interface(uint32_t stages) {
  bool specular = k_.specular_add;
  for (uint32_t s = 0; s < stages; ++s) specular |= reads_specular(k_.stage[s]);
  if (k_.color_inputs & 1u) in_color_[0] = e_.input(conv::kLocationColor, "in_diffuse");
  if ((k_.color_inputs & 2u) && specular) in_color_[1] = e_.input(conv::kLocationColor + 1, "in_specular");
  for (Id c : in_color_)
    if (c && k_.flat) b_.decorate(c, spv::Decoration::Flat);   // D3DSHADE_FLAT: the provoking (first) vertex's
  if (k_.fog == kFogVarying && k_.fog_input) in_fog_ = e_.input(conv::kLocationFog, "in_fog");
  if (k_.fog >= kFogLinear) {
    frag_coord_ = b_.variable(spv::StorageClass::Input, e_.t_vec4, "gl_FragCoord");
    b_.decorate_builtin(frag_coord_, spv::BuiltIn::FragCoord);
  }
  if (k_.clip_planes) {
    in_clip_[0] = e_.input(kLocationClip0, "in_clip0");
    if (k_.clip_planes & 0x30) in_clip_[1] = e_.input(kLocationClip1, "in_clip1");
  }
  for (uint32_t s = 0; s < stages; ++s) {
    const PixelStage& st = k_.stage[s];
    const bool bumped = s > 0 && (k_.stage[s - 1].color_op == D3DTOP_BUMPENVMAP ||
                                  k_.stage[s - 1].color_op == D3DTOP_BUMPENVMAPLUMINANCE);
    if (st.texture == kTextureNone || (!uses_texture(st) && !bumped && !premodulated(s))) continue;
    const uint32_t loc = st.coord_location;
    if (k_.point_sprite) {
      if (!point_coord_) {
        point_coord_ = b_.variable(spv::StorageClass::Input, e_.t_vec2, "gl_PointCoord");
        b_.decorate_builtin(point_coord_, spv::BuiltIn::PointCoord);
      }
    } else if (!in_texcoord_[loc] && (k_.texcoord_inputs >> loc & 1u)) {
      in_texcoord_[loc] = e_.input(conv::kLocationTexcoord + loc, "in_texcoord");
    }
    const spv::Dim dim = st.texture == kTextureCube ? spv::Dim::Cube : st.texture == kTextureVolume ? spv::Dim::Dim3D : spv::Dim::Dim2D;
    const Id t_image = b_.type_image(e_.t_float, dim, st.texture == kTextureDepth ? 1 : 0, false, false, 1);
    sampler_[s] = b_.variable(spv::StorageClass::UniformConstant, b_.type_sampled_image(t_image), "stage");
    b_.decorate_binding(sampler_[s], conv::kPixelSamplerSet, conv::kPixelSamplerBindingBase + s);
  }
  out_ = e_.output(0, "out_color");
}

// The stage's texel: its coordinates (divided by the projected component), perturbed by the
// previous stage's BUMPENVMAP(LUMINANCE) as D3D9 defines it:
//   (u, v) += (M00 du + M10 dv, M01 du + M11 dv), (du, dv) = the previous stage's texel.rg;
//   LUMINANCE: texel *= saturate(texel_prev.b * LSCALE + LOFFSET).
Id PixelGenerator::sample(uint32_t s) {
  const PixelStage& st = k_.stage[s];
  Id tc;
  if (k_.point_sprite) {
    // Point sprites: every stage's coordinates run from (0, 0) at the sprite's top left to (1, 1).
    tc = b_.composite_construct(e_.t_vec4, {b_.load(point_coord_), e_.f(0.0f), e_.f(1.0f)});
  } else {
    tc = in_texcoord_[st.coord_location] ? b_.load(in_texcoord_[st.coord_location]) : e_.v4(0, 0, 0, 0);
  }
  if (st.projected >= 2 && !k_.point_sprite) {
    const Id q = e_.comp(tc, st.projected - 1u);
    tc = b_.vector_times_scalar(tc, b_.fdiv(e_.f(1.0f), q));
  }
  const bool bumped = s > 0 && (k_.stage[s - 1].color_op == D3DTOP_BUMPENVMAP ||
                                k_.stage[s - 1].color_op == D3DTOP_BUMPENVMAPLUMINANCE);
  if (bumped) {
    const Id m = e_.uvec(ps::kBumpEnvMat + s - 1);
    const Id du = e_.comp(texel_[s - 1], 0);
    const Id dv = e_.comp(texel_[s - 1], 1);
    const Id m00_du = b_.fmul(e_.comp(m, 0), du);
    const Id off_u = b_.fadd(m00_du, b_.fmul(e_.comp(m, 2), dv));
    const Id m01_du = b_.fmul(e_.comp(m, 1), du);
    const Id off_v = b_.fadd(m01_du, b_.fmul(e_.comp(m, 3), dv));
    const Id zero = e_.f(0.0f);
    tc = b_.fadd(tc, b_.composite_construct(e_.t_vec4, {off_u, off_v, zero, zero}));
  }
  const bool flat = st.texture == kTexture2D || st.texture == kTextureDepth;
  const Id coord = flat ? b_.swizzle(tc, {0, 1}) : e_.xyz(tc);
  const Id sampler = b_.load(sampler_[s]);
  Id texel;
  if (st.texture == kTextureDepth) {
    // The comparison of the (projected) coordinate z, clamped to [0, 1], with the stored depth:
    // 1 where it is not farther (LESS_EQUAL, the plugin's compare sampler), in every channel.
    const Id reference = e_.clamp01(e_.comp(tc, 2));
    const Id lit = b_.image_sample(spv::Op::OpImageSampleDrefImplicitLod, e_.t_float, sampler, coord, reference);
    texel = b_.composite_construct(e_.t_vec4, {lit, lit, lit, lit});
  } else {
    texel = b_.image_sample(spv::Op::OpImageSampleImplicitLod, e_.t_vec4, sampler, coord);
  }
  if (bumped && k_.stage[s - 1].color_op == D3DTOP_BUMPENVMAPLUMINANCE) {
    const Id lum = e_.uvec(ps::kBumpEnvLum + s - 1);
    const Id prev_b = e_.comp(texel_[s - 1], 2);
    const Id scaled = b_.fmul(prev_b, e_.comp(lum, 0));
    const Id l = e_.clamp01(b_.fadd(scaled, e_.comp(lum, 1)));
    texel = b_.vector_times_scalar(texel, l);
  }
  return texel;
}

// A D3DTA argument: the selected register, then ALPHAREPLICATE and COMPLEMENT (the order does not
// change the result).
Id PixelGenerator::arg(uint32_t s, uint8_t a) {
  Id v;
  switch (a & D3DTA_SELECTMASK) {
  case D3DTA_DIFFUSE: v = diffuse_; break;
  case D3DTA_CURRENT: v = current_; break;   // stage 0: the diffuse colour
  case D3DTA_TEXTURE: v = texel_[s]; break;
  case D3DTA_TFACTOR: v = e_.uvec(ps::kTextureFactor); break;
  case D3DTA_SPECULAR: v = specular_; break;
  case D3DTA_TEMP: v = temp_; break;
  case D3DTA_CONSTANT: v = e_.uvec(ps::kConstant + s); break;
  default: v = current_;
  }
  if (a & D3DTA_ALPHAREPLICATE) v = e_.splat4(e_.comp(v, 3));
  if (a & D3DTA_COMPLEMENT) v = b_.fsub(e_.v4(1, 1, 1, 1), v);
  return v;
}

// One D3DTEXTUREOP on vec4s (the caller keeps .rgb for COLOROP, .a for ALPHAOP). args: ARG0, 1, 2.
Id PixelGenerator::operation(uint8_t op, const Id args[3], uint32_t s) {
  const Id a0 = args[0], a1 = args[1], a2 = args[2];
  const Id one = e_.v4(1, 1, 1, 1);
  const Id half = e_.v4(0.5f, 0.5f, 0.5f, 0.5f);
  auto blend = [&](Id alpha) {   // a1 * alpha + a2 * (1 - alpha)
    const Id x = b_.vector_times_scalar(a1, alpha);
    const Id inv = b_.fsub(e_.f(1.0f), alpha);
    return b_.fadd(x, b_.vector_times_scalar(a2, inv));
  };
  auto scaled = [&](Id v, float k) { return b_.vector_times_scalar(v, e_.f(k)); };
  auto alpha_of = [&](Id v) { return e_.comp(v, 3); };
  switch (op) {
  case D3DTOP_SELECTARG1: return a1;
  case D3DTOP_SELECTARG2: return a2;
  case D3DTOP_PREMODULATE: return a1;   // the modulation happens in the next stage (build())
  case D3DTOP_MODULATE: return b_.fmul(a1, a2);
  case D3DTOP_MODULATE2X: return scaled(b_.fmul(a1, a2), 2.0f);
  case D3DTOP_MODULATE4X: return scaled(b_.fmul(a1, a2), 4.0f);
  case D3DTOP_ADD: return b_.fadd(a1, a2);
  case D3DTOP_ADDSIGNED: return b_.fsub(b_.fadd(a1, a2), half);
  case D3DTOP_ADDSIGNED2X: return scaled(b_.fsub(b_.fadd(a1, a2), half), 2.0f);
  case D3DTOP_SUBTRACT: return b_.fsub(a1, a2);
  case D3DTOP_ADDSMOOTH: {   // a1 + a2 (1 - a1)
    const Id sum = b_.fadd(a1, a2);
    return b_.fsub(sum, b_.fmul(a1, a2));
  }
  case D3DTOP_BLENDDIFFUSEALPHA: return blend(alpha_of(diffuse_));
  case D3DTOP_BLENDTEXTUREALPHA: return blend(alpha_of(texel_[s]));
  case D3DTOP_BLENDFACTORALPHA: return blend(alpha_of(e_.uvec(ps::kTextureFactor)));
  case D3DTOP_BLENDCURRENTALPHA: return blend(alpha_of(current_));
  case D3DTOP_BLENDTEXTUREALPHAPM: {   // a1 + a2 (1 - alpha_texture)
    const Id inv = b_.fsub(e_.f(1.0f), alpha_of(texel_[s]));
    return b_.fadd(a1, b_.vector_times_scalar(a2, inv));
  }
  case D3DTOP_MODULATEALPHA_ADDCOLOR:   // a1.rgb + a1.a * a2.rgb
    return b_.fadd(a1, b_.vector_times_scalar(a2, alpha_of(a1)));
  case D3DTOP_MODULATECOLOR_ADDALPHA: {   // a1.rgb * a2.rgb + a1.a
    const Id product = b_.fmul(a1, a2);
    return b_.fadd(product, e_.splat4(alpha_of(a1)));
  }
  case D3DTOP_MODULATEINVALPHA_ADDCOLOR: {   // (1 - a1.a) * a2.rgb + a1.rgb
    const Id inv = b_.fsub(e_.f(1.0f), alpha_of(a1));
    return b_.fadd(a1, b_.vector_times_scalar(a2, inv));
  }
  case D3DTOP_MODULATEINVCOLOR_ADDALPHA: {   // (1 - a1.rgb) * a2.rgb + a1.a
    const Id product = b_.fmul(b_.fsub(one, a1), a2);
    return b_.fadd(product, e_.splat4(alpha_of(a1)));
  }
  case D3DTOP_DOTPRODUCT3: {   // 4 * ((a1.r - 0.5)(a2.r - 0.5) + ...g + ...b), in every channel
    const Id half3 = e_.v3(0.5f, 0.5f, 0.5f);
    const Id x = b_.fsub(e_.xyz(a1), half3);
    const Id y = b_.fsub(e_.xyz(a2), half3);
    const Id dot = b_.dot(x, y);
    return e_.splat4(b_.fmul(dot, e_.f(4.0f)));
  }
  case D3DTOP_MULTIPLYADD: return b_.fadd(a0, b_.fmul(a1, a2));   // a0 + a1 a2
  case D3DTOP_LERP: {   // a0 a1 + (1 - a0) a2
    const Id x = b_.fmul(a0, a1);
    const Id y = b_.fmul(b_.fsub(one, a0), a2);
    return b_.fadd(x, y);
  }
  default: return current_;   // BUMPENVMAP* as an alpha op: the current value
  }
}

// Fog and the alpha test as after any pixel stage (ff_epilogue.hpp). A FOG varying the vertex
// shader does not write reads 0: fully fogged, as the Windows drivers draw it (Wine's
// fog_with_shader_test).
void PixelGenerator::fog() {
  if (k_.fog == kFogNone) return;
  const Id factor = in_fog_ ? e_.comp(b_.load(in_fog_), 0) : e_.f(0.0f);
  const Id frag_coord = frag_coord_ ? b_.load(frag_coord_) : 0;
  const Id fog_color = e_.uvec(ps::kFogColor);
  const Id params = e_.uvec(ps::kFog);
  current_ = emit_fog(b_, current_, k_.fog, k_.fog_w, factor, frag_coord, fog_color, params);
}

void PixelGenerator::alpha_test() {
  if (!k_.alpha_func || k_.alpha_func == D3DCMP_ALWAYS) return;
  emit_alpha_test(b_, current_, k_.alpha_func, e_.comp(e_.uvec(ps::kFog), 3));
}

// User clip planes: discard where an enabled plane's interpolated distance is negative.
void PixelGenerator::clip() {
  if (!k_.clip_planes) return;
  const Id clip0 = b_.load(in_clip_[0]);
  const Id clip1 = in_clip_[1] ? b_.load(in_clip_[1]) : 0;
  emit_clip_test(b_, clip0, clip1);
}

}  // namespace

std::vector<uint32_t> build_pixel_shader(const PixelKey& key) { return PixelGenerator(key).build(); }

}  // namespace novem::ff
