#include "vk_instance.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

namespace novem::vk {

namespace {

constexpr const char *kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool has_layer(const char *name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto &l : layers)
    if (std::strcmp(l.layerName, name) == 0) return true;
  return false;
}

bool has_extension(const char *name) {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> exts(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, exts.data());
  for (const auto &e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  // The validation layer brings debug utils with it.
  count = 0;
  vkEnumerateInstanceExtensionProperties(kValidationLayer, &count, nullptr);
  exts.resize(count);
  vkEnumerateInstanceExtensionProperties(kValidationLayer, &count, exts.data());
  for (const auto &e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

} // namespace

Instance::Instance(const Options &options) {
  uint32_t loader_version = VK_API_VERSION_1_0;
  vkEnumerateInstanceVersion(&loader_version);
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
    if (has_layer(kValidationLayer))
      layers.push_back(kValidationLayer);
    else
      std::fprintf(stderr, "novem-vulkan: NOVEM_VK_VALIDATION=1 but %s is not installed\n", kValidationLayer);
    if (has_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      messenger = true;
    }
  }

  VkDebugUtilsMessengerCreateInfoEXT debug_ci = DebugMessenger::create_info(!options.validation_noabort);
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pNext = messenger ? &debug_ci : nullptr;
  ci.pApplicationInfo = &app;
  ci.enabledLayerCount = uint32_t(layers.size());
  ci.ppEnabledLayerNames = layers.data();
  ci.enabledExtensionCount = uint32_t(extensions.size());
  ci.ppEnabledExtensionNames = extensions.data();
  VkResult r = vkCreateInstance(&ci, nullptr, &instance_);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
    throw std::runtime_error("no Vulkan driver found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER)");
  check(r, "vkCreateInstance");
  if (messenger) {
    try {
      messenger_ = std::make_unique<DebugMessenger>(instance_, !options.validation_noabort);
    } catch (...) {
      vkDestroyInstance(instance_, nullptr);
      throw;
    }
  }
}

Instance::~Instance() {
  messenger_.reset();
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

VkPhysicalDevice Instance::pick_physical_device() const {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> gpus(count);
  check(vkEnumeratePhysicalDevices(instance_, &count, gpus.data()), "vkEnumeratePhysicalDevices");
  for (VkPhysicalDevice gpu : gpus) {
    VkPhysicalDeviceProperties p{};
    vkGetPhysicalDeviceProperties(gpu, &p);
    if (p.apiVersion >= VK_API_VERSION_1_3) return gpu;
  }
  throw std::runtime_error(count ? "no Vulkan 1.3 device (the physical devices found are older)"
                                 : "no Vulkan physical device");
}

} // namespace novem::vk
