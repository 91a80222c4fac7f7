#include "vk_shader.hpp"

#include "vk_device.hpp"

namespace novem::vk {

Shader::Shader(const Device &device, nv_shader_stage stage, const uint32_t *words, uint32_t word_count)
    : device_(device), stage_(stage) {
  constexpr uint32_t kSpirvMagic = 0x07230203u;
  if (word_count < 5 || words[0] != kSpirvMagic) throw std::runtime_error("not a SPIR-V module");
  if (stage != NV_STAGE_VERTEX && stage != NV_STAGE_PIXEL) throw std::runtime_error("unknown shader stage");
  VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  ci.codeSize = size_t(word_count) * 4;
  ci.pCode = words;
  check(device.vk().CreateShaderModule(device.handle(), &ci, nullptr, &module_), "vkCreateShaderModule");
}

Shader::~Shader() { device_.vk().DestroyShaderModule(device_.handle(), module_, nullptr); }

} // namespace novem::vk
