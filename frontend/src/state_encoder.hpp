// StateEncoder: turns the device's live state into commands for the plugin, once per draw. It
// reads which groups changed (TrackedState::dirty), builds each group's command from the state,
// and sends it only when it differs from what it sent last: the one place where redundant state
// is filtered. It owns what was sent and the shaders made for the state: the fixed-function
// shaders by key, and the application's shaders' variants (what D3D9 applies around them).
//
// Its files: state_encoder.cpp (the pipeline, viewport, dynamic state, streams),
// state_encoder_shaders.cpp (variants, shader constants), state_encoder_textures.cpp and
// state_encoder_fixed_function.cpp (keys, generated shaders, their uniform blocks).
#pragma once

#include <array>
#include <unordered_map>

#include <d3d9.h>

#include <novem/backend.h>
#include <novem/commands.h>

#include "ff_key.hpp"
#include "tracked_state.hpp"

namespace novem {

class CommandStream;
class Device;
class Surface;

// The device's private base: its methods reach the device's live state and bound targets at a
// fixed offset from `this` (device(), live()), where a member object holding references would
// load them again at each access, after every command written (about 90 instructions more per
// draw of the benchmark's shader workload).
class StateEncoder {
public:
  StateEncoder(const StateEncoder &) = delete;
  StateEncoder &operator=(const StateEncoder &) = delete;

  // Sends every dirty group; false when the draw cannot happen (no vertex format, an input the
  // plugin cannot read). `instance_slots`: the vertex buffer slots read per instance (instanced
  // DrawIndexedPrimitive).
  bool flush_state(D3DPRIMITIVETYPE type, uint16_t instance_slots = 0);
  // Sends SET_VERTEX_BUFFER for each slot the sent pipeline reads whose binding changed; false
  // when one of them has no buffer. With `up`, slot 0 already holds the UP data.
  bool flush_streams(bool up);
  void bind_vertex_buffer(uint32_t slot, uint32_t buffer, uint32_t offset, uint32_t stride);
  void bind_index_buffer(uint32_t buffer, uint32_t offset, uint32_t index_size);
  // Instancing for a DrawIndexedPrimitive: false when the stream frequencies cannot be drawn.
  // Sets instance_divisors_ (what flush_pipeline sends for the instance slots).
  bool instancing(uint32_t &instances, uint16_t &instance_slots);
  // The viewport clipped to the render target and, with D3DRS_SCISSORTESTENABLE, to the scissor rect.
  RECT draw_area() const;
  // Nothing sent says anything about the plugin's state any more (Reset): everything is sent again.
  void forget_sent();
  // What the HUD left bound after drawing over the image to show: the application's next draw
  // compares with it.
  void sent_by_overlay(const nv_pipeline_desc &pipeline, const nv_cmd_set_viewport &viewport, const nv_rect &scissor,
                       const nv_cmd_set_texture &texture0, const nv_cmd_set_vertex_buffer &stream0);

private:
  bool flush_pipeline(D3DPRIMITIVETYPE type, uint16_t instance_slots);
  // Only render states changed: SET_RENDER_STATES for the pipeline last sent.
  void flush_pipeline_states();
  // The pipeline's fields that follow the render states and the bound targets' formats alone,
  // for a pipeline of that topology.
  nv_render_states render_states(uint8_t topology) const;
  void flush_dynamic_state();
  bool vertex_attributes(nv_pipeline_desc &d) const;
  // Sends SET_TEXTURE for each slot the bound shaders sample whose texture or sampler changed.
  void flush_textures();
  nv_cmd_set_texture texture_command(uint32_t slot) const;
  // The slot's texture compares depth (compares_depth), and the pixel shader's 2D samplers bound
  // to one (bit N: sN), which its variant compares with.
  bool compares_depth_at(uint32_t slot) const;
  uint16_t depth_samplers() const;
  // The nv_image_type the bound shader declares for a texture slot's sampler.
  uint32_t declared_type(uint32_t slot) const;
  // The fixed-function pipeline (state_encoder_fixed_function.cpp): keys from the state, shaders
  // cached by key, their uniform blocks.
  ff::VertexKey ff_vertex_key() const;
  ff::PixelKey ff_pixel_key(D3DPRIMITIVETYPE type) const;
  uint32_t ff_vertex_shader(const ff::VertexKey &key);
  uint32_t ff_pixel_shader(const ff::PixelKey &key); // also sets ff_samplers_
  bool ff_vertex_attributes(const ff::VertexKey &key, nv_pipeline_desc &d) const;
  void flush_ff_vertex_constants();
  void flush_ff_pixel_constants();
  // The bound shaders' translations with what D3D9 applies around them (fog, alpha test, user
  // clip planes, and for a point list the point size and point sprites); the enabled clip planes
  // (CLIPPLANEENABLE with CLIPPING).
  uint32_t pixel_shader_variant(D3DPRIMITIVETYPE type);
  uint32_t vertex_shader_variant(D3DPRIMITIVETYPE type);
  uint8_t clip_planes() const;
  // The draw's vertices are pre-transformed: POSITIONT with no vertex shader.
  bool draws_pretransformed() const;
  // Sends the stage's shader constants: the whole block when `full` or when the plugin's block
  // does not hold shader constants, else the changed range only.
  void flush_shader_constants(nv_shader_stage stage, const ShaderConstants &constants, bool full);

protected:
  StateEncoder() = default;
  ~StateEncoder() = default;

private:
  // The device this is the base of, and its live state (defined in device.hpp).
  Device &device();
  const Device &device() const;
  TrackedState &live();
  const TrackedState &live() const;
  // What the encoder reads of the device besides its state: the stream, the adapter, the bound
  // targets (and their SET_RENDER_TARGETS), and CREATE_SHADER.
  CommandStream &commands() const;
  const nv_adapter_info &adapter() const;
  const Surface &render_target() const;
  Surface *drawn_depth_stencil() const;
  nv_cmd_set_render_targets targets_command() const;
  uint32_t create_shader(nv_shader_stage stage, const std::vector<uint32_t> &words);

  // What each stage's uniform block in the plugin holds (TrackedState::changed_registers: the registers
  // set since it was last sent).
  enum class Constants : uint8_t { kNothing, kFixedFunction, kShader };
  Constants sent_constants_[NV_STAGE_COUNT] = {};
  nv_pipeline_desc sent_pipeline_{};
  std::array<uint32_t, NV_MAX_VERTEX_BUFFERS> instance_divisors_{}; // per slot, set by instancing()
  bool pipeline_sent_ = false;
  uint32_t stream_slots_ = 0; // bit per vertex buffer slot that sent_pipeline_'s attributes read
  nv_cmd_set_dynamic_state sent_dynamic_{};
  bool dynamic_sent_ = false;
  nv_cmd_set_viewport sent_viewport_{};
  nv_rect sent_scissor_{};
  bool viewport_sent_ = false;
  bool viewport_pretransformed_ = false; // sent_viewport_ has the range of pre-transformed draws
  std::unordered_map<ff::VertexKey, uint32_t> ff_vertex_shaders_; // generated shaders by key -> handle
  std::unordered_map<ff::PixelKey, uint32_t> ff_pixel_shaders_;
  ff::VertexKey ff_vertex_key_; // the key of the fixed-function vertex shader last chosen
  uint32_t ff_samplers_ = 0;    // bit per stage: the fixed-function pixel shader sent samples it
  nv_cmd_set_vertex_buffer bound_streams_[NV_MAX_VERTEX_BUFFERS] = {}; // as last sent, per slot
  nv_cmd_set_index_buffer bound_indices_{};
  std::array<nv_cmd_set_texture, DeviceState::kTextureSlots> sent_textures_{}; // as last sent, per slot
  uint32_t textures_sent_ = 0;                                                 // bit per slot: sent at least once
};

} // namespace novem
