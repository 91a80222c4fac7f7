// The one main() every Catch2 test executable shares.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

int main(int argc, char **argv) {
  // Every Vulkan run in the tests has the Khronos validation layer on, and the Vulkan plugin
  // aborts on the first validation message (NOVEM_VK_VALIDATION=1), so an error fails the test.
  // Set here rather than by ctest so that running a test binary by hand validates too.
  setenv("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation", 0);
  setenv("NOVEM_VK_VALIDATION", "1", 0);
  // The plugins' on-disk pipeline caches go to the build tree, so tests never write to ~/.cache.
  setenv("NOVEM_CACHE_DIR", NOVEM_TEST_CACHE_DIR, 0);
  return Catch::Session().run(argc, argv);
}
