#include "plugins.h"

#include <dlfcn.h>

#include <executorch/runtime/backend/interface.h>

#include "errors.h"

namespace et_run {

void load_plugins() {
  for (const char* soname : {"libexecutorch_cuda_backend.so.1"}) {
    // The handle stays open for the life of the process on purpose.
    if (::dlopen(soname, RTLD_NOW | RTLD_GLOBAL) == nullptr) {
      const char* err = ::dlerror();
      note("plugin %s not loaded: %s", soname, err != nullptr ? err : "unknown error");
    } else {
      note("loaded plugin %s", soname);
    }
  }
}

BackendState backend_state(const char* name) {
  rt::BackendInterface* b = rt::get_backend_class(name);
  if (b == nullptr) {
    return {false, false};
  }
  return {true, b->is_available()};
}

} // namespace et_run
