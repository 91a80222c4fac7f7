// Which bytes of a uniform block a SPIR-V module can read; shared by the plugins.
//
// A D3D9 stage's block is 4.7 KB (256 float registers, the integer and boolean registers, the
// fixed-function tail), and a plugin that streams it through an upload ring copies it again for
// every draw after a SetVertexShaderConstantF: one changed register per draw meant 4.7 KB copied
// per draw and a ring chunk filled every 220 draws. Most shaders read a few registers, so a plugin
// copies only the ranges the bound shader reads (`uniform_footprint`), and the bytes between them
// are left as they were: the shader never reads them.
//
// The footprint is read from the module, not trusted from elsewhere: every access chain into the
// block whose member index is a constant gives that member's range, or one element of it when
// the member is an array and the element index a constant too; a dynamic element index
// (relative addressing) gives the whole member. Any other use of the block's variable, or a type
// whose size is not plain, makes the footprint `whole`: copy everything.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "novem/commands.h"

namespace novem {

struct ByteRange {
  uint32_t begin = 0, end = 0; // [begin, end)
  bool operator==(const ByteRange &) const = default;
};

struct UniformFootprint {
  bool whole = true;             // reads cannot be bounded: the whole block
  std::vector<ByteRange> ranges; // when !whole: sorted, disjoint, 16-byte aligned (none: reads nothing)

  // One past the last byte read (0: none); meaningless when whole.
  uint32_t end() const { return ranges.empty() ? 0 : ranges.back().end; }
  // Whether every byte `other` reads is also read here.
  bool covers(const UniformFootprint &other) const {
    if (whole) return true;
    if (other.whole) return false;
    size_t i = 0;
    for (const ByteRange &r : other.ranges) {
      while (i < ranges.size() && ranges[i].end < r.end) ++i;
      if (i == ranges.size() || ranges[i].begin > r.begin) return false;
    }
    return true;
  }
  bool operator==(const UniformFootprint &) const = default;
};

namespace spirv_uniforms_detail {

// Ranges closer than this are merged: one copy of a few unread bytes beats another memcpy call.
constexpr uint32_t kMergeGap = 64;

enum : uint32_t {
  kOpLastConstant = 52, kOpTypeInt = 21, kOpTypeFloat = 22, kOpTypeVector = 23,
  kOpTypeArray = 28, kOpTypeStruct = 30, kOpTypePointer = 32, kOpConstant = 43, kOpVariable = 59,
  kOpAccessChain = 65, kOpInBoundsAccessChain = 66, kOpDecorate = 71, kOpMemberDecorate = 72,
  kDecorationArrayStride = 6, kDecorationBinding = 33, kDecorationDescriptorSet = 34, kDecorationOffset = 35,
  kStorageClassUniform = 2,
};

struct Type {
  uint32_t op = 0;
  uint32_t elem = 0;             // vector component, array element, pointer pointee
  uint32_t count = 0;            // vector components; array length's constant id
  uint32_t width = 0;            // scalar bits
  std::vector<uint32_t> members; // struct member types
};

} // namespace spirv_uniforms_detail

// The footprint of the Uniform-class variable decorated (set, binding) in a SPIR-V module; a
// module without one reads nothing of it. Malformed words give `whole` (the driver's own module
// check decides about them).
inline UniformFootprint uniform_footprint(const uint32_t *words, size_t count, uint32_t set, uint32_t binding) {
  using namespace spirv_uniforms_detail;
  UniformFootprint whole;
  if (count < 5) return whole;
  std::unordered_map<uint32_t, Type> types;
  std::unordered_map<uint32_t, uint32_t> constants, sets, bindings, strides;
  std::unordered_map<uint64_t, uint32_t> member_offsets; // (struct << 32 | member) -> offset
  std::vector<std::pair<uint32_t, uint32_t>> variables;  // Uniform variables: (id, pointer type)
  for (size_t i = 5; i < count;) {
    const uint32_t length = words[i] >> 16, op = words[i] & 0xFFFFu;
    if (length == 0 || i + length > count) return whole;
    const uint32_t *w = words + i;
    switch (op) {
    case kOpTypeInt:
    case kOpTypeFloat:
      if (length >= 3) types[w[1]] = Type{op, 0, 0, w[2], {}};
      break;
    case kOpTypeVector:
    case kOpTypeArray:
      if (length >= 4) types[w[1]] = Type{op, w[2], w[3], 0, {}};
      break;
    case kOpTypeStruct: types[w[1]] = Type{op, 0, 0, 0, std::vector<uint32_t>(w + 2, w + length)}; break;
    case kOpTypePointer:
      if (length >= 4) types[w[1]] = Type{op, w[3], 0, 0, {}};
      break;
    case kOpConstant:
      if (length >= 4) constants[w[2]] = w[3];
      break;
    case kOpVariable:
      if (length >= 4 && w[3] == kStorageClassUniform) variables.emplace_back(w[2], w[1]);
      break;
    case kOpDecorate:
      if (length >= 4 && w[2] == kDecorationDescriptorSet) sets[w[1]] = w[3];
      if (length >= 4 && w[2] == kDecorationBinding) bindings[w[1]] = w[3];
      if (length >= 4 && w[2] == kDecorationArrayStride) strides[w[1]] = w[3];
      break;
    case kOpMemberDecorate:
      if (length >= 5 && w[3] == kDecorationOffset) member_offsets[uint64_t(w[1]) << 32 | w[2]] = w[4];
      break;
    default: break;
    }
    i += length;
  }

  uint32_t var = 0, block = 0;
  for (const auto &[id, pointer] : variables) {
    auto s = sets.find(id), b = bindings.find(id);
    if (s == sets.end() || b == bindings.end() || s->second != set || b->second != binding) continue;
    auto p = types.find(pointer);
    if (p == types.end() || p->second.op != kOpTypePointer) return whole;
    var = id, block = p->second.elem;
  }
  UniformFootprint footprint;
  footprint.whole = false;
  if (!var) return footprint;
  auto block_type = types.find(block);
  if (block_type == types.end() || block_type->second.op != kOpTypeStruct) return whole;

  // Bytes a value of a plain type spans (0: not plain).
  auto size_of = [&](uint32_t type, auto &self) -> uint64_t {
    auto t = types.find(type);
    if (t == types.end()) return 0;
    const Type &ty = t->second;
    if (ty.op == kOpTypeInt || ty.op == kOpTypeFloat) return ty.width / 8;
    if (ty.op == kOpTypeVector) return uint64_t(ty.count) * self(ty.elem, self);
    if (ty.op == kOpTypeArray) {
      auto n = constants.find(ty.count);
      auto stride = strides.find(type);
      return n != constants.end() && stride != strides.end() ? uint64_t(n->second) * stride->second : 0;
    }
    return 0;
  };

  // Every use of the variable.
  for (size_t i = 5; i < count;) {
    const uint32_t length = words[i] >> 16, op = words[i] & 0xFFFFu;
    const uint32_t *w = words + i;
    i += length;
    // Debug info, the entry point's interface, extended instructions (none takes a Uniform
    // pointer), types, constants and decorations cannot read the block; their literals may
    // equal its id.
    if (op <= kOpLastConstant || op == kOpDecorate || op == kOpMemberDecorate || (op == kOpVariable && w[2] == var))
      continue;
    const bool chain = (op == kOpAccessChain || op == kOpInBoundsAccessChain) && length >= 5 && w[3] == var;
    if (!chain) {
      if (std::find(w + 1, w + length, var) != w + length) return whole;
      continue;
    }
    auto member = constants.find(w[4]);
    if (member == constants.end() || member->second >= block_type->second.members.size()) return whole;
    auto offset = member_offsets.find(uint64_t(block) << 32 | member->second);
    if (offset == member_offsets.end()) return whole;
    const uint32_t member_type = block_type->second.members[member->second];
    uint64_t begin = offset->second, size = size_of(member_type, size_of);
    if (size == 0) return whole;
    auto t = types.find(member_type);
    if (length >= 6 && t->second.op == kOpTypeArray) { // an element of an array member
      auto element = constants.find(w[5]);
      if (element != constants.end()) {
        const uint64_t stride = strides.at(member_type);
        if (uint64_t(element->second) * stride >= size) return whole;
        begin += uint64_t(element->second) * stride;
        size = stride;
      }
    }
    footprint.ranges.push_back({uint32_t(begin / 16 * 16), uint32_t((begin + size + 15) / 16 * 16)});
  }

  std::vector<ByteRange> &r = footprint.ranges;
  std::sort(r.begin(), r.end(), [](const ByteRange &a, const ByteRange &b) { return a.begin < b.begin; });
  size_t out = 0;
  for (size_t k = 0; k < r.size(); ++k) {
    if (out > 0 && r[k].begin <= r[out - 1].end + kMergeGap) r[out - 1].end = std::max(r[out - 1].end, r[k].end);
    else r[out++] = r[k];
  }
  r.resize(out);
  return footprint;
}

// Writes the bytes of dst[0, span) that `reads` covers (all of them when whole) from block[0,
// size), at the same offsets; bytes past size are zeros, as a register never set is.
inline void copy_footprint(const UniformFootprint &reads, uint8_t *dst, const uint8_t *block, uint32_t size,
                           uint32_t span) {
  auto copy = [&](uint32_t begin, uint32_t end) {
    end = std::min(end, span);
    const uint32_t given = std::clamp(size, begin, std::max(begin, end));
    if (given > begin) std::memcpy(dst + begin, block + begin, given - begin);
    if (end > given) std::memset(dst + given, 0, end - given);
  };
  if (reads.whole) copy(0, span);
  for (const ByteRange &r : reads.ranges) copy(r.begin, r.end);
}

// The footprint of a stage's constant block where the contract puts it (commands.h): the vertex
// stage's uniform block at set 0, binding 0, and its storage buffer at binding
// NV_VERTEX_STORAGE_BINDING, whose bytes are the block's from NV_VERTEX_STORAGE_OFFSET; the pixel
// stage's uniform block at set 1, binding 1.
inline UniformFootprint stage_uniform_footprint(const uint32_t *words, size_t count, uint32_t stage) {
  UniformFootprint reads = uniform_footprint(words, count, stage, stage);
  if (stage != NV_STAGE_VERTEX || reads.whole) return reads;
  const UniformFootprint storage = uniform_footprint(words, count, stage, NV_VERTEX_STORAGE_BINDING);
  if (storage.whole) return storage;
  for (const ByteRange &r : storage.ranges)
    reads.ranges.push_back({r.begin + NV_VERTEX_STORAGE_OFFSET, r.end + NV_VERTEX_STORAGE_OFFSET});
  return reads;
}

} // namespace novem
