# Novem's public Direct3D 9 headers: `#include <d3d9.h>` for Linux programs.
#
#   include(cmake/D3D9Headers.cmake)      # from frontend/CMakeLists.txt
#   target_link_libraries(x PUBLIC novem_d3d9_headers)   # or Novem::d3d9_headers
#
# The headers are mingw-w64's d3d9.h, d3d9types.h and d3d9caps.h, used unchanged, on top of a small
# Windows-types shim of our own (frontend/include: windows.h, objbase.h, unknwn.h, guiddef.h, ...).
#
# Why the mingw-w64 headers are copied at configure time and not committed: they are LGPL-2.1
# (Wine-derived) and maintained upstream; keeping them out of the repository keeps Novem's sources
# under one licence and lets a distribution's mingw-w64 update reach us without a merge. They are
# not used in place either, because /usr/share/mingw-w64/include holds a whole Windows SDK
# (windows.h, objbase.h, ...) that would shadow the shim; so the three files are copied alone into
# a directory of the build tree.
#
# Defines:
#   novem_d3d9_headers, alias Novem::d3d9_headers   INTERFACE target; its include directories are
#       the shim dir and the copied-headers dir. The copied-headers dir is a SYSTEM include
#       directory: mingw-w64's headers are not -Wpedantic-clean (anonymous structs in D3DMATRIX,
#       0xFFFFFFFF enumerators in C), the shim files carry `#pragma GCC system_header` themselves.
#   NOVEM_MINGW_W64_INCLUDE_DIR       (cache) where d3d9.h is copied from
#   NOVEM_D3D9_SHIM_INCLUDE_DIR       frontend/include
#   NOVEM_D3D9_GENERATED_INCLUDE_DIR  the build-tree dir holding the copies
#   NOVEM_D3D9_INSTALL_INCLUDEDIR     ${CMAKE_INSTALL_INCLUDEDIR}/novem-d3d9
# Set NOVEM_D3D9_HEADERS_EXPORT to an export-set name before including this file to add the
# target to that export set (needed when an exported target links novem_d3d9_headers PUBLIC).
#
# Install: shim + copies go to ${CMAKE_INSTALL_INCLUDEDIR}/novem-d3d9/, so installed programs build
# with -I<prefix>/include/novem-d3d9 (or -isystem, to keep -Wpedantic quiet about mingw's headers).
include(GNUInstallDirs)

find_path(NOVEM_MINGW_W64_INCLUDE_DIR
  NAMES d3d9.h d3d9types.h d3d9caps.h
  PATHS /usr/share/mingw-w64/include /usr/x86_64-w64-mingw32/include
  NO_DEFAULT_PATH
  DOC "mingw-w64 include directory providing d3d9.h, d3d9types.h and d3d9caps.h")
if(NOT NOVEM_MINGW_W64_INCLUDE_DIR)
  message(FATAL_ERROR "mingw-w64's d3d9.h not found: install mingw-w64-common "
                      "(scripts/install-deps.sh) or set NOVEM_MINGW_W64_INCLUDE_DIR")
endif()

cmake_path(ABSOLUTE_PATH CMAKE_CURRENT_LIST_DIR NORMALIZE OUTPUT_VARIABLE _novem_d3d9_cmake_dir)
cmake_path(GET _novem_d3d9_cmake_dir PARENT_PATH _novem_d3d9_frontend_dir)
set(NOVEM_D3D9_SHIM_INCLUDE_DIR ${_novem_d3d9_frontend_dir}/include)
set(NOVEM_D3D9_GENERATED_INCLUDE_DIR ${CMAKE_BINARY_DIR}/generated/novem-d3d9/include)
set(NOVEM_D3D9_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/novem-d3d9)
unset(_novem_d3d9_cmake_dir)
unset(_novem_d3d9_frontend_dir)

# The variables above are set in every including scope; the rest happens once.
include_guard(GLOBAL)

set(_novem_d3d9_copied)
foreach(header d3d9.h d3d9types.h d3d9caps.h)
  if(NOT EXISTS ${NOVEM_MINGW_W64_INCLUDE_DIR}/${header})
    message(FATAL_ERROR "${NOVEM_MINGW_W64_INCLUDE_DIR}/${header} is missing")
  endif()
  # COPYONLY: byte-for-byte; a change of the source file re-runs the configure step.
  configure_file(${NOVEM_MINGW_W64_INCLUDE_DIR}/${header}
                 ${NOVEM_D3D9_GENERATED_INCLUDE_DIR}/${header} COPYONLY)
  list(APPEND _novem_d3d9_copied ${NOVEM_D3D9_GENERATED_INCLUDE_DIR}/${header})
endforeach()

add_library(novem_d3d9_headers INTERFACE)
add_library(Novem::d3d9_headers ALIAS novem_d3d9_headers)
target_include_directories(novem_d3d9_headers INTERFACE
  $<BUILD_INTERFACE:${NOVEM_D3D9_SHIM_INCLUDE_DIR}>
  $<INSTALL_INTERFACE:${NOVEM_D3D9_INSTALL_INCLUDEDIR}>)
target_include_directories(novem_d3d9_headers SYSTEM INTERFACE
  $<BUILD_INTERFACE:${NOVEM_D3D9_GENERATED_INCLUDE_DIR}>)

install(DIRECTORY ${NOVEM_D3D9_SHIM_INCLUDE_DIR}/
        DESTINATION ${NOVEM_D3D9_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(FILES ${_novem_d3d9_copied} DESTINATION ${NOVEM_D3D9_INSTALL_INCLUDEDIR})
if(NOVEM_D3D9_HEADERS_EXPORT)
  install(TARGETS novem_d3d9_headers EXPORT ${NOVEM_D3D9_HEADERS_EXPORT})
endif()

unset(_novem_d3d9_copied)
