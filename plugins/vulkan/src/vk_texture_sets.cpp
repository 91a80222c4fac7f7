#include "vk_texture_sets.hpp"

#include "vk_batch.hpp"
#include "vk_device.hpp"

namespace novem::vk {

void write_texture_descriptors(const Device &device, VkDescriptorSet set, uint32_t binding, uint32_t count,
                               const VkDescriptorImageInfo *infos) {
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = binding;
  write.descriptorCount = count;
  write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  write.pImageInfo = infos;
  device.vk().UpdateDescriptorSets(device.handle(), 1, &write, 0, nullptr);
}

// Field by field: the padding after imageLayout is not part of an info.
bool TextureSetCache::Key::operator==(const Key &o) const {
  for (uint32_t i = 0; i < count; ++i)
    if (infos[i].sampler != o.infos[i].sampler || infos[i].imageView != o.infos[i].imageView ||
        infos[i].imageLayout != o.infos[i].imageLayout)
      return false;
  return true;
}

size_t TextureSetCache::KeyHash::operator()(const Key &k) const {
  uint64_t h = 14695981039346656037ull; // FNV-1a over the handles, one 64-bit word at a time
  for (uint32_t i = 0; i < k.count; ++i)
    for (uint64_t w : {uint64_t(k.infos[i].sampler), uint64_t(k.infos[i].imageView), uint64_t(k.infos[i].imageLayout)})
      h = (h ^ w) * 1099511628211ull;
  return size_t(h);
}

TextureSetCache::TextureSetCache(const Device &device, VkDescriptorSetLayout layout, uint32_t binding, uint32_t count)
    : device_(device), layout_(layout), binding_(binding), count_(count), entries_(kCapacity) {
  // Room for every entry's set and as many dropped ones waiting for their batch.
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2 * kCapacity * count};
  VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  ci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  ci.maxSets = 2 * kCapacity;
  ci.poolSizeCount = 1;
  ci.pPoolSizes = &size;
  check(device_.vk().CreateDescriptorPool(device_.handle(), &ci, nullptr, &pool_), "vkCreateDescriptorPool");
  index_.reserve(kCapacity);
  for (uint32_t e = kCapacity; e-- > 0;) free_.push_back(e); // entry 0 first
}

TextureSetCache::~TextureSetCache() { device_.vk().DestroyDescriptorPool(device_.handle(), pool_, nullptr); }

uint32_t TextureSetCache::get(const BatchQueue &batches, const VkDescriptorImageInfo *infos) {
  if (auto it = index_.find(Key{infos, count_}); it != index_.end()) {
    entries_[it->second].last_use = batches.recording_id();
    return it->second;
  }
  retired_.release(batches.completed_id(),
                   [&](VkDescriptorSet set) { device_.vk().FreeDescriptorSets(device_.handle(), pool_, 1, &set); });
  const uint32_t e = free_entry(batches);
  if (e == kNone) return kNone;
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = pool_;
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &layout_;
  Entry &entry = entries_[e];
  VkResult r = device_.vk().AllocateDescriptorSets(device_.handle(), &ai, &entry.set);
  if (r == VK_ERROR_OUT_OF_POOL_MEMORY || r == VK_ERROR_FRAGMENTED_POOL) {
    entry.set = VK_NULL_HANDLE;
    free_.push_back(e);
    return kNone;
  }
  check(r, "vkAllocateDescriptorSets");
  write_texture_descriptors(device_, entry.set, binding_, count_, infos);
  entry.infos.assign(infos, infos + count_);
  entry.last_use = batches.recording_id();
  index_.emplace(Key{entry.infos.data(), count_}, e);
  index_views(e);
  return e;
}

// The entry under each view it names once (the default textures' views fill many slots).
void TextureSetCache::index_views(uint32_t e) {
  Entry &entry = entries_[e];
  for (uint32_t i = 0; i < count_; ++i) {
    const VkImageView view = entry.infos[i].imageView;
    bool seen = false;
    for (uint32_t j = 0; j < i && !seen; ++j) seen = entry.infos[j].imageView == view;
    if (!seen) entry.views.push_back(by_view_.emplace(view, e));
  }
}

void TextureSetCache::touch(const BatchQueue &batches, uint32_t entry) {
  entries_[entry].last_use = batches.recording_id();
}

bool TextureSetCache::forget(const BatchQueue &batches, VkImageView view) {
  bool any = false;
  for (auto it = by_view_.find(view); it != by_view_.end(); it = by_view_.find(view)) {
    drop(batches, it->second); // erases it from by_view_
    any = true;
  }
  return any;
}

// A free entry; else the one no batch has used for longest, dropped; else kNone.
uint32_t TextureSetCache::free_entry(const BatchQueue &batches) {
  if (free_.empty()) {
    uint32_t oldest = kNone;
    for (uint32_t e = 0; e < kCapacity; ++e)
      if (!batches.in_use(entries_[e].last_use) && (oldest == kNone || entries_[e].last_use < entries_[oldest].last_use))
        oldest = e;
    if (oldest == kNone) return kNone;
    drop(batches, oldest);
  }
  const uint32_t e = free_.back();
  free_.pop_back();
  return e;
}

void TextureSetCache::drop(const BatchQueue &batches, uint32_t e) {
  Entry &entry = entries_[e];
  index_.erase(Key{entry.infos.data(), count_});
  for (ViewIndex::iterator it : entry.views) by_view_.erase(it);
  if (batches.in_use(entry.last_use)) retired_.push(entry.last_use, entry.set);
  else device_.vk().FreeDescriptorSets(device_.handle(), pool_, 1, &entry.set);
  entry = Entry{};
  free_.push_back(e);
}

} // namespace novem::vk
