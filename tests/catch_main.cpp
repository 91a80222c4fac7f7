// The one main() every Catch2 test executable shares.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
