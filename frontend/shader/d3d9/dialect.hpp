// D3DAssemble's dialect: which modifiers the assembly of each shader version may spell, beyond
// what the bytecode format can hold. The format has a field for every modifier in every
// version, and parse_shader() reads them all (Windows' runtime, not the format, judges a
// stream); the assembler refuses what D3DAssemble refuses, so that text only ever becomes
// bytecode Microsoft's tools could have written.
#pragma once

#include <string>

#include "ir.hpp"

namespace novem::d3d9 {

// "" when the statement is in the dialect of p.version, else why not, in one line
// ("source modifier _abs is not allowed in vs_2_0").
std::string dialect_error(const Program& p, const StreamItem& item);

}  // namespace novem::d3d9
