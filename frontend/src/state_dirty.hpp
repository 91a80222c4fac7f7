// StateDirty: the groups of state the next draw must send, one set for every kind of state. The
// state's setters raise them (TrackedState); the state encoder consumes them (StateEncoder).
#pragma once

#include <cstdint>

namespace novem {

// (Vertex and index bindings are compared with what was last sent instead.)
enum StateDirty : uint32_t {
  kDirtyTargets = 1u << 0,
  kDirtyViewport = 1u << 1, // viewport and scissor
  kDirtyPipeline = 1u << 2,
  kDirtyVertexConstants = 1u << 3,
  kDirtyPixelConstants = 1u << 4,
  kDirtyTextures = 1u << 5, // textures and sampler states
  kDirtyDynamic = 1u << 6,  // stencil reference and masks, blend factor, depth bias
  kDirtyAll = (1u << 7) - 1,
  // Only shader constants changed, in the registers TrackedState::changed_registers records (or a
  // shader was bound): the next draw sends those (UPDATE_CONSTANTS), not the whole block. The
  // full bits above (set by everything else: Reset, bump-env states, transforms) resend it all.
  kDirtyVertexConstantRange = 1u << 7,
  kDirtyPixelConstantRange = 1u << 8,
  // Only render states that feed the pipeline's blend, depth, stencil, cull, fill and mask
  // fields changed: the next draw rebuilds those fields alone (kDirtyPipeline rebuilds all).
  kDirtyPipelineStates = 1u << 9,
};

} // namespace novem
