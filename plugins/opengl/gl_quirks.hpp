// The GL drivers' habits the plugin works around, one table (gl_quirks.cpp; the frame is
// novem/quirks.hpp): each row names its driver and the flag that turns the workaround off.
#pragma once

#include <string>

#include "novem/quirks.hpp"

namespace novem_gl {

enum class Quirk {
  // llvmpipe: its scene memory is given back to the kernel at every frame; the plugin keeps it
  // (glibc's thresholds, novem/driver_heap.hpp). NOVEM_GL_DRIVER_HEAP.
  driver_heap,
  // llvmpipe counts glPolygonOffset's units in twice the minimum resolvable difference of UNORM
  // depth formats (Mesa's lp_state_setup.c: offset_units * mrd * 2), which GL allows (r is
  // implementation-dependent); D3D9 needs one 2^-n step per unit, so the units are halved
  // there. Float depth is counted as the spec defines. NOVEM_GL_DEPTH_BIAS_UNITS.
  depth_bias_units,
  count
};

using DriverQuirks = novem::Quirks<Quirk, std::size_t(Quirk::count)>;

// Which workarounds the settings leave on (Config::from_environment reads them).
DriverQuirks::Switches quirk_switches(const novem::Options &settings);
// The quirks of the driver whose GL_RENDERER string is `renderer` that apply.
DriverQuirks driver_quirks(const std::string &renderer, DriverQuirks::Switches on);

} // namespace novem_gl
