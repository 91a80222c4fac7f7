// D3D9 shader bytecode (decoded by parse_shader) -> SPIR-V 1.0 for Vulkan 1.0 / OpenGL 4.5
// (through SPIRV-Cross), following docs/shader-conventions.md (constants in conventions.hpp).
//
// translate() never throws and never returns invalid SPIR-V: anything it does not support gives
// an empty `spirv` and a one-line `error`.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ir.hpp"

namespace novem::d3d9 {

struct ShaderReflection {
  static constexpr uint32_t kBuiltin = 0xFFFFFFFFu;   // location of a builtin (clip position)

  bool vertex = true;             // stage
  Version version;

  // VS: vertex attributes v#N (location = N), with the dcl usage the frontend matches against the
  // vertex declaration. PS: the varyings the shader reads (t#/v#/v# semantic), location by the
  // interface convention. Sorted by reg (PS: t# first, then v#).
  struct Input {
    uint32_t reg = 0;
    uint8_t usage = 0, usage_index = 0;
    uint32_t location = 0;
    RegType type = RegType::Input;   // PS 2.x: Texture (t#) or Input (v#)
    bool centroid = false;
  };
  std::vector<Input> inputs;

  // VS: the interface outputs written (POSITION 0 has location kBuiltin). PS: unused.
  struct Output {
    uint32_t reg = 0;               // o# (vs_3_0); oT#/oD#/oFog/oPts index before
    RegType type = RegType::Output;
    uint8_t usage = 0, usage_index = 0;
    uint32_t location = 0;
  };
  std::vector<Output> outputs;

  uint32_t samplers_used = 0;       // bit N: sN is sampled
  uint8_t sampler_types[16] = {};   // SamplerType per sN (Tex2D when undeclared)
  uint32_t uniform_binding = 0;     // 0 (VS) or 1 (PS)
  bool uses_uniforms = false;       // the uniform block is declared (some c/i/b not defined in-shader)
  bool uses_software_constants = false;   // VS, software vertex processing: the constant storage buffer is declared
  bool writes_depth = false;        // PS oDepth
  uint32_t color_outputs = 0;       // PS: bit n = oCn written
  bool uses_kill = false;           // PS texkill
  bool uses_position = false;       // PS vPos
  bool uses_face = false;           // PS vFace
  bool writes_point_size = false;   // VS wrote oPts / a PSIZE output (else PointSize = 1)
};

struct Translation {
  std::vector<uint32_t> spirv;      // empty when error is set
  ShaderReflection reflection;
  std::string error;
  bool ok() const { return error.empty() && !spirv.empty(); }
};

// The variant key of an epilogue (pack()): its fields packed into two words.
struct EpilogueKey {
  uint64_t low = 0, high = 0;
  auto operator<=>(const EpilogueKey&) const = default;
};

// D3D9 state applied to a pixel shader's colour 0 after the shader, as D3D9's fixed-function
// back end does: fog (ps_1_x and ps_2_x only; ps_3_0 does its own) and the alpha test (every
// model). Both read fog_color / fog of the uniform block (conventions.hpp). A vertex shader
// ignores it.
struct PixelEpilogue {
  uint8_t alpha_func = 0;   // D3DCMP_* (1..8); 0 or ALWAYS: no test
  uint8_t fog = 0;          // 0 none; 1 the FOG varying's x; 2, 3, 4 table fog LINEAR, EXP, EXP2
  uint8_t fog_w = 0;        // table fog over the eye depth 1 / gl_FragCoord.w, else gl_FragCoord.z
  uint8_t fog_input = 1;    // the vertex stage writes FOG (else the factor is 0: fully fogged)
  uint8_t clip_planes = 0;  // bit n: discard where user clip plane n's distance (interpolated) < 0
  // Bit N: the texture bound to 2D sampler sN is a depth texture that D3D9 samples with a depth
  // comparison (hardware shadow maps, as NVIDIA's and AMD's drivers and DXVK do): sN is a depth
  // image, the reference is the coordinate's z (divided by w with texldp, clamped to [0, 1]) and
  // every channel of the result is the comparison (1: reference <= stored depth).
  uint16_t depth_samplers = 0;
  // No depth buffer is bound: oDepth is not written. Nothing would keep it, and lavapipe crashes
  // on a pipeline whose fragment shader writes depth without a depth attachment.
  uint8_t drop_depth = 0;
  // Bit L: no vertex stage writes the input at interface location L (conv::kLocation*). It reads
  // (0, 0, 0, 0) and is no input of the stage (D3D9 leaves it undefined; Vulkan and GL refuse a
  // fragment input no vertex output feeds).
  // Locations go up to conv::kLocationCount (29): bits 29..31 stay 0, which leaves bit 63 of
  // pack() to point_sprite.
  uint32_t missing_inputs = 0;
  // D3DRS_POINTSPRITEENABLE on a point list: every TEXCOORD input (ps_1_x/ps_2_x tN, ps_3_0
  // dcl_texcoord) reads (PointCoord.x, PointCoord.y, 0, 1) instead, as the fixed-function stages
  // do; (0, 0) is the sprite's top left.
  uint8_t point_sprite = 0;
  // ps_1_1-1_3 only: 2 bits per texture stage 0..3, D3DTSS_TEXTURETRANSFORMFLAGS' PROJECTED.
  // `tex`, `texbem` and `texbeml` divide stage n's coordinate by its component
  // (projected >> 2n & 3), 1 = y (COUNT2), 2 = z (COUNT3), 3 = w (COUNT4 or no count); 0: none.
  uint8_t projected = 0;
  // D3DRS_SHADEMODE FLAT: the COLOR inputs are not interpolated (the provoking vertex's value,
  // D3D9's first vertex), as with the fixed-function pipeline.
  uint8_t flat = 0;
  bool active() const {
    return (alpha_func && alpha_func != 8) || fog || clip_planes || depth_samplers || drop_depth || missing_inputs ||
           point_sprite || projected || flat;
  }
  EpilogueKey pack() const {
    return {uint64_t(alpha_func) | uint64_t(fog) << 4 | uint64_t(fog_w) << 7 | uint64_t(fog_input) << 8 |
                uint64_t(clip_planes) << 9 | uint64_t(drop_depth) << 15 | uint64_t(depth_samplers) << 16 |
                uint64_t(missing_inputs) << 32 | uint64_t(point_sprite) << 63,
            uint64_t(projected) | uint64_t(flat) << 8};
  }
};

// What a vertex shader adds for D3D9's user clip planes with shaders (clip-space planes, the
// uniform block's clip_planes): the distances dot(position, plane) of the enabled planes to
// conv::kLocationClipDistance0/1, for the pixel side to test. A pixel shader ignores it.
struct VertexEpilogue {
  uint8_t clip_planes = 0;   // bit n: D3DRS_CLIPPLANEENABLE plane n
  // Bit n: input vN reads w as 1. D3D9 defines w = 1 for D3DDECLTYPE_UDEC3 and DEC3N, whose fetch
  // formats (10-10-10-2) read w from the 2 bits above z; the prologue replaces it.
  uint16_t w_one_inputs = 0;
  // Bit n: input vN has no element in the vertex declaration. It reads (0, 0, 0, 0) and is no
  // input of the stage (Vulkan forbids an input no attribute feeds; D3D9 leaves it undefined, and
  // a zeroed stream is what DXVK feeds it).
  uint16_t missing_inputs = 0;
  // A point list: PointSize = oPts.x (vs_3_0: the PSIZE output), or D3DRS_POINTSIZE when the
  // shader writes none, clamped to [POINTSIZE_MIN, POINTSIZE_MAX] (the block's `point`). Without
  // it PointSize is oPts.x or 1, which only points read.
  uint8_t point_size = 0;
  bool active() const { return clip_planes != 0 || w_one_inputs != 0 || missing_inputs != 0 || point_size != 0; }
  EpilogueKey pack() const {
    return {clip_planes | uint64_t(w_one_inputs) << 8 | uint64_t(missing_inputs) << 24 | uint64_t(point_size) << 40, 0};
  }
};

Translation translate(const Program& program, const PixelEpilogue& epilogue = {},
                      const VertexEpilogue& vertex_epilogue = {});

// Hash of the bytecode for the translation cache (FNV-1a 64 over the token words).
uint64_t shader_hash(const uint32_t* tokens, size_t count);

}  // namespace novem::d3d9
