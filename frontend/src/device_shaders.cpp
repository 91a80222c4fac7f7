// Programmable shaders (creation, their translation cache and CREATE_SHADER), their constants, and
// vertex declarations. What a draw sends for them is the state encoder's (state_encoder_shaders.cpp).
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>

#include "conventions.hpp"
#include "device.hpp"
#include "log.hpp"
#include "math.hpp"
#include "parser.hpp"
#include "shader.hpp"
#include "vertex_declaration.hpp"

namespace novem {

namespace {

// D3D9 gives CreateVertexShader no length: the stream ends at its end token. The parser stops
// there; this only bounds a stream that has none.
constexpr size_t kMaxShaderTokens = size_t(1) << 20;

template <class T> HRESULT get_constants(const std::vector<T> &file, UINT start, void *dst, UINT count) {
  if (!dst || start >= file.size() || count > file.size() - start) return D3DERR_INVALIDCALL;
  std::memcpy(dst, file.data() + start, size_t(count) * sizeof(T));
  return D3D_OK;
}

} // namespace

std::shared_ptr<const CompiledShader> Device::compile_shader(const DWORD *function, bool pixel, std::vector<DWORD> &tokens) {
  const char *call = pixel ? "CreatePixelShader" : "CreateVertexShader";
  // A device of software or mixed vertex processing gives vertex shaders its larger constant
  // files (c8191, i2047, b2047), in either mode of a mixed device; a hardware one refuses them.
  const d3d9::ParseOptions options{.software_vertex = software_vertex_files(creation_.BehaviorFlags)};
  d3d9::ParseResult parsed = d3d9::parse_shader(reinterpret_cast<const uint32_t *>(function), kMaxShaderTokens, options);
  if (!parsed.ok) {
    log_warn("%s: invalid bytecode: %s", call, parsed.error.c_str());
    return nullptr;
  }
  if (parsed.program.version.is_ps() != pixel) {
    log_warn("%s: got a %s", call, parsed.program.version.name().c_str());
    return nullptr;
  }
  tokens.assign(function, function + parsed.program.token_count);
  uint64_t hash = d3d9::shader_hash(tokens.data(), tokens.size());
  if (auto cached = compiled_shaders_[hash].lock()) return cached;

  d3d9::Translation translation = d3d9::translate(parsed.program);
  if (!translation.ok()) {
    log_warn("%s: %s cannot be translated: %s", call, parsed.program.version.name().c_str(), translation.error.c_str());
    return nullptr;
  }
  const uint32_t handle = create_shader(pixel ? NV_STAGE_PIXEL : NV_STAGE_VERTEX, translation.spirv);
  if (!handle) return nullptr;
  auto *compiled = new CompiledShader{handle, std::move(translation.reflection), 0, {}, {}};
  compiled->program = parsed.program;   // for the variants
  auto mark = [&](uint32_t location) {
    if (location < d3d9::conv::kLocationCount) compiled->interface_locations |= 1u << location;
  };
  if (pixel) for (const auto &in : compiled->reflection.inputs) mark(in.location);
  else for (const auto &out : compiled->reflection.outputs) mark(out.location);
  // The plugin's shader lives as long as some shader object uses this translation.
  std::shared_ptr<const CompiledShader> shared(compiled, [this](const CompiledShader *c) {
    commands().push(nv_cmd_destroy_shader{c->handle});
    for (const auto &[key, variant] : c->variants) // a variant that could not be made is the shader itself
      if (variant != c->handle) commands().push(nv_cmd_destroy_shader{variant});
    delete c;
  });
  compiled_shaders_[hash] = shared;
  return shared;
}

HRESULT Device::CreateVertexShader(const DWORD *function, IDirect3DVertexShader9 **shader) {
  if (!function || !shader) return D3DERR_INVALIDCALL;
  *shader = nullptr;
  std::vector<DWORD> tokens;
  auto compiled = compile_shader(function, false, tokens);
  if (!compiled) return D3DERR_INVALIDCALL;
  *shader = new VertexShader(this, std::move(tokens), std::move(compiled));
  AddRef();
  return D3D_OK;
}

HRESULT Device::CreatePixelShader(const DWORD *function, IDirect3DPixelShader9 **shader) {
  if (!function || !shader) return D3DERR_INVALIDCALL;
  *shader = nullptr;
  std::vector<DWORD> tokens;
  auto compiled = compile_shader(function, true, tokens);
  if (!compiled) return D3DERR_INVALIDCALL;
  *shader = new PixelShader(this, std::move(tokens), std::move(compiled));
  AddRef();
  return D3D_OK;
}

HRESULT Device::SetVertexShader(IDirect3DVertexShader9 *iface) {
  auto *shader = known_object<VertexShader>(iface);
  if (iface && !shader) return D3DERR_INVALIDCALL; // not Novem's object
  update_->set_vertex_shader(shader);
  return D3D_OK;
}

HRESULT Device::GetVertexShader(IDirect3DVertexShader9 **shader) {
  if (!shader) return D3DERR_INVALIDCALL;
  if (live_.state.vertex_shader) live_.state.vertex_shader->AddRef();
  *shader = live_.state.vertex_shader;
  return D3D_OK;
}

HRESULT Device::SetPixelShader(IDirect3DPixelShader9 *iface) {
  auto *shader = known_object<PixelShader>(iface);
  if (iface && !shader) return D3DERR_INVALIDCALL; // not Novem's object
  update_->set_pixel_shader(shader);
  return D3D_OK;
}

HRESULT Device::GetPixelShader(IDirect3DPixelShader9 **shader) {
  if (!shader) return D3DERR_INVALIDCALL;
  if (live_.state.pixel_shader) live_.state.pixel_shader->AddRef();
  *shader = live_.state.pixel_shader;
  return D3D_OK;
}

HRESULT Device::SetVertexShaderConstantF(UINT start, const float *data, UINT count) {
  return update_->set_constants<'f'>(NV_STAGE_VERTEX, start, data, count);
}
HRESULT Device::GetVertexShaderConstantF(UINT start, float *data, UINT count) {
  return get_constants(live_.state.vs_constants.f, start, data, count);
}
HRESULT Device::SetVertexShaderConstantI(UINT start, const int *data, UINT count) {
  return update_->set_constants<'i'>(NV_STAGE_VERTEX, start, data, count);
}
HRESULT Device::GetVertexShaderConstantI(UINT start, int *data, UINT count) {
  return get_constants(live_.state.vs_constants.i, start, data, count);
}
HRESULT Device::SetVertexShaderConstantB(UINT start, const WINBOOL *data, UINT count) {
  return update_->set_constants<'b'>(NV_STAGE_VERTEX, start, data, count);
}
HRESULT Device::GetVertexShaderConstantB(UINT start, WINBOOL *data, UINT count) {
  return get_constants(live_.state.vs_constants.b, start, data, count);
}
HRESULT Device::SetPixelShaderConstantF(UINT start, const float *data, UINT count) {
  return update_->set_constants<'f'>(NV_STAGE_PIXEL, start, data, count);
}
HRESULT Device::GetPixelShaderConstantF(UINT start, float *data, UINT count) {
  return get_constants(live_.state.ps_constants.f, start, data, count);
}
HRESULT Device::SetPixelShaderConstantI(UINT start, const int *data, UINT count) {
  return update_->set_constants<'i'>(NV_STAGE_PIXEL, start, data, count);
}
HRESULT Device::GetPixelShaderConstantI(UINT start, int *data, UINT count) {
  return get_constants(live_.state.ps_constants.i, start, data, count);
}
HRESULT Device::SetPixelShaderConstantB(UINT start, const WINBOOL *data, UINT count) {
  return update_->set_constants<'b'>(NV_STAGE_PIXEL, start, data, count);
}
HRESULT Device::GetPixelShaderConstantB(UINT start, WINBOOL *data, UINT count) {
  return get_constants(live_.state.ps_constants.b, start, data, count);
}

HRESULT Device::CreateVertexDeclaration(const D3DVERTEXELEMENT9 *elements, IDirect3DVertexDeclaration9 **declaration) {
  if (!elements || !declaration) return D3DERR_INVALIDCALL;
  *declaration = nullptr;
  std::vector<D3DVERTEXELEMENT9> parsed;
  if (HRESULT hr = parse_vertex_elements(elements, parsed); hr != D3D_OK) return hr;
  DWORD fvf = declaration_fvf(parsed);
  *declaration = new VertexDeclaration(this, 1, std::move(parsed), fvf);
  AddRef();
  return D3D_OK;
}

HRESULT Device::SetVertexDeclaration(IDirect3DVertexDeclaration9 *iface) {
  auto *declaration = known_object<VertexDeclaration>(iface);
  if (iface && !declaration) return D3DERR_INVALIDCALL; // not Novem's object
  update_->set_vertex_declaration(declaration, declaration ? declaration->fvf() : 0);
  return D3D_OK;
}

HRESULT Device::GetVertexDeclaration(IDirect3DVertexDeclaration9 **declaration) {
  if (!declaration) return D3DERR_INVALIDCALL;
  if (live_.state.vertex_declaration) live_.state.vertex_declaration->AddRef();
  *declaration = live_.state.vertex_declaration;
  return D3D_OK;
}

VertexDeclaration *Device::fvf_declaration(DWORD fvf) {
  // The declaration an FVF stands for, made once per FVF and kept by the device: setting the
  // same FVF again binds the same object (Wine's test_fvf_decl_management, from Windows).
  auto [it, inserted] = fvf_declarations_.try_emplace(fvf, nullptr);
  if (inserted) {
    it->second = new VertexDeclaration(this, 0, fvf_to_elements(fvf), fvf);
    it->second->add_private_ref();
  }
  return it->second;
}

HRESULT Device::SetFVF(DWORD fvf) {
  update_->set_fvf(fvf, fvf ? fvf_declaration(fvf) : nullptr);
  return D3D_OK;
}

HRESULT Device::GetFVF(DWORD *fvf) {
  if (!fvf) return D3DERR_INVALIDCALL;
  *fvf = live_.state.fvf;
  return D3D_OK;
}

uint32_t Device::create_shader(nv_shader_stage stage, const std::vector<uint32_t> &words) {
  // A record may take a quarter of the ring (NOVEM_RING_SIZE); the fixed-function shaders, a few
  // KiB, always fit.
  if (words.size() * 4 > commands().max_payload(sizeof(nv_cmd_create_shader))) {
    log_warn("a shader of %zu bytes of SPIR-V does not fit a command record: NOVEM_RING_SIZE=%zu or more carries it",
              words.size() * 4, (words.size() * 4 + 4096) * 4);
    return 0;
  }
  const uint32_t handle = commands().new_handle();
  auto *args = commands().begin<nv_cmd_create_shader>(words.size() * 4);
  *args = nv_cmd_create_shader{handle, stage, uint32_t(words.size())};
  std::memcpy(command_payload(args), words.data(), words.size() * 4);
  commands().commit();
  return handle;
}

} // namespace novem
