// Texturing: samplers cached by their nv_sampler_desc, and the descriptor sets draws bind (set 0:
// the two dynamic uniform buffers plus every combined image sampler of the layout), allocated from
// pools that are reset once the last batch that used them has completed.
#pragma once

#include <cstring>
#include <unordered_map>
#include <vector>

#include "novem/commands.h"
#include "novem/recent_answers.hpp"
#include "vk_common.hpp"

namespace novem::vk {

class BatchQueue;
class Device;

class SamplerCache {
public:
  explicit SamplerCache(const Device &device) : device_(device) {}
  ~SamplerCache(); // the GPU must be idle
  SamplerCache(const SamplerCache &) = delete;
  SamplerCache &operator=(const SamplerCache &) = delete;

  // compare (ABI 5: NV_TEXTURE_COMPARE_DEPTH): a depth-comparison sampler, LESS_OR_EQUAL.
  VkSampler get(const nv_sampler_desc &desc, bool compare = false);
  size_t size() const { return samplers_.size(); }

private:
  struct Key {
    nv_sampler_desc desc;
    uint32_t compare;
    bool operator==(const Key &o) const { return std::memcmp(this, &o, sizeof *this) == 0; }
  };
  struct KeyHash {
    size_t operator()(const Key &k) const;
  };
  const Device &device_;
  std::unordered_map<Key, VkSampler, KeyHash> samplers_;
  novem::RecentAnswers<Key, VkSampler> recent_; // a texture change mostly keeps the sampler state
};

class DescriptorArena {
public:
  // per_set: the descriptors one set of `layout` holds, by type.
  DescriptorArena(const Device &device, VkDescriptorSetLayout layout, std::vector<VkDescriptorPoolSize> per_set)
      : device_(device), layout_(layout), per_set_(std::move(per_set)) {}
  ~DescriptorArena(); // the GPU must be idle
  DescriptorArena(const DescriptorArena &) = delete;
  DescriptorArena &operator=(const DescriptorArena &) = delete;

  // A fresh set for the recording batch; its pool is kept until that batch has completed.
  VkDescriptorSet allocate(const BatchQueue &batches);
  // The last set allocated is used by the recording batch too.
  void touch(const BatchQueue &batches);

private:
  struct Pool {
    VkDescriptorPool pool = VK_NULL_HANDLE;
    BatchId last_use = 0;
  };
  VkDescriptorPool create_pool();

  static constexpr uint32_t kSetsPerPool = 256;
  const Device &device_;
  VkDescriptorSetLayout layout_;
  std::vector<VkDescriptorPoolSize> per_set_;
  std::vector<Pool> pools_;
  size_t current_ = 0;
};

} // namespace novem::vk
