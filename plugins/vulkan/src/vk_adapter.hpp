// nv_adapter_info from a physical device: names, ids, memory, limits and per-format support.
#pragma once

#include "novem/backend.h"
#include "vk_common.hpp"

namespace novem::vk {

void describe_adapter(const NovemVkInstance &vk, VkPhysicalDevice gpu, nv_adapter_info &info);

} // namespace novem::vk
