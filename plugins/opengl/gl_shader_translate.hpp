// SPIR-V (the frontend's shaders, Vulkan-flavoured) to GLSL 4.50 for this context, through
// SPIRV-Cross's C API. Binding decorations are kept, so the contract's uniform blocks land on
// GL uniform-buffer bindings 0 (vertex) and 1 (pixel); each stage's block is renamed so that a
// vertex and a pixel shader never declare the same block name with different contents.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "novem/commands.h"

typedef struct spvc_context_s *spvc_context;

namespace novem_gl {

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
