# Finds the SPIR-V libraries Debian packages and names their targets, whatever shape their CMake
# packages have: NOVEM_SPIRV_TOOLS_TARGET (SPIRV-Tools: Debian exports SPIRV-Tools-static, upstream
# spvtools:: aliases or SPIRV-Tools(-shared)) and NOVEM_SPIRV_CROSS_TARGET (SPIRV-Cross's C API,
# libspirv-cross-c-shared-dev: a CMake package, else pkg-config). Include it where they are used.
find_package(SPIRV-Tools CONFIG REQUIRED)
unset(NOVEM_SPIRV_TOOLS_TARGET)
foreach(candidate spvtools::SpirvTools SPIRV-Tools-static SPIRV-Tools SPIRV-Tools-shared)
  if(TARGET ${candidate})
    set(NOVEM_SPIRV_TOOLS_TARGET ${candidate})
    break()
  endif()
endforeach()
if(NOT NOVEM_SPIRV_TOOLS_TARGET)
  message(FATAL_ERROR "SPIRV-Tools found but none of its library targets (install spirv-tools)")
endif()

find_package(spirv_cross_c_shared CONFIG QUIET)
if(TARGET spirv-cross-c-shared)
  set(NOVEM_SPIRV_CROSS_TARGET spirv-cross-c-shared)
else()
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(NOVEM_SPIRV_CROSS_C REQUIRED IMPORTED_TARGET spirv-cross-c-shared)
  set(NOVEM_SPIRV_CROSS_TARGET PkgConfig::NOVEM_SPIRV_CROSS_C)
endif()
