// The Vulkan floor: novem-bench's workloads recorded straight into Vulkan command buffers (what
// each one records per draw: README.md).
#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "floor.hpp"
#include "novem/driver_heap.hpp"

#ifndef DRIVER_FLOOR_SHADER_DIR
#error "DRIVER_FLOOR_SHADER_DIR must name the folder of the assembled shaders"
#endif

namespace driver_floor {

namespace {

constexpr VkFormat kFormat = VK_FORMAT_B8G8R8A8_UNORM;

void check(VkResult r, const char *what) {
  if (r != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + std::to_string(int(r)));
}

std::vector<uint32_t> spirv(const char *name) {
  std::ifstream f(std::string(DRIVER_FLOOR_SHADER_DIR) + "/" + name + ".spv", std::ios::binary);
  if (!f) throw std::runtime_error(std::string("cannot read shader ") + name);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

class VulkanFloor : public Floor {
public:
  explicit VulkanFloor(bool driver_heap) {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    check(vkCreateInstance(&ici, nullptr, &instance_), "vkCreateInstance");
    uint32_t count = 1;
    VkResult r = vkEnumeratePhysicalDevices(instance_, &count, &gpu_);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) throw std::runtime_error("no Vulkan device");
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(gpu_, &props);
    std::printf("novem-driver-floor: %s\n", props.deviceName);
    if (driver_heap && std::strstr(props.deviceName, "llvmpipe")) novem::keep_driver_heap(); // as the plugins do

    VkPhysicalDeviceMultiDrawFeaturesEXT multi{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT};
    multi.multiDraw = VK_TRUE;
    VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT, &multi};
    eds3.extendedDynamicState3ColorBlendEnable = VK_TRUE;
    eds3.extendedDynamicState3ColorBlendEquation = VK_TRUE;
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &eds3};
    v13.dynamicRendering = VK_TRUE;
    v13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueCount = 1; // family 0: graphics on lavapipe and every desktop driver
    qci.pQueuePriorities = &priority;
    const char *extensions[] = {VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, VK_EXT_MULTI_DRAW_EXTENSION_NAME};
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = 2;
    dci.ppEnabledExtensionNames = extensions;
    check(vkCreateDevice(gpu_, &dci, nullptr, &device_),
          "vkCreateDevice (needs VK_EXT_extended_dynamic_state3 and VK_EXT_multi_draw)");
    vkGetDeviceQueue(device_, 0, 0, &queue_);
    set_blend_enable_ = reinterpret_cast<PFN_vkCmdSetColorBlendEnableEXT>(vkGetDeviceProcAddr(device_, "vkCmdSetColorBlendEnableEXT"));
    set_blend_equation_ =
        reinterpret_cast<PFN_vkCmdSetColorBlendEquationEXT>(vkGetDeviceProcAddr(device_, "vkCmdSetColorBlendEquationEXT"));
    draw_multi_ = reinterpret_cast<PFN_vkCmdDrawMultiEXT>(vkGetDeviceProcAddr(device_, "vkCmdDrawMultiEXT"));

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    check(vkCreateCommandPool(device_, &pci, nullptr, &pool_), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = pool_;
    cai.commandBufferCount = kInFlight;
    check(vkAllocateCommandBuffers(device_, &cai, cmds_), "vkAllocateCommandBuffers");
    for (VkFence &f : fences_) {
      VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      fci.flags = VK_FENCE_CREATE_SIGNALED_BIT;
      check(vkCreateFence(device_, &fci, nullptr, &f), "vkCreateFence");
    }
    make_target();
    make_vertices();
    make_set_layouts();
    make_uniforms();
    make_textures();
    make_pipelines();
  }

  ~VulkanFloor() override {
    vkDeviceWaitIdle(device_);
    for (VkPipeline p : {color_, color_dynamic_, color_twin_, textured_, world_[0], world_[1]})
      vkDestroyPipeline(device_, p, nullptr);
    vkDestroyPipelineLayout(device_, layout_, nullptr);
    vkDestroyDescriptorPool(device_, descriptor_pool_, nullptr);
    for (VkDescriptorSetLayout l : set_layouts_) vkDestroyDescriptorSetLayout(device_, l, nullptr);
    vkDestroySampler(device_, sampler_, nullptr);
    for (VkImageView v : views_) vkDestroyImageView(device_, v, nullptr);
    for (VkImage i : images_) vkDestroyImage(device_, i, nullptr);
    for (VkBuffer b : buffers_) vkDestroyBuffer(device_, b, nullptr);
    for (VkDeviceMemory m : memory_) vkFreeMemory(device_, m, nullptr);
    for (VkFence f : fences_) vkDestroyFence(device_, f, nullptr);
    vkDestroyCommandPool(device_, pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
    vkDestroyInstance(instance_, nullptr);
  }

  double run(int w, int frames) override {
    for (int f = 0; f < int(kWarmupFrames); ++f) frame(w, f);
    vkDeviceWaitIdle(device_);
    const auto start = std::chrono::steady_clock::now();
    for (int f = 0; f < frames; ++f) frame(w, f);
    vkDeviceWaitIdle(device_);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return double(frames) * kDraws / seconds;
  }

private:
  void frame(int w, int index) {
    const uint32_t slot = uint32_t(index) % kInFlight;
    check(vkWaitForFences(device_, 1, &fences_[slot], VK_TRUE, UINT64_MAX), "vkWaitForFences");
    check(vkResetFences(device_, 1, &fences_[slot]), "vkResetFences");
    VkCommandBuffer cmd = cmds_[slot];
    check(vkResetCommandBuffer(cmd, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    if (w == kStream) write_stream_textures(cmd, slot);
    else image_barrier(cmd, target_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = target_view_;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = {{0.06f, 0.09f, 0.13f, 1.0f}};
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = {{0, 0}, {kSize, kSize}};
    ri.layerCount = 1;
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &color;
    vkCmdBeginRendering(cmd, &ri);
    const VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
    const VkRect2D scissor{{0, 0}, {kSize, kSize}};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    const VkDeviceSize zero = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, w == kTexture || w == kStream ? &uv_vertices_ : &color_vertices_, &zero);
    switch (w) {
    case kGame: record_game(cmd, slot); break;
    case kStream:
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, textured_);
      for (uint32_t i = 0; i < kDraws; ++i) {
        const VkDescriptorSet set = stream_sets_[slot * kStreamUpdates + stream_texture(i)];
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 2, 1, &set, 0, nullptr);
        vkCmdDraw(cmd, 3, 1, i % (kGrid * kGrid) * 3, 0);
      }
      break;
    case kUp:
    case kDynamic:
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, color_);
      for (uint32_t i = 0; i < kDraws; ++i) draws_[i] = {ring_vertices(slot, i, i), 3};
      draw_multi_(cmd, kDraws, draws_, 1, 0, sizeof draws_[0]);
      break;
    default: record_simple(cmd, w); break;
    }
    vkCmdEndRendering(cmd);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    check(vkQueueSubmit(queue_, 1, &si, fences_[slot]), "vkQueueSubmit");
  }

  // draw: one multi-draw. state, texture, shader: per draw only the one call the workload changes.
  void record_simple(VkCommandBuffer cmd, int w) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS,
                      w == kState ? color_dynamic_ : w == kTexture ? textured_ : color_);
    if (w == kDraw) {
      for (uint32_t i = 0; i < kDraws; ++i) draws_[i] = {i % (kGrid * kGrid) * 3, 3};
      draw_multi_(cmd, kDraws, draws_, 1, 0, sizeof draws_[0]);
      return;
    }
    if (w == kState) {
      const VkBool32 on = VK_TRUE;
      set_blend_enable_(cmd, 0, 1, &on);
    }
    for (uint32_t i = 0; i < kDraws; ++i) {
      if (w == kState) set_blend(cmd, i & 1);
      else if (w == kTexture)
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 2, 1, &texture_sets_[i & 1], 0, nullptr);
      else if (w == kShader)
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, i & 1 ? color_twin_ : color_);
      vkCmdDraw(cmd, 3, 1, i % (kGrid * kGrid) * 3, 0);
    }
  }

  // novem-bench's game frame (Scene::game), draw for draw.
  void record_game(VkCommandBuffer cmd, uint32_t slot) {
    const uint32_t world = kDraws / 2;
    for (uint32_t i = 0; i < world; ++i) {
      if (i % 16 == 0) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, world_[(i / 16) & 1]);
      // The constant: 16 bytes into this frame's part of the uniform ring, bound by offset.
      const uint32_t offset = (slot * kDraws + i) * uniform_stride_;
      const float constant[4] = {float(i % 5) * 0.01f, 0, 0, 0};
      std::memcpy(uniforms_ + offset, constant, sizeof constant);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &uniform_set_, 1, &offset);
      vkCmdDraw(cmd, 3, 1, i % (kGrid * kGrid) * 3, 0);
    }
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, color_dynamic_);
    const VkBool32 on = VK_TRUE;
    set_blend_enable_(cmd, 0, 1, &on);
    // The static, UP and dynamic draws all come from one buffer: each run of draws between two
    // blend changes is one multi-draw.
    uint32_t run = 0;
    for (uint32_t i = world; i < kDraws; ++i) {
      if (i % 4 == 0) {
        if (run) draw_multi_(cmd, run, draws_, 1, 0, sizeof draws_[0]);
        run = 0;
        set_blend(cmd, (i & 4) != 0);
      }
      const bool written = i % 8 == 3 || i % 8 == 7; // the UP draw and the dynamic-buffer draw
      draws_[run++] = {written ? ring_vertices(slot, i, i) : i % (kGrid * kGrid) * 3, 3};
    }
    if (run) draw_multi_(cmd, run, draws_, 1, 0, sizeof draws_[0]);
  }

  // The stream frame's texture rewrites, all before its render pass: written into this slot's
  // staging and copied into this slot's images (whose draws of kInFlight frames back have
  // completed), with one barrier before the copies (the target's included) and one after.
  void write_stream_textures(VkCommandBuffer cmd, uint32_t slot) {
    VkImageMemoryBarrier2 to_copy[1 + kStreamUpdates], to_sample[kStreamUpdates];
    to_copy[kStreamUpdates] = barrier(target_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    for (uint32_t k = 0; k < kStreamUpdates; ++k) {
      const VkImage img = stream_images_[slot * kStreamUpdates + k];
      to_copy[k] = barrier(img, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      to_sample[k] = barrier(img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    }
    pipeline_barrier(cmd, to_copy, 1 + kStreamUpdates);
    for (uint32_t k = 0; k < kStreamUpdates; ++k) {
      const uint32_t index = slot * kStreamUpdates + k;
      std::fill_n(stream_staging_ + index * 64, 64, triangle_color(k * (kDraws / kStreamUpdates)) | 0xff000000u);
      VkBufferImageCopy copy{};
      copy.bufferOffset = index * 64 * sizeof(uint32_t);
      copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      copy.imageExtent = {8, 8, 1};
      vkCmdCopyBufferToImage(cmd, stream_buffer_, stream_images_[index], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    }
    pipeline_barrier(cmd, to_sample, kStreamUpdates);
  }

  void set_blend(VkCommandBuffer cmd, bool src_alpha) {
    const VkColorBlendEquationEXT eq{src_alpha ? VK_BLEND_FACTOR_SRC_ALPHA : VK_BLEND_FACTOR_ONE,
                                     VK_BLEND_FACTOR_ZERO,
                                     VK_BLEND_OP_ADD,
                                     VK_BLEND_FACTOR_ONE,
                                     VK_BLEND_FACTOR_ZERO,
                                     VK_BLEND_OP_ADD};
    set_blend_equation_(cmd, 0, 1, &eq);
  }

  // Writes triangle `index`'s three vertices into draw `draw`'s place in frame slot `slot`'s
  // part of the vertex ring (after the static vertices, in the same buffer: no rebinding) and
  // returns the first one's index.
  uint32_t ring_vertices(uint32_t slot, uint32_t draw, uint32_t index) {
    const uint32_t first = kGrid * kGrid * 3 + (slot * kDraws + draw) * 3;
    float x[3], y[3];
    triangle(index, x, y);
    const uint32_t color = triangle_color(index + 7);
    ColorVertex *v = vertex_ring_ + first;
    for (int k = 0; k < 3; ++k) v[k] = {x[k], y[k], 0.5f, color};
    return first;
  }

  static VkImageMemoryBarrier2 barrier(VkImage image, VkImageLayout from, VkImageLayout to) {
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    b.srcAccessMask = b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    b.oldLayout = from;
    b.newLayout = to;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    return b;
  }

  static void pipeline_barrier(VkCommandBuffer cmd, const VkImageMemoryBarrier2 *barriers, uint32_t count) {
    VkDependencyInfo d{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    d.imageMemoryBarrierCount = count;
    d.pImageMemoryBarriers = barriers;
    vkCmdPipelineBarrier2(cmd, &d);
  }

  static void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to) {
    const VkImageMemoryBarrier2 b = barrier(image, from, to);
    pipeline_barrier(cmd, &b, 1);
  }

  // Writes one descriptor of a set: an image (and sampler) or a buffer.
  void write_descriptor(VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                        const VkDescriptorImageInfo *image, const VkDescriptorBufferInfo *buffer) {
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.dstBinding = binding;
    write.descriptorCount = 1;
    write.descriptorType = type;
    write.pImageInfo = image;
    write.pBufferInfo = buffer;
    vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
  }

  // Points a texture set (binding 16) at view, sampled with the one sampler.
  void write_texture_set(VkDescriptorSet set, VkImageView view) {
    const VkDescriptorImageInfo info{sampler_, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    write_descriptor(set, 16, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &info, nullptr);
  }

  VkDeviceMemory allocate(VkMemoryRequirements req, VkMemoryPropertyFlags want) {
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(gpu_, &mp);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = UINT32_MAX;
    for (uint32_t t = 0; t < mp.memoryTypeCount && ai.memoryTypeIndex == UINT32_MAX; ++t)
      if ((req.memoryTypeBits >> t & 1) && (mp.memoryTypes[t].propertyFlags & want) == want) ai.memoryTypeIndex = t;
    if (ai.memoryTypeIndex == UINT32_MAX) throw std::runtime_error("no suitable memory type");
    VkDeviceMemory m = VK_NULL_HANDLE;
    check(vkAllocateMemory(device_, &ai, nullptr, &m), "vkAllocateMemory");
    memory_.push_back(m);
    return m;
  }

  // A host-visible buffer of `size` bytes, starting with `bytes` (`used` of them), left mapped
  // at *mapped when that is given.
  VkBuffer buffer(const void *bytes, size_t used, size_t size, VkBufferUsageFlags usage, void **mapped = nullptr) {
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = usage;
    VkBuffer b = VK_NULL_HANDLE;
    check(vkCreateBuffer(device_, &bci, nullptr, &b), "vkCreateBuffer");
    buffers_.push_back(b);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device_, b, &req);
    VkDeviceMemory m = allocate(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    check(vkBindBufferMemory(device_, b, m, 0), "vkBindBufferMemory");
    void *p = nullptr;
    check(vkMapMemory(device_, m, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    if (used) std::memcpy(p, bytes, used);
    if (mapped) *mapped = p;
    else vkUnmapMemory(device_, m);
    return b;
  }

  VkImage image(uint32_t size, VkImageUsageFlags usage, VkImageView &view) {
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = kFormat;
    ici.extent = {size, size, 1};
    ici.mipLevels = ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = usage;
    VkImage img = VK_NULL_HANDLE;
    check(vkCreateImage(device_, &ici, nullptr, &img), "vkCreateImage");
    images_.push_back(img);
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device_, img, &req);
    check(vkBindImageMemory(device_, img, allocate(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT), 0), "vkBindImageMemory");
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = img;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = kFormat;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    check(vkCreateImageView(device_, &vci, nullptr, &view), "vkCreateImageView");
    views_.push_back(view);
    return img;
  }

  void make_target() { target_ = image(kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, target_view_); }

  // novem-bench's 256 triangles: position + colour (followed by the vertex ring: room for every
  // draw of every frame in flight), and position + texture coordinates.
  void make_vertices() {
    std::vector<ColorVertex> colored;
    std::vector<UvVertex> uv;
    bench_triangles(colored, uv);
    const size_t used = colored.size() * sizeof colored[0], ring = size_t(kInFlight) * kDraws * 3 * sizeof colored[0];
    void *mapped = nullptr;
    color_vertices_ = buffer(colored.data(), used, used + ring, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &mapped);
    vertex_ring_ = static_cast<ColorVertex *>(mapped);
    uv_vertices_ = buffer(uv.data(), uv.size() * sizeof uv[0], uv.size() * sizeof uv[0], VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  }

  // The descriptor sets: set 0 the vertex stage's uniform block (a dynamic uniform buffer, as in
  // the plugins' layout), set 1 (the pixel stage's block) empty here, set 2 the texture.
  void make_set_layouts() {
    const VkDescriptorSetLayoutBinding bindings[3] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr},
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 0, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
        {16, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
    for (uint32_t s = 0; s < 3; ++s) {
      VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      lci.bindingCount = s == 1 ? 0 : 1;
      lci.pBindings = &bindings[s];
      check(vkCreateDescriptorSetLayout(device_, &lci, nullptr, &set_layouts_[s]), "vkCreateDescriptorSetLayout");
    }
    constexpr uint32_t kStreamSets = kInFlight * kStreamUpdates;
    const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2 + kStreamSets},
                                           {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1}};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 3 + kStreamSets;
    dpci.poolSizeCount = 2;
    dpci.pPoolSizes = sizes;
    check(vkCreateDescriptorPool(device_, &dpci, nullptr, &descriptor_pool_), "vkCreateDescriptorPool");
    const VkDescriptorSetLayout layouts[3] = {set_layouts_[2], set_layouts_[2], set_layouts_[0]};
    VkDescriptorSet sets[3] = {};
    VkDescriptorSetAllocateInfo dai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dai.descriptorPool = descriptor_pool_;
    dai.descriptorSetCount = 3;
    dai.pSetLayouts = layouts;
    check(vkAllocateDescriptorSets(device_, &dai, sets), "vkAllocateDescriptorSets");
    texture_sets_[0] = sets[0], texture_sets_[1] = sets[1], uniform_set_ = sets[2];
    std::vector<VkDescriptorSetLayout> stream_layouts(kStreamSets, set_layouts_[2]);
    dai.descriptorSetCount = kStreamSets;
    dai.pSetLayouts = stream_layouts.data();
    check(vkAllocateDescriptorSets(device_, &dai, stream_sets_), "vkAllocateDescriptorSets");
  }

  // The uniform ring: a 16-byte constant per draw of every frame in flight, each at the
  // device's uniform-buffer offset alignment, mapped for good; set 0 points at its start.
  void make_uniforms() {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(gpu_, &props);
    uniform_stride_ = uint32_t(std::max<VkDeviceSize>(16, props.limits.minUniformBufferOffsetAlignment));
    const size_t size = size_t(kInFlight) * kDraws * uniform_stride_;
    void *mapped = nullptr;
    const std::vector<char> zeros(16);
    const VkBuffer ring = buffer(zeros.data(), zeros.size(), size, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, &mapped);
    uniforms_ = static_cast<char *>(mapped);
    const VkDescriptorBufferInfo info{ring, 0, 16};
    write_descriptor(uniform_set_, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, nullptr, &info);
  }

  // Two 8x8 textures (one white, one grey), uploaded once, and a set for each; the stream
  // workload's 8x8 images, kStreamUpdates per frame in flight, a set for each, and their staging.
  void make_textures() {
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.maxLod = VK_LOD_CLAMP_NONE;
    check(vkCreateSampler(device_, &sci, nullptr, &sampler_), "vkCreateSampler");
    VkCommandBuffer cmd = cmds_[0];
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    for (uint32_t t = 0; t < 2; ++t) {
      VkImageView view = VK_NULL_HANDLE;
      const VkImage img = image(8, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, view);
      const std::vector<uint32_t> texels(64, t ? 0xff808080u : 0xffffffffu);
      const VkBuffer staging = buffer(texels.data(), texels.size() * 4, texels.size() * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
      image_barrier(cmd, img, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      VkBufferImageCopy copy{};
      copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      copy.imageExtent = {8, 8, 1};
      vkCmdCopyBufferToImage(cmd, staging, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
      image_barrier(cmd, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
      write_texture_set(texture_sets_[t], view);
    }
    for (uint32_t k = 0; k < kInFlight * kStreamUpdates; ++k) {
      VkImageView view = VK_NULL_HANDLE;
      stream_images_[k] = image(8, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, view);
      write_texture_set(stream_sets_[k], view);
    }
    const size_t staging = size_t(kInFlight) * kStreamUpdates * 64 * sizeof(uint32_t);
    void *mapped = nullptr;
    stream_buffer_ = buffer(nullptr, 0, staging, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &mapped);
    stream_staging_ = static_cast<uint32_t *>(mapped);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    check(vkQueueSubmit(queue_, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit");
    check(vkQueueWaitIdle(queue_), "vkQueueWaitIdle");
  }

  VkShaderModule module(const char *name) {
    const std::vector<uint32_t> words = spirv(name);
    VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    ci.codeSize = words.size() * 4;
    ci.pCode = words.data();
    VkShaderModule m = VK_NULL_HANDLE;
    check(vkCreateShaderModule(device_, &ci, nullptr, &m), "vkCreateShaderModule");
    return m;
  }

  // vs, ps: shader names; textured: position + uv input; dynamic_blend: blend enable and
  // equation as EDS3 dynamic state.
  VkPipeline pipeline(const char *vs, const char *ps, bool textured, bool dynamic_blend) {
    const VkShaderModule modules[2] = {module(vs), module(ps)};
    VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                 {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    for (int s = 0; s < 2; ++s) stages[s].module = modules[s], stages[s].pName = "main";
    const VkVertexInputBindingDescription binding{0, textured ? 20u : 16u, VK_VERTEX_INPUT_RATE_VERTEX};
    const VkVertexInputAttributeDescription attributes[2] = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {1, 0, textured ? VK_FORMAT_R32G32_SFLOAT : VK_FORMAT_B8G8R8A8_UNORM, 12}};
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vi.vertexBindingDescriptionCount = 1;
    vi.pVertexBindingDescriptions = &binding;
    vi.vertexAttributeDescriptionCount = 2;
    vi.pVertexAttributeDescriptions = attributes;
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vp.viewportCount = vp.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
    std::vector<VkDynamicState> dynamic = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    if (dynamic_blend) {
      dynamic.push_back(VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT);
      dynamic.push_back(VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT);
    }
    VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dyn.dynamicStateCount = uint32_t(dynamic.size());
    dyn.pDynamicStates = dynamic.data();
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &kFormat;
    VkGraphicsPipelineCreateInfo gci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    gci.stageCount = 2;
    gci.pStages = stages;
    gci.pVertexInputState = &vi;
    gci.pInputAssemblyState = &ia;
    gci.pViewportState = &vp;
    gci.pRasterizationState = &rs;
    gci.pMultisampleState = &ms;
    gci.pDepthStencilState = &ds;
    gci.pColorBlendState = &cb;
    gci.pDynamicState = &dyn;
    gci.layout = layout_;
    VkPipeline p = VK_NULL_HANDLE;
    check(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &gci, nullptr, &p), "vkCreateGraphicsPipelines");
    for (VkShaderModule m : modules) vkDestroyShaderModule(device_, m, nullptr);
    return p;
  }

  void make_pipelines() {
    VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    lci.setLayoutCount = 3;
    lci.pSetLayouts = set_layouts_;
    check(vkCreatePipelineLayout(device_, &lci, nullptr, &layout_), "vkCreatePipelineLayout");
    color_ = pipeline("vs_color", "ps_color", false, false);
    color_twin_ = pipeline("vs_color", "ps_color", false, false); // modules of its own: another pipeline
    color_dynamic_ = pipeline("vs_color", "ps_color", false, true);
    textured_ = pipeline("vs_tex", "ps_tex", true, false);
    for (VkPipeline &p : world_) p = pipeline("vs_constants", "ps_color", false, false);
  }

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice gpu_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  PFN_vkCmdSetColorBlendEnableEXT set_blend_enable_ = nullptr;
  PFN_vkCmdSetColorBlendEquationEXT set_blend_equation_ = nullptr;
  PFN_vkCmdDrawMultiEXT draw_multi_ = nullptr;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmds_[kInFlight] = {};
  VkFence fences_[kInFlight] = {};
  VkImage target_ = VK_NULL_HANDLE;
  VkImageView target_view_ = VK_NULL_HANDLE;
  VkBuffer color_vertices_ = VK_NULL_HANDLE, uv_vertices_ = VK_NULL_HANDLE;
  VkSampler sampler_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layouts_[3] = {};
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  VkDescriptorSet texture_sets_[2] = {}, uniform_set_ = VK_NULL_HANDLE;
  VkImage stream_images_[kInFlight * kStreamUpdates] = {};
  VkDescriptorSet stream_sets_[kInFlight * kStreamUpdates] = {};
  VkBuffer stream_buffer_ = VK_NULL_HANDLE;
  uint32_t *stream_staging_ = nullptr; // mapped: each image's 64 texels, per frame in flight
  uint32_t uniform_stride_ = 0;
  char *uniforms_ = nullptr;           // the mapped uniform ring
  ColorVertex *vertex_ring_ = nullptr; // the mapped colour vertices, ring after the static ones
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline color_ = VK_NULL_HANDLE, color_twin_ = VK_NULL_HANDLE, color_dynamic_ = VK_NULL_HANDLE,
             textured_ = VK_NULL_HANDLE;
  VkPipeline world_[2] = {}; // vs_constants + ps_color, each from modules of its own
  VkMultiDrawInfoEXT draws_[kDraws] = {}; // a multi-draw's list, filled while recording
  std::vector<VkImage> images_;
  std::vector<VkImageView> views_;
  std::vector<VkBuffer> buffers_;
  std::vector<VkDeviceMemory> memory_;
};

} // namespace

std::unique_ptr<Floor> make_vulkan_floor(bool driver_heap) { return std::make_unique<VulkanFloor>(driver_heap); }

} // namespace driver_floor
