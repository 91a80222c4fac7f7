#include "vk_options.hpp"

#include <cstdlib>
#include <cstring>

namespace novem::vk {

namespace {

// Unset keeps the default; "0", "off", "false" and "no" turn a switch off, anything else on.
bool env_flag(const char *name, bool fallback) {
  const char *v = std::getenv(name);
  if (!v || !*v) return fallback;
  return !(std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0 || std::strcmp(v, "false") == 0 ||
           std::strcmp(v, "no") == 0);
}

} // namespace

Options Options::from_environment() {
  Options o;
  o.validation = env_flag("NOVEM_VK_VALIDATION", false);
  o.validation_noabort = std::getenv("NOVEM_VK_VALIDATION_NOABORT") != nullptr;
  o.pipeline_cache = env_flag("NOVEM_VK_PIPELINE_CACHE", true);
  o.batching = env_flag("NOVEM_VK_BATCHING", true);
  o.suballocation = env_flag("NOVEM_VK_SUBALLOC", true);
  return o;
}

} // namespace novem::vk
