// What D3D9 does after the texture stages or after a pixel shader (ps_1_x/ps_2_x fog; the alpha
// test after any): shared by the fixed-function pixel shader (ff_pixel.cpp) and the translator's
// pixel epilogue (translate/translate.cpp), so that both follow the same formulas.
#pragma once

#include <cstdint>

#include "spirv_builder.hpp"

namespace novem::ff {

// Fog: colour.rgb = f * colour.rgb + (1 - f) * fog_color.rgb. `fog` is a PixelFog (ff_key.hpp):
// kFogVarying takes f = varying_factor; the table modes compute f per pixel from the depth
// (1 / frag_coord.w with `fog_w`, else frag_coord.z) with params = (start, end, density, -).
SpirvBuilder::Id emit_fog(SpirvBuilder& b, SpirvBuilder::Id color, uint8_t fog, bool fog_w,
                          SpirvBuilder::Id varying_factor, SpirvBuilder::Id frag_coord,
                          SpirvBuilder::Id fog_color, SpirvBuilder::Id params);

// D3D9's linear fog factor (end - d) / (end - start), 0 (fully fogged) when start == end. Not
// clamped.
SpirvBuilder::Id linear_fog(SpirvBuilder& b, SpirvBuilder::Id d, SpirvBuilder::Id start, SpirvBuilder::Id end);

// Alpha test: the alpha of `color` as 8 bits (round to nearest) against `ref` (0..255, a float)
// with D3DCMP `func`; discards the pixel when it fails. ALWAYS (or 0) emits nothing.
void emit_alpha_test(SpirvBuilder& b, SpirvBuilder::Id color, uint8_t func, SpirvBuilder::Id ref);

// User clip planes: discards the pixel when an interpolated distance (vec4s `clip0`, and `clip1`
// when not 0) is negative.
void emit_clip_test(SpirvBuilder& b, SpirvBuilder::Id clip0, SpirvBuilder::Id clip1);

}  // namespace novem::ff
