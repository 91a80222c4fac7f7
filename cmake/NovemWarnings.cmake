# Warnings on and clean for everything Novem compiles; sanitizers when NOVEM_SANITIZE is set.
if(NOT TARGET novem_warnings)
  add_library(novem_warnings INTERFACE)
  target_compile_options(novem_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow
    -Wno-missing-field-initializers $<$<BOOL:${NOVEM_WERROR}>:-Werror>)
  if(NOVEM_SANITIZE)
    target_compile_options(novem_warnings INTERFACE -fsanitize=${NOVEM_SANITIZE} -fno-omit-frame-pointer)
    target_link_options(novem_warnings INTERFACE -fsanitize=${NOVEM_SANITIZE})
    # GCC warns that ThreadSanitizer does not model standalone fences. The one fence (Waiter::wake,
    # Dekker's handshake with the sleeping flag) only decides whether to make the futex call; what
    # one thread hands the other goes through release/acquire atomics, which TSan does model.
    if(NOVEM_SANITIZE MATCHES "thread" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(novem_warnings INTERFACE -Wno-tsan)
    endif()
  endif()
endif()
