// StateEncoder's shaders (state_encoder.hpp): the variants of the application's shaders with what
// D3D9 applies around them, and their constants (the uniform block, whole or the changed range).
#include "state_encoder.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>

#include "conventions.hpp"
#include "device.hpp"
#include "log.hpp"
#include "math.hpp"
#include "shader.hpp"
#include "vertex_declaration.hpp"

namespace novem {

namespace {

// The uniform block every translated shader reads (docs/shader-conventions.md).
using Block = d3d9::conv::UniformBlock;
// The float registers a stage's file lacks (a pixel stage's c224..c255) read zero.
constexpr std::array<uint8_t, sizeof(Block::c)> kZeroRegisters{};

// The bytes of the uniform block that the registers set since the last flush cover (a stage
// whose shaders read the block; software vertex processing's files are sw::changed_bytes').
std::pair<uint32_t, uint32_t> changed_bytes(const ChangedRegisters &r) {
  uint32_t begin = UINT32_MAX, end = 0;
  auto add = [&](const ChangedRegisters::Range &range, uint32_t offset, uint32_t registers, uint32_t bytes) {
    const uint32_t lo = std::min(range.begin, registers), hi = std::min(range.end, registers);
    if (lo >= hi) return;
    begin = std::min(begin, offset + lo * bytes);
    end = std::max(end, offset + hi * bytes);
  };
  add(r.f, offsetof(Block, c), d3d9::conv::kFloatConstantCount, 16);
  add(r.i, offsetof(Block, i), d3d9::conv::kIntConstantCount, 16);
  // The booleans are bits of one register: any of them sends it whole.
  if (r.b.begin < std::min<uint32_t>(r.b.end, d3d9::conv::kBoolConstantCount))
    begin = std::min<uint32_t>(begin, offsetof(Block, b)), end = std::max<uint32_t>(end, offsetof(Block, b) + sizeof(Block::b));
  return {begin, end};
}

// Software vertex processing's files (conventions.hpp): the storage buffer after the block.
namespace sw {
using namespace d3d9::conv;
static_assert(kSoftwareConstantsOffset == NV_VERTEX_STORAGE_OFFSET && kSoftwareConstantsSize == NV_VERTEX_STORAGE_SIZE &&
              kSoftwareConstantsBinding == NV_VERTEX_STORAGE_BINDING && kVertexUniformSet == 0);
static_assert(kSoftwareVertexConstantFiles.f == kSoftwareFloatConstantCount &&
              kSoftwareVertexConstantFiles.i == kSoftwareIntConstantCount &&
              kSoftwareVertexConstantFiles.b == kSoftwareBoolConstantCount);

// Writes the storage buffer's bytes [begin, end) (16-byte aligned) from the registers to out.
void write_bytes(const ShaderConstants &c, uint32_t begin, uint32_t end, uint8_t *out) {
  auto part = [&](uint32_t offset, uint32_t size, auto &&fill) {
    const uint32_t lo = std::max(begin, offset), hi = std::min(end, offset + size);
    if (lo < hi) fill(lo - offset, hi - offset, out + (lo - begin));
  };
  part(kSoftwareFloatOffset, kSoftwareFloatConstantCount * 16, [&](uint32_t lo, uint32_t hi, uint8_t *dst) {
    std::memcpy(dst, reinterpret_cast<const uint8_t *>(c.f.data()) + lo, hi - lo);
  });
  part(kSoftwareIntOffset, kSoftwareIntConstantCount * 16, [&](uint32_t lo, uint32_t hi, uint8_t *dst) {
    std::memcpy(dst, reinterpret_cast<const uint8_t *>(c.i.data()) + lo, hi - lo);
  });
  part(kSoftwareBoolOffset, kSoftwareBoolConstantCount / 8, [&](uint32_t lo, uint32_t hi, uint8_t *dst) {
    for (uint32_t word = lo / 4; word < hi / 4; ++word) { // bit n of word w: register 32w + n
      uint32_t bits = 0;
      for (uint32_t n = 0; n < 32; ++n)
        if (c.b[word * 32 + n]) bits |= 1u << n;
      std::memcpy(dst + (word * 4 - lo), &bits, 4);
    }
  });
}

// The storage buffer's bytes the registers set since the last flush cover, one range per file.
// Booleans go as whole uvec4s (128 registers each).
std::array<std::pair<uint32_t, uint32_t>, 3> changed_bytes(const ChangedRegisters &r) {
  auto range = [](const ChangedRegisters::Range &registers, uint32_t offset, uint32_t per_vec4) {
    if (registers.begin >= registers.end) return std::pair<uint32_t, uint32_t>{0, 0};
    return std::pair<uint32_t, uint32_t>{offset + registers.begin / per_vec4 * 16,
                                         offset + (registers.end + per_vec4 - 1) / per_vec4 * 16};
  };
  return {range(r.f, kSoftwareFloatOffset, 1), range(r.i, kSoftwareIntOffset, 1), range(r.b, kSoftwareBoolOffset, 128)};
}
} // namespace sw

} // namespace

bool StateEncoder::draws_pretransformed() const {
  return !live().state.vertex_shader && live().state.vertex_declaration && live().state.vertex_declaration->pretransformed();
}

uint8_t StateEncoder::clip_planes() const {
  const auto &rs = live().state.render_states;
  // Pre-transformed vertices are past clipping: D3D9 applies no user clip plane to them, and the
  // fixed-function vertex stage writes no clip distances then.
  if (draws_pretransformed()) return 0;
  return rs[D3DRS_CLIPPING] ? uint8_t(rs[D3DRS_CLIPPLANEENABLE] & 0x3fu) : 0;
}

uint32_t StateEncoder::vertex_shader_variant(D3DPRIMITIVETYPE type) {
  const CompiledShader &compiled = live().state.vertex_shader->compiled();
  d3d9::VertexEpilogue e;
  e.clip_planes = clip_planes();
  // POINTSIZE when the shader writes no size, and POINTSIZE_MIN/MAX clamping either way, as
  // wined3d and DXVK apply them; point scaling stays fixed-function (it needs the eye distance).
  e.point_size = type == D3DPT_POINTLIST;
  // UDEC3 and DEC3N elements read w as 1 (D3DDECLTYPE's documentation); the fetch reads the
  // 2 bits above z, so the shader's prologue sets it.
  for (const auto &input : compiled.reflection.inputs) {
    const D3DVERTEXELEMENT9 *element = live().state.vertex_declaration ? live().state.vertex_declaration->find(input.usage, input.usage_index) : nullptr;
    if (element && (element->Type == D3DDECLTYPE_UDEC3 || element->Type == D3DDECLTYPE_DEC3N) && input.reg < 16)
      e.w_one_inputs |= uint16_t(1u << input.reg);
    if (!element && input.reg < 16) e.missing_inputs |= uint16_t(1u << input.reg);
  }
  if (!e.active()) return compiled.handle;
  auto [it, inserted] = compiled.variants.try_emplace(e.pack(), 0);
  if (inserted) {
    d3d9::Translation t = d3d9::translate(compiled.program, {}, e);
    const uint32_t handle = t.ok() ? create_shader(NV_STAGE_VERTEX, t.spirv) : 0;
    it->second = handle ? handle : compiled.handle;
    if (!t.ok()) log_warn("vertex shader epilogue: %s", t.error.c_str());
  }
  return it->second;
}

uint32_t StateEncoder::pixel_shader_variant(D3DPRIMITIVETYPE type) {
  const CompiledShader &compiled = live().state.pixel_shader->compiled();
  const auto &rs = live().state.render_states;
  // What the vertex stage writes: a vertex shader its outputs; the fixed-function one colours,
  // texture coordinates 0..7 and fog.
  using namespace d3d9::conv;
  const uint32_t written = live().state.vertex_shader ? live().state.vertex_shader->compiled().interface_locations
                                                : 0xffu << kLocationTexcoord | 3u << kLocationColor | 1u << kLocationFog;
  d3d9::PixelEpilogue e;
  if (rs[D3DRS_ALPHATESTENABLE] && rs[D3DRS_ALPHAFUNC] >= D3DCMP_NEVER && rs[D3DRS_ALPHAFUNC] <= D3DCMP_ALWAYS)
    e.alpha_func = uint8_t(rs[D3DRS_ALPHAFUNC]);
  // Fog after ps_1_x/ps_2_x (D3D9 leaves it to ps_3_0 itself): table fog per pixel, else the FOG
  // varying (oFog of a vertex shader, the fixed-function vertex fog).
  if (rs[D3DRS_FOGENABLE] && compiled.reflection.version.major < 3) {
    switch (rs[D3DRS_FOGTABLEMODE]) {
    case D3DFOG_LINEAR: e.fog = 2; break;
    case D3DFOG_EXP: e.fog = 3; break;
    case D3DFOG_EXP2: e.fog = 4; break;
    default: e.fog = 1; break;
    }
    e.fog_w = e.fog >= 2 && live().state.transforms[D3DTS_PROJECTION].m[2][3] != 0.0f;
    e.fog_input = written >> kLocationFog & 1u;
  }
  e.clip_planes = clip_planes();
  e.depth_samplers = depth_samplers();
  e.drop_depth = compiled.reflection.writes_depth && !drawn_depth_stencil();
  e.missing_inputs = compiled.interface_locations & ~written;
  e.point_sprite = type == D3DPT_POINTLIST && rs[D3DRS_POINTSPRITEENABLE];
  e.flat = rs[D3DRS_SHADEMODE] == D3DSHADE_FLAT;
  // ps_1_1-1_3 take D3DTTFF_PROJECTED from the texture stages (ps_1_4 and later divide in the
  // shader): by the component the count names, w without a count (COUNT1 too, as the
  // fixed-function stages read it).
  const d3d9::Version version = compiled.reflection.version;
  if (version.major == 1 && version.minor <= 3) {
    for (uint32_t stage = 0; stage < 4; ++stage) {
      const DWORD flags = live().state.texture_stage_states[stage][D3DTSS_TEXTURETRANSFORMFLAGS];
      if (!(flags & D3DTTFF_PROJECTED)) continue;
      const DWORD count = flags & 0xffu;
      const uint32_t component = count >= 2 && count <= 4 ? count - 1 : 3;
      e.projected |= uint8_t(component << (2 * stage));
    }
  }
  if (!e.active()) return compiled.handle;
  auto [it, inserted] = compiled.variants.try_emplace(e.pack(), 0);
  if (inserted) {
    d3d9::Translation t = d3d9::translate(compiled.program, e);
    // The base translation succeeded, so a variant only adds the epilogue; should it fail, the
    // shader draws without it.
    const uint32_t handle = t.ok() ? create_shader(NV_STAGE_PIXEL, t.spirv) : 0;
    it->second = handle ? handle : compiled.handle;
    if (!t.ok()) log_warn("pixel shader epilogue: %s", t.error.c_str());
  }
  return it->second;
}

void StateEncoder::flush_shader_constants(nv_shader_stage stage, const ShaderConstants &constants, bool full) {
  // The block: vec4 c[256], ivec4 i[16], the booleans as bits of one uvec4's x, then the
  // bump-environment texture stage state of stages 0..7 (read by ps_1_x texbem/texbeml/bem;
  // zeros for the vertex stage, whose block has the same layout).
  static_assert(sizeof(Block) == d3d9::conv::kUniformBlockSize);
  static_assert(d3d9::conv::kBumpEnvStageCount == DeviceState::kTextureStages);
  // The registers the block holds: a pixel stage's 224 float registers leave the rest of c[256]
  // zero. A software vertex-processing device's vertex shaders read every register from the
  // storage buffer after the block (sw::) and none from the block, which holds zeros there.
  const bool software = stage == NV_STAGE_VERTEX && constants.f.size() == d3d9::conv::kSoftwareFloatConstantCount;
  const size_t f_bytes = software ? 0 : std::min<size_t>(constants.f.size(), d3d9::conv::kFloatConstantCount) * 16u;
  const size_t i_bytes = software ? 0 : std::min<size_t>(constants.i.size(), d3d9::conv::kIntConstantCount) * 16u;
  Constants &sent = sent_constants_[stage];
  // The booleans packed as the block holds them; only when the block's b is sent.
  auto bool_bits = [&] {
    uint32_t bits = 0;
    for (UINT n = 0; n < d3d9::conv::kBoolConstantCount && !software; ++n) // software: in sw:: instead
      if (constants.b[n]) bits |= 1u << n;
    return std::array<uint32_t, 4>{bits, 0, 0, 0};
  };

  ChangedRegisters &changed = live().changed_registers[stage];
  if (!full && sent == Constants::kShader && software) {
    // Each file's changed registers in one UPDATE_CONSTANTS: c and i are 128 KB apart.
    for (const auto &[begin, end] : sw::changed_bytes(changed)) {
      if (begin >= end) continue;
      auto *args = commands().begin<nv_cmd_update_constants>(end - begin);
      *args = nv_cmd_update_constants{uint32_t(stage), d3d9::conv::kSoftwareConstantsOffset + begin, end - begin};
      sw::write_bytes(constants, begin, end, static_cast<uint8_t *>(command_payload(args)));
      commands().commit();
    }
    changed = {};
    return;
  }
  if (!full && sent == Constants::kShader) {
    // Only registers changed: send their bytes (one SetVertexShaderConstantF of one register is
    // 16 bytes, not the 4.6 KB block). The range never reaches the bump-environment part, which
    // only the full path writes.
    if (!changed.any()) return;
    const auto [begin, end] = changed_bytes(changed);
    changed = {};
    if (begin < end) {
      auto *args = commands().begin<nv_cmd_update_constants>(end - begin);
      *args = nv_cmd_update_constants{uint32_t(stage), begin, end - begin};
      auto *out = static_cast<uint8_t *>(command_payload(args));
      auto copy = [&](uint32_t offset, const void *src, size_t bytes) { // the part of [begin, end) in this field
        const uint32_t lo = std::max(begin, offset), hi = std::min<uint32_t>(end, offset + uint32_t(bytes));
        if (lo < hi) std::memcpy(out + (lo - begin), static_cast<const uint8_t *>(src) + (lo - offset), hi - lo);
      };
      copy(offsetof(Block, c), constants.f.data(), f_bytes);
      copy(offsetof(Block, c) + f_bytes, kZeroRegisters.data(), sizeof(Block::c) - f_bytes);
      copy(offsetof(Block, i), constants.i.data(), i_bytes);
      if (begin < offsetof(Block, b) + sizeof(Block::b) && end > offsetof(Block, b))
        copy(offsetof(Block, b), bool_bits().data(), sizeof(Block::b));
      commands().commit();
    }
    return;
  }
  changed = {};

  const uint32_t size = software ? d3d9::conv::kSoftwareVertexBlockSize : uint32_t(sizeof(Block));
  auto *args = commands().begin<nv_cmd_set_constants>(size);
  *args = nv_cmd_set_constants{uint32_t(stage), size};
  auto *block = static_cast<Block *>(command_payload(args));
  if (software) {
    auto *bytes = static_cast<uint8_t *>(command_payload(args));
    std::memset(bytes + sizeof(Block), 0, d3d9::conv::kSoftwareConstantsOffset - sizeof(Block));
    sw::write_bytes(constants, 0, d3d9::conv::kSoftwareConstantsSize, bytes + d3d9::conv::kSoftwareConstantsOffset);
  }
  std::memcpy(block->c, constants.f.data(), f_bytes);
  std::memset(reinterpret_cast<uint8_t *>(block->c) + f_bytes, 0, sizeof block->c - f_bytes);
  std::memcpy(block->i, constants.i.data(), i_bytes);
  std::memcpy(block->b, bool_bits().data(), sizeof block->b);
  std::memset(block->bumpenv_mat, 0, sizeof block->bumpenv_mat);
  std::memset(block->bumpenv_lum, 0, sizeof block->bumpenv_lum);
  std::memset(block->fog_color, 0, sizeof block->fog_color);
  std::memset(block->fog, 0, sizeof block->fog);
  std::memset(block->clip_planes, 0, sizeof block->clip_planes);
  std::memset(block->point, 0, sizeof block->point);
  if (stage == NV_STAGE_VERTEX) {
    // With a vertex shader, SetClipPlane's planes are in clip space (the vertex epilogue's).
    for (uint32_t n = 0; n < d3d9::conv::kClipPlaneCount; ++n)
      std::memcpy(block->clip_planes[n], live().state.clip_planes[n].data(), sizeof block->clip_planes[n]);
    // The vertex epilogue's point size; POINTSIZE_MAX is at most MaxPointSize, as with fixed function.
    const auto &rs = live().state.render_states;
    block->point[0] = std::bit_cast<float>(rs[D3DRS_POINTSIZE]);
    block->point[1] = std::bit_cast<float>(rs[D3DRS_POINTSIZE_MIN]);
    block->point[2] = std::min(std::bit_cast<float>(rs[D3DRS_POINTSIZE_MAX]), adapter().max_point_size);
  }
  if (stage == NV_STAGE_PIXEL) {
    // The D3DTSS values are the bits of floats.
    for (uint32_t n = 0; n < DeviceState::kTextureStages; ++n) {
      const auto &ts = live().state.texture_stage_states[n];
      const DWORD mat[4] = {ts[D3DTSS_BUMPENVMAT00], ts[D3DTSS_BUMPENVMAT01], ts[D3DTSS_BUMPENVMAT10],
                            ts[D3DTSS_BUMPENVMAT11]};
      const DWORD lum[2] = {ts[D3DTSS_BUMPENVLSCALE], ts[D3DTSS_BUMPENVLOFFSET]};
      std::memcpy(block->bumpenv_mat[n], mat, sizeof mat);
      std::memcpy(block->bumpenv_lum[n], lum, sizeof lum);
    }
    // What the pixel epilogue reads (fog, alpha test; d3d9::PixelEpilogue).
    const auto &rs = live().state.render_states;
    color_to_floats(rs[D3DRS_FOGCOLOR], block->fog_color);
    const DWORD fog[3] = {rs[D3DRS_FOGSTART], rs[D3DRS_FOGEND], rs[D3DRS_FOGDENSITY]};
    std::memcpy(block->fog, fog, sizeof fog);
    block->fog[3] = float(rs[D3DRS_ALPHAREF] & 0xffu);
  }
  commands().commit();
  sent = Constants::kShader;
}

} // namespace novem
