// The command state: what the state commands have set, kept once for every plugin, and which of
// its parts changed since the plugin last applied them.
//
// A plugin hands each state command to CommandState (set_render_targets ... update_constants).
// CommandState checks the command (command_checks.hpp: a violation is one line and the command
// does nothing), drops it when it changes nothing — the one place on the plugin side where
// redundant state is filtered — stores it and marks its part dirty. The plugin applies the dirty
// parts at its next draw or clear (`take`, `take_textures`), and reads the state where it acts.
// What only the plugin knows makes a part dirty again through `mark` (a new command buffer binds
// nothing; a buffer moved in memory needs binding again).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "novem/command_checks.hpp"
#include "novem/commands.h"
#include "novem/handle_table.hpp"
#include "novem/render_states.hpp"

namespace novem {

// The parts of the command state, one bit each (CommandState::take, mark).
enum StatePart : uint32_t {
  kTargetsPart = 1u << 0,       // SET_RENDER_TARGETS
  kViewportPart = 1u << 1,      // SET_VIEWPORT
  kScissorPart = 1u << 2,       // SET_SCISSOR
  kDynamicPart = 1u << 3,       // SET_DYNAMIC_STATE
  kPipelinePart = 1u << 4,      // SET_PIPELINE, SET_RENDER_STATES
  kVertexBuffersPart = 1u << 5, // SET_VERTEX_BUFFER
  kIndexBufferPart = 1u << 6,   // SET_INDEX_BUFFER
  kVertexConstantsPart = 1u << 7, // SET_CONSTANTS, UPDATE_CONSTANTS of the vertex stage
  kPixelConstantsPart = 1u << 8,  // ... of the pixel stage
  kEveryPart = (1u << 9) - 1,
};
constexpr uint32_t constants_part(uint32_t stage) { return kVertexConstantsPart << stage; }

// SET_TEXTURE's binding of one slot.
struct TextureSlot {
  uint32_t image = 0;
  nv_sampler_desc sampler{};
  uint32_t type = NV_IMAGE_TYPE_2D; // what the shader declares
  uint32_t flags = 0;               // nv_texture_flags
};

// SET_VERTEX_BUFFER's binding of one slot.
struct VertexSlot {
  uint32_t buffer = 0, offset = 0, stride = 0;
};

// Texture slots as one bit each: pixel slot N is bit N, vertex slot N bit 16 + N.
constexpr uint32_t texture_bit(uint32_t stage, uint32_t slot) {
  return 1u << (stage == NV_STAGE_PIXEL ? slot : NV_MAX_PIXEL_TEXTURES + slot);
}
inline constexpr uint32_t kTextureSlotCount = NV_MAX_PIXEL_TEXTURES + NV_MAX_VERTEX_TEXTURES;
inline constexpr uint32_t kPixelTextureBits = (1u << NV_MAX_PIXEL_TEXTURES) - 1;
inline constexpr uint32_t kEveryTextureBit = (1u << kTextureSlotCount) - 1;

class CommandState {
public:
  // violations: where a malformed state command is reported (the plugin's ContractViolations).
  explicit CommandState(ContractViolations &violations) : violations_(violations) {}

  // The most bytes the stage's constant block holds on this plugin (its uniform range; for the
  // vertex stage of a device with NV_DEVICE_SOFTWARE_VERTEX_CONSTANTS, the storage buffer's end);
  // longer blocks are cut there. Set once the plugin knows it.
  void limit_constants(uint32_t stage, uint32_t bytes) { constants_limit_[stage] = bytes; }

  // ---- the state commands; each answers whether the state changed ----

  // Whether SET_RENDER_TARGETS `a` would change the targets (a plugin that must finish drawing
  // into the old ones asks first).
  bool changes_targets(const nv_cmd_set_render_targets &a) const { return std::memcmp(&a, &targets_, sizeof a) != 0; }
  bool set_render_targets(const nv_cmd_set_render_targets &a) {
    if (!changes_targets(a)) return false;
    targets_ = a;
    dirty_ |= kTargetsPart;
    return true;
  }
  bool set_viewport(const nv_cmd_set_viewport &a) {
    if (viewport_set_ && std::memcmp(&a, &viewport_, sizeof a) == 0) return false;
    viewport_ = a;
    viewport_set_ = true;
    dirty_ |= kViewportPart;
    return true;
  }
  bool set_scissor(const nv_cmd_set_scissor &a) {
    if (scissor_set_ && std::memcmp(&a.rect, &scissor_, sizeof scissor_) == 0) return false;
    scissor_ = a.rect;
    scissor_set_ = true;
    dirty_ |= kScissorPart;
    return true;
  }
  bool set_dynamic_state(const nv_cmd_set_dynamic_state &a) {
    if (std::memcmp(&a, &dynamic_, sizeof a) == 0) return false;
    dynamic_ = a;
    dirty_ |= kDynamicPart;
    return true;
  }
  bool set_pipeline(const nv_pipeline_desc &desc) {
    if (pipeline_set_ && std::memcmp(&desc, &pipeline_, sizeof desc) == 0) return false;
    pipeline_ = desc;
    pipeline_set_ = true;
    dirty_ |= kPipelinePart;
    return true;
  }
  // Before the first SET_PIPELINE there is no description to change: nothing happens.
  bool set_render_states(const nv_cmd_set_render_states &a) {
    return pipeline_set_ && set_pipeline(with_render_states(pipeline_, a.states));
  }
  bool set_vertex_buffer(const nv_cmd_set_vertex_buffer &a) {
    if (const char *why = checks::set_vertex_buffer(a)) return violation(NV_OP_SET_VERTEX_BUFFER, why);
    VertexSlot &s = vertex_[a.slot];
    if (s.buffer == a.buffer && s.offset == a.offset && s.stride == a.stride) return false;
    s = {a.buffer, a.offset, a.stride};
    dirty_ |= kVertexBuffersPart;
    return true;
  }
  // An ill-formed binding leaves no index buffer bound: the indexed draws after it draw nothing.
  bool set_index_buffer(const nv_cmd_set_index_buffer &a) {
    const char *why = checks::set_index_buffer(a);
    if (why) violations_.report(NV_OP_SET_INDEX_BUFFER, why);
    const nv_cmd_set_index_buffer now = why ? nv_cmd_set_index_buffer{} : a;
    if (std::memcmp(&now, &index_, sizeof now) == 0) return false;
    index_ = now;
    dirty_ |= kIndexBufferPart;
    return true;
  }
  bool set_texture(const nv_cmd_set_texture &a) {
    if (const char *why = checks::set_texture(a)) return violation(NV_OP_SET_TEXTURE, why);
    TextureSlot &slot = textures_[a.stage][a.slot];
    if (slot.image == a.image && slot.type == a.type && slot.flags == a.flags &&
        std::memcmp(&slot.sampler, &a.sampler, sizeof a.sampler) == 0)
      return false;
    slot = {a.image, a.sampler, a.type, a.flags};
    dirty_textures_ |= texture_bit(a.stage, a.slot);
    return true;
  }
  // payload: the bytes the record holds after the command's struct.
  bool set_constants(const nv_cmd_set_constants &a, const void *bytes, uint64_t payload) {
    if (const char *why = checks::set_constants(a, payload)) return violation(NV_OP_SET_CONSTANTS, why);
    const uint32_t size = std::min(a.size, constants_limit_[a.stage]);
    const auto *b = static_cast<const uint8_t *>(bytes);
    constants_[a.stage].assign(b, b + size);
    dirty_ |= constants_part(a.stage);
    return true;
  }
  // The bytes of the block an UPDATE_CONSTANTS wrote (size 0: none).
  struct ConstantRange {
    uint32_t offset = 0, size = 0;
  };
  ConstantRange update_constants(const nv_cmd_update_constants &a, const void *bytes, uint64_t payload) {
    if (const char *why = checks::update_constants(a, payload)) {
      violations_.report(NV_OP_UPDATE_CONSTANTS, why);
      return {};
    }
    const uint32_t limit = constants_limit_[a.stage];
    if (a.offset >= limit) return {};
    const uint32_t size = std::min(a.size, limit - a.offset);
    std::vector<uint8_t> &block = constants_[a.stage];
    if (block.size() < size_t(a.offset) + size) block.resize(size_t(a.offset) + size, 0);
    std::memcpy(block.data() + a.offset, bytes, size);
    dirty_ |= constants_part(a.stage);
    return {a.offset, size};
  }

  // ---- what is set ----

  const nv_cmd_set_render_targets &targets() const { return targets_; }
  uint32_t color_target(uint32_t index) const { return index == 0 ? targets_.color : targets_.more_colors[index - 1]; }
  bool is_target(uint32_t image) const {
    if (!image) return false;
    if (image == targets_.color || image == targets_.depth_stencil) return true;
    return std::find(std::begin(targets_.more_colors), std::end(targets_.more_colors), image) !=
           std::end(targets_.more_colors);
  }
  const nv_cmd_set_viewport *viewport() const { return viewport_set_ ? &viewport_ : nullptr; } // none yet: the target's
  // A viewport of no area draws nothing (D3D9 refuses one; the contract passes it on).
  bool empty_viewport() const { return viewport_set_ && !(viewport_.width > 0.0f && viewport_.height > 0.0f); }
  const nv_rect *scissor() const { return scissor_set_ ? &scissor_ : nullptr; } // none yet: the whole target
  const nv_cmd_set_dynamic_state &dynamic() const { return dynamic_; }
  const nv_pipeline_desc *pipeline() const { return pipeline_set_ ? &pipeline_ : nullptr; }
  const VertexSlot &vertex_buffer(uint32_t slot) const { return vertex_[slot]; }
  const nv_cmd_set_index_buffer &index_buffer() const { return index_; }
  const std::vector<uint8_t> &constants(uint32_t stage) const { return constants_[stage]; }
  const TextureSlot &texture(uint32_t stage, uint32_t slot) const { return textures_[stage][slot]; }
  // The slot of texture_bit numbering `bit` names.
  const TextureSlot &texture(uint32_t bit) const {
    return bit < NV_MAX_PIXEL_TEXTURES ? textures_[NV_STAGE_PIXEL][bit] : textures_[NV_STAGE_VERTEX][bit - NV_MAX_PIXEL_TEXTURES];
  }
  // The texture slots that bind `image`, as texture_bit numbers them.
  uint32_t texture_slots_binding(uint32_t image) const {
    uint32_t slots = 0;
    for (uint32_t i = 0; image && i < kTextureSlotCount; ++i)
      if (texture(i).image == image) slots |= 1u << i;
    return slots;
  }
  // Whether the draw's indices lie inside the bound index buffer of `index_bytes` bytes. One
  // that reads past it draws nothing and says nothing: the contract allows it
  // (docs/contract.md, "indexed draws").
  bool indices_fit(const nv_cmd_draw_indexed &a, uint64_t index_bytes) const {
    const uint64_t end = uint64_t(index_.offset) + (uint64_t(a.first_index) + a.index_count) * index_.index_size;
    return end <= index_bytes;
  }
  // A buffer is bound as a vertex or index buffer.
  bool binds_buffer(uint32_t buffer) const {
    if (!buffer) return false;
    if (index_.buffer == buffer) return true;
    for (const VertexSlot &s : vertex_)
      if (s.buffer == buffer) return true;
    return false;
  }

  // ---- what changed ----

  // Whether any of `parts` is dirty; they are clean afterwards.
  bool take(uint32_t parts) {
    const bool any = (dirty_ & parts) != 0;
    dirty_ &= ~parts;
    return any;
  }
  bool dirty(uint32_t parts) const { return (dirty_ & parts) != 0; }
  void mark(uint32_t parts) { dirty_ |= parts; }
  // The texture slots (texture_bit) set since the last call; they are clean afterwards.
  uint32_t take_textures() {
    const uint32_t slots = dirty_textures_;
    dirty_textures_ = 0;
    return slots;
  }
  void mark_textures(uint32_t slots) { dirty_textures_ |= slots; }

private:
  bool violation(uint16_t opcode, const char *why) {
    violations_.report(opcode, why);
    return false;
  }

  ContractViolations &violations_;
  uint32_t constants_limit_[NV_STAGE_COUNT] = {};
  uint32_t dirty_ = kEveryPart;
  uint32_t dirty_textures_ = kEveryTextureBit;

  nv_cmd_set_render_targets targets_{};
  nv_cmd_set_viewport viewport_{};
  bool viewport_set_ = false;
  nv_rect scissor_{};
  bool scissor_set_ = false;
  // The masks start at 0xFF (the contract).
  nv_cmd_set_dynamic_state dynamic_{0, 0xFF, 0xFF, {0, 0, 0, 0}, 0, 0};
  nv_pipeline_desc pipeline_{};
  bool pipeline_set_ = false;
  VertexSlot vertex_[NV_MAX_VERTEX_BUFFERS];
  nv_cmd_set_index_buffer index_{};
  std::vector<uint8_t> constants_[NV_STAGE_COUNT];
  TextureSlot textures_[NV_STAGE_COUNT][NV_MAX_PIXEL_TEXTURES];
};

} // namespace novem
