#include "gl_quirks.hpp"

namespace novem_gl {

namespace {

bool llvmpipe(const std::string &renderer) { return renderer.find("llvmpipe") != std::string::npos; }

// In the order of Quirk.
const novem::QuirkRow<std::string> kQuirks[] = {
    {"driver_heap", "NOVEM_GL_DRIVER_HEAP", "llvmpipe", llvmpipe},
    {"depth_bias_units", "NOVEM_GL_DEPTH_BIAS_UNITS", "llvmpipe", llvmpipe},
};
static_assert(std::size(kQuirks) == std::size_t(Quirk::count));

} // namespace

DriverQuirks::Switches quirk_switches(const novem::Options &settings) { return DriverQuirks::switches(kQuirks, settings); }

DriverQuirks driver_quirks(const std::string &renderer, DriverQuirks::Switches on) {
  return DriverQuirks(kQuirks, renderer, on, "novem-opengl");
}

} // namespace novem_gl
