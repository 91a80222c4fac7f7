// The executor: owns the Vulkan objects of one device and executes its commands on the
// submission thread — one small function per opcode, reached through the dispatch table that
// novem::run_worker uses. It records into the BatchQueue's command buffer, inside dynamic
// rendering when drawing or clearing, and submits at FENCE, PRESENT and when the GPU runs idle.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "novem/command_state.hpp"
#include "novem/draw_run.hpp"
#include "novem/failed_creations.hpp"
#include "novem/handle_table.hpp"
#include "novem/log.hpp"
#include "novem/spirv_uniforms.hpp"
#include "novem/vertex_shift.hpp"
#include "novem/worker.hpp"
#include "vk_barrier.hpp"
#include "vk_common.hpp"
#include "vk_options.hpp"
#include "vk_pipeline.hpp"
#include "vk_texture_sets.hpp"

namespace novem::vk {

class BatchQueue;
class Buffer;
class Device;
class Image;
class Instance;
class MemoryAllocator;
class PipelineCache;
class Queries;
class SamplerCache;
class DescriptorArena;
class Shader;
class Swapchain;
class SlabAllocator;
class UniformRing;

class Executor {
public:
  // Creates the instance, the device and everything per device; throws (one line) on failure.
  // software_vertex: the device's vertex constants go on in a storage buffer
  // (NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS).
  Executor(nv_channel &channel, const Options &options, bool software_vertex);
  ~Executor(); // waits for the GPU, then frees everything
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  // vkGetFenceStatus takes lavapipe a clock read and a mutex its queue thread also takes: polling
  // after every command cost the worker about 80 us of a 1.5 ms `texture` frame, and every 32
  // commands (as the GL plugin) gave `draw`, `up`, `dynamic` and `game` 5-48 % more draws/s in
  // alternating pairs (8 polled as well, 128 worse on `game`). Measured before the clear became
  // a load operation, 32 had been 3-5 % slower on `game`.
  static constexpr unsigned kCommandsPerPoll = 32;
  bool poll();
  void wait_gpu();
  void idle();

  NOVEM_COMMAND_HANDLERS // one per command (commands.h), each in the file of its concern
  // The dispatch table's entry for every command (novem/worker.hpp): the draws held so far
  // recorded first where the command ends their run, nothing done for a command that names what
  // could not be made, and an exception reported as one line.
  template <nv_opcode Op> static void execute(Executor &ex, const nv_cmd_header *h);
  void copy_depth_stencil(Image &src, Image &dst, const nv_cmd_blit_image &a); // vk_copy.cpp (ABI 5)

  // One line on stderr for a command that failed (the first few of them).
  void report(uint16_t opcode, const char *what);
  // A CREATE_IMAGE or CREATE_BUFFER that made nothing: one line, and the channel's answer (ABI 9).
  void creation_failed(uint16_t opcode, uint32_t handle, const char *what);

private:
  VkCommandBuffer command_buffer(); // the recording one, begun on demand
  // After SET_PIPELINE or SET_RENDER_STATES: a new pipeline where the description's static part
  // changed (a change of dynamic state alone keeps the pipeline), the shaders' reads where its
  // shaders did.
  void settle_pipeline();
  // Whether settle_pipeline keeps resolved_static_ up to date (else every pipeline change is one).
  bool compares_static_part() const { return resolved_ && options_.dirty_state && options_.pipeline_cache; }
  // false when no target is bound. whole_clear: a CLEAR covering the whole render area, done by
  // the render pass instance's load operations instead of vkCmdClearAttachments.
  bool begin_rendering(const nv_cmd_clear *whole_clear = nullptr);
  Image *depth_target();               // the bound depth-stencil image, or nullptr
  VkExtent2D target_extent();          // the largest area every bound target has
  Image *color_target(uint32_t index); // colour target 0..3, or nullptr
  // The format draws write colour target `img` in: the sRGB one with srgb_write.
  VkFormat target_format(const Image &img) const;
  bool is_color_target(uint32_t image) const;
  bool sampled_target(uint32_t image) const;
  ImageAccess sampling_access(uint32_t image) const;
  VkSampleCountFlagBits target_samples(); // of the first bound target
  void end_rendering();
  void submit();                    // ends rendering and submits the recording batch
  void submit_and_wait();           // submit(), then wait for everything in flight
  bool bind_pipeline(VkCommandBuffer cmd);
  void bind_vertex_buffers(VkCommandBuffer cmd);
  struct VertexBuffers { // the bindings of slots 0 .. count - 1 (novem/vertex_shift.hpp)
    uint32_t count = 0;
    novem::VertexBinding slots[NV_MAX_VERTEX_BUFFERS];
  };
  std::optional<uint32_t> vertex_shift(const VertexBuffers &want) const;
  // The bindings the pipeline's slots want now (each buffer marked used by the recording batch).
  VertexBuffers wanted_vertex_buffers();
  // After SET_VERTEX_BUFFERs inside a held run: whether the new bindings are a vertex shift of
  // the bound ones, so that the next draw may join the run; if not, the run is recorded.
  void settle_vertex_moves();
  // Binds the index buffer when it changed; the buffer, or nullptr when none is usable.
  Buffer *bind_index_buffer(VkCommandBuffer cmd);
  bool prepare_draw(VkCommandBuffer cmd); // pipeline, dynamic state, vertex buffers, constants
  // A clear or draw (indexed: with the index buffer) that names an image or buffer the plugin
  // could not make draws nothing (novem/failed_creations.hpp).
  bool names_failed_resource(bool indexed) const;
  // Records the draws waiting in pending_ (one vkCmdDrawMulti*EXT, or one vkCmdDraw*).
  void flush_draws();
  // A draw after a draw of the same kind and instance count joins the held run: true if it did.
  bool join_run(bool indexed, uint32_t instances, const VkMultiDrawIndexedInfoEXT &draw);
  // A prepared draw: starts a run, recorded at once without multi-draws.
  void record_draw(bool indexed, uint32_t instances, const VkMultiDrawIndexedInfoEXT &draw);
  // The uniform blocks (sets 0 and 1) and the textures (sets 2 and 3): writes a new set where
  // its contents changed and rebinds only the sets whose set or dynamic offset changed.
  void bind_descriptors(VkCommandBuffer cmd);
  void write_uniform_set(uint32_t stage, VkDescriptorSet set);
  struct DescriptorSlot;
  void texture_set(uint32_t stage, DescriptorSlot &d);
  // `image` was made or dropped: the texture slots that bind it take their descriptors again.
  void image_changed(uint32_t image);
  // After a pipeline or shader change: what the bound shaders read (see declared_slots_).
  void refresh_shader_reads();
  // Moves bound textures into the shader-read layout (ending rendering when one must move).
  void prepare_textures();
  void mark_textures_used(BatchId id);
  // Copies rows (top first, `pitch` bytes apart) into rect of level `level`, through a staging
  // buffer freed when the batch completes.
  // layer: the face of a cube image, the z slice of a 3D one.
  void upload(Image &img, uint32_t level, const VkRect2D &rect, const uint8_t *rows, size_t pitch, uint32_t layer = 0);
  void record_dynamic_state(VkCommandBuffer cmd);
  void set_raster_state(VkCommandBuffer cmd);
  void set_blend_state(VkCommandBuffer cmd); // with Device::dynamic_blend()
  void retire_pipeline(VkPipeline pipeline);
  // The vertex or index bindings of `buffer` are bound again at the next draw (it moved).
  void rebind_buffer(uint32_t buffer);
  // The factor the depth bias' constant is sent with for the bound depth target.
  float depth_bias_scale();
  // Takes the object out of its table (DESTROY_*, or a rename: opcode says which) and frees it
  // once no batch uses it any more.
  void drop_image(uint32_t handle, uint16_t opcode);
  void drop_buffer(uint32_t handle, uint16_t opcode);

  nv_channel &channel_;
  Options options_;
  // NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS: the vertex stage's block is up to kSoftwareVertexBlock
  // bytes, its storage part bound at set 0 binding NV_VERTEX_STORAGE_BINDING.
  bool software_vertex_ = false;
  static constexpr uint32_t kSoftwareVertexBlock = NV_VERTEX_STORAGE_OFFSET + NV_VERTEX_STORAGE_SIZE;
  std::unique_ptr<Instance> instance_;
  std::unique_ptr<Device> device_;
  std::unique_ptr<MemoryAllocator> allocator_;
  std::unique_ptr<PipelineLayout> layout_;
  std::unique_ptr<PipelineCache> pipelines_;
  std::unique_ptr<UniformRing> uniforms_;
  std::unique_ptr<BatchQueue> batches_;
  std::unique_ptr<SlabAllocator> slabs_; // small buffers' slices; null when NOVEM_VK_SLABS=0
  std::unique_ptr<Buffer> null_buffer_; // bound to vertex slots that have no buffer
  std::unique_ptr<SamplerCache> samplers_;
  // 1x1 (0, 0, 0, 1) images, one per nv_image_type: what a slot with no image (or one of another
  // type than its shader declares) samples.
  std::unique_ptr<Image> default_textures_[3];
  std::unique_ptr<Queries> queries_;

  novem::ContractViolations violations_{"novem-vulkan"};
  novem::CommandState command_state_{violations_}; // what the commands set
  // The parts of it that record_dynamic_state sets (and a new render pass instance needs set).
  static constexpr uint32_t kDynamicParts = novem::kViewportPart | novem::kScissorPart | novem::kDynamicPart;
  // Owned through pointers: a dropped buffer or image lives on, out of its table, until the batches
  // that use it complete.
  novem::HandleTable<std::unique_ptr<Buffer>> buffers_;
  novem::HandleTable<std::unique_ptr<Image>> images_;
  novem::HandleTable<std::unique_ptr<Shader>> shaders_;
  std::unordered_map<uint32_t, std::unique_ptr<Swapchain>> swapchains_; // null: could not be made
  novem::FailedCreations failed_; // images and buffers that could not be made (ABI 9)

  // The descriptors of the texture slots as last written (novem::texture_bit's order: pixel
  // 0..15, then vertex 0..3); bit n set: entry n is still right. A texture change recomputes one
  // entry, not every slot's sampler and view.
  static constexpr uint32_t kImageDescriptors = novem::kTextureSlotCount;
  VkDescriptorImageInfo image_infos_[kImageDescriptors] = {};
  uint32_t image_infos_valid_ = 0;

  // ---- what the recording command buffer has ----
  bool rendering_ = false;
  VkExtent2D render_extent_{};
  bool render_has_depth_ = false; // the render pass has a depth attachment
  struct RasterState { // the dynamic cull and depth state the command buffer has
    uint8_t cull;
    bool test, write;
    uint8_t compare;
  };
  RasterState raster_{};
  bool raster_valid_ = false;
  uint32_t render_colors_ = 0; // colour attachments of the render pass, up to the last bound one
  struct BlendState { // the dynamic blend state the command buffer has (VK_EXT_extended_dynamic_state3)
    uint32_t count;
    uint8_t enable[NV_MAX_COLOR_TARGETS];
    uint8_t mask[NV_MAX_COLOR_TARGETS];
    uint8_t color_src, color_dst, color_op, alpha_src, alpha_dst, alpha_op;
  };
  BlendState blend_{};
  bool blend_valid_ = false;
  VkPipeline pipeline_ = VK_NULL_HANDLE;       // resolved from the description and the targets
  uint32_t pipeline_slots_ = 0;                 // vertex slots pipeline_ reads
  VkPipeline bound_pipeline_ = VK_NULL_HANDLE;  // bound in the recording command buffer
  bool pipeline_dirty_ = true;                  // pipeline_ is to be resolved again
  nv_pipeline_desc resolved_static_{};          // PipelineKey::static_part of pipeline_'s description
  bool resolved_ = false;                       // resolved_static_ holds one
  VertexBuffers bound_vertex_;   // what the command buffer has bound (count 0: nothing yet)
  uint32_t vertex_shift_ = 0;    // vertices the draws start further on than bound_vertex_ says
  uint32_t constants_offset_[NV_STAGE_COUNT] = {}; // each stage's block's dynamic offset in the ring
  // Where a set's descriptor sets come from: an arena, and for textures with dirty tracking on a
  // cache of sets kept for what they hold. One per set of the pipeline layout, and for the pixel
  // texture set one per width (PipelineLayout::kPixelWidths), made when first needed.
  struct SetSource {
    std::unique_ptr<DescriptorArena> arena;
    std::unique_ptr<TextureSetCache> cache;
    uint32_t slots = 0; // the descriptors each of its sets holds (PipelineLayout::slot_count)
  };
  SetSource &set_source(uint32_t set, uint32_t width);
  SetSource sources_[PipelineLayout::kSetCount][PipelineLayout::kPixelWidths];
  // Per set of the pipeline layout (PipelineLayout::k*Set): the set last written, and what the
  // next draw owes it.
  struct DescriptorSlot {
    SetSource *source = nullptr; // where set came from
    uint32_t entry = TextureSetCache::kNone; // set's entry in source->cache, if it came from there
    VkDescriptorSet set = VK_NULL_HANDLE;
    bool dirty = true; // its contents changed (uniform chunk or range; a texture or sampler): write a new set
    bool bind = true;  // a new set, a new dynamic offset or a new command buffer: bind it
  };
  DescriptorSlot sets_[PipelineLayout::kSetCount];
  uint32_t pixel_width_ = 0; // the pipeline layout the sets are bound with (PipelineLayout::pixel_width)
  // What the bound pipeline's shaders read, per stage, recomputed after a pipeline or shader
  // change (refresh_shader_reads): the texture slots they declare (Shader::texture_slots) and the
  // bytes of their uniform block (Shader::uniforms). pushed_reads_: the bytes the stage's current
  // ring block holds; a shader that reads more needs the block pushed again.
  uint32_t declared_slots_[NV_STAGE_COUNT] = {};
  const UniformFootprint *uniform_reads_[NV_STAGE_COUNT] = {}; // the shader's own (no copy per shader change)
  UniformFootprint pushed_reads_[NV_STAGE_COUNT];
  bool shader_reads_valid_ = false;
  uint32_t read_shaders_[NV_STAGE_COUNT] = {}; // the shaders declared_slots_ and uniform_reads_ are of
  // The batch whose use of the bound textures is recorded (mark_textures_used); 0 after a
  // texture change.
  BatchId textures_marked_ = 0;
  // Each stage's uniform descriptor range: its biggest block so far, rounded up to 256 bytes. Not
  // the ring's whole range: llvmpipe copies a bound uniform buffer's whole range into its scene
  // at every state change (64 KiB a stage made most of a state change's cost on lavapipe).
  uint32_t ubo_range_[NV_STAGE_COUNT] = {256, 256};
  // A run of draws recorded together as one vkCmdDrawMulti*EXT (Device::multi_draw,
  // novem/draw_run.hpp): a draw after a draw only joins the list; a command that ends the run,
  // a submit and the end of rendering record it first.
  // A non-indexed draw is {firstVertex, vertexCount, 0}: VkMultiDrawInfoEXT's two fields are
  // VkMultiDrawIndexedInfoEXT's first two, and vkCmdDrawMultiEXT takes the stride.
  // SET_VERTEX_BUFFER does not end a run: when the new bindings are a vertex shift of the bound
  // ones (a DrawPrimitiveUP, a dynamic buffer and back), the next draw joins it
  // (settle_vertex_moves).
  novem::HeldDraws<std::vector<VkMultiDrawIndexedInfoEXT>> pending_;
  BarrierBatch barriers_;
  BarrierBatch upload_barriers_; // in the batch's upload command buffer
  novem::LogBudget errors_reported_{16}; // contract violations reported, then one line saying the rest are not
};

template <nv_opcode Op> void Executor::execute(Executor &ex, const nv_cmd_header *h) {
  try {
    if (novem::ends_draw_run<Op>(h)) ex.flush_draws();
    if (ex.failed_.skips(h)) return; // it acts on what could not be made: nothing to do
    novem::Command<Op>::call(ex, h);
  } catch (const std::exception &e) {
    ex.report(h->opcode, e.what());
  }
}

static_assert(novem::kHandlesEveryCommand<Executor> && novem::WrapsCommands<Executor>);

} // namespace novem::vk
