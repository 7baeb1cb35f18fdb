#include "aoti/optional_library.h"

#include <dlfcn.h>

#include <cstdio>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

void* open_optional_library(const char* lib_name, const char* needed_for, char* why,
                            size_t why_size) {
  void* lib = dlopen(lib_name, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* e = dlerror();
    std::snprintf(why, why_size, "%s but %s could not be loaded (%s)", needed_for, lib_name,
                  e != nullptr ? e : "unknown dlopen error");
  }
  return lib;
}

void* resolve_optional_symbol(void* lib, const char* lib_name, const char* symbol, const char* hint,
                              char* why, size_t why_size) {
  void* p = dlsym(lib, symbol);
  if (p == nullptr) {
    std::snprintf(why, why_size, "%s lacks the symbol %s%s", lib_name, symbol, hint);
  }
  return p;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
