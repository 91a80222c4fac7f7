// Shaders: a VkShaderModule per CREATE_SHADER (SPIR-V 1.0, entry point "main"), its stage, the
// texture slots it declares and the bytes of its stage's uniform block it reads.
#pragma once

#include <cstdint>

#include "novem/commands.h"
#include "novem/spirv_uniforms.hpp"
#include "vk_common.hpp"

namespace novem::vk {

class Device;

class Shader {
public:
  // Throws VkError, or std::runtime_error for words that are not SPIR-V.
  Shader(const Device &device, nv_shader_stage stage, const uint32_t *words, uint32_t word_count);
  ~Shader();
  Shader(const Shader &) = delete;
  Shader &operator=(const Shader &) = delete;

  VkShaderModule module() const { return module_; }
  nv_shader_stage stage() const { return stage_; }
  VkShaderStageFlagBits vk_stage() const {
    return stage_ == NV_STAGE_VERTEX ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
  }
  // Bit N: the module declares its stage's sampler sN (set 2, binding 16 + N, or set 3, binding
  // 32 + N, as commands.h places them). Only these slots' images must be in the shader-read layout at a draw.
  uint32_t texture_slots() const { return texture_slots_; }
  // The bytes of the stage's uniform block (set 0 or 1) the module reads: all a draw needs copied.
  const UniformFootprint &uniforms() const { return uniforms_; }

private:
  const Device &device_;
  nv_shader_stage stage_;
  uint32_t texture_slots_ = 0;
  UniformFootprint uniforms_;
  VkShaderModule module_ = VK_NULL_HANDLE;
};

} // namespace novem::vk
