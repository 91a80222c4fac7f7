/* VK_EXT_layer_settings (extension 497) for Vulkan headers that predate it (Debian 12's are
 * 1.3.239): the structures an application chains to vkCreateInstance to configure a layer, as the
 * registry defines them. With headers that have the extension, theirs are used. The queue
 * diagnostics layer reads its settings from them (layer/README.md, "Settings"). */
#ifndef VK_EXT_LAYER_SETTINGS_COMPAT_H_
#define VK_EXT_LAYER_SETTINGS_COMPAT_H_

#include <vulkan/vulkan_core.h>

#ifndef VK_EXT_layer_settings
#define VK_EXT_layer_settings 1
#define VK_EXT_LAYER_SETTINGS_EXTENSION_NAME "VK_EXT_layer_settings"
#define VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT ((VkStructureType)1000496000)

typedef enum VkLayerSettingTypeEXT {
  VK_LAYER_SETTING_TYPE_BOOL32_EXT = 0,
  VK_LAYER_SETTING_TYPE_INT32_EXT = 1,
  VK_LAYER_SETTING_TYPE_INT64_EXT = 2,
  VK_LAYER_SETTING_TYPE_UINT32_EXT = 3,
  VK_LAYER_SETTING_TYPE_UINT64_EXT = 4,
  VK_LAYER_SETTING_TYPE_FLOAT32_EXT = 5,
  VK_LAYER_SETTING_TYPE_FLOAT64_EXT = 6,
  VK_LAYER_SETTING_TYPE_STRING_EXT = 7,
  VK_LAYER_SETTING_TYPE_MAX_ENUM_EXT = 0x7FFFFFFF
} VkLayerSettingTypeEXT;

typedef struct VkLayerSettingEXT {
  const char *pLayerName;
  const char *pSettingName;
  VkLayerSettingTypeEXT type;
  uint32_t valueCount;
  const void *pValues;
} VkLayerSettingEXT;

typedef struct VkLayerSettingsCreateInfoEXT {
  VkStructureType sType;
  const void *pNext;
  uint32_t settingCount;
  const VkLayerSettingEXT *pSettings;
} VkLayerSettingsCreateInfoEXT;
#endif

#endif
