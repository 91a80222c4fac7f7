#include "gl_shader_translate.hpp"

#include <spirv_cross/spirv_cross_c.h>

namespace novem_gl {

ShaderTranslator::ShaderTranslator() { spvc_context_create(&context_); }

ShaderTranslator::~ShaderTranslator() {
  if (context_) spvc_context_destroy(context_);
}

bool ShaderTranslator::translate(const uint32_t *words, size_t word_count, nv_shader_stage stage, std::string &glsl,
                                 std::string &error) {
  if (!context_) {
    error = "SPIRV-Cross did not start";
    return false;
  }
  spvc_parsed_ir ir = nullptr;
  spvc_compiler compiler = nullptr;
  spvc_compiler_options options = nullptr;
  spvc_resources resources = nullptr;
  const spvc_reflected_resource *blocks = nullptr, *samplers = nullptr;
  size_t block_count = 0, sampler_count = 0;
  const char *source = nullptr;
  bool ok = spvc_context_parse_spirv(context_, words, word_count, &ir) == SPVC_SUCCESS &&
            spvc_context_create_compiler(context_, SPVC_BACKEND_GLSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                         &compiler) == SPVC_SUCCESS &&
            spvc_compiler_create_compiler_options(compiler, &options) == SPVC_SUCCESS;
  if (ok) {
    // Plain desktop GLSL 4.50: bindings stay (420pack is core), sets go. Vertex shaders negate
    // gl_Position.y, which puts NDC y = +1 on window row 0 (image row 0) under the lower-left
    // clip origin (gl_executor.cpp says why not GL_UPPER_LEFT); depth is already [0, 1]
    // (glClipControl's GL_ZERO_TO_ONE).
    spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_GLSL_VERSION, 450);
    spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_ES, SPVC_FALSE);
    spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_VULKAN_SEMANTICS, SPVC_FALSE);
    spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_ENABLE_420PACK_EXTENSION, SPVC_TRUE);
    spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_FLIP_VERTEX_Y, SPVC_TRUE);
    spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_FIXUP_DEPTH_CONVENTION, SPVC_FALSE);
    ok = spvc_compiler_install_compiler_options(compiler, options) == SPVC_SUCCESS &&
         spvc_compiler_create_shader_resources(compiler, &resources) == SPVC_SUCCESS &&
         spvc_resources_get_resource_list_for_type(resources, SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, &blocks,
                                                   &block_count) == SPVC_SUCCESS &&
         spvc_resources_get_resource_list_for_type(resources, SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, &samplers,
                                                   &sampler_count) == SPVC_SUCCESS;
  }
  if (ok) {
    // GL links stages into one program, where a block or uniform name means one definition:
    // give each stage's block (and its instance) and samplers names of their own. The vertex
    // stage's s0 and the pixel stage's s0 are different samplers at different bindings.
    const std::string prefix = stage == NV_STAGE_VERTEX ? "nv_vs" : "nv_ps";
    for (size_t i = 0; i < block_count; ++i) {
      std::string suffix = block_count > 1 ? std::to_string(i) : std::string();
      spvc_compiler_set_name(compiler, blocks[i].base_type_id, (prefix + "_constants" + suffix).c_str());
      spvc_compiler_set_name(compiler, blocks[i].id, (prefix + suffix).c_str());
    }
    // Texture units from 0: the contract's bindings (pixel sN at 16 + N, vertex sN at 32 + N)
    // become units N and 16 + N. Mesa walks every unit up to the highest one bound at each
    // texture change, so pixel s0 on unit 16 cost 17 units' worth per draw.
    for (size_t i = 0; i < sampler_count; ++i) {
      spvc_compiler_set_name(compiler, samplers[i].id, (prefix + "_sampler" + std::to_string(i)).c_str());
      const unsigned binding = spvc_compiler_get_decoration(compiler, samplers[i].id, SpvDecorationBinding);
      spvc_compiler_set_decoration(compiler, samplers[i].id, SpvDecorationBinding, texture_unit(binding));
    }
    ok = spvc_compiler_compile(compiler, &source) == SPVC_SUCCESS && source;
  }
  if (ok) {
    glsl = source;
  } else {
    const char *why = spvc_context_get_last_error_string(context_);
    error = std::string("SPIRV-Cross: ") + (why && *why ? why : "cannot translate the module");
  }
  spvc_context_release_allocations(context_);
  return ok;
}

} // namespace novem_gl
