#include "vk_executor.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <string>

#include "novem/driver_heap.hpp"
#include "novem/image_layout.hpp"
#include "novem/command_checks.hpp"
#include "novem/command_table.hpp"
#include "novem/render_states.hpp"
#include "vk_batch.hpp"
#include "vk_buffer.hpp"
#include "vk_debug.hpp"
#include "vk_device.hpp"
#include "vk_image.hpp"
#include "vk_instance.hpp"
#include "vk_memory.hpp"
#include "vk_pipeline.hpp"
#include "vk_query.hpp"
#include "vk_shader.hpp"
#include "vk_swapchain.hpp"
#include "vk_slab.hpp"
#include "vk_texture.hpp"
#include "vk_uniform_ring.hpp"

namespace novem::vk {

namespace {

VkRect2D clip_rect(const nv_rect &r, VkExtent2D extent) {
  int64_t x0 = std::max<int64_t>(r.x, 0), y0 = std::max<int64_t>(r.y, 0);
  int64_t x1 = std::min<int64_t>(int64_t(r.x) + std::max(r.width, 0), extent.width);
  int64_t y1 = std::min<int64_t>(int64_t(r.y) + std::max(r.height, 0), extent.height);
  if (x1 <= x0 || y1 <= y0) return {{0, 0}, {0, 0}};
  return {{int32_t(x0), int32_t(y0)}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
}

} // namespace

// ---------------------------------------------------------------------------------------------
// life cycle

Executor::Executor(nv_channel &channel, const Options &options, bool software_vertex)
    : channel_(channel), options_(options), software_vertex_(software_vertex), buffers_("buffer", violations_), images_("image", violations_),
      shaders_("shader", violations_), barriers_(options.barrier_tracking, channel.barriers),
      upload_barriers_(options.barrier_tracking, channel.barriers) {
  instance_ = std::make_unique<Instance>(options_);
  device_ = std::make_unique<Device>(instance_->vk(), instance_->pick_physical_device(), options_.dynamic_blend,
                                     options_.multi_draw, options_.quirks);
  if (device_->quirks().has(Quirk::driver_heap)) keep_driver_heap();
  allocator_ = std::make_unique<MemoryAllocator>(*device_, options_.suballocation, channel_.device_allocations,
                                                 options_.max_allocation);
  layout_ = std::make_unique<PipelineLayout>(*device_, software_vertex_);
  pipelines_ = std::make_unique<PipelineCache>(
      *device_, *layout_, channel_, options_.pipeline_cache,
      options_.cache_dir.empty() ? std::string() : options_.cache_dir + "/vulkan-pipelines.bin");
  uniforms_ = std::make_unique<UniformRing>(*device_, *allocator_, channel_.ring_allocations,
                                            software_vertex_ ? kSoftwareVertexBlock : 0);
  command_state_.limit_constants(NV_STAGE_VERTEX, software_vertex_ ? kSoftwareVertexBlock : uniforms_->range());
  command_state_.limit_constants(NV_STAGE_PIXEL, uniforms_->range());
  batches_ = std::make_unique<BatchQueue>(*device_, channel_);
  if (options_.slabs && options_.suballocation) // NOVEM_VK_SUBALLOC=0: one VkDeviceMemory per resource
    slabs_ = std::make_unique<SlabAllocator>(*allocator_, channel_.slab_allocations);
  null_buffer_ = std::make_unique<Buffer>(*allocator_, nullptr, *batches_, 256, NV_BUFFER_VERTEX);
  static constexpr uint8_t kZeros[256] = {};
  null_buffer_->update(*batches_, 0, kZeros, sizeof kZeros, 0);
  samplers_ = std::make_unique<SamplerCache>(*device_);
  static constexpr uint8_t kOpaqueBlack[4] = {0, 0, 0, 0xFF}; // B, G, R, A
  for (uint32_t t = 0; t < 3; ++t) {
    default_textures_[t] = std::make_unique<Image>(*device_, *allocator_, NV_FORMAT_B8G8R8A8_UNORM, 1, 1,
                                                   NV_IMAGE_SAMPLED, 1, nv_image_type(t), 1);
    for (uint32_t layer = 0; layer < default_textures_[t]->layers(); ++layer)
      upload(*default_textures_[t], 0, VkRect2D{{0, 0}, {1, 1}}, kOpaqueBlack, 4, layer);
  }
  queries_ = std::make_unique<Queries>(*device_, channel_);
}

Executor::~Executor() {
  end_rendering();
  batches_->drain(); // runs every deferred free
  swapchains_.clear();
  batches_.reset();
  queries_.reset();
  buffers_.clear();
  images_.clear();
  shaders_.clear();
  null_buffer_.reset();
  slabs_.reset(); // after every buffer: their slots go back to it
  for (auto &t : default_textures_) t.reset();
  for (auto &widths : sources_)
    for (SetSource &source : widths) source.arena.reset(), source.cache.reset();
  samplers_.reset();
  uniforms_.reset();
  pipelines_.reset();
  layout_.reset();
  allocator_.reset();
  device_.reset();
  if (options_.validation && DebugMessenger::error_count())
    novem::process_logger().write(novem::LogLevel::error, "novem-vulkan", "%llu validation errors",
                                  static_cast<unsigned long long>(DebugMessenger::error_count()));
  instance_.reset();
}

bool Executor::poll() { return batches_->poll(); }

void Executor::wait_gpu() { batches_->wait(1000000ull); }

// The ring ran dry: when the GPU has nothing to do, hand it what is recorded.
void Executor::idle() {
  if (batches_->recording() && !batches_->pending()) submit();
}

void Executor::report(uint16_t opcode, const char *what) {
  novem::Logger &logger = novem::process_logger();
  if (errors_reported_.take(logger, novem::LogLevel::error, "novem-vulkan"))
    logger.write(novem::LogLevel::error, "novem-vulkan", "%s: %s", novem::opcode_name(opcode), what);
}

void Executor::creation_failed(uint16_t opcode, uint32_t handle, const char *what) {
  if (opcode == NV_OP_CREATE_IMAGE) failed_.fail_image(channel_, handle);
  else failed_.fail_buffer(channel_, handle);
  report(opcode, (std::to_string(handle) + " cannot be made: " + what).c_str());
}

bool Executor::names_failed_resource(bool indexed) const {
  if (failed_.none()) return false;
  const auto slot_buffer = [this](uint32_t slot) { return command_state_.vertex_buffer(slot).buffer; };
  const nv_pipeline_desc *desc = command_state_.pipeline();
  return failed_.names_target(command_state_.targets()) ||
         (desc && failed_.reads_buffer(*desc, slot_buffer, indexed ? command_state_.index_buffer().buffer : 0));
}

// ---------------------------------------------------------------------------------------------
// recording helpers

VkCommandBuffer Executor::command_buffer() {
  if (batches_->recording()) return batches_->cmd();
  VkCommandBuffer cmd = batches_->begin();
  // Nothing bound carries over into a new command buffer.
  bound_pipeline_ = VK_NULL_HANDLE;
  command_state_.mark(kDynamicParts | novem::kVertexBuffersPart | novem::kIndexBufferPart);
  raster_valid_ = false;
  blend_valid_ = false;
  bound_vertex_ = VertexBuffers{};
  for (DescriptorSlot &d : sets_) d.bind = true;
  return cmd;
}

Image *Executor::color_target(uint32_t index) {
  Image *img = images_.find(command_state_.color_target(index));
  // A target needs an attachment view, and the level and face chosen must exist (ABI 5).
  if (!img || img->is_depth() || !img->view()) return nullptr;
  const nv_cmd_set_render_targets &targets = command_state_.targets();
  return targets.color_levels[index] < img->levels() && targets.color_layers[index] < img->layers() ? img : nullptr;
}

VkFormat Executor::target_format(const Image &img) const {
  return command_state_.targets().srgb_write && img.srgb_view() ? img.format().srgb : img.format().format;
}

VkSampleCountFlagBits Executor::target_samples() {
  for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i)
    if (Image *img = color_target(i)) return img->samples();
  Image *depth = images_.find(command_state_.targets().depth_stencil);
  return depth ? depth->samples() : VK_SAMPLE_COUNT_1_BIT;
}

bool Executor::is_color_target(uint32_t image) const {
  return command_state_.is_target(image) && image != command_state_.targets().depth_stencil;
}

// A target that a texture slot the bound shaders declare samples too: it renders and is sampled
// in GENERAL (ImageAccess::feedback, ImageAccess::depth_feedback). For a depth-stencil target
// that is only well defined while nothing writes depth or stencil, in Vulkan as in D3D9.
bool Executor::sampled_target(uint32_t image) const {
  if (!command_state_.is_target(image)) return false;
  for (uint32_t s = 0; s < NV_STAGE_COUNT; ++s)
    for (uint32_t slots = declared_slots_[s]; slots; slots &= slots - 1)
      if (command_state_.texture(s, uint32_t(std::countr_zero(slots))).image == image) return true;
  return false;
}

// How a texture slot samples `image`: a bound target in GENERAL, as its attachment is
// (sampled_target), any other image read-only.
ImageAccess Executor::sampling_access(uint32_t image) const {
  if (is_color_target(image)) return ImageAccess::feedback();
  if (image && image == command_state_.targets().depth_stencil) return ImageAccess::depth_feedback();
  return ImageAccess::shader_read();
}

Image *Executor::depth_target() {
  Image *depth = images_.find(command_state_.targets().depth_stencil);
  return depth && depth->is_depth() && depth->view() ? depth : nullptr;
}

VkExtent2D Executor::target_extent() {
  VkExtent2D extent{UINT32_MAX, UINT32_MAX};
  for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i)
    if (Image *img = color_target(i)) {
      // A colour target renders into the level SET_RENDER_TARGETS chose (ABI 5).
      const uint32_t level = command_state_.targets().color_levels[i];
      extent.width = std::min(extent.width, img->width(level));
      extent.height = std::min(extent.height, img->height(level));
    }
  if (Image *depth = depth_target()) {
    extent.width = std::min(extent.width, depth->width(0));
    extent.height = std::min(extent.height, depth->height(0));
  }
  return extent;
}

bool Executor::begin_rendering(const nv_cmd_clear *whole_clear) {
  if (rendering_) return true;
  Image *colors[NV_MAX_COLOR_TARGETS];
  uint32_t color_count = 0; // up to the last bound target; unbound ones in between have no view
  for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i)
    if ((colors[i] = color_target(i))) color_count = i + 1;
  Image *depth = depth_target();
  if (!color_count && !depth) return false;
  // Every attachment of a render pass instance has one sample count. SET_RENDER_TARGETS checked
  // that; an image destroyed while bound and made again under its handle was not.
  const VkSampleCountFlagBits samples = target_samples();
  for (uint32_t i = 0; i <= NV_MAX_COLOR_TARGETS; ++i) {
    Image *img = i < NV_MAX_COLOR_TARGETS ? colors[i] : depth;
    if (img && img->samples() != samples) {
      violations_.report(NV_OP_SET_RENDER_TARGETS, "the targets differ in sample count");
      return false;
    }
  }

  VkCommandBuffer cmd = command_buffer();
  const BatchId id = batches_->recording_id();
  const uint32_t clear_flags = whole_clear ? whole_clear->flags : 0;
  const VkClearDepthStencilValue clear_ds =
      whole_clear ? VkClearDepthStencilValue{std::clamp(whole_clear->depth, 0.0f, 1.0f), whole_clear->stencil}
                  : VkClearDepthStencilValue{};
  VkRenderingAttachmentInfo color_atts[NV_MAX_COLOR_TARGETS];
  VkRenderingAttachmentInfo depth_att{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  for (uint32_t i = 0; i <= NV_MAX_COLOR_TARGETS; ++i) {
    Image *img = i < NV_MAX_COLOR_TARGETS ? colors[i] : depth;
    VkRenderingAttachmentInfo &att = i < NV_MAX_COLOR_TARGETS ? color_atts[i] : depth_att;
    att = VkRenderingAttachmentInfo{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    if (!img) continue;
    const bool is_depth = img->is_depth();
    const nv_cmd_set_render_targets &targets = command_state_.targets();
    const bool sampled =
        sampled_target(i == NV_MAX_COLOR_TARGETS ? targets.depth_stencil : command_state_.color_target(i));
    barriers_.transition(img->handle(), img->format().aspects, img->access(),
                         is_depth ? (sampled ? ImageAccess::depth_feedback() : ImageAccess::depth_attachment())
                                  : (sampled ? ImageAccess::feedback() : ImageAccess::color_attachment()));
    img->mark_used(id);
    // A colour target renders into the level and face SET_RENDER_TARGETS chose (ABI 5), through
    // its sRGB view under SRGBWRITEENABLE.
    const uint32_t level = is_depth ? 0 : targets.color_levels[i];
    att.imageView = is_depth ? img->view() : img->target_view(targets.color_layers[i], level, targets.srgb_write != 0);
    att.imageLayout = sampled    ? VK_IMAGE_LAYOUT_GENERAL
                      : is_depth ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
                                 : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    const bool cleared = is_depth ? (clear_flags & NV_CLEAR_DEPTH) != 0 : (clear_flags & NV_CLEAR_COLOR) != 0;
    att.loadOp = cleared ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    att.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    if (is_depth) att.clearValue.depthStencil = clear_ds;
    else if (cleared) std::memcpy(att.clearValue.color.float32, whole_clear->color, sizeof whole_clear->color);
  }
  // The stencil aspect has a load operation of its own.
  VkRenderingAttachmentInfo stencil_att = depth_att;
  stencil_att.loadOp = (clear_flags & NV_CLEAR_STENCIL) ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
  barriers_.flush(device_->vk(), cmd);
  queries_->before_rendering(cmd);

  const VkExtent2D extent = target_extent();
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, extent};
  ri.layerCount = 1;
  ri.colorAttachmentCount = color_count;
  ri.pColorAttachments = color_count ? color_atts : nullptr;
  ri.pDepthAttachment = depth ? &depth_att : nullptr;
  ri.pStencilAttachment = depth && (depth->format().aspects & VK_IMAGE_ASPECT_STENCIL_BIT) ? &stencil_att : nullptr;
  device_->vk().CmdBeginRendering(cmd, &ri);
  queries_->rendering_begun(cmd);
  rendering_ = true;
  render_extent_ = extent;
  render_has_depth_ = depth != nullptr;
  render_colors_ = color_count;
  command_state_.mark(kDynamicParts);
  return true;
}

void Executor::end_rendering() {
  if (!rendering_) return;
  flush_draws();
  queries_->rendering_ending(batches_->cmd());
  device_->vk().CmdEndRendering(batches_->cmd());
  rendering_ = false;
}

void Executor::submit() {
  end_rendering();
  batches_->submit();
}

// Batching off (NOVEM_VK_BATCHING=0): each draw, clear and upload is a batch of its own, and the
// thread waits for it — no work in flight.
void Executor::submit_and_wait() {
  submit();
  novem::bump(channel_.gpu_waits);
  while (batches_->poll()) batches_->wait(1000000000ull);
}

bool Executor::bind_pipeline(VkCommandBuffer cmd) {
  const nv_pipeline_desc *desc = command_state_.pipeline();
  if (!desc) return false;
  if (pipeline_dirty_) {
    VkFormat color_formats[NV_MAX_COLOR_TARGETS];
    for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i) {
      Image *color = color_target(i);
      color_formats[i] = color ? target_format(*color) : VK_FORMAT_UNDEFINED;
    }
    Image *depth = images_.find(command_state_.targets().depth_stencil);
    VkFormat depth_format = depth && depth->is_depth() ? depth->format().format : VK_FORMAT_UNDEFINED;
    PipelineKey key = PipelineKey::make(*desc, color_formats, depth_format, target_samples(), device_->dynamic_blend());
    if (!compares_static_part()) resolved_static_ = PipelineKey::static_part(*desc, device_->dynamic_blend());
    resolved_ = true;
    pipeline_ = pipelines_->get(
        key, [this](uint32_t h) { return shaders_.find(h); }, [this](VkPipeline p) { retire_pipeline(p); });
    pipeline_slots_ = 0;
    for (uint32_t i = 0; i < key.desc.attribute_count; ++i)
      if (key.desc.attributes[i].binding < NV_MAX_VERTEX_BUFFERS) pipeline_slots_ |= 1u << key.desc.attributes[i].binding;
    pipeline_dirty_ = false;
    command_state_.mark(novem::kVertexBuffersPart);
  }
  if (!pipeline_) return false;
  if (bound_pipeline_ != pipeline_) {
    device_->vk().CmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    bound_pipeline_ = pipeline_;
  }
  return true;
}

void Executor::record_dynamic_state(VkCommandBuffer cmd) {
  set_raster_state(cmd);
  set_blend_state(cmd);
  if (!command_state_.take(kDynamicParts)) return;
  // D3D's +Y-up clip space lands NDC y = +1 on the viewport's top row: flip with a negative height.
  const nv_cmd_set_viewport *set = command_state_.viewport();
  const nv_cmd_set_viewport v =
      set ? *set : nv_cmd_set_viewport{0, 0, float(render_extent_.width), float(render_extent_.height), 0.0f, 1.0f};
  VkViewport vp{v.x, v.y + v.height, v.width, -v.height, v.min_depth, v.max_depth};
  device_->vk().CmdSetViewport(cmd, 0, 1, &vp);
  const nv_rect *scissor = command_state_.scissor();
  const nv_rect s = scissor ? *scissor : nv_rect{0, 0, int32_t(render_extent_.width), int32_t(render_extent_.height)};
  VkRect2D sc = clip_rect(s, render_extent_);
  device_->vk().CmdSetScissor(cmd, 0, 1, &sc);
  // Every pipeline declares these dynamic (vk_pipeline.cpp), so each is set whatever the pipeline uses.
  const NovemVkDevice &vk = device_->vk();
  const nv_cmd_set_dynamic_state &dynamic = command_state_.dynamic();
  vk.CmdSetDepthBias(cmd, dynamic.depth_bias_constant * depth_bias_scale(), 0.0f, dynamic.depth_bias_slope);
  vk.CmdSetBlendConstants(cmd, dynamic.blend_constant);
  vk.CmdSetStencilCompareMask(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, dynamic.stencil_compare_mask);
  vk.CmdSetStencilWriteMask(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, dynamic.stencil_write_mask);
  vk.CmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, dynamic.stencil_reference);
}

// Cull mode, front face and the depth test: set only when they differ from what the command
// buffer has (a blend change alone sets nothing).
void Executor::set_raster_state(VkCommandBuffer cmd) {
  const nv_pipeline_desc &desc = *command_state_.pipeline();
  const bool test = desc.depth_test && render_has_depth_;
  const RasterState r{desc.cull, test, test && desc.depth_write, test ? desc.depth_compare : uint8_t(NV_COMPARE_ALWAYS)};
  if (raster_valid_ && std::memcmp(&r, &raster_, sizeof r) == 0) return;
  const NovemVkDevice &vk = device_->vk();
  vk.CmdSetCullMode(cmd, cull_mode(r.cull));
  vk.CmdSetFrontFace(cmd, VK_FRONT_FACE_CLOCKWISE);
  vk.CmdSetDepthTestEnable(cmd, r.test ? VK_TRUE : VK_FALSE);
  vk.CmdSetDepthWriteEnable(cmd, r.write ? VK_TRUE : VK_FALSE);
  vk.CmdSetDepthCompareOp(cmd, compare_op(r.compare));
  raster_ = r;
  raster_valid_ = true;
}

// Blending and the write masks (VK_EXT_extended_dynamic_state3): set only when they differ from
// what the command buffer has, for every colour attachment of the render pass; normalized as
// PipelineKey::make does (no blending without a colour target, a mask of its own only with
// independentBlend).
void Executor::set_blend_state(VkCommandBuffer cmd) {
  if (!device_->dynamic_blend() || render_colors_ == 0) return;
  const nv_pipeline_desc &desc = *command_state_.pipeline();
  BlendState b;
  std::memset(&b, 0, sizeof b);
  b.count = render_colors_;
  bool blend = false;
  for (uint32_t i = 0; i < render_colors_; ++i) {
    const bool bound = color_target(i) != nullptr;
    b.enable[i] = bound && desc.blend_enable;
    blend |= b.enable[i];
    const bool own = i > 0 && device_->independent_blend();
    b.mask[i] = bound ? (own ? desc.more_color_write_masks[i - 1] : desc.color_write_mask) & 0xFu : 0;
  }
  if (blend) {
    b.color_src = desc.color_src, b.color_dst = desc.color_dst, b.color_op = desc.color_op;
    b.alpha_src = desc.alpha_src, b.alpha_dst = desc.alpha_dst, b.alpha_op = desc.alpha_op;
  }
  // Each of the three is set only when it changed (a blend factor change sets one command).
  const bool all = !blend_valid_ || b.count != blend_.count;
  const bool enable = all || std::memcmp(b.enable, blend_.enable, sizeof b.enable) != 0;
  const bool mask = all || std::memcmp(b.mask, blend_.mask, sizeof b.mask) != 0;
  const bool equation = all || std::memcmp(&b.color_src, &blend_.color_src, 6) != 0;
  if (!enable && !mask && !equation) return;
  const NovemVkDevice &vk = device_->vk();
  if (enable) {
    VkBool32 enables[NV_MAX_COLOR_TARGETS];
    for (uint32_t i = 0; i < b.count; ++i) enables[i] = b.enable[i] ? VK_TRUE : VK_FALSE;
    vk.CmdSetColorBlendEnableEXT(cmd, 0, b.count, enables);
  }
  if (equation) {
    VkColorBlendEquationEXT equations[NV_MAX_COLOR_TARGETS];
    for (uint32_t i = 0; i < b.count; ++i)
      equations[i] = {blend_factor(b.color_src), blend_factor(b.color_dst), blend_op(b.color_op),
                      blend_factor(b.alpha_src), blend_factor(b.alpha_dst), blend_op(b.alpha_op)};
    vk.CmdSetColorBlendEquationEXT(cmd, 0, b.count, equations);
  }
  if (mask) {
    VkColorComponentFlags masks[NV_MAX_COLOR_TARGETS];
    for (uint32_t i = 0; i < b.count; ++i) masks[i] = b.mask[i];
    vk.CmdSetColorWriteMaskEXT(cmd, 0, b.count, masks);
  }
  blend_ = b;
  blend_valid_ = true;
}

// Only when something changed: every new command buffer (so every batch, whose id the buffers
// must carry) starts dirty, as does a binding, a pipeline or a rename. Where the new bindings are
// the bound ones moved by a whole number of vertices (vertex_shift), nothing is bound: the
// draws start that many vertices further on. Buffers share their memory block's VkBuffer
// (MemoryAllocator::allocate_range), so a DrawPrimitiveUP or a switch to a dynamic buffer and back
// is often such a move; lavapipe restages every slot at each binding.
void Executor::bind_vertex_buffers(VkCommandBuffer cmd) {
  if (!command_state_.dirty(novem::kVertexBuffersPart)) return;
  const VertexBuffers want = wanted_vertex_buffers();
  command_state_.take(novem::kVertexBuffersPart);
  if (want.count == 0) return;
  if (std::optional<uint32_t> shift = vertex_shift(want)) {
    vertex_shift_ = *shift;
    return;
  }
  // Bound as far back in the VkBuffers as a common shift allows. No sizes: each binding
  // reaches the end of its VkBuffer.
  const uint32_t slots = (1u << want.count) - 1, instanced = command_state_.pipeline()->instance_slots;
  vertex_shift_ = novem::lowest_vertex_shift(want.slots, slots, instanced);
  VkBuffer handles[NV_MAX_VERTEX_BUFFERS];
  VkDeviceSize offsets[NV_MAX_VERTEX_BUFFERS], strides[NV_MAX_VERTEX_BUFFERS];
  bound_vertex_.count = want.count;
  for (uint32_t slot = 0; slot < want.count; ++slot) {
    const novem::VertexBinding &b = bound_vertex_.slots[slot] =
        novem::shifted_binding(want.slots[slot], slot, instanced, vertex_shift_);
    handles[slot] = reinterpret_cast<VkBuffer>(b.buffer);
    offsets[slot] = b.offset;
    strides[slot] = b.stride;
  }
  device_->vk().CmdBindVertexBuffers2(cmd, 0, want.count, handles, offsets, nullptr, strides);
}

Executor::VertexBuffers Executor::wanted_vertex_buffers() {
  const BatchId id = batches_->recording_id();
  VertexBuffers want;
  for (uint32_t slot = 0; slot < NV_MAX_VERTEX_BUFFERS; ++slot) {
    if (!(pipeline_slots_ >> slot)) break;
    const novem::VertexSlot &v = command_state_.vertex_buffer(slot);
    Buffer *b = buffers_.find(v.buffer);
    if (b && v.offset >= b->size()) b = nullptr;
    if (b && b->align_to_stride(*batches_, v.stride) && command_state_.index_buffer().buffer == v.buffer)
      command_state_.mark(novem::kIndexBufferPart);
    if (!b) b = null_buffer_.get();
    b->mark_used(id);
    const bool null = b == null_buffer_.get();
    want.slots[slot] = {reinterpret_cast<uint64_t>(b->handle()), b->offset() + (null ? 0 : v.offset), null ? 0 : v.stride};
    want.count = slot + 1;
  }
  return want;
}

void Executor::settle_vertex_moves() {
  pending_.vertex_moved = false;
  if (pending_.empty() || !command_state_.dirty(novem::kVertexBuffersPart)) return;
  const VertexBuffers want = wanted_vertex_buffers();
  if (std::optional<uint32_t> shift = want.count ? vertex_shift(want) : std::nullopt) {
    vertex_shift_ = *shift;
    command_state_.take(novem::kVertexBuffersPart);
    return;
  }
  flush_draws(); // recorded with the bindings it was made for; the next draw binds anew
}

// How many vertices further on than the bound bindings `want` starts, if it is them moved
// (novem::vertex_shift); never without dirty tracking.
std::optional<uint32_t> Executor::vertex_shift(const VertexBuffers &want) const {
  if (!options_.dirty_state || want.count != bound_vertex_.count) return std::nullopt;
  return novem::vertex_shift(bound_vertex_.slots, want.slots, (1u << want.count) - 1,
                             command_state_.pipeline()->instance_slots);
}

Buffer *Executor::bind_index_buffer(VkCommandBuffer cmd) {
  const nv_cmd_set_index_buffer &index = command_state_.index_buffer();
  Buffer *b = buffers_.find(index.buffer);
  if (!b || index.offset >= b->size()) return nullptr;
  b->mark_used(batches_->recording_id());
  if (command_state_.take(novem::kIndexBufferPart))
    device_->vk().CmdBindIndexBuffer(cmd, b->handle(), b->offset() + index.offset,
                                     index.index_size == 4 ? VK_INDEX_TYPE_UINT32 : VK_INDEX_TYPE_UINT16);
  return b;
}

bool Executor::prepare_draw(VkCommandBuffer cmd) {
  if (!options_.dirty_state) {
    // Without dirty tracking (NOVEM_VK_DIRTY=0) every draw binds and sets everything again.
    bound_pipeline_ = VK_NULL_HANDLE;
    command_state_.mark(kDynamicParts | novem::kVertexBuffersPart | novem::kIndexBufferPart |
                        novem::kVertexConstantsPart | novem::kPixelConstantsPart);
    raster_valid_ = blend_valid_ = false;
    image_infos_valid_ = 0;
    for (DescriptorSlot &d : sets_) d.dirty = true;
    textures_marked_ = 0;
  }
  if (!bind_pipeline(cmd)) return false;
  record_dynamic_state(cmd);
  bind_vertex_buffers(cmd);
  bind_descriptors(cmd);
  // Once per batch and texture change, not per draw: the images' last use is the batch.
  if (textures_marked_ != batches_->recording_id()) {
    textures_marked_ = batches_->recording_id();
    mark_textures_used(textures_marked_);
  }
  return true;
}

void Executor::bind_descriptors(VkCommandBuffer cmd) {
  // Texture slots set since the last draw: their descriptors are computed again, their sets
  // written again, and the images they bind marked used by this batch.
  if (const uint32_t stale = command_state_.take_textures()) {
    if (stale & novem::kPixelTextureBits) sets_[PipelineLayout::kPixelTextureSet].dirty = true;
    if (stale & ~novem::kPixelTextureBits) sets_[PipelineLayout::kVertexTextureSet].dirty = true;
    image_infos_valid_ &= ~stale;
    textures_marked_ = 0;
  }
  const std::vector<uint8_t> *blocks[NV_STAGE_COUNT] = {&command_state_.constants(NV_STAGE_VERTEX),
                                                        &command_state_.constants(NV_STAGE_PIXEL)};
  uint32_t need = 0;
  for (uint32_t s = 0; s < NV_STAGE_COUNT; ++s)
    need += uniforms_->push_bytes(uint32_t(blocks[s]->size()), *uniform_reads_[s]) + 256; // + alignment
  for (uint32_t s = 0; s < NV_STAGE_COUNT; ++s) {
    // A software vertex-processing block's uniform part ends where its storage part begins.
    const uint32_t size = std::min<uint32_t>(uint32_t(blocks[s]->size()), NV_VERTEX_STORAGE_OFFSET);
    if (size <= ubo_range_[s]) continue;
    ubo_range_[s] = std::min((size + 255) / 256 * 256, uniforms_->range());
    sets_[PipelineLayout::uniform_set(s)].dirty = true;
  }
  if (uniforms_->reserve(*batches_, need)) { // a new chunk: every block moves, every set names it
    command_state_.mark(novem::kVertexConstantsPart | novem::kPixelConstantsPart);
    for (uint32_t s = 0; s < NV_STAGE_COUNT; ++s) sets_[PipelineLayout::uniform_set(s)].dirty = true;
  }
  for (uint32_t s = 0; s < NV_STAGE_COUNT; ++s) {
    if (!command_state_.take(novem::constants_part(s))) continue;
    constants_offset_[s] = uniforms_->push(blocks[s]->data(), uint32_t(blocks[s]->size()), *uniform_reads_[s]);
    pushed_reads_[s] = *uniform_reads_[s];
    sets_[PipelineLayout::uniform_set(s)].bind = true;
  }
  // The pipeline's width of pixel texture set: a new one needs a set of that layout, and disturbs
  // the sets from 2 on (the vertex textures too).
  const uint32_t width = layout_->pixel_width(declared_slots_[NV_STAGE_PIXEL]);
  if (width != pixel_width_) {
    pixel_width_ = width;
    sets_[PipelineLayout::kPixelTextureSet].dirty = true;
    sets_[PipelineLayout::kVertexTextureSet].bind = true;
  }
  // Only the sets that changed: rebinding another (the other stage's block, the textures) would
  // make lavapipe restage it, and llvmpipe store a new fragment state for the draw.
  for (uint32_t i = 0; i < PipelineLayout::kSetCount; ++i) {
    DescriptorSlot &d = sets_[i];
    const uint32_t stage = PipelineLayout::stage_of(i);
    const bool uniforms = PipelineLayout::holds_uniforms(i);
    // A stage whose shader samples nothing leaves its texture set unbound: llvmpipe maps every
    // bound vertex texture at each draw and references every bound pixel texture from each scene
    // state, used or not. The set is looked up again for the next shader that samples, since an
    // untouched set may go back to its cache or arena once its batch completes.
    if (!uniforms && declared_slots_[stage] == 0) {
      d.dirty = true;
      continue;
    }
    if (d.dirty || !d.set) {
      d.source = &set_source(i, width);
      if (uniforms) {
        d.set = d.source->arena->allocate(*batches_);
        write_uniform_set(stage, d.set);
      } else {
        texture_set(stage, d);
      }
      d.dirty = false;
      d.bind = true;
    } else if (d.entry != TextureSetCache::kNone) {
      d.source->cache->touch(*batches_, d.entry); // the set stays until this batch completes
    } else {
      d.source->arena->touch(*batches_); // the set's pool stays until this batch completes
    }
    if (!d.bind) continue;
    // A uniform set's dynamic offsets, by binding: the block, then on a software
    // vertex-processing device the vertex block's storage part.
    const uint32_t offsets[2] = {constants_offset_[stage], constants_offset_[stage] + NV_VERTEX_STORAGE_OFFSET};
    const uint32_t offset_count = !uniforms ? 0 : i == PipelineLayout::kVertexUniformSet && software_vertex_ ? 2 : 1;
    device_->vk().CmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_->handle(width), i, 1, &d.set,
                                        offset_count, offset_count ? offsets : nullptr);
    d.bind = false;
  }
}

Executor::SetSource &Executor::set_source(uint32_t set, uint32_t width) {
  if (set != PipelineLayout::kPixelTextureSet) width = 0;
  SetSource &source = sources_[set][width];
  if (source.arena) return source;
  const VkDescriptorSetLayout layout = layout_->set_layout(set, width);
  const bool uniforms = PipelineLayout::holds_uniforms(set);
  source.slots = PipelineLayout::slot_count(set, width);
  std::vector<VkDescriptorPoolSize> per_set{
      {uniforms ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, source.slots}};
  if (set == PipelineLayout::kVertexUniformSet && software_vertex_)
    per_set.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1});
  source.arena = std::make_unique<DescriptorArena>(*device_, layout, std::move(per_set));
  // Without dirty tracking (NOVEM_VK_DIRTY=0) every draw writes new sets: no cache.
  if (!uniforms && options_.dirty_state)
    source.cache = std::make_unique<TextureSetCache>(
        *device_, layout, set == PipelineLayout::kPixelTextureSet ? kPixelTextureBinding : kVertexTextureBinding,
        source.slots);
  return source;
}

void Executor::write_uniform_set(uint32_t stage, VkDescriptorSet set) {
  const VkDescriptorBufferInfo ubo{uniforms_->buffer(), 0, ubo_range_[stage]};
  // The storage part of a software vertex-processing block: its dynamic offset is the block's
  // plus NV_VERTEX_STORAGE_OFFSET (bind_descriptors).
  const VkDescriptorBufferInfo storage{uniforms_->buffer(), 0, NV_VERTEX_STORAGE_SIZE};
  VkWriteDescriptorSet w[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
  w[0].dstSet = set;
  w[0].dstBinding = PipelineLayout::uniform_binding(stage);
  w[0].descriptorCount = 1;
  w[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
  w[0].pBufferInfo = &ubo;
  w[1].dstSet = set;
  w[1].dstBinding = NV_VERTEX_STORAGE_BINDING;
  w[1].descriptorCount = 1;
  w[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
  w[1].pBufferInfo = &storage;
  const uint32_t writes = stage == NV_STAGE_VERTEX && software_vertex_ ? 2 : 1;
  device_->vk().UpdateDescriptorSets(device_->handle(), writes, w, 0, nullptr);
}

// Every binding of the stage's set holds an image, so whatever a shader declares is valid: a slot
// with no (usable) image gets the default texture. The set comes from the stage's cache when
// one holds these images and samplers already (or is made there), else from the arena.
void Executor::texture_set(uint32_t stage, DescriptorSlot &d) {
  const nv_sampler_desc default_desc{NV_FILTER_POINT, NV_FILTER_POINT, NV_FILTER_NONE, NV_ADDRESS_CLAMP,
                                     NV_ADDRESS_CLAMP, NV_ADDRESS_CLAMP, 1, 0, 0.0f, {0, 0, 0, 0}};
  auto info = [&](const novem::TextureSlot &slot) {
    Image *img = images_.find(slot.image);
    if (img && img->sampled_view() && img->type() == slot.type) {
      // ABI 5: a depth texture compares only with NV_TEXTURE_COMPARE_DEPTH (the shader's depth
      // image); sRGB decoding reads through the sRGB view.
      const bool compare = (slot.flags & NV_TEXTURE_COMPARE_DEPTH) && img->is_depth();
      // Depth values (INTZ) are read with nearest filtering (commands.h).
      nv_sampler_desc desc = slot.sampler;
      if (img->is_depth() && !compare) desc.min_filter = desc.mag_filter = desc.mip_filter = NV_FILTER_POINT;
      const VkImageView view =
          (slot.flags & NV_TEXTURE_SRGB) && img->srgb_sampled_view() ? img->srgb_sampled_view() : img->sampled_view();
      return VkDescriptorImageInfo{samplers_->get(desc, compare), view, sampling_access(slot.image).layout};
    }
    return VkDescriptorImageInfo{samplers_->get(default_desc), default_textures_[slot.type]->sampled_view(),
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  };
  for (uint32_t i = 0; i < kImageDescriptors; ++i) {
    if (image_infos_valid_ & (1u << i)) continue;
    image_infos_[i] = info(command_state_.texture(i));
    image_infos_valid_ |= 1u << i;
  }
  const bool pixel = stage == NV_STAGE_PIXEL;
  const VkDescriptorImageInfo *infos = pixel ? image_infos_ : image_infos_ + NV_MAX_PIXEL_TEXTURES;
  SetSource &source = *d.source;
  d.entry = source.cache ? source.cache->get(*batches_, infos) : TextureSetCache::kNone;
  if (d.entry != TextureSetCache::kNone) {
    d.set = source.cache->set(d.entry);
    return;
  }
  d.set = source.arena->allocate(*batches_);
  write_texture_descriptors(*device_, d.set, pixel ? kPixelTextureBinding : kVertexTextureBinding, source.slots, infos);
}

void Executor::settle_pipeline() {
  if (!command_state_.take(novem::kPipelinePart)) return;
  const nv_pipeline_desc *desc = command_state_.pipeline();
  if (!desc) return;
  if (!compares_static_part()) {
    pipeline_dirty_ = true;
  } else {
    // Kept for bind_pipeline, which then need not work it out again.
    const nv_pipeline_desc now = PipelineKey::static_part(*desc, device_->dynamic_blend());
    if (std::memcmp(&now, &resolved_static_, sizeof now) != 0) {
      resolved_static_ = now;
      pipeline_dirty_ = true;
    }
  }
  if (desc->vertex_shader != read_shaders_[NV_STAGE_VERTEX] || desc->pixel_shader != read_shaders_[NV_STAGE_PIXEL])
    shader_reads_valid_ = false;
}

void Executor::refresh_shader_reads() {
  if (shader_reads_valid_) return;
  const nv_pipeline_desc *desc = command_state_.pipeline();
  read_shaders_[NV_STAGE_VERTEX] = desc ? desc->vertex_shader : 0;
  read_shaders_[NV_STAGE_PIXEL] = desc ? desc->pixel_shader : 0;
  for (uint32_t s = 0; s < NV_STAGE_COUNT; ++s) {
    const Shader *shader = shaders_.find(read_shaders_[s]);
    declared_slots_[s] = shader ? shader->texture_slots() : 0;
    static const UniformFootprint kWhole; // no shader: the fixed-function block, copied whole
    uniform_reads_[s] = shader ? &shader->uniforms() : &kWhole;
    if (!pushed_reads_[s].covers(*uniform_reads_[s])) command_state_.mark(novem::constants_part(s));
  }
  shader_reads_valid_ = true;
}

void Executor::prepare_textures() {
  // Only the slots the pipeline's shaders declare: an image left bound to a slot they do not
  // sample (a render target still set as a texture, say) keeps its layout, and rendering into
  // it goes on without a barrier per draw.
  for (uint32_t s = 0; s < NV_STAGE_COUNT; ++s) {
    for (uint32_t slots = declared_slots_[s]; slots; slots &= slots - 1) {
      const uint32_t handle = command_state_.texture(s, uint32_t(std::countr_zero(slots))).image;
      Image *img = images_.find(handle);
      const ImageAccess want = sampling_access(handle);
      if (!img || !img->sampled_view() || img->access().layout == want.layout) continue;
      // Layout changes cannot happen inside dynamic rendering: leave it, begin_rendering flushes
      // (and, for a target, renders into it in the same layout).
      end_rendering();
      barriers_.transition(img->handle(), img->format().aspects, img->access(), want);
    }
  }
  for (auto &t : default_textures_) {
    if (t->access().layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL) continue;
    end_rendering();
    barriers_.transition(t->handle(), t->format().aspects, t->access(), ImageAccess::shader_read());
  }
}

void Executor::mark_textures_used(BatchId id) {
  for (auto &t : default_textures_) t->mark_used(id);
  for (uint32_t i = 0; i < novem::kTextureSlotCount; ++i)
    if (Image *img = images_.find(command_state_.texture(i).image)) img->mark_used(id);
}

void Executor::image_changed(uint32_t image) {
  command_state_.mark_textures(command_state_.texture_slots_binding(image));
}

void Executor::upload(Image &img, uint32_t level, const VkRect2D &rect, const uint8_t *rows, size_t pitch,
                      uint32_t layer) {
  // Rows of texels, or of 4x4 blocks for BC formats; L4A4 rows are widened to two bytes a texel.
  const FormatInfo &f = img.format();
  const uint32_t block_rows = (rect.extent.height + f.block - 1) / f.block;
  const size_t row = size_t((rect.extent.width + f.block - 1) / f.block) * f.texel_bytes;
  const size_t bytes = row * block_rows;
  if (!bytes) return;
  // An image that nothing recorded in this batch uses yet takes its upload in the batch's upload
  // command buffer, which runs before the rest: the render pass in progress goes on, and the
  // image is ready to sample before the batch's first draw. On lavapipe every barrier waits for
  // the rasterizers to finish all work submitted so far, so an upload between draws cost a
  // render pass split and two or three such waits.
  VkCommandBuffer cmd = command_buffer();
  const BatchId id = batches_->recording_id();
  // A depth image (a lockable depth surface's) takes its values in the batch's order: it is a
  // target, never read by a shader before its next use.
  const bool early = !img.is_depth() && img.recorded_use() < id;
  BarrierBatch &barriers = early ? upload_barriers_ : barriers_;
  if (early) {
    cmd = batches_->begin_uploads();
  } else {
    end_rendering();
  }

  const NovemVkDevice *vk = &device_->vk();
  // The staging bytes are a range of a block's shared VkBuffer (a VkBuffer of their own without
  // suballocation), given back when the copy's batch completes: no buffer made per upload. Its
  // 256-byte start is a multiple of every texel and block size, as the copy needs.
  BufferRange staging = allocator_->allocate_range(bytes);
  for (uint32_t y = 0; y < block_rows; ++y) {
    if (f.expand_l4a4) expand_l4a4(rows + y * pitch, staging.memory.mapped + y * row, rect.extent.width);
    else std::memcpy(staging.memory.mapped + y * row, rows + y * pitch, row);
  }

  barriers.transition(img.handle(), img.format().aspects, img.access(), ImageAccess::transfer_destination());
  barriers.flush(*vk, cmd);
  VkBufferImageCopy region{};
  region.bufferOffset = staging.offset;
  const bool volume = img.type() == NV_IMAGE_TYPE_3D;
  region.imageSubresource = {img.is_depth() ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT, level,
                             volume ? 0 : layer, 1};
  region.imageOffset = {rect.offset.x, rect.offset.y, volume ? int32_t(layer) : 0};
  region.imageExtent = {rect.extent.width, rect.extent.height, 1};
  vk->CmdCopyBufferToImage(cmd, staging.buffer, img.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  if (early) { // ready to sample when the recording command buffer starts
    barriers.transition(img.handle(), img.format().aspects, img.access(), ImageAccess::shader_read());
    barriers.flush(*vk, cmd);
    img.mark_uploaded(id);
  } else {
    img.mark_used(id);
  }
  MemoryAllocator *allocator = allocator_.get();
  batches_->on_complete(id, [=]() mutable { allocator->free_range(staging); });
}

void Executor::retire_pipeline(VkPipeline pipeline) {
  if (pipeline == bound_pipeline_) bound_pipeline_ = VK_NULL_HANDLE;
  if (pipeline == pipeline_) {
    pipeline_ = VK_NULL_HANDLE;
    pipeline_dirty_ = true;
  }
  const NovemVkDevice *vk = &device_->vk();
  VkDevice dev = device_->handle();
  batches_->on_complete(batches_->recording_id(), [vk, dev, pipeline] { vk->DestroyPipeline(dev, pipeline, nullptr); });
}

void Executor::drop_buffer(uint32_t handle, uint16_t opcode) {
  std::optional<std::unique_ptr<Buffer>> taken = buffers_.take(handle, opcode);
  if (!taken) return;
  Buffer *b = taken->release();
  batches_->on_complete(b->last_use(), [b] { delete b; });
  rebind_buffer(handle);
}

void Executor::rebind_buffer(uint32_t buffer) {
  for (uint32_t slot = 0; slot < NV_MAX_VERTEX_BUFFERS; ++slot)
    if (command_state_.vertex_buffer(slot).buffer == buffer) command_state_.mark(novem::kVertexBuffersPart);
  if (command_state_.index_buffer().buffer == buffer) command_state_.mark(novem::kIndexBufferPart);
}

void Executor::drop_image(uint32_t handle, uint16_t opcode) {
  // Rendering into it ends while it is still in the table (end_rendering finds the targets there).
  if (images_.find(handle) && command_state_.is_target(handle)) {
    end_rendering();
    pipeline_dirty_ = true;
  }
  std::optional<std::unique_ptr<Image>> taken = images_.take(handle, opcode);
  if (!taken) return;
  Image *img = taken->release();
  image_changed(handle);
  // Its views go with it: no cached texture set may name them any more.
  for (uint32_t set = 0; set < PipelineLayout::kSetCount; ++set)
    for (SetSource &source : sources_[set])
      for (VkImageView view : {img->sampled_view(), img->srgb_sampled_view()})
        if (source.cache && view && source.cache->forget(*batches_, view)) sets_[set].dirty = true;
  batches_->on_complete(img->last_use(), [img] { delete img; });
}

// ---------------------------------------------------------------------------------------------
// resources

void Executor::create_buffer(const nv_cmd_create_buffer &a, const nv_cmd_header *) {
  if (!buffers_.vacant(a.buffer, NV_OP_CREATE_BUFFER)) return;
  failed_.forget_buffer(a.buffer);
  try {
    buffers_.insert(a.buffer, std::make_unique<Buffer>(*allocator_, slabs_.get(), *batches_, a.size, a.usage),
                    NV_OP_CREATE_BUFFER);
  } catch (const std::exception &e) { // nothing was made: Buffer and MemoryAllocator leave nothing behind
    creation_failed(NV_OP_CREATE_BUFFER, a.buffer, e.what());
  }
}

void Executor::destroy_buffer(const nv_cmd_destroy_buffer &a, const nv_cmd_header *) {
  if (failed_.buffer(a.buffer)) failed_.forget_buffer(a.buffer); // nothing was made
  else drop_buffer(a.buffer, NV_OP_DESTROY_BUFFER);
}

void Executor::update_buffer(const nv_cmd_update_buffer &a, const nv_cmd_header *h) {
  Buffer *b = buffers_.get(a.buffer, NV_OP_UPDATE_BUFFER);
  if (!b) return;
  // Never read past the record, whatever size claims.
  const uint64_t room = h->size - sizeof(nv_cmd_header) - sizeof(nv_cmd_update_buffer);
  const uint64_t size = std::min<uint64_t>(a.size, room);
  if (b->update(*batches_, a.offset, command_payload<nv_cmd_update_buffer>(h), size, a.flags)) rebind_buffer(a.buffer);
}

void Executor::create_image(const nv_cmd_create_image &a, const nv_cmd_header *) {
  if (!images_.vacant(a.image, NV_OP_CREATE_IMAGE)) return;
  failed_.forget_image(a.image);
  try {
    images_.insert(a.image,
                   std::make_unique<Image>(*device_, *allocator_, nv_format(a.format), a.width, a.height, a.usage,
                                           a.levels, nv_image_type(a.type), a.depth, a.samples),
                   NV_OP_CREATE_IMAGE);
  } catch (const std::exception &e) { // nothing was made: Image leaves nothing behind
    creation_failed(NV_OP_CREATE_IMAGE, a.image, e.what());
    return;
  }
  if (command_state_.is_target(a.image)) pipeline_dirty_ = true;
  image_changed(a.image);
}

void Executor::update_image(const nv_cmd_update_image &a, const nv_cmd_header *h) {
  Image *img = images_.get(a.image, NV_OP_UPDATE_IMAGE);
  if (!img) return;
  // The payload is in the nv_format's layout (commands.h), which may differ from the stored one.
  if (const char *why = checks::update_image(a, img->shape(), h->size - sizeof(nv_cmd_header) - sizeof(nv_cmd_update_image)))
    return violations_.report(NV_OP_UPDATE_IMAGE, why);
  const nv_rect &r = a.rect;
  const size_t row = image_row_bytes(img->source_format(), uint32_t(r.width));
  const size_t pitch = a.row_pitch ? a.row_pitch : row;
  // ABI 5: a discarding write into an image that queued draws still sample renames it, as
  // buffers do: a fresh image takes the texels, the old one lives until its draws complete, so
  // the copy waits for no draw. Only for images of one level and layer (the others' texels
  // would have to be copied over).
  if ((a.flags & NV_UPDATE_DISCARD) && img->levels() == 1 && img->layers() == 1 && img->type() == NV_IMAGE_TYPE_2D &&
      !command_state_.is_target(a.image) && batches_->in_use(img->last_use())) {
    std::unique_ptr<Image> fresh;
    try {
      fresh = std::make_unique<Image>(*device_, *allocator_, img->source_format(), img->width(), img->height(),
                                      img->usage(), 1, NV_IMAGE_TYPE_2D, 1, 1);
    } catch (const VkError &) {
      // No memory for a second image: the write goes into this one, ordered after the draws.
    }
    if (fresh) {
      drop_image(a.image, NV_OP_UPDATE_IMAGE); // rebinds the texture slots that sample it
      img = images_.insert(a.image, std::move(fresh), NV_OP_UPDATE_IMAGE);
    }
  }
  upload(*img, a.level, VkRect2D{{r.x, r.y}, {uint32_t(r.width), uint32_t(r.height)}},
         static_cast<const uint8_t *>(command_payload<nv_cmd_update_image>(h)), pitch, a.layer);
  if (!options_.batching) submit_and_wait();
}

void Executor::set_texture(const nv_cmd_set_texture &a, const nv_cmd_header *) { command_state_.set_texture(a); }

void Executor::destroy_image(const nv_cmd_destroy_image &a, const nv_cmd_header *) {
  if (failed_.image(a.image)) failed_.forget_image(a.image); // nothing was made
  else drop_image(a.image, NV_OP_DESTROY_IMAGE);
}

void Executor::generate_mips(const nv_cmd_generate_mips &a, const nv_cmd_header *) {
  Image *img = images_.get(a.image, NV_OP_GENERATE_MIPS);
  if (!img) return;
  if (const char *why = checks::generate_mips(img->shape())) return violations_.report(NV_OP_GENERATE_MIPS, why);
  if (img->levels() < 2) return;
  end_rendering();
  VkCommandBuffer cmd = command_buffer();
  const NovemVkDevice *vk = &device_->vk();
  // The whole image in GENERAL (a blit's source and destination at once), each level blitted from
  // the one above once the previous blit's writes are visible.
  constexpr VkPipelineStageFlags2 kBlit = VK_PIPELINE_STAGE_2_BLIT_BIT;
  barriers_.transition(img->handle(), img->format().aspects, img->access(),
                       ImageAccess{VK_IMAGE_LAYOUT_GENERAL, kBlit, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT});
  const bool volume = img->type() == NV_IMAGE_TYPE_3D;
  for (uint32_t level = 1; level < img->levels(); ++level) {
    if (level > 1)
      barriers_.memory(kBlit, VK_ACCESS_2_TRANSFER_WRITE_BIT, kBlit, VK_ACCESS_2_TRANSFER_READ_BIT);
    barriers_.flush(*vk, cmd);
    auto extent = [&](uint32_t l) {
      return VkOffset3D{int32_t(std::max(img->width() >> l, 1u)), int32_t(std::max(img->height() >> l, 1u)),
                        volume ? int32_t(std::max(img->depth() >> l, 1u)) : 1};
    };
    VkImageBlit blit{};
    blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 0, img->layers()};
    blit.srcOffsets[1] = extent(level - 1);
    blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, img->layers()};
    blit.dstOffsets[1] = extent(level);
    vk->CmdBlitImage(cmd, img->handle(), VK_IMAGE_LAYOUT_GENERAL, img->handle(), VK_IMAGE_LAYOUT_GENERAL, 1, &blit,
                     a.filter == NV_FILTER_POINT ? VK_FILTER_NEAREST : VK_FILTER_LINEAR);
  }
  img->mark_used(batches_->recording_id());
  if (!options_.batching) submit_and_wait();
}

void Executor::create_shader(const nv_cmd_create_shader &a, const nv_cmd_header *h) {
  if (const char *why = checks::create_shader(a, novem::payload_bytes<nv_cmd_create_shader>(h)))
    return violations_.report(NV_OP_CREATE_SHADER, why);
  if (!shaders_.vacant(a.shader, NV_OP_CREATE_SHADER)) return;
  std::unique_ptr<Shader> shader;
  try {
    shader = std::make_unique<Shader>(*device_, nv_shader_stage(a.stage),
                                      static_cast<const uint32_t *>(command_payload<nv_cmd_create_shader>(h)),
                                      a.word_count);
  } catch (const std::exception &) {
    // The handle is taken all the same, by no module, as a GL shader that does not compile takes
    // its: pipelines with it draw nothing, and its DESTROY_SHADER is no violation.
    shaders_.insert(a.shader, nullptr, NV_OP_CREATE_SHADER);
    throw; // reported by execute
  }
  shaders_.insert(a.shader, std::move(shader), NV_OP_CREATE_SHADER);
  shader_reads_valid_ = false;
}

void Executor::destroy_shader(const nv_cmd_destroy_shader &a, const nv_cmd_header *) {
  if (!shaders_.take(a.shader, NV_OP_DESTROY_SHADER)) return;
  shader_reads_valid_ = false;
  // A module may go as soon as its pipelines are built; the pipelines wait for their batches.
  pipelines_->evict_shader(a.shader, [this](VkPipeline p) { retire_pipeline(p); });
  const nv_pipeline_desc *desc = command_state_.pipeline();
  if (desc && (desc->vertex_shader == a.shader || desc->pixel_shader == a.shader)) pipeline_dirty_ = true;
}

// ---------------------------------------------------------------------------------------------
// state

// Rendering into the old targets ends first (end_rendering reads them).
void Executor::set_render_targets(const nv_cmd_set_render_targets &a, const nv_cmd_header *) {
  if (!command_state_.changes_targets(a)) return;
  if (const char *why = novem::checks::render_targets(a, [this](uint32_t image) { return images_.find(image); }))
    return violations_.report(NV_OP_SET_RENDER_TARGETS, why);
  end_rendering();
  // A texture slot that samples a target (old or new) names it in another layout now.
  const nv_cmd_set_render_targets was = command_state_.targets();
  command_state_.set_render_targets(a);
  for (const nv_cmd_set_render_targets *t : {&was, &a}) {
    image_changed(t->color);
    for (uint32_t c : t->more_colors) image_changed(c);
    image_changed(t->depth_stencil);
  }
  pipeline_dirty_ = true;
  command_state_.mark(novem::kDynamicPart); // the depth bias' unit follows the depth target's format
}

// The contract counts depth_bias_constant in 2^-n steps of a UNORM depth format; halved where the
// driver counts twice that (Quirk::depth_bias_units).
float Executor::depth_bias_scale() {
  const Image *depth = images_.find(command_state_.targets().depth_stencil);
  if (!depth) return 1.0f;
  switch (depth->format().format) {
  case VK_FORMAT_D16_UNORM: case VK_FORMAT_D16_UNORM_S8_UINT: case VK_FORMAT_X8_D24_UNORM_PACK32:
  case VK_FORMAT_D24_UNORM_S8_UINT:
    return device_->quirks().has(Quirk::depth_bias_units) ? 0.5f : 1.0f;
  default:
    return 1.0f;
  }
}

void Executor::set_viewport(const nv_cmd_set_viewport &a, const nv_cmd_header *) { command_state_.set_viewport(a); }

void Executor::set_scissor(const nv_cmd_set_scissor &a, const nv_cmd_header *) { command_state_.set_scissor(a); }

void Executor::set_dynamic_state(const nv_cmd_set_dynamic_state &a, const nv_cmd_header *) {
  command_state_.set_dynamic_state(a);
}

// A change of dynamic state alone (cull, depth test, blending with dynamic blend) keeps the
// pipeline: the draw sets that state, and nothing is looked up (settle_pipeline).
void Executor::set_pipeline(const nv_cmd_set_pipeline &a, const nv_cmd_header *) { command_state_.set_pipeline(a.desc); }

void Executor::set_render_states(const nv_cmd_set_render_states &a, const nv_cmd_header *) {
  command_state_.set_render_states(a);
}

void Executor::set_vertex_buffer(const nv_cmd_set_vertex_buffer &a, const nv_cmd_header *) {
  if (command_state_.set_vertex_buffer(a)) pending_.vertex_buffer_set();
}

void Executor::set_index_buffer(const nv_cmd_set_index_buffer &a, const nv_cmd_header *) {
  command_state_.set_index_buffer(a);
}

void Executor::set_constants(const nv_cmd_set_constants &a, const nv_cmd_header *h) {
  command_state_.set_constants(a, command_payload<nv_cmd_set_constants>(h), novem::payload_bytes<nv_cmd_set_constants>(h));
}

void Executor::update_constants(const nv_cmd_update_constants &a, const nv_cmd_header *h) {
  command_state_.update_constants(a, command_payload<nv_cmd_update_constants>(h),
                                  novem::payload_bytes<nv_cmd_update_constants>(h));
}

// ---------------------------------------------------------------------------------------------
// work

void Executor::clear(const nv_cmd_clear &a, const nv_cmd_header *h) {
  if (failed_.names_target(command_state_.targets())) return;
  // No rectangle means the whole target (D3D9's Clear with Count 0).
  const uint64_t room = (h->size - sizeof(nv_cmd_header) - sizeof(nv_cmd_clear)) / sizeof(nv_rect);
  const uint32_t count = uint32_t(std::min<uint64_t>(a.rect_count, room));
  auto *rects = static_cast<const nv_rect *>(command_payload<nv_cmd_clear>(h));
  // A clear of the whole area becomes the load operations of a render pass instance that it
  // begins (ending the one in progress). lavapipe bins those with the draws, while it runs
  // vkCmdClearAttachments on its queue thread after waiting for the rasterizers to finish every
  // earlier draw into the target: a clear at the start of each frame made each frame wait for
  // the one before, and a clear in the middle of a frame waits for its first part.
  if (a.flags & (NV_CLEAR_COLOR | NV_CLEAR_DEPTH | NV_CLEAR_STENCIL)) {
    const VkExtent2D extent = target_extent();
    bool whole = a.rect_count == 0;
    for (uint32_t i = 0; i < count && !whole; ++i) {
      nv_rect r;
      std::memcpy(&r, rects + i, sizeof r);
      const VkRect2D clipped = clip_rect(r, extent);
      whole = clipped.offset.x == 0 && clipped.offset.y == 0 && clipped.extent.width == extent.width &&
              clipped.extent.height == extent.height;
    }
    if (whole) {
      end_rendering();
      begin_rendering(&a);
      if (!options_.batching) submit_and_wait();
      return;
    }
  }
  if (!begin_rendering()) return;
  Image *depth = depth_target();

  // Every colour target is cleared (D3D9's Clear with several render targets).
  VkClearAttachment atts[NV_MAX_COLOR_TARGETS + 1];
  uint32_t att_count = 0;
  for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS && (a.flags & NV_CLEAR_COLOR); ++i) {
    if (!color_target(i)) continue;
    VkClearAttachment &c = atts[att_count++];
    c.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    c.colorAttachment = i;
    std::memcpy(c.clearValue.color.float32, a.color, sizeof a.color);
  }
  if (depth) {
    VkImageAspectFlags aspects = 0;
    if (a.flags & NV_CLEAR_DEPTH) aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
    if (a.flags & NV_CLEAR_STENCIL) aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
    aspects &= depth->format().aspects;
    if (aspects) {
      VkClearAttachment &d = atts[att_count++];
      d.aspectMask = aspects;
      d.colorAttachment = 0;
      d.clearValue.depthStencil = {std::clamp(a.depth, 0.0f, 1.0f), a.stencil};
    }
  }
  if (att_count == 0) return;

  std::vector<VkClearRect> clears;
  clears.reserve(count ? count : 1);
  if (a.rect_count == 0) clears.push_back({{{0, 0}, render_extent_}, 0, 1});
  for (uint32_t i = 0; i < count; ++i) {
    nv_rect r;
    std::memcpy(&r, rects + i, sizeof r);
    VkRect2D clipped = clip_rect(r, render_extent_);
    if (clipped.extent.width && clipped.extent.height) clears.push_back({clipped, 0, 1});
  }
  if (clears.empty()) return;
  device_->vk().CmdClearAttachments(batches_->cmd(), att_count, atts, uint32_t(clears.size()), clears.data());
  if (!options_.batching) submit_and_wait();
}

void Executor::flush_draws() {
  const std::vector<VkMultiDrawIndexedInfoEXT> &d = pending_.draws;
  if (d.empty()) return;
  const NovemVkDevice &vk = device_->vk();
  VkCommandBuffer cmd = batches_->cmd();
  const uint32_t n = uint32_t(d.size()), instances = pending_.instances;
  if (pending_.indexed && n == 1) vk.CmdDrawIndexed(cmd, d[0].indexCount, instances, d[0].firstIndex, d[0].vertexOffset, 0);
  if (pending_.indexed && n > 1) // no pVertexOffset: each draw's own vertexOffset
    vk.CmdDrawMultiIndexedEXT(cmd, n, d.data(), instances, 0, sizeof d[0], nullptr);
  if (!pending_.indexed && n == 1) vk.CmdDraw(cmd, d[0].indexCount, instances, d[0].firstIndex, 0);
  if (!pending_.indexed && n > 1)
    vk.CmdDrawMultiEXT(cmd, n, reinterpret_cast<const VkMultiDrawInfoEXT *>(d.data()), instances, 0, sizeof d[0]);
  novem::bump(pending_.overlay ? channel_.overlay_api_draw_calls : channel_.api_draw_calls);
  pending_.clear();
}

bool Executor::join_run(bool indexed, uint32_t instances, const VkMultiDrawIndexedInfoEXT &draw) {
  if (!pending_.joins(indexed, instances, device_->max_multi_draw())) return false;
  pending_.draws.push_back(draw);
  return true;
}

void Executor::record_draw(bool indexed, uint32_t instances, const VkMultiDrawIndexedInfoEXT &draw) {
  pending_.indexed = indexed;
  pending_.instances = instances;
  pending_.draws.push_back(draw);
  if (!device_->multi_draw()) flush_draws();
  if (!options_.batching) submit_and_wait();
}

void Executor::draw(const nv_cmd_draw &a, const nv_cmd_header *h) {
  if (a.vertex_count == 0 || names_failed_resource(false)) return;
  const uint32_t instances = std::max(a.instance_count, 1u);
  if (pending_.vertex_moved) settle_vertex_moves();
  // A draw that joins a run has the run's vertex shift: no other command came between them.
  const auto shifted = [&] {
    const uint64_t first = uint64_t(a.first_vertex) + vertex_shift_;
    return VkMultiDrawIndexedInfoEXT{uint32_t(std::min<uint64_t>(first, UINT32_MAX)), a.vertex_count, 0};
  };
  if (join_run(false, instances, shifted())) return;
  flush_draws();
  if (command_state_.empty_viewport()) return;
  settle_pipeline();
  refresh_shader_reads();
  prepare_textures();
  if (!begin_rendering()) return;
  if (!prepare_draw(batches_->cmd())) return;
  pending_.overlay = h->flags & NV_CMD_OVERLAY;
  record_draw(false, instances, shifted());
}

void Executor::draw_indexed(const nv_cmd_draw_indexed &a, const nv_cmd_header *h) {
  if (a.index_count == 0 || names_failed_resource(true)) return;
  // Without robustBufferAccess2 an index read past the buffer is invalid: draw nothing.
  Buffer *indices = buffers_.find(command_state_.index_buffer().buffer);
  if (!indices || !command_state_.indices_fit(a, indices->size())) return;
  const uint32_t instances = std::max(a.instance_count, 1u);
  if (pending_.vertex_moved) settle_vertex_moves();
  const auto shifted = [&] {
    const int64_t base = int64_t(a.base_vertex) + vertex_shift_;
    return VkMultiDrawIndexedInfoEXT{a.first_index, a.index_count, int32_t(std::clamp<int64_t>(base, INT32_MIN, INT32_MAX))};
  };
  if (join_run(true, instances, shifted())) return;
  flush_draws();
  if (command_state_.empty_viewport()) return;
  settle_pipeline();
  refresh_shader_reads();
  prepare_textures();
  if (!begin_rendering()) return;
  VkCommandBuffer cmd = batches_->cmd();
  if (!prepare_draw(cmd) || !bind_index_buffer(cmd)) return;
  pending_.overlay = h->flags & NV_CMD_OVERLAY;
  record_draw(true, instances, shifted());
}

void Executor::read_image(const nv_cmd_read_image &a, const nv_cmd_header *) {
  Image *img = images_.get(a.image, NV_OP_READ_IMAGE);
  if (!img) return;
  const uint32_t texel = img->format().texel_bytes;
  if (const char *why = checks::read_image(a, img->shape(), texel, channel_.readback_size))
    return violations_.report(NV_OP_READ_IMAGE, why);
  const VkRect2D r{{a.rect.x, a.rect.y}, {uint32_t(a.rect.width), uint32_t(a.rect.height)}};
  const size_t bytes = size_t(r.extent.width) * r.extent.height * texel;

  end_rendering();
  VkCommandBuffer cmd = command_buffer();
  const BatchId id = batches_->recording_id();
  // Depth/stencil images give their depth aspect.
  const VkImageAspectFlags aspect = img->is_depth() ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
  barriers_.transition(img->handle(), img->format().aspects, img->access(), ImageAccess::transfer_source());
  barriers_.flush(device_->vk(), cmd);
  img->mark_used(id);

  const NovemVkDevice *vk = &device_->vk();
  VkDevice dev = device_->handle();
  VkBuffer staging = VK_NULL_HANDLE;
  Allocation memory = allocator_->create_buffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback, staging);

  VkBufferImageCopy region{};
  region.imageSubresource = {aspect, a.level, a.layer, 1};
  region.imageOffset = {r.offset.x, r.offset.y, 0};
  region.imageExtent = {r.extent.width, r.extent.height, 1};
  vk->CmdCopyImageToBuffer(cmd, img->handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging, 1, &region);
  barriers_.memory(VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                   VK_ACCESS_2_HOST_READ_BIT);
  barriers_.flush(device_->vk(), cmd);

  // When the batch is done: copy into the channel (before the following fence completes), free.
  const VkFormat format = img->format().format;
  nv_channel *channel = &channel_;
  MemoryAllocator *allocator = allocator_.get();
  batches_->on_complete(id, [=] {
    if (channel->readback && bytes <= channel->readback_size) {
      std::memcpy(channel->readback, memory.mapped, bytes);
      // D24S8 reads back as 32-bit words with the depth in the low 24 bits.
      if (format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT) {
        for (size_t i = 0; i < bytes / 4; ++i) {
          uint32_t word;
          std::memcpy(&word, channel->readback + i * 4, 4);
          if (format == VK_FORMAT_D24_UNORM_S8_UINT) {
            word &= 0x00FFFFFFu;
          } else {
            float d;
            std::memcpy(&d, &word, 4);
            word = uint32_t(std::clamp(d, 0.0f, 1.0f) * 16777215.0f + 0.5f);
          }
          std::memcpy(channel->readback + i * 4, &word, 4);
        }
      }
    }
    vk->DestroyBuffer(dev, staging, nullptr);
    allocator->free(memory);
  });
}

void Executor::fence(const nv_cmd_fence &a, const nv_cmd_header *) {
  end_rendering();
  batches_->signal(a.value); // never throws: the fence completes whatever happens
}

} // namespace novem::vk
