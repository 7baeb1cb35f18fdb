// Registers "CudaBackend" once per load of libexecutorch_cuda_backend.so.1 and
// removes it again when the library is finalized. The library is linked with
// -z nodelete, so a dlclose never unmaps code the registry points at.
//
// Options answered here (BackendInterface::get_option / executorch::runtime::
// get_option("CudaBackend", ...)):
//   "caller_stream" -> string: "none" when no CallerStreamGuard is live on
//                      this thread, else the stream as "0x<hex>" ("0x0" for
//                      the legacy default stream). It shows which caller
//                      stream this backend sees (one state per process).
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/platform/log.h>

#include "aoti/copy_kernels.h"
#include "cuda_backend.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace {

using runtime::Backend;
using runtime::BackendOption;
using runtime::BackendOptionContext;
using runtime::Error;
using runtime::Span;

constexpr char kBackendName[] = "CudaBackend";

class RegisteredCudaBackend final : public CudaBackend {
 public:
  Error get_option(BackendOptionContext& context,
                   Span<BackendOption>& options) override {
    for (BackendOption& option : options) {
      if (std::strcmp(option.key, "caller_stream") == 0) {
        std::array<char, runtime::kMaxOptionValueLength> text{};
        const auto stream = extension::cuda::getCallerStream();
        if (stream.has_value()) {
          std::snprintf(text.data(), text.size(), "0x%" PRIxPTR,
                        reinterpret_cast<uintptr_t>(*stream));
        } else {
          std::snprintf(text.data(), text.size(), "none");
        }
        option.value = text;
      }
    }
    return CudaBackend::get_option(context, options);
  }
};

RegisteredCudaBackend backend_instance;

class Registrar {
 public:
  Registrar() {
    register_copy_kernels();
    const Error err = runtime::register_backend(Backend{kBackendName, &backend_instance});
    registered_ = err == Error::Ok;
    if (!registered_) {
      // Another copy of this backend already holds the name: keep that one.
      ET_LOG(Error, "CudaBackend: registration failed (%s); keeping the one registered",
             runtime::to_string(err));
    }
  }
  ~Registrar() {
    if (registered_) {
      (void)runtime::unregister_backend(Backend{kBackendName, &backend_instance});
    }
  }
  Registrar(const Registrar&) = delete;
  Registrar& operator=(const Registrar&) = delete;

 private:
  bool registered_ = false;
};

Registrar registrar;

} // namespace
} // namespace cuda
} // namespace backends
} // namespace executorch
