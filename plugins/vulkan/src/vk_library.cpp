#include "vk_library.hpp"

#include <dlfcn.h>

#include <string>

namespace novem::vk {

Library::Library() {
  handle_ = dlopen(kName, RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char *why = dlerror();
    throw std::runtime_error(std::string("cannot load ") + kName + ": " + (why ? why : "unknown error"));
  }
  auto get = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(handle_, "vkGetInstanceProcAddr"));
  if (!get) {
    dlclose(handle_);
    throw std::runtime_error(std::string("cannot load ") + kName + ": it has no vkGetInstanceProcAddr");
  }
  novem_vk_load_global(&vk_, get);
}

Library::~Library() { dlclose(handle_); }

} // namespace novem::vk
