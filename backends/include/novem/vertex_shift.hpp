// The vertex shift, shared by the plugins: a vertex-buffer change that only moves the bindings
// along their buffers by a whole number of vertices needs no new binding; the draws start that
// many vertices further on (their first vertex, or their base vertex) instead. Plugins keep their
// buffers in a few big API buffers and align a buffer's start to its stride, so a
// DrawPrimitiveUP or a dynamic buffer between static draws is such a move.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>

namespace novem {

// One vertex-buffer binding: the API buffer (a VkBuffer or GL name, as an integer; 0 for none),
// the byte offset in it and the stride.
struct VertexBinding {
  uint64_t buffer = 0, offset = 0, stride = 0;
  bool operator==(const VertexBinding &) const = default;
};

// Shifts are kept well inside a draw's signed vertex offset.
inline constexpr uint64_t kMaxVertexShift = INT32_MAX / 2;

// A slot a shift does not move: per-instance, no stride, or no buffer.
inline bool shift_keeps(const VertexBinding &b, uint32_t slot, uint32_t instanced) {
  return (instanced >> slot & 1) || b.stride == 0 || b.buffer == 0;
}

// Whether `want` is `bound` moved by a whole number of vertices, over the binding slots in
// `slots` (bit n: slot n), `instanced` the per-instance ones; the number of vertices if so.
// Every slot must keep its buffer and stride, every per-vertex slot move by the same count of its
// own stride, every slot a shift does not move stay in place.
inline std::optional<uint32_t> vertex_shift(const VertexBinding *bound, const VertexBinding *want, uint32_t slots,
                                            uint32_t instanced) {
  std::optional<uint64_t> shift;
  for (; slots; slots &= slots - 1) {
    const uint32_t slot = uint32_t(std::countr_zero(slots));
    const VertexBinding &w = want[slot], &b = bound[slot];
    if (w.buffer != b.buffer || w.stride != b.stride || w.offset < b.offset) return std::nullopt;
    const uint64_t moved = w.offset - b.offset;
    if (shift_keeps(w, slot, instanced)) {
      if (moved) return std::nullopt;
      continue;
    }
    if (moved % w.stride || (shift && *shift != moved / w.stride)) return std::nullopt;
    shift = moved / w.stride;
  }
  if (shift.value_or(0) > kMaxVertexShift) return std::nullopt;
  return uint32_t(shift.value_or(0));
}

// The shift to bind `want` with: each per-vertex slot as far back in its buffer as a common
// shift allows (the lowest offset with its residue), so that later moves both ways need no
// binding either. Binding slot n at want[n].offset - shift * stride (per-vertex slots only) and
// drawing `shift` vertices further on reads what `want` says.
inline uint32_t lowest_vertex_shift(const VertexBinding *want, uint32_t slots, uint32_t instanced) {
  uint64_t shift = kMaxVertexShift;
  bool any = false;
  for (; slots; slots &= slots - 1) {
    const uint32_t slot = uint32_t(std::countr_zero(slots));
    if (shift_keeps(want[slot], slot, instanced)) continue;
    shift = std::min(shift, want[slot].offset / want[slot].stride);
    any = true;
  }
  return any ? uint32_t(shift) : 0;
}

// `want` moved back by `shift` vertices on its per-vertex slots: what to bind.
inline VertexBinding shifted_binding(const VertexBinding &want, uint32_t slot, uint32_t instanced, uint32_t shift) {
  VertexBinding b = want;
  if (!shift_keeps(b, slot, instanced)) b.offset -= uint64_t(shift) * b.stride;
  return b;
}

} // namespace novem
