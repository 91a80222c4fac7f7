// Texture descriptor sets kept for what they hold. A stage's set names an image view and a sampler
// per texture slot; a draw whose slots hold what an earlier set holds binds that set again, instead
// of allocating a set and writing every slot into it. A texture that alternates between a few
// images (a material per draw) then costs one vkCmdBindDescriptorSets, as in a Vulkan renderer
// that makes its sets up front; lavapipe mallocs every set it allocates.
//
// Sets come from one pool that frees sets one by one. A set is dropped when an image view it names
// is about to be destroyed (forget), or to make room once no batch in flight uses it; a dropped
// set still in use is freed once the last batch that bound it has completed.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "novem/retire_queue.hpp"
#include "vk_common.hpp"

namespace novem::vk {

class BatchQueue;
class Device;

// Writes `count` combined image samplers into `set` from `binding` on: one write runs over them.
void write_texture_descriptors(const Device &device, VkDescriptorSet set, uint32_t binding, uint32_t count,
                               const VkDescriptorImageInfo *infos);

class TextureSetCache {
public:
  static constexpr uint32_t kCapacity = 512; // sets in the pool
  static constexpr uint32_t kNone = UINT32_MAX;

  // Sets of `layout`, whose `count` combined image samplers start at `binding`.
  TextureSetCache(const Device &device, VkDescriptorSetLayout layout, uint32_t binding, uint32_t count);
  ~TextureSetCache(); // the GPU must be idle
  TextureSetCache(const TextureSetCache &) = delete;
  TextureSetCache &operator=(const TextureSetCache &) = delete;

  // The entry whose set holds `infos` (count of them), written now if no set does; kNone when
  // every set is used by a batch in flight. The recording batch uses it.
  uint32_t get(const BatchQueue &batches, const VkDescriptorImageInfo *infos);
  VkDescriptorSet set(uint32_t entry) const { return entries_[entry].set; }
  // The recording batch uses the entry's set (still bound from an earlier draw).
  void touch(const BatchQueue &batches, uint32_t entry);
  // Drops every set that names `view`, which is about to be destroyed. Returns whether any was.
  bool forget(const BatchQueue &batches, VkImageView view);

private:
  using ViewIndex = std::unordered_multimap<VkImageView, uint32_t>; // view → entry naming it
  struct Entry {
    VkDescriptorSet set = VK_NULL_HANDLE;
    BatchId last_use = 0;
    std::vector<VkDescriptorImageInfo> infos; // what the set holds; empty: the entry is free
    std::vector<ViewIndex::iterator> views;   // its places in by_view_, one per distinct view
  };
  struct Key { // the infos an entry holds, found through the entry
    const VkDescriptorImageInfo *infos;
    uint32_t count;
    bool operator==(const Key &o) const;
  };
  struct KeyHash {
    size_t operator()(const Key &k) const;
  };
  uint32_t free_entry(const BatchQueue &batches);
  void index_views(uint32_t entry);
  void drop(const BatchQueue &batches, uint32_t entry);

  const Device &device_;
  const VkDescriptorSetLayout layout_;
  const uint32_t binding_, count_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  std::vector<Entry> entries_;                       // kCapacity of them
  std::unordered_map<Key, uint32_t, KeyHash> index_; // → entry
  ViewIndex by_view_;                                // for forget
  std::vector<uint32_t> free_;                       // entries holding nothing
  novem::RetireQueue<VkDescriptorSet> retired_; // dropped while a batch in flight still used them
};

} // namespace novem::vk
