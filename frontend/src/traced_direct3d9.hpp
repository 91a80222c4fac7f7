// The IDirect3D9Ex object made when NOVEM_LOG=trace: each method writes the program's call, its
// arguments and its result (call_trace.hpp). AddRef and Release are left alone, as on the device.
// The overrides are generated at build time from d3d9.h (novem-registry-gen com-forward --trace,
// frontend/CMakeLists.txt).
#pragma once

#include "call_trace.hpp"
#include "direct3d9.hpp"

namespace novem {

class TracedDirect3D9 final : public Direct3D9 {
public:
  using Direct3D9::Direct3D9;

#include "traced_direct3d9_methods.inc"
};

} // namespace novem
