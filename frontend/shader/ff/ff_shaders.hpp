// The fixed-function pipeline's shader generators: SPIR-V 1.0 modules (entry point "main") from a
// VertexKey or a PixelKey (ff_key.hpp), reading the uniform blocks of ff_constants.hpp. See
// README.md for the interface between the two and the formulas they follow.
#pragma once

#include <cstdint>
#include <vector>

#include "ff_key.hpp"

namespace novem::ff {

// The user clip distances of planes 0..3 and 4..5 between the stages (conventions.hpp).
inline constexpr uint32_t kLocationClip0 = 29, kLocationClip1 = 30;

std::vector<uint32_t> build_vertex_shader(const VertexKey& key);
std::vector<uint32_t> build_pixel_shader(const PixelKey& key);

}  // namespace novem::ff
