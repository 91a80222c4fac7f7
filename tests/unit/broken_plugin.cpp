// Plugins that the loader must refuse: one built for another ABI version, one without the
// entry point.
#include "novem/backend.h"

#ifdef BROKEN_wrong_abi
static const nv_plugin plugin = {NV_BACKEND_ABI_VERSION + 998, "wrong_abi", nullptr, nullptr, nullptr};
extern "C" __attribute__((visibility("default"))) const nv_plugin *novem_plugin_entry(void) { return &plugin; }
#else
extern "C" __attribute__((visibility("default"))) int novem_something_else(void) { return 0; }
#endif
