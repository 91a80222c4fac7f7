#include "vk_texture.hpp"

#include <algorithm>
#include <cmath>

#include "vk_batch.hpp"
#include "vk_device.hpp"

namespace novem::vk {

namespace {

VkSamplerAddressMode address_mode(uint8_t a) {
  switch (a) {
  case NV_ADDRESS_MIRROR: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  case NV_ADDRESS_CLAMP: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  case NV_ADDRESS_BORDER: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  default: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
  }
}

// Core Vulkan has three border colours: the nearest one stands for the desc's.
VkBorderColor border_color(const float (&c)[4]) {
  const float lum = (c[0] + c[1] + c[2]) / 3.0f;
  if (c[3] < 0.5f) return VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  return lum < 0.5f ? VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK : VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
}

} // namespace

size_t SamplerCache::KeyHash::operator()(const Key &k) const {
  uint64_t h = 1469598103934665603ull;
  auto *bytes = reinterpret_cast<const unsigned char *>(&k);
  for (size_t i = 0; i < sizeof k; ++i) {
    h ^= bytes[i];
    h *= 1099511628211ull;
  }
  return size_t(h);
}

SamplerCache::~SamplerCache() {
  for (auto &[key, sampler] : samplers_) device_.vk().DestroySampler(device_.handle(), sampler, nullptr);
}

VkSampler SamplerCache::get(const nv_sampler_desc &desc, bool compare) {
  Key key;
  std::memset(&key, 0, sizeof key);
  key.desc = desc;
  key.compare = compare;
  if (const VkSampler *s = recent_.find(key)) return *s;
  auto it = samplers_.find(key);
  if (it != samplers_.end()) {
    recent_.remember(key, it->second);
    return it->second;
  }

  VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  ci.magFilter = desc.mag_filter == NV_FILTER_LINEAR ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  ci.minFilter = desc.min_filter == NV_FILTER_LINEAR ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  ci.mipmapMode = desc.mip_filter == NV_FILTER_LINEAR ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  ci.addressModeU = address_mode(desc.address_u);
  ci.addressModeV = address_mode(desc.address_v);
  ci.addressModeW = address_mode(desc.address_w);
  const float max_bias = device_.limits().maxSamplerLodBias;
  ci.mipLodBias = std::isfinite(desc.mip_lod_bias) ? std::clamp(desc.mip_lod_bias, -max_bias, max_bias) : 0.0f;
  // At most the adapter's max_anisotropy (the contract): above 1 only where samplerAnisotropy is on.
  ci.anisotropyEnable = desc.max_anisotropy > 1 ? VK_TRUE : VK_FALSE;
  ci.maxAnisotropy = float(std::max<uint32_t>(desc.max_anisotropy, 1));
  // D3D9's shadow-map test: lit (1) where the reference is at most the stored depth.
  ci.compareEnable = compare ? VK_TRUE : VK_FALSE;
  ci.compareOp = compare ? VK_COMPARE_OP_LESS_OR_EQUAL : VK_COMPARE_OP_NEVER;
  ci.minLod = float(desc.max_mip_level);
  // MIPFILTER NONE: the one level max_mip_level (nearest mip selection never leaves it).
  ci.maxLod = desc.mip_filter == NV_FILTER_NONE ? ci.minLod + 0.25f : VK_LOD_CLAMP_NONE;
  ci.borderColor = border_color(desc.border_color);
  ci.unnormalizedCoordinates = VK_FALSE;
  VkSampler sampler = VK_NULL_HANDLE;
  check(device_.vk().CreateSampler(device_.handle(), &ci, nullptr, &sampler), "vkCreateSampler");
  samplers_.emplace(key, sampler);
  recent_.remember(key, sampler);
  return sampler;
}

DescriptorArena::~DescriptorArena() {
  for (Pool &p : pools_) device_.vk().DestroyDescriptorPool(device_.handle(), p.pool, nullptr);
}

VkDescriptorPool DescriptorArena::create_pool() {
  std::vector<VkDescriptorPoolSize> sizes = per_set_;
  for (VkDescriptorPoolSize &s : sizes) s.descriptorCount *= kSetsPerPool;
  VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  ci.maxSets = kSetsPerPool;
  ci.poolSizeCount = uint32_t(sizes.size());
  ci.pPoolSizes = sizes.data();
  VkDescriptorPool pool = VK_NULL_HANDLE;
  check(device_.vk().CreateDescriptorPool(device_.handle(), &ci, nullptr, &pool), "vkCreateDescriptorPool");
  return pool;
}

void DescriptorArena::touch(const BatchQueue &batches) {
  if (!pools_.empty()) pools_[current_].last_use = batches.recording_id();
}

VkDescriptorSet DescriptorArena::allocate(const BatchQueue &batches) {
  const NovemVkDevice &vk = device_.vk();
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &layout_;
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (!pools_.empty()) {
    ai.descriptorPool = pools_[current_].pool;
    VkResult r = vk.AllocateDescriptorSets(device_.handle(), &ai, &set);
    if (r == VK_SUCCESS) {
      pools_[current_].last_use = batches.recording_id();
      return set;
    }
    if (r != VK_ERROR_OUT_OF_POOL_MEMORY && r != VK_ERROR_FRAGMENTED_POOL) check(r, "vkAllocateDescriptorSets");
  }
  // The current pool is full: reuse one no batch needs any more, or make another.
  size_t next = pools_.size();
  for (size_t i = 0; i < pools_.size(); ++i) {
    if (i != current_ && !batches.in_use(pools_[i].last_use)) {
      next = i;
      break;
    }
  }
  if (next == pools_.size()) {
    pools_.push_back({create_pool(), 0});
  } else {
    check(vk.ResetDescriptorPool(device_.handle(), pools_[next].pool, 0), "vkResetDescriptorPool");
  }
  current_ = next;
  ai.descriptorPool = pools_[current_].pool;
  check(vk.AllocateDescriptorSets(device_.handle(), &ai, &set), "vkAllocateDescriptorSets");
  pools_[current_].last_use = batches.recording_id();
  return set;
}

} // namespace novem::vk
