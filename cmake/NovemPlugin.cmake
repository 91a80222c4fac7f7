# novem_add_plugin(<name> SOURCES...): a backend plugin, built as lib/libnovem_<name>.so beside
# the frontend in a build tree and installed into the plugin directory. Shared by the plugins'
# own CMake projects; each includes it by relative path, so it works in and out of the superbuild.
include(GNUInstallDirs)
if(NOT DEFINED NOVEM_PLUGIN_INSTALL_DIR)
  set(NOVEM_PLUGIN_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/novem/plugins)
endif()

function(novem_add_plugin name)
  add_library(novem_${name} MODULE ${ARGN})
  target_link_libraries(novem_${name} PRIVATE Novem::backend)
  target_compile_features(novem_${name} PRIVATE cxx_std_20)
  set_target_properties(novem_${name} PROPERTIES
    PREFIX "lib"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(NOVEM_OUTPUT_DIR)
    set_target_properties(novem_${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${NOVEM_OUTPUT_DIR})
  endif()
  target_link_options(novem_${name} PRIVATE -Wl,--no-undefined)
  install(TARGETS novem_${name} LIBRARY DESTINATION ${NOVEM_PLUGIN_INSTALL_DIR})
endfunction()
