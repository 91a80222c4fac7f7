// Pipelines: the pipeline layouts (a set per stage's dynamic uniform buffer, binding 0 vertex /
// 1 pixel; a set per stage's combined image samplers, at 16.. (pixel, in widths of 1 to 16) and
// 32..35 (vertex)), and the VkPipeline cache keyed by a hash of nv_pipeline_desc plus the formats of the bound targets.
// Viewport, scissor, vertex strides, cull mode, front face, the depth test, depth bias, blend
// constants and the stencil reference and masks are dynamic state. Pipelines are built through a
// VkPipelineCache loaded from and saved to a file (novem/cache_file.hpp); creation feedback says
// whether the driver built a pipeline from scratch (channel.pipelines_created) or found it in that
// cache (channel.pipelines_loaded).
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "novem/channel.hpp"
#include "vk_common.hpp"

namespace novem::vk {

class Device;
class Shader;

// nv_ state → Vulkan, for the state that is dynamic.
VkCompareOp compare_op(uint8_t nv_compare);
VkCullModeFlags cull_mode(uint8_t nv_cull);
VkBlendFactor blend_factor(uint8_t nv_blend_factor);
VkBlendOp blend_op(uint8_t nv_blend_op);

constexpr uint32_t kPixelTextureBinding = 16;
constexpr uint32_t kVertexTextureBinding = 32;

bool has_stencil(VkFormat f);

class PipelineLayout {
public:
  // software_vertex: set 0 also holds the vertex stage's storage buffer (a dynamic one at
  // NV_VERTEX_STORAGE_BINDING; NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS).
  PipelineLayout(const Device &device, bool software_vertex);
  ~PipelineLayout();
  PipelineLayout(const PipelineLayout &) = delete;
  PipelineLayout &operator=(const PipelineLayout &) = delete;

  // The shader interface's sets (commands.h, ABI 6), by how often each changes.
  static constexpr uint32_t kVertexUniformSet = 0; // the vertex stage's dynamic uniform buffer
  static constexpr uint32_t kPixelUniformSet = 1;  // the pixel stage's
  static constexpr uint32_t kPixelTextureSet = 2;  // the pixel combined image samplers, 1 to 16
  static constexpr uint32_t kVertexTextureSet = 3; // the 4 vertex ones
  static constexpr uint32_t kSetCount = 4;
  // The set (and binding) of a stage's uniform block, the set of its textures.
  static constexpr uint32_t uniform_set(uint32_t stage) {
    return stage == NV_STAGE_VERTEX ? kVertexUniformSet : kPixelUniformSet;
  }
  static constexpr uint32_t uniform_binding(uint32_t stage) { return stage == NV_STAGE_VERTEX ? 0 : 1; }
  static constexpr uint32_t texture_set(uint32_t stage) {
    return stage == NV_STAGE_VERTEX ? kVertexTextureSet : kPixelTextureSet;
  }
  // What set `set` holds: a stage's uniform block (one dynamic uniform buffer) or its samplers.
  static constexpr bool holds_uniforms(uint32_t set) { return set == kVertexUniformSet || set == kPixelUniformSet; }
  static constexpr uint32_t stage_of(uint32_t set) {
    return set == kVertexUniformSet || set == kVertexTextureSet ? NV_STAGE_VERTEX : NV_STAGE_PIXEL;
  }

  // The pixel texture set comes in widths of 1, 2, 4, 8 and 16 slots, a pipeline layout each.
  // With Quirk::narrow_texture_sets a pipeline is made with the narrowest that holds what its
  // pixel shader declares (a shader that samples s0 through a set of 16 paid lavapipe for 16
  // textures per texture change), else with 16. The layouts differ only from set 2 on, so sets
  // 0 and 1 stay bound across a width change (the layouts are compatible for them).
  static constexpr uint32_t kPixelWidths = 5;
  // The narrowest width (an index: 1 << width slots) for a pixel shader declaring `slots` (a mask).
  static constexpr uint32_t narrowest_width(uint32_t slots) {
    return slots ? uint32_t(std::bit_width(uint32_t(std::bit_width(slots)) - 1u)) : 0;
  }
  // The width this device's pipelines use for a pixel shader declaring `slots`.
  uint32_t pixel_width(uint32_t slots) const { return narrow_ ? narrowest_width(slots) : kPixelWidths - 1; }
  // The descriptors a set of `set` holds: its combined image samplers, or a uniform set's one buffer.
  static constexpr uint32_t slot_count(uint32_t set, uint32_t width) {
    return set == kPixelTextureSet ? 1u << width : set == kVertexTextureSet ? NV_MAX_VERTEX_TEXTURES : 1;
  }

  // `width` matters only to the pixel texture set.
  VkDescriptorSetLayout set_layout(uint32_t set, uint32_t width) const {
    return set == kPixelTextureSet ? pixel_texture_layouts_[width] : set_layouts_[set];
  }
  VkPipelineLayout handle(uint32_t width) const { return layouts_[width]; }
  // Whether set 0 holds the vertex storage buffer after its uniform buffer (two dynamic offsets).
  bool software_vertex() const { return software_vertex_; }

private:
  void destroy();

  const Device &device_;
  const bool narrow_; // Quirk::narrow_texture_sets
  const bool software_vertex_;
  VkDescriptorSetLayout set_layouts_[kSetCount] = {}; // the pixel texture set's is in pixel_texture_layouts_
  VkDescriptorSetLayout pixel_texture_layouts_[kPixelWidths] = {};
  VkPipelineLayout layouts_[kPixelWidths] = {};
};

static_assert(PipelineLayout::slot_count(PipelineLayout::kPixelTextureSet, PipelineLayout::kPixelWidths - 1) ==
              NV_MAX_PIXEL_TEXTURES);
static_assert(PipelineLayout::narrowest_width(1u) == 0 && PipelineLayout::narrowest_width(2u) == 1 &&
              PipelineLayout::narrowest_width(4u) == 2 && PipelineLayout::narrowest_width(0x10u) == 3 &&
              PipelineLayout::narrowest_width(0x81u) == 3 && PipelineLayout::narrowest_width(0x100u) == 4 &&
              PipelineLayout::narrowest_width(0x8000u) == 4);

// Everything that shapes a pipeline. Built zeroed and normalized (state that has no effect, and
// state that is dynamic, is cleared), so equal pipelines have equal bytes.
struct PipelineKey {
  nv_pipeline_desc desc;
  VkFormat color_formats[NV_MAX_COLOR_TARGETS]; // VK_FORMAT_UNDEFINED: no target at that index
  VkFormat depth_format;
  VkSampleCountFlagBits samples; // of every target

  // dynamic_blend: blending and the write masks are dynamic state (Device::dynamic_blend()).
  static PipelineKey make(const nv_pipeline_desc &desc, const VkFormat (&colors)[NV_MAX_COLOR_TARGETS], VkFormat depth,
                          VkSampleCountFlagBits samples, bool dynamic_blend);
  // The part of desc a pipeline is built from: desc with its dynamic state cleared (two descs
  // with equal parts need no new pipeline lookup).
  static nv_pipeline_desc static_part(const nv_pipeline_desc &desc, bool dynamic_blend);
  bool operator==(const PipelineKey &other) const;
  uint64_t hash() const; // novem::state_hash of the whole key
};

struct PipelineKeyHash {
  size_t operator()(const PipelineKey &k) const { return size_t(k.hash()); }
};

class PipelineCache {
public:
  using ShaderLookup = std::function<const Shader *(uint32_t handle)>;
  // Hands a pipeline that recorded work may still use to whoever frees it when that work is done.
  using Retire = std::function<void(VkPipeline)>;

  // cache_file: where the VkPipelineCache is loaded from and saved to ("" = nowhere). A file that
  // is corrupt or was written for another device is ignored with a warning (and counted in
  // channel.pipeline_cache_rejected).
  PipelineCache(const Device &device, const PipelineLayout &layout, nv_channel &channel, bool enabled,
                std::string cache_file);
  ~PipelineCache(); // saves the VkPipelineCache, destroys every pipeline: the GPU must be idle
  PipelineCache(const PipelineCache &) = delete;
  PipelineCache &operator=(const PipelineCache &) = delete;

  // The pipeline for key, built on a miss; VK_NULL_HANDLE when a shader is missing. With the cache
  // switched off every call builds a new pipeline, and the previous one is retired.
  VkPipeline get(const PipelineKey &key, const ShaderLookup &shaders, const Retire &retire);

  // Drops the pipelines that use a shader handle (it is being destroyed, and may be reused).
  void evict_shader(uint32_t shader, const Retire &retire);

  size_t size() const { return pipelines_.size(); }

private:
  VkPipeline build(const PipelineKey &key, const ShaderLookup &shaders);
  std::vector<uint8_t> load_file(); // the file's VkPipelineCache data when it is sound for this device
  void save_file();
  uint64_t identity() const; // what a cache file must have been written for

  const Device &device_;
  const PipelineLayout &layout_;
  nv_channel &channel_;
  const bool enabled_;
  const std::string cache_file_;
  VkPipelineCache vk_cache_ = VK_NULL_HANDLE;
  std::unordered_map<PipelineKey, VkPipeline, PipelineKeyHash> pipelines_;
  VkPipeline uncached_ = VK_NULL_HANDLE; // the last pipeline built with the cache off
  PipelineKey uncached_key_{};
};

} // namespace novem::vk
