// The translator's class, shared by the files that emit its parts (README.md says which file
// holds what). Internal to novem_d3d9_translate: translate.hpp is the library's interface.
//
// Model: every D3D9 register is a Private vec4 variable (a0: ivec4, p0: bvec4, aL: int); a
// register file addressed relatively (v#[aL], o#[aL]) is one Private array instead. Inputs are
// copied into their registers at the start of main; outputs are copied from their registers to
// the interface variables by an "epilogue" function that main calls before each return.
// Subroutines (label/ret) are SPIR-V functions without parameters. Constants come from the
// uniform block unless def/defi/defb bakes them in.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "spirv_builder.hpp"
#include "translate.hpp"

namespace novem::d3d9::translator {

using Id = SpirvBuilder::Id;

inline uint64_t reg_key(RegType t, uint32_t index) { return (uint64_t{static_cast<uint8_t>(t)} << 32) | index; }

inline float bits_float(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

// Thrown inside the translator, caught by run(): becomes Translation::error.
struct Unsupported {
  std::string message;
};

class Translator {
public:
  Translator(const Program& p, const PixelEpilogue& epilogue, const VertexEpilogue& vertex_epilogue)
      : p_(p), v_(p.version), vs_(p.version.is_vs()), epilogue_(epilogue), vertex_epilogue_(vertex_epilogue) {}
  Translation run();

private:
  struct Frame {
    enum Kind { If, Rep, Loop } kind;
    SpirvBuilder::If ifc{};
    SpirvBuilder::Loop loop{};
    Id counter = 0;
    Id step = 0;
    Id saved_al = 0;
  };
  struct Segment {
    size_t begin = 0, end = 0;   // instruction indices [begin, end)
    std::set<uint32_t> calls;
  };

  [[noreturn]] void unsupported(const std::string& m) { throw Unsupported{m}; }
  [[noreturn]] void unsupported(const Instruction& in, const std::string& m) {
    throw Unsupported{"token " + std::to_string(in.token_offset) + ": " + m};
  }

  // Register file helpers.
  bool is_addr(RegType t) const { return vs_ && t == RegType::Addr; }
  bool is_ps_texture(RegType t) const { return !vs_ && t == RegType::Texture; }
  void note_register(RegType t, uint32_t index, bool relative);
  void prepass();
  void declare_registers();
  Id reg_pointer(RegType t, uint32_t index, Id dynamic_index = 0);
  Id rel_value(const RelAddr& r);
  Id clamp_index(Id index, uint32_t size, Id* in_range = nullptr);

  // Constants and uniforms. A software vertex-processing shader (Program::software_vertex) reads
  // its c, i and b from the storage buffer (software_constants()), the rest from the block.
  Id ubo();
  Id software_constants();
  // The variable c, i and b are read from, and the number of float registers.
  Id constant_file() { return p_.software_vertex ? software_constants() : ubo(); }
  Id float_const(const SrcParam& s, uint32_t offset);
  Id int_const(uint32_t index);
  Id bool_const(uint32_t index);

  // Sources and destinations.
  Id load_src_raw(const SrcParam& s, uint32_t offset = 0);
  Id apply_swizzle(Id v, uint8_t swizzle);
  Id apply_mod(Id v, SrcMod mod, const Instruction& in);
  Id src(const Instruction& in, int i, uint32_t offset = 0);
  Id scalar(Id v4, uint32_t c) { return b_.composite_extract(v4, {c}); }
  Id splat4(Id s) { return b_.splat(b_.type_of(s) == t_bool_ ? t_bv4_ : t_v4_, s); }
  Id predicate_vec(const SrcParam& p);     // bvec4 (swizzled, negated)
  Id predicate_scalar(const SrcParam& p);  // bool, component 0 of the swizzle
  Id merge(Id old_value, Id new_value, uint8_t mask);
  void write(const Instruction& in, Id value);
  void write_addr(const Instruction& in, Id value, bool round);
  Id dst_pointer(const DstParam& d);

  // instructions.cpp: emit_instruction hands each instruction to its family below; mov, mova;
  // the segments (main and subroutine bodies) with ps_1_x co-issue; the subroutines.
  void emit_instruction(const Instruction& in, std::vector<Frame>& stack, bool in_main);
  [[noreturn]] void unsupported_instruction(const Instruction& in);
  void emit_move(const Instruction& in);
  void emit_segment(const Segment& seg, bool in_main);
  void emit_function(uint32_t label, std::set<uint32_t>& done, std::set<uint32_t>& active);

  // arithmetic.cpp: the value of add ... dsy.
  Id arithmetic(const Instruction& in);
  Id scalar_src(const Instruction& in, int i);
  Id matrix_product(const Instruction& in, uint32_t rows, uint32_t width);

  // compare.cpp: slt, sge, cmp, cnd, setp.
  void emit_comparison(const Instruction& in);
  Id compare(Comparison c, Id a, Id b);

  // texture.cpp: ps_2_0+/vs_3_0 texld*, texldl, texldd.
  void emit_texture(const Instruction& in);
  Id sampler(uint32_t index);
  bool depth_sampler(uint32_t index) const;
  Id sample_depth(spv::Op op, Id sampled_image, Id coord4, spv::ImageOperandsMask mask = spv::ImageOperandsMask::MaskNone,
                  std::initializer_list<Id> operands = {});

  // ps1x.cpp: tex, texcoord/texcrd, texreg2*, texbem*, texm3x*, texdp3*, texdepth, bem.
  void emit_ps1x(const Instruction& in);
  Id sample_at(uint32_t sampler_index, Id coord4);
  Id texcoord(const Instruction& in, uint32_t n);
  Id projected_texcoord(const Instruction& in, uint32_t n);
  Id bumpenv(uint32_t member, uint32_t stage);   // bumpenv_mat (3) / bumpenv_lum (4) of a stage
  Id bump_offset(uint32_t stage, Id v);         // matrix of the stage times v.rg -> vec2
  void write_depth(Id depth);

  // flow_control.cpp: if, loops, break, call, ret; texkill.
  void emit_flow_control(const Instruction& in, std::vector<Frame>& stack, bool in_main);
  Frame* innermost_loop(std::vector<Frame>& stack);
  void emit_kill(const Instruction& in);

  // Interface (translate.cpp).
  void emit_prologue();
  void emit_epilogue_function();
  Id apply_pixel_epilogue(Id color, bool fog, Id fog_var);

  bool defer_writes_ = false;
  std::vector<std::pair<Instruction, Id>> deferred_;
  std::map<uint32_t, Id> texcoord_vars_;   // ps: t# -> its TEXCOORD input variable
  Id point_coord_ = 0, sprite_coord_ = 0;   // ps with point sprites: PointCoord, and (x, y, 0, 1) from it
  std::vector<Id> pad_values_;             // ps_1_x texm3x*pad results
  std::vector<uint32_t> pad_regs_;

  const Program& p_;
  Version v_;
  bool vs_;
  PixelEpilogue epilogue_;
  VertexEpilogue vertex_epilogue_;
  Id frag_coord_ = 0;   // gl_FragCoord, when declared
  SpirvBuilder b_;
  ShaderReflection refl_;

  Id t_void_ = 0, t_f_ = 0, t_v4_ = 0, t_i_ = 0, t_iv4_ = 0, t_u_ = 0, t_bool_ = 0, t_bv4_ = 0;
  Id zero4_ = 0, one_ = 0, zero_ = 0;
  Id one4_ = 0;   // (1, 1, 1, 1), declared by emit_instruction

  std::set<uint64_t> used_;              // registers read or written (non-constant files)
  std::set<uint64_t> written_;
  std::set<uint8_t> relative_files_;
  std::map<uint64_t, Id> vars_;          // register -> Private vec4
  std::map<uint8_t, Id> arrays_;         // relatively addressed file -> Private vec4[n]
  std::map<uint8_t, uint32_t> array_sizes_;
  Id a0_ = 0, al_ = 0, p0_ = 0;
  Id ubo_ = 0;
  Id software_constants_ = 0;
  Id per_vertex_ = 0;
  std::map<uint32_t, Id> samplers_;
  std::map<uint32_t, SamplerType> sampler_decl_;
  std::map<uint32_t, std::array<uint32_t, 4>> fdefs_, idefs_;
  std::map<uint32_t, bool> bdefs_;
  std::map<uint64_t, const Declaration*> decls_;   // register -> dcl

  Segment main_;
  std::map<uint32_t, Segment> subs_;     // label index -> body
  std::map<uint32_t, Id> sub_fns_;
  Id epilogue_fn_ = 0;
  bool any_relative_input_ = false;

  // Input interface variables to copy in the prologue: register key -> Input variable.
  struct InputCopy {
    uint64_t key;
    Id var;              // 0: nothing writes the input
    bool color = false;  // a pixel shader COLOR input: (0, 0, 0, 1) when nothing writes it
  };
  std::vector<InputCopy> input_copies_;
};

}  // namespace novem::d3d9::translator
