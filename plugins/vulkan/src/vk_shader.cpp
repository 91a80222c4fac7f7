#include "vk_shader.hpp"

#include <unordered_map>

#include "vk_device.hpp"
#include "vk_pipeline.hpp"

namespace novem::vk {

namespace {

// The texture slots a module declares, from its DescriptorSet and Binding decorations.
uint32_t declared_texture_slots(nv_shader_stage stage, const uint32_t *words, uint32_t word_count) {
  constexpr uint32_t kOpDecorate = 71, kDecorationBinding = 33, kDecorationDescriptorSet = 34;
  std::unordered_map<uint32_t, uint32_t> sets, bindings;
  for (uint32_t i = 5; i < word_count;) {
    const uint32_t length = words[i] >> 16, opcode = words[i] & 0xFFFFu;
    if (length == 0 || i + length > word_count) break; // malformed: the driver's module check decides
    if (opcode == kOpDecorate && length >= 4) {
      if (words[i + 2] == kDecorationDescriptorSet) sets[words[i + 1]] = words[i + 3];
      if (words[i + 2] == kDecorationBinding) bindings[words[i + 1]] = words[i + 3];
    }
    i += length;
  }
  const uint32_t base = stage == NV_STAGE_PIXEL ? kPixelTextureBinding : kVertexTextureBinding;
  const uint32_t count = stage == NV_STAGE_PIXEL ? NV_MAX_PIXEL_TEXTURES : NV_MAX_VERTEX_TEXTURES;
  uint32_t slots = 0;
  for (const auto &[id, binding] : bindings) {
    auto set = sets.find(id);
    if (set != sets.end() && set->second == PipelineLayout::texture_set(stage) && binding >= base && binding < base + count)
      slots |= 1u << (binding - base);
  }
  return slots;
}

} // namespace

Shader::Shader(const Device &device, nv_shader_stage stage, const uint32_t *words, uint32_t word_count)
    : device_(device), stage_(stage) {
  constexpr uint32_t kSpirvMagic = 0x07230203u;
  if (word_count < 5 || words[0] != kSpirvMagic) throw std::runtime_error("not a SPIR-V module");
  if (stage != NV_STAGE_VERTEX && stage != NV_STAGE_PIXEL) throw std::runtime_error("unknown shader stage");
  VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  ci.codeSize = size_t(word_count) * 4;
  ci.pCode = words;
  check(device.vk().CreateShaderModule(device.handle(), &ci, nullptr, &module_), "vkCreateShaderModule");
  texture_slots_ = declared_texture_slots(stage, words, word_count);
  uniforms_ = stage_uniform_footprint(words, word_count, stage);
}

Shader::~Shader() { device_.vk().DestroyShaderModule(device_.handle(), module_, nullptr); }

} // namespace novem::vk
