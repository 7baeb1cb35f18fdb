// Host-OS helpers of the platform layer.
#pragma once

#if defined(ET_USE_LIBDL)
#include <dlfcn.h>
#endif

static constexpr const char* DYNAMIC_LIBRARY_NOT_SUPPORTED = "NOT_SUPPORTED";
static constexpr const char* DYNAMIC_LIBRARY_NOT_FOUND = "NOT_FOUND";

extern "C" {

// The path of the shared object holding `addr`, when built with
// ET_USE_LIBDL (link -ldl); otherwise DYNAMIC_LIBRARY_NOT_SUPPORTED.
inline const char* et_pal_get_shared_library_name(const void* addr) {
#if defined(ET_USE_LIBDL)
  Dl_info info;
  if (dladdr(addr, &info) != 0 && info.dli_fname != nullptr) {
    return info.dli_fname;
  }
  return DYNAMIC_LIBRARY_NOT_FOUND;
#else
  (void)addr;
  return DYNAMIC_LIBRARY_NOT_SUPPORTED;
#endif
}

} // extern "C"
