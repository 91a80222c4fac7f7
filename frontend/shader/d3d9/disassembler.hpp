// IR -> D3D9 assembly text, in the syntax fxc /dumpbin prints ("vs_3_0", "dcl_position v0",
// "def c0, 1, 0, 0.5, 1", "mad_sat r0.xyz, r1, c2.x, -r3_abs", "(p0.x) add r0, r1, r2",
// "+mov r0.w, t0"). One statement per line, version first; comment tokens are not printed.
// assemble(disassemble(p)) gives p's tokens back (less the comments).
#pragma once

#include <string>

#include "ir.hpp"

namespace novem::d3d9 {

std::string disassemble(const Program& program);

// Pieces, for messages and for the translator's debug names.
std::string format_dst(const DstParam& dst, Version v);
std::string format_src(const SrcParam& src, Version v);
std::string format_instruction(const Instruction& inst, Version v);

}  // namespace novem::d3d9
