#include "vk_options.hpp"

#include <cstdlib>

#include "novem/options.hpp"

namespace novem::vk {

Options Options::from_environment() {
  const novem::Options settings;
  Options o;
  o.validation = settings.flag("NOVEM_VK_VALIDATION", false);
  o.validation_noabort = settings.value("NOVEM_VK_VALIDATION_NOABORT") != nullptr;
  o.batching = settings.flag("NOVEM_VK_BATCHING", true);
  o.dirty_state = settings.flag("NOVEM_VK_DIRTY", true);
  o.pipeline_cache = settings.flag("NOVEM_VK_PIPELINE_CACHE", true);
  o.barrier_tracking = settings.flag("NOVEM_VK_BARRIERS", true);
  o.suballocation = settings.flag("NOVEM_VK_SUBALLOC", true);
  // Dynamic blend state is part of the dirty-state technique: NOVEM_VK_DIRTY=0 turns it off too.
  o.dynamic_blend = o.dirty_state && settings.flag("NOVEM_VK_DYNAMIC_BLEND", true);
  o.slabs = settings.flag("NOVEM_VK_SLABS", true);
  // A draw joining a multi-draw skips prepare_draw, so multi-draws go with batching and dirty
  // state: NOVEM_VK_BATCHING=0 or NOVEM_VK_DIRTY=0 turns them off too.
  o.multi_draw = o.batching && o.dirty_state && settings.flag("NOVEM_VK_MULTI_DRAW", true);
  if (const char *bytes = settings.value("NOVEM_VK_MAX_ALLOCATION")) o.max_allocation = std::strtoull(bytes, nullptr, 0);
  if (o.pipeline_cache) o.cache_dir = settings.cache_dir();
  o.quirks = quirk_switches(settings);
  return o;
}

} // namespace novem::vk
