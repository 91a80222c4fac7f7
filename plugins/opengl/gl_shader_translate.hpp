// SPIR-V (the frontend's shaders, Vulkan-flavoured) to GLSL 4.50 for this context, through
// SPIRV-Cross's C API. The uniform blocks keep their bindings, GL uniform-buffer bindings 0
// (vertex) and 1 (pixel); the samplers move to texture units from 0 (texture_unit). Each stage's
// block and samplers are renamed, so that a vertex and a pixel shader never declare one name with
// different contents or bindings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "novem/commands.h"

typedef struct spvc_context_s *spvc_context;

namespace novem_gl {

// The texture unit of the contract's sampler binding (commands.h): pixel sN (binding 16 + N) on
// unit N, vertex sN (binding 32 + N) on unit 16 + N.
constexpr uint32_t texture_unit(uint32_t binding) { return binding - 16; }

class ShaderTranslator {
public:
  ShaderTranslator();
  ~ShaderTranslator();
  ShaderTranslator(const ShaderTranslator &) = delete;
  ShaderTranslator &operator=(const ShaderTranslator &) = delete;

  // Returns false with one line in error when the module cannot be translated.
  bool translate(const uint32_t *words, size_t word_count, nv_shader_stage stage, std::string &glsl,
                 std::string &error);

private:
  spvc_context context_ = nullptr;
};

} // namespace novem_gl
