#include "vk_pipeline.hpp"

#include "novem/log.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

#include "novem/cache_file.hpp"
#include "novem/state_hash.hpp"

#include "vk_device.hpp"
#include "vk_shader.hpp"
#include "vk_vertex_format.hpp"

namespace novem::vk {

// ---- translation of nv_ enums ----
VkCompareOp compare_op(uint8_t c) {
  switch (c) {
  case NV_COMPARE_NEVER: return VK_COMPARE_OP_NEVER;
  case NV_COMPARE_LESS: return VK_COMPARE_OP_LESS;
  case NV_COMPARE_EQUAL: return VK_COMPARE_OP_EQUAL;
  case NV_COMPARE_LESS_EQUAL: return VK_COMPARE_OP_LESS_OR_EQUAL;
  case NV_COMPARE_GREATER: return VK_COMPARE_OP_GREATER;
  case NV_COMPARE_NOT_EQUAL: return VK_COMPARE_OP_NOT_EQUAL;
  case NV_COMPARE_GREATER_EQUAL: return VK_COMPARE_OP_GREATER_OR_EQUAL;
  default: return VK_COMPARE_OP_ALWAYS;
  }
}

VkCullModeFlags cull_mode(uint8_t c) {
  // Facing is decided in framebuffer space, where row 0 is the top row — the space nv_cull names
  // windings in — whatever the viewport's flip. Clockwise is always the front face, as in D3D9,
  // so that a shader's facing input (vFace) means the same whatever is culled.
  return c == NV_CULL_CCW ? VK_CULL_MODE_BACK_BIT : c == NV_CULL_CW ? VK_CULL_MODE_FRONT_BIT : VK_CULL_MODE_NONE;
}

VkBlendFactor blend_factor(uint8_t f) {
  switch (f) {
  case NV_BLEND_ZERO: return VK_BLEND_FACTOR_ZERO;
  case NV_BLEND_ONE: return VK_BLEND_FACTOR_ONE;
  case NV_BLEND_SRC_COLOR: return VK_BLEND_FACTOR_SRC_COLOR;
  case NV_BLEND_ONE_MINUS_SRC_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
  case NV_BLEND_SRC_ALPHA: return VK_BLEND_FACTOR_SRC_ALPHA;
  case NV_BLEND_ONE_MINUS_SRC_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  case NV_BLEND_DST_ALPHA: return VK_BLEND_FACTOR_DST_ALPHA;
  case NV_BLEND_ONE_MINUS_DST_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA;
  case NV_BLEND_DST_COLOR: return VK_BLEND_FACTOR_DST_COLOR;
  case NV_BLEND_ONE_MINUS_DST_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR;
  case NV_BLEND_SRC_ALPHA_SATURATE: return VK_BLEND_FACTOR_SRC_ALPHA_SATURATE;
  case NV_BLEND_CONSTANT_COLOR: return VK_BLEND_FACTOR_CONSTANT_COLOR;
  case NV_BLEND_ONE_MINUS_CONSTANT_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR;
  default: return VK_BLEND_FACTOR_ONE;
  }
}

VkBlendOp blend_op(uint8_t op) {
  switch (op) {
  case NV_BLEND_OP_SUBTRACT: return VK_BLEND_OP_SUBTRACT;
  case NV_BLEND_OP_REVERSE_SUBTRACT: return VK_BLEND_OP_REVERSE_SUBTRACT;
  case NV_BLEND_OP_MIN: return VK_BLEND_OP_MIN;
  case NV_BLEND_OP_MAX: return VK_BLEND_OP_MAX;
  default: return VK_BLEND_OP_ADD;
  }
}

namespace {

VkPrimitiveTopology topology(uint8_t t) {
  switch (t) {
  case NV_TOPOLOGY_POINT_LIST: return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  case NV_TOPOLOGY_LINE_LIST: return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  case NV_TOPOLOGY_LINE_STRIP: return VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
  case NV_TOPOLOGY_TRIANGLE_STRIP: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  case NV_TOPOLOGY_TRIANGLE_FAN: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
  default: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  }
}

VkStencilOp stencil_op(uint8_t op) {
  return op <= NV_STENCIL_OP_DECREMENT_WRAP ? VkStencilOp(op) : VK_STENCIL_OP_KEEP; // the same order
}

VkPolygonMode polygon_mode(uint8_t m) {
  return m == NV_FILL_WIREFRAME ? VK_POLYGON_MODE_LINE : m == NV_FILL_POINT ? VK_POLYGON_MODE_POINT : VK_POLYGON_MODE_FILL;
}

// The reference and masks are dynamic state.
VkStencilOpState stencil_face(const nv_stencil_face &f) {
  VkStencilOpState s{};
  s.failOp = stencil_op(f.fail_op);
  s.passOp = stencil_op(f.pass_op);
  s.depthFailOp = stencil_op(f.depth_fail_op);
  s.compareOp = compare_op(f.compare);
  return s;
}

} // namespace

bool has_stencil(VkFormat f) {
  return f == VK_FORMAT_D24_UNORM_S8_UINT || f == VK_FORMAT_D32_SFLOAT_S8_UINT || f == VK_FORMAT_D16_UNORM_S8_UINT ||
         f == VK_FORMAT_S8_UINT;
}

// ---- PipelineLayout ----

PipelineLayout::PipelineLayout(const Device &device, bool software_vertex)
    : device_(device), narrow_(device.quirks().has(Quirk::narrow_texture_sets)), software_vertex_(software_vertex) {
  const NovemVkDevice &vk = device.vk();
  // Set 0: the vertex uniform block (binding 0), on a software vertex-processing device also its
  // storage buffer (binding 2); set 1: the pixel uniform block (binding 1); sets 2 and 3:
  // the combined image samplers of the contract, pixel sN at 16 + N, vertex sN at 32 + N.
  auto make_set = [&](std::vector<VkDescriptorSetLayoutBinding> bindings, VkDescriptorSetLayout &out) {
    VkDescriptorSetLayoutCreateInfo sci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    sci.bindingCount = uint32_t(bindings.size());
    sci.pBindings = bindings.data();
    check(vk.CreateDescriptorSetLayout(device.handle(), &sci, nullptr, &out), "vkCreateDescriptorSetLayout");
  };
  auto samplers = [](uint32_t first, uint32_t count, VkShaderStageFlags stage) {
    std::vector<VkDescriptorSetLayoutBinding> b;
    for (uint32_t i = 0; i < count; ++i) b.push_back({first + i, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, stage, nullptr});
    return b;
  };
  try {
    std::vector<VkDescriptorSetLayoutBinding> vertex{
        {uniform_binding(NV_STAGE_VERTEX), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr}};
    if (software_vertex)
      vertex.push_back({NV_VERTEX_STORAGE_BINDING, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr});
    make_set(std::move(vertex), set_layouts_[kVertexUniformSet]);
    make_set({{uniform_binding(NV_STAGE_PIXEL), VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}},
             set_layouts_[kPixelUniformSet]);
    make_set(samplers(kVertexTextureBinding, NV_MAX_VERTEX_TEXTURES, VK_SHADER_STAGE_VERTEX_BIT),
             set_layouts_[kVertexTextureSet]);
    for (uint32_t w = 0; w < kPixelWidths; ++w) {
      make_set(samplers(kPixelTextureBinding, slot_count(kPixelTextureSet, w), VK_SHADER_STAGE_FRAGMENT_BIT),
               pixel_texture_layouts_[w]);
      VkDescriptorSetLayout sets[kSetCount];
      for (uint32_t s = 0; s < kSetCount; ++s) sets[s] = set_layout(s, w);
      VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      lci.setLayoutCount = kSetCount;
      lci.pSetLayouts = sets;
      check(vk.CreatePipelineLayout(device.handle(), &lci, nullptr, &layouts_[w]), "vkCreatePipelineLayout");
    }
  } catch (...) {
    destroy();
    throw;
  }
}

PipelineLayout::~PipelineLayout() { destroy(); }

// Destroying VK_NULL_HANDLE is allowed: a constructor that failed half-way calls this too.
void PipelineLayout::destroy() {
  const NovemVkDevice &vk = device_.vk();
  for (VkPipelineLayout l : layouts_) vk.DestroyPipelineLayout(device_.handle(), l, nullptr);
  for (VkDescriptorSetLayout l : pixel_texture_layouts_) vk.DestroyDescriptorSetLayout(device_.handle(), l, nullptr);
  for (VkDescriptorSetLayout l : set_layouts_) vk.DestroyDescriptorSetLayout(device_.handle(), l, nullptr);
}

// ---- PipelineKey ----

nv_pipeline_desc PipelineKey::static_part(const nv_pipeline_desc &desc, bool dynamic_blend) {
  nv_pipeline_desc d = desc;
  d.reserved[0] = d.reserved[1] = 0;
  if (d.attribute_count > NV_MAX_VERTEX_ATTRIBUTES) d.attribute_count = NV_MAX_VERTEX_ATTRIBUTES;
  for (uint32_t i = d.attribute_count; i < NV_MAX_VERTEX_ATTRIBUTES; ++i) d.attributes[i] = nv_vertex_attribute{};
  for (uint32_t i = 0; i < d.attribute_count; ++i) d.attributes[i].reserved = 0;
  // Cull mode and the depth test are dynamic state (Vulkan 1.3's extended dynamic state): a
  // change of either needs no new pipeline.
  d.cull = 0;
  d.depth_test = d.depth_write = d.depth_compare = 0;
  d.reserved2 = 0;
  d.reserved5 = 0;
  // So are blending and the write masks with VK_EXT_extended_dynamic_state3.
  if (dynamic_blend) {
    d.blend_enable = d.color_src = d.color_dst = d.color_op = d.alpha_src = d.alpha_dst = d.alpha_op = 0;
    d.color_write_mask = 0;
    for (auto &m : d.more_color_write_masks) m = 0;
  }
  return d;
}

PipelineKey PipelineKey::make(const nv_pipeline_desc &desc, const VkFormat (&colors)[NV_MAX_COLOR_TARGETS],
                              VkFormat depth, VkSampleCountFlagBits samples, bool dynamic_blend) {
  PipelineKey k;
  std::memset(&k, 0, sizeof k);
  k.desc = static_part(desc, dynamic_blend);
  nv_pipeline_desc &d = k.desc;
  bool any_color = false;
  for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i) {
    k.color_formats[i] = colors[i];
    any_color |= colors[i] != VK_FORMAT_UNDEFINED;
    if (colors[i] != VK_FORMAT_UNDEFINED) continue;
    if (i == 0) d.color_write_mask = 0;
    else d.more_color_write_masks[i - 1] = 0;
  }
  if (!d.blend_enable || !any_color)
    d.blend_enable = d.color_src = d.color_dst = d.color_op = d.alpha_src = d.alpha_dst = d.alpha_op = 0;
  if (!d.stencil_enable || !has_stencil(depth)) d.stencil_enable = 0, d.stencil_front = d.stencil_back = nv_stencil_face{};
  if (depth == VK_FORMAT_UNDEFINED) d.depth_bias_enable = 0;
  if (d.topology < NV_TOPOLOGY_TRIANGLE_LIST) d.fill_mode = NV_FILL_SOLID;
  // The sample mask names the targets' samples only, and a single-sampled target ignores it.
  // (A VkSampleCountFlagBits value is its count.)
  const uint32_t count = uint32_t(samples);
  if (count == 1) d.masked_samples = 0;
  else if (count < 32) d.masked_samples &= (1u << count) - 1u;
  k.depth_format = depth;
  k.samples = samples;
  return k;
}

bool PipelineKey::operator==(const PipelineKey &other) const { return std::memcmp(this, &other, sizeof *this) == 0; }

// A word at a time: the key is a few hundred bytes and hashed at every pipeline change.
uint64_t PipelineKey::hash() const { return novem::state_hash(this, sizeof *this); }

// ---- PipelineCache ----

PipelineCache::PipelineCache(const Device &device, const PipelineLayout &layout, nv_channel &channel, bool enabled,
                             std::string cache_file)
    : device_(device), layout_(layout), channel_(channel), enabled_(enabled), cache_file_(std::move(cache_file)) {
  if (!enabled_) return; // every pipeline from scratch, no VkPipelineCache
  const std::vector<uint8_t> data = load_file();
  VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  ci.initialDataSize = data.size();
  ci.pInitialData = data.empty() ? nullptr : data.data();
  check(device.vk().CreatePipelineCache(device.handle(), &ci, nullptr, &vk_cache_), "vkCreatePipelineCache");
}

uint64_t PipelineCache::identity() const {
  const VkPhysicalDeviceProperties &p = device_.properties();
  const uint32_t format_version = 1; // bump when what Novem stores in the payload changes
  uint64_t h = novem::fnv1a(&format_version, sizeof format_version);
  h = novem::fnv1a(&p.vendorID, sizeof p.vendorID, h);
  h = novem::fnv1a(&p.deviceID, sizeof p.deviceID, h);
  h = novem::fnv1a(&p.driverVersion, sizeof p.driverVersion, h);
  return novem::fnv1a(p.pipelineCacheUUID, VK_UUID_SIZE, h);
}

// The data is handed to the driver only when Novem's header and Vulkan's own header
// (VkPipelineCacheHeaderVersionOne) both match this device: a driver must reject foreign data
// itself, but not every driver checks everything.
std::vector<uint8_t> PipelineCache::load_file() {
  std::vector<uint8_t> data;
  if (cache_file_.empty()) return data;
  std::string why;
  novem::CacheFile::Read r = novem::CacheFile::read(cache_file_, identity(), data, why);
  if (r == novem::CacheFile::Read::Ok) {
    const VkPhysicalDeviceProperties &p = device_.properties();
    VkPipelineCacheHeaderVersionOne h{};
    if (data.size() < sizeof h) {
      why = "its pipeline cache data is shorter than Vulkan's header";
    } else {
      std::memcpy(&h, data.data(), sizeof h);
      if (h.headerSize < sizeof h || h.headerVersion != VK_PIPELINE_CACHE_HEADER_VERSION_ONE ||
          h.vendorID != p.vendorID || h.deviceID != p.deviceID ||
          std::memcmp(h.pipelineCacheUUID, p.pipelineCacheUUID, VK_UUID_SIZE) != 0)
        why = "its pipeline cache data was written by another device or driver";
      else
        return data;
    }
    r = novem::CacheFile::Read::Rejected;
    data.clear();
  }
  if (r == novem::CacheFile::Read::Rejected) {
    novem::process_logger().write(novem::LogLevel::warn, "novem-vulkan", "warning: ignoring the pipeline cache %s: %s", cache_file_.c_str(), why.c_str());
    novem::bump(channel_.pipeline_cache_rejected);
  }
  return data;
}

void PipelineCache::save_file() {
  if (cache_file_.empty() || !vk_cache_) return;
  const NovemVkDevice &vk = device_.vk();
  size_t size = 0;
  if (vk.GetPipelineCacheData(device_.handle(), vk_cache_, &size, nullptr) != VK_SUCCESS || !size) return;
  std::vector<uint8_t> data(size);
  if (vk.GetPipelineCacheData(device_.handle(), vk_cache_, &size, data.data()) != VK_SUCCESS) return;
  if (!novem::CacheFile::write(cache_file_, identity(), data.data(), size))
    novem::process_logger().write(novem::LogLevel::warn, "novem-vulkan", "warning: cannot write the pipeline cache %s", cache_file_.c_str());
}

PipelineCache::~PipelineCache() {
  save_file();
  const NovemVkDevice &vk = device_.vk();
  for (auto &[key, pipeline] : pipelines_) vk.DestroyPipeline(device_.handle(), pipeline, nullptr);
  if (uncached_) vk.DestroyPipeline(device_.handle(), uncached_, nullptr);
  if (vk_cache_) vk.DestroyPipelineCache(device_.handle(), vk_cache_, nullptr);
}

VkPipeline PipelineCache::get(const PipelineKey &key, const ShaderLookup &shaders, const Retire &retire) {
  if (!enabled_) {
    VkPipeline p = build(key, shaders);
    if (uncached_) retire(uncached_);
    uncached_ = p;
    uncached_key_ = key;
    return p;
  }
  auto it = pipelines_.find(key);
  if (it != pipelines_.end()) return it->second;
  VkPipeline p = build(key, shaders);
  if (p) pipelines_.emplace(key, p);
  return p;
}

void PipelineCache::evict_shader(uint32_t shader, const Retire &retire) {
  if (uncached_ && (uncached_key_.desc.vertex_shader == shader || uncached_key_.desc.pixel_shader == shader)) {
    retire(uncached_);
    uncached_ = VK_NULL_HANDLE;
  }
  for (auto it = pipelines_.begin(); it != pipelines_.end();) {
    if (it->first.desc.vertex_shader == shader || it->first.desc.pixel_shader == shader) {
      retire(it->second);
      it = pipelines_.erase(it);
    } else {
      ++it;
    }
  }
}

VkPipeline PipelineCache::build(const PipelineKey &key, const ShaderLookup &shaders) {
  const nv_pipeline_desc &d = key.desc;
  const Shader *vs = shaders(d.vertex_shader);
  const Shader *ps = d.pixel_shader ? shaders(d.pixel_shader) : nullptr;
  if (!vs || vs->stage() != NV_STAGE_VERTEX) return VK_NULL_HANDLE;
  if (d.pixel_shader && (!ps || ps->stage() != NV_STAGE_PIXEL)) return VK_NULL_HANDLE;

  VkPipelineShaderStageCreateInfo stages[2] = {};
  uint32_t stage_count = 0;
  for (const Shader *s : {vs, ps}) {
    if (!s) continue;
    VkPipelineShaderStageCreateInfo &st = stages[stage_count++];
    st.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    st.stage = s->vk_stage();
    st.module = s->module();
    st.pName = "main";
  }

  // Vertex input: one binding per slot the attributes name; strides are dynamic.
  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attributes;
  std::vector<VkVertexInputBindingDivisorDescriptionEXT> divisors;
  uint32_t slots = 0;
  for (uint32_t i = 0; i < d.attribute_count; ++i) {
    const nv_vertex_attribute &a = d.attributes[i];
    if (a.binding >= NV_MAX_VERTEX_BUFFERS) continue;
    VkFormat f = to_vk_vertex_format(nv_format(a.format));
    if (f == VK_FORMAT_UNDEFINED) continue;
    attributes.push_back({a.location, a.binding, f, a.offset});
    if (!(slots & (1u << a.binding))) {
      slots |= 1u << a.binding;
      const bool per_instance = (d.instance_slots >> a.binding) & 1;
      bindings.push_back({a.binding, 0, per_instance ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX});
      // A divisor above 1 (VK_EXT_vertex_attribute_divisor, enabled where the adapter reports
      // max_instance_divisor > 1; the frontend sends none above it).
      if (per_instance && d.instance_divisors[a.binding] > 1)
        divisors.push_back({a.binding, d.instance_divisors[a.binding]});
    }
  }
  VkPipelineVertexInputDivisorStateCreateInfoEXT divisor_state{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT};
  divisor_state.vertexBindingDivisorCount = uint32_t(divisors.size());
  divisor_state.pVertexBindingDivisors = divisors.data();
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vi.vertexBindingDescriptionCount = uint32_t(bindings.size());
  vi.pVertexBindingDescriptions = bindings.data();
  vi.vertexAttributeDescriptionCount = uint32_t(attributes.size());
  vi.pVertexAttributeDescriptions = attributes.data();
  if (!divisors.empty()) vi.pNext = &divisor_state;

  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = topology(d.topology);

  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vp.viewportCount = 1;
  vp.scissorCount = 1;

  // Cull mode, front face and the depth test are dynamic (set by the executor per draw).
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  // Non-solid fill needs fillModeNonSolid; without it triangles stay solid.
  rs.polygonMode = device_.fill_mode_non_solid() ? polygon_mode(d.fill_mode) : VK_POLYGON_MODE_FILL;
  rs.depthBiasEnable = d.depth_bias_enable ? VK_TRUE : VK_FALSE; // the factors are dynamic
  rs.depthClampEnable = d.depth_clamp && device_.depth_clamp() ? VK_TRUE : VK_FALSE;
  rs.lineWidth = 1.0f;
  rs.frontFace = VK_FRONT_FACE_CLOCKWISE;

  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = key.samples;
  const VkSampleMask sample_mask = ~d.masked_samples; // one word: at most 32 samples
  if (d.masked_samples) ms.pSampleMask = &sample_mask;

  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  // The depth test (enable, write, compare) is dynamic state; the stencil ops are in the pipeline.
  ds.stencilTestEnable = d.stencil_enable ? VK_TRUE : VK_FALSE;
  ds.front = stencil_face(d.stencil_front);
  ds.back = stencil_face(d.stencil_back);
  ds.minDepthBounds = 0.0f;
  ds.maxDepthBounds = 1.0f;

  // One attachment per colour target up to the last bound one (the formats of unbound ones are
  // VK_FORMAT_UNDEFINED); blending is the same for all, write masks their own.
  VkPipelineColorBlendAttachmentState atts[NV_MAX_COLOR_TARGETS] = {};
  uint32_t color_count = 0;
  for (uint32_t i = 0; i < NV_MAX_COLOR_TARGETS; ++i) {
    VkPipelineColorBlendAttachmentState &att = atts[i];
    att.blendEnable = d.blend_enable ? VK_TRUE : VK_FALSE;
    att.srcColorBlendFactor = blend_factor(d.color_src);
    att.dstColorBlendFactor = blend_factor(d.color_dst);
    att.colorBlendOp = blend_op(d.color_op);
    att.srcAlphaBlendFactor = blend_factor(d.alpha_src);
    att.dstAlphaBlendFactor = blend_factor(d.alpha_dst);
    att.alphaBlendOp = blend_op(d.alpha_op);
    // bit 0 R … bit 3 A, as VkColorComponentFlags. Without independentBlend every attachment
    // must be alike: target 0's mask then applies to all.
    const bool own = i > 0 && device_.independent_blend();
    att.colorWriteMask = (own ? d.more_color_write_masks[i - 1] : d.color_write_mask) & 0xFu;
    if (key.color_formats[i] != VK_FORMAT_UNDEFINED) color_count = i + 1;
  }
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = color_count;
  cb.pAttachments = atts;

  const VkDynamicState dynamic[] = {VK_DYNAMIC_STATE_VIEWPORT,          VK_DYNAMIC_STATE_SCISSOR,
                                    VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE,
                                    VK_DYNAMIC_STATE_CULL_MODE,         VK_DYNAMIC_STATE_FRONT_FACE,
                                    VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE, VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE,
                                    VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,  VK_DYNAMIC_STATE_DEPTH_BIAS,
                                    VK_DYNAMIC_STATE_BLEND_CONSTANTS,   VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK,
                                    VK_DYNAMIC_STATE_STENCIL_WRITE_MASK, VK_DYNAMIC_STATE_STENCIL_REFERENCE,
                                    // the last three only with VK_EXT_extended_dynamic_state3
                                    VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT, VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT,
                                    VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT};
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  // A pipeline without colour attachments (depth-only drawing) declares no blend state dynamic:
  // the executor sets blend state only for colour attachments, and the validation layers want
  // every declared state set before a draw (VUID-vkCmdDraw-None-07627).
  dyn.dynamicStateCount = uint32_t(std::size(dynamic)) - (device_.dynamic_blend() && color_count ? 0 : 3);
  dyn.pDynamicStates = dynamic;

  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = color_count;
  rendering.pColorAttachmentFormats = color_count ? key.color_formats : nullptr;
  rendering.depthAttachmentFormat = key.depth_format;
  rendering.stencilAttachmentFormat = has_stencil(key.depth_format) ? key.depth_format : VK_FORMAT_UNDEFINED;

  // Creation feedback: did the driver find the pipeline in vk_cache_ (loaded from disk)?
  VkPipelineCreationFeedback feedback{};
  VkPipelineCreationFeedbackCreateInfo feedback_info{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
  feedback_info.pPipelineCreationFeedback = &feedback;
  rendering.pNext = &feedback_info;

  VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  ci.stageCount = stage_count;
  ci.pStages = stages;
  ci.pVertexInputState = &vi;
  ci.pInputAssemblyState = &ia;
  ci.pViewportState = &vp;
  ci.pRasterizationState = &rs;
  ci.pMultisampleState = &ms;
  ci.pDepthStencilState = &ds;
  ci.pColorBlendState = &cb;
  ci.pDynamicState = &dyn;
  ci.layout = layout_.handle(layout_.pixel_width(ps ? ps->texture_slots() : 0));
  VkPipeline pipeline = VK_NULL_HANDLE;
  check(device_.vk().CreateGraphicsPipelines(device_.handle(), vk_cache_, 1, &ci, nullptr, &pipeline), "vkCreateGraphicsPipelines");
  const bool hit = (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) &&
                   (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
  novem::bump(hit ? channel_.pipelines_loaded : channel_.pipelines_created);
  return pipeline;
}

} // namespace novem::vk
