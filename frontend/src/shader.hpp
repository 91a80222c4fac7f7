// IDirect3DVertexShader9 and IDirect3DPixelShader9: the application's bytecode (GetFunction
// returns it) and the translated shader the plugin has, shared by every shader object with the
// same bytecode on the device.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "device_child.hpp"
#include "translate.hpp"

namespace novem {

// A translation sent to the plugin (CREATE_SHADER); DESTROY_SHADER when the last user goes.
// A shader also has variants with the state D3D9 applies around it (pixel: fog, alpha test, clip
// planes, d3d9::PixelEpilogue; vertex: clip distances, d3d9::VertexEpilogue), translated from the
// kept program when first drawn with that state.
struct CompiledShader {
  uint32_t handle = 0;
  d3d9::ShaderReflection reflection;
  // Bit L: the stage writes (vertex) or reads (pixel) interface location L, from the reflection:
  // what a draw compares to find the pixel inputs no vertex stage writes.
  uint32_t interface_locations = 0;
  d3d9::Program program;                                    // for the variants
  mutable std::map<d3d9::EpilogueKey, uint32_t> variants;  // epilogue pack() -> handle
};

template <class Iface> class ShaderObject final : public DeviceObject<Iface> {
public:
  ShaderObject(Device *device, std::vector<DWORD> tokens, std::shared_ptr<const CompiledShader> compiled)
      : DeviceObject<Iface>(device, 1), tokens_(std::move(tokens)), compiled_(std::move(compiled)) {
    remember_vtable<ShaderObject, Iface>(this);
  }

  const CompiledShader &compiled() const { return *compiled_; }

  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID iid, void **out) override;
  HRESULT STDMETHODCALLTYPE GetFunction(void *data, UINT *size) override {
    if (!size) return D3DERR_INVALIDCALL;
    UINT bytes = UINT(tokens_.size() * sizeof(DWORD));
    if (!data) {
      *size = bytes;
      return D3D_OK;
    }
    if (*size < bytes) return D3DERR_INVALIDCALL;
    std::memcpy(data, tokens_.data(), bytes);
    *size = bytes;
    return D3D_OK;
  }

private:
  std::vector<DWORD> tokens_;
  std::shared_ptr<const CompiledShader> compiled_;
};

using VertexShader = ShaderObject<IDirect3DVertexShader9>;
using PixelShader = ShaderObject<IDirect3DPixelShader9>;

template <> inline HRESULT VertexShader::QueryInterface(REFIID iid, void **out) { return this->query(iid, IID_IDirect3DVertexShader9, out); }
template <> inline HRESULT PixelShader::QueryInterface(REFIID iid, void **out) { return this->query(iid, IID_IDirect3DPixelShader9, out); }

} // namespace novem
