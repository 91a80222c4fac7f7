// parse_shader: D3D9 shader bytecode -> Program, with validation. Never reads past max_tokens,
// never throws for bad input; the error is one line naming the token ("token 17: opcode 0x58
// (cmp) is not allowed in vs_2_0", "truncated at token 9", "missing end token" ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ir.hpp"

namespace novem::d3d9 {

struct ParseResult {
  bool ok = false;
  Program program;      // valid when ok
  std::string error;    // one line when !ok
  uint32_t error_token = 0;   // token index the error is about
};

// What the device a shader is created on allows beyond the bytecode's own rules.
struct ParseOptions {
  // A device of software (or mixed) vertex processing: a vertex shader may read c0..c8191
  // (c2048 and up are D3DSPR_CONST2..4 in the bytecode), i0..i2047 and b0..b2047
  // (register_count's software files). Pixel shaders are not affected.
  bool software_vertex = false;
};

// Parses up to max_tokens tokens; the stream must end with the end token (0x0000FFFF), and
// program.token_count says how many tokens the shader took (words after the end are ignored).
ParseResult parse_shader(const uint32_t* tokens, size_t max_tokens, const ParseOptions& options = {});

}  // namespace novem::d3d9
