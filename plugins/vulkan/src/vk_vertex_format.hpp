// nv_format as a vertex attribute format: the VkFormat a pipeline's vertex input reads it with,
// and which nv_formats a physical device can read from a vertex buffer.
#pragma once

#include <cstdint>

#include "novem/commands.h"
#include "vk_common.hpp"

namespace novem::vk {

// VK_FORMAT_UNDEFINED for an nv_format that is not vertex data.
VkFormat to_vk_vertex_format(nv_format format);

// Adds NV_SUPPORT_VERTEX to every nv_format whose Vulkan format has VERTEX_BUFFER in its buffer
// features on this device.
void query_vertex_format_support(const NovemVkInstance &vk, VkPhysicalDevice gpu, uint32_t (&support)[NV_FORMAT_COUNT]);

} // namespace novem::vk
