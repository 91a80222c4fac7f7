// libFuzzer entry: any bytes as D3D9 shader tokens. The parser must refuse or accept without
// crashing or reading past the input; what it accepts must disassemble, assemble back to the
// same program (or, when D3DAssemble could not have written it, be refused by the assembler),
// and translate (to SPIR-V or to an error) without crashing.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "assembler.hpp"
#include "dialect.hpp"
#include "disassembler.hpp"
#include "parser.hpp"
#include "translate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint32_t> tokens(size / 4);
  if (!tokens.empty()) std::memcpy(tokens.data(), data, tokens.size() * 4);
  novem::d3d9::ParseResult parsed = novem::d3d9::parse_shader(tokens.data(), tokens.size());
  if (!parsed.ok) return 0;
  bool in_dialect = true;
  for (const novem::d3d9::StreamItem &item : parsed.program.order)
    in_dialect = in_dialect && novem::d3d9::dialect_error(parsed.program, item).empty();
  novem::d3d9::AssembleResult again = novem::d3d9::assemble(novem::d3d9::disassemble(parsed.program));
  if (again.ok != in_dialect) std::abort();
  if (again.ok && again.tokens != novem::d3d9::encode_program(parsed.program)) std::abort();
  novem::d3d9::Translation translation = novem::d3d9::translate(parsed.program);
  if (translation.ok() && translation.spirv.empty()) std::abort();
  return 0;
}
