// Registers "CudaBackend" (cuda_backend.h), its CUDA DeviceAllocator
// (cuda_allocator.h) and the et_copy kernels (copy_kernels.h) once per load
// of libexecutorch_cuda_backend.so.1, and removes the backend and allocator
// again when the library is finalized. The library is linked with
// -z nodelete, so a dlclose never unmaps code the registry points at.
#include <cstdint>

#include <executorch/runtime/backend/backend_plugins.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/device_allocator.h>
#include <executorch/runtime/platform/log.h>

#include "copy_kernels.h"
#include "cuda_allocator.h"
#include "cuda_backend.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace {

using runtime::Backend;
using runtime::Error;

constexpr char kBackendName[] = "CudaBackend";

CudaBackend backend_instance;

class Registrar {
 public:
  Registrar() {
    // A runtime of another plugin ABI (same SONAME, older or newer) gets
    // nothing registered: the loader reports the file as skipped.
    if (runtime::backend_plugin_abi_version() != runtime::kBackendPluginAbiVersion) {
      ET_LOG(Error,
             "CudaBackend: built for backend plugin ABI %u, the runtime has %u: not registered",
             static_cast<unsigned>(runtime::kBackendPluginAbiVersion),
             static_cast<unsigned>(runtime::backend_plugin_abi_version()));
      return;
    }
    register_copy_kernels();
    const Error err = runtime::register_backend(Backend{kBackendName, &backend_instance});
    registered_ = err == Error::Ok;
    if (!registered_) {
      // Another copy of this backend already holds the name: keep that one.
      ET_LOG(Error, "CudaBackend: registration failed (%s); keeping the one registered",
             runtime::to_string(err));
    }
    // A CUDA allocator registered by another copy of this library stays;
    // only the first registration succeeds (no abort on the duplicate).
    if (runtime::get_device_allocator(runtime::etensor::DeviceType::CUDA) == nullptr) {
      allocator_registered_ =
          runtime::register_device_allocator(&cuda_device_allocator()) == Error::Ok;
    }
  }
  ~Registrar() {
    if (allocator_registered_) {
      (void)runtime::unregister_device_allocator(&cuda_device_allocator());
    }
    if (registered_) {
      (void)runtime::unregister_backend(Backend{kBackendName, &backend_instance});
    }
  }
  Registrar(const Registrar&) = delete;
  Registrar& operator=(const Registrar&) = delete;

 private:
  bool registered_ = false;
  bool allocator_registered_ = false;
};

Registrar registrar;

} // namespace
} // namespace cuda
} // namespace backends
} // namespace executorch

// What load_backend_plugins() checks (backend_plugins.h).
extern "C" __attribute__((visibility("default"))) const uint32_t executorch_backend_plugin_abi =
    executorch::runtime::kBackendPluginAbiVersion;
