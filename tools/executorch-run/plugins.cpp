#include "plugins.h"

#include <cstdio>

#include <executorch/runtime/backend/backend_plugins.h>
#include <executorch/runtime/backend/interface.h>

namespace rt = ::executorch::runtime;

namespace et_run {

void load_plugins(const char* prog, bool verbose) {
  const size_t loaded = rt::load_backend_plugins();
  if (verbose) {
    std::fprintf(stderr,
                 "%s: note: %zu backend plugin(s) loaded from EXECUTORCH_BACKEND_PATH and %s\n",
                 prog, loaded, rt::backend_plugin_dir());
  }
  if (rt::get_backend_class("CudaBackend") != nullptr) {
    return;
  }
  // The soname reaches a backend the loader path finds but no plugin
  // directory lists (a build tree on LD_LIBRARY_PATH). It goes through the
  // same ABI check as a plugin file; loading is idempotent, so a backend
  // reached both ways registers once.
  const char* soname = "libexecutorch_cuda_backend.so.1";
  const rt::Error err = rt::load_backend_plugin(soname);
  if (verbose) {
    std::fprintf(stderr, "%s: note: %s %s (%s)\n", prog,
                 err == rt::Error::Ok ? "loaded" : "did not load", soname, rt::to_string(err));
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
