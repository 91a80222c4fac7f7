# Warnings on and clean for everything Novem compiles; sanitizers when NOVEM_SANITIZE is set.
if(NOT TARGET novem_warnings)
  add_library(novem_warnings INTERFACE)
  target_compile_options(novem_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow
    -Wno-missing-field-initializers $<$<BOOL:${NOVEM_WERROR}>:-Werror>)
  if(NOVEM_SANITIZE)
    target_compile_options(novem_warnings INTERFACE -fsanitize=${NOVEM_SANITIZE} -fno-omit-frame-pointer)
    target_link_options(novem_warnings INTERFACE -fsanitize=${NOVEM_SANITIZE})
  endif()
endif()
