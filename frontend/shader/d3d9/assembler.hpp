// D3D9 assembly text -> bytecode, in the dialect of Microsoft's D3DAssemble: what it accepts
// (vs.1.1, 1.0f, 1 - r1, c[2 + 10], c0[a0.xyww] ...) becomes the tokens it writes, and what it
// refuses is refused (dialect.hpp has the per-version modifier rules; the folder README the
// whole list). Also what disassemble() prints, "//" and ";" comments, blank lines and any letter
// case. The result is validated by parse_shader(), and every error names its line ("line 7:
// unknown instruction 'madd'").
//
// encode_program() is the IR -> tokens half, shared with tests (parse -> encode gives the same
// words for any stream without comment tokens, which are dropped).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir.hpp"

namespace novem::d3d9 {

struct AssembleResult {
  bool ok = false;
  std::vector<uint32_t> tokens;
  std::string error;     // one line when !ok
};

AssembleResult assemble(std::string_view text);

std::vector<uint32_t> encode_program(const Program& program);

}  // namespace novem::d3d9
