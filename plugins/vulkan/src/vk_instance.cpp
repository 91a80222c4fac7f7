#include "vk_instance.hpp"

#include "novem/log.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

namespace novem::vk {

namespace {

constexpr const char *kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool has_layer(const NovemVkGlobal &vk, const char *name) {
  uint32_t count = 0;
  vk.EnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vk.EnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto &l : layers)
    if (std::strcmp(l.layerName, name) == 0) return true;
  return false;
}

bool has_extension(const NovemVkGlobal &vk, const char *name) {
  uint32_t count = 0;
  vk.EnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> exts(count);
  vk.EnumerateInstanceExtensionProperties(nullptr, &count, exts.data());
  for (const auto &e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  // The validation layer brings debug utils with it.
  count = 0;
  vk.EnumerateInstanceExtensionProperties(kValidationLayer, &count, nullptr);
  exts.resize(count);
  vk.EnumerateInstanceExtensionProperties(kValidationLayer, &count, exts.data());
  for (const auto &e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

} // namespace

Instance::Instance(const Options &options) {
  const NovemVkGlobal &global = library_.vk();
  uint32_t loader_version = VK_API_VERSION_1_0; // a 1.0 loader has no vkEnumerateInstanceVersion
  if (global.EnumerateInstanceVersion) global.EnumerateInstanceVersion(&loader_version);
  if (loader_version < VK_API_VERSION_1_3) {
    char line[128];
    std::snprintf(line, sizeof line, "the Vulkan loader is %u.%u, Vulkan 1.3 is needed",
                  VK_API_VERSION_MAJOR(loader_version), VK_API_VERSION_MINOR(loader_version));
    throw std::runtime_error(line);
  }

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "novem";
  app.pEngineName = "novem";
  app.engineVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
  app.apiVersion = VK_API_VERSION_1_3;

  std::vector<const char *> layers;
  std::vector<const char *> extensions;
  bool messenger = false;
  if (options.validation) {
    if (has_layer(global, kValidationLayer))
      layers.push_back(kValidationLayer);
    else
      novem::process_logger().write(novem::LogLevel::warn, "novem-vulkan", "NOVEM_VK_VALIDATION=1 but %s is not installed", kValidationLayer);
    if (has_extension(global, VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      messenger = true;
    }
  }

  // Windows (X11) when the loader offers them; a headless device never uses them.
  if (has_extension(global, VK_KHR_SURFACE_EXTENSION_NAME) && has_extension(global, VK_KHR_XCB_SURFACE_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_SURFACE_EXTENSION_NAME);
    extensions.push_back(VK_KHR_XCB_SURFACE_EXTENSION_NAME);
    surfaces_ = true;
  }

  VkDebugUtilsMessengerCreateInfoEXT debug_ci = DebugMessenger::create_info(!options.validation_noabort);
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pNext = messenger ? &debug_ci : nullptr;
  ci.pApplicationInfo = &app;
  ci.enabledLayerCount = uint32_t(layers.size());
  ci.ppEnabledLayerNames = layers.data();
  ci.enabledExtensionCount = uint32_t(extensions.size());
  ci.ppEnabledExtensionNames = extensions.data();
  VkResult r = global.CreateInstance(&ci, nullptr, &instance_);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
    throw std::runtime_error("no Vulkan driver found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER)");
  check(r, "vkCreateInstance");
  novem_vk_load_instance(&vk_, library_.get_instance_proc_addr(), instance_);
  if (messenger) {
    try {
      messenger_ = std::make_unique<DebugMessenger>(vk_, instance_, !options.validation_noabort);
    } catch (...) {
      vk_.DestroyInstance(instance_, nullptr);
      throw;
    }
  }
}

Instance::~Instance() {
  messenger_.reset();
  if (instance_) vk_.DestroyInstance(instance_, nullptr);
}

VkPhysicalDevice Instance::pick_physical_device() const {
  uint32_t count = 0;
  check(vk_.EnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> gpus(count);
  check(vk_.EnumeratePhysicalDevices(instance_, &count, gpus.data()), "vkEnumeratePhysicalDevices");
  for (VkPhysicalDevice gpu : gpus) {
    VkPhysicalDeviceProperties p{};
    vk_.GetPhysicalDeviceProperties(gpu, &p);
    if (p.apiVersion >= VK_API_VERSION_1_3) return gpu;
  }
  throw std::runtime_error(count ? "no Vulkan 1.3 device (the physical devices found are older)"
                                 : "no Vulkan physical device");
}

} // namespace novem::vk
