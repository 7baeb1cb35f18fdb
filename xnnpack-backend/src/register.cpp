// Registers "XnnpackBackend" once per load of libexecutorch_xnnpack_backend.so.1
// and removes it again when the library is finalized. The library is linked
// with -z nodelete, so a dlclose never unmaps code the registry points at.
#include <cstdint>

#include <executorch/runtime/backend/backend_plugins.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/platform/log.h>

#include "xnnpack_backend.h"

namespace xnnpack_backend {
namespace {

using executorch::runtime::Backend;
using executorch::runtime::Error;

constexpr char kBackendName[] = "XnnpackBackend";

XnnpackBackend backend_instance;

class Registrar {
 public:
  Registrar() {
    // A runtime of another plugin ABI gets nothing registered: the loader
    // reports the file as skipped.
    if (executorch::runtime::backend_plugin_abi_version() !=
        executorch::runtime::kBackendPluginAbiVersion) {
      ET_LOG(Error,
             "XnnpackBackend: built for backend plugin ABI %u, the runtime has %u: not registered",
             static_cast<unsigned>(executorch::runtime::kBackendPluginAbiVersion),
             static_cast<unsigned>(executorch::runtime::backend_plugin_abi_version()));
      return;
    }
    const Error err =
        executorch::runtime::register_backend(Backend{kBackendName, &backend_instance});
    registered_ = err == Error::Ok;
    if (!registered_) {
      // Another copy of this backend already holds the name: keep that one.
      ET_LOG(Error, "XnnpackBackend: registration failed (%s); keeping the one registered",
             executorch::runtime::to_string(err));
    }
  }
  ~Registrar() {
    if (registered_) {
      (void)executorch::runtime::unregister_backend(Backend{kBackendName, &backend_instance});
    }
  }
  Registrar(const Registrar&) = delete;
  Registrar& operator=(const Registrar&) = delete;

 private:
  bool registered_ = false;
};

Registrar registrar;

} // namespace
} // namespace xnnpack_backend

// What load_backend_plugins() checks (backend_plugins.h).
extern "C" __attribute__((visibility("default"))) const uint32_t executorch_backend_plugin_abi =
    executorch::runtime::kBackendPluginAbiVersion;
