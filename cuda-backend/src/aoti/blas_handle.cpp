#include "blas_handle.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

namespace {

// Thread-local destructors of the main thread run in exit() before static
// destructors and before the CUDA runtime's own atexit teardown (registered
// later, at its first use), so cublasDestroy still finds a live runtime.
struct ThreadHandle {
  cublasHandle_t h = nullptr;
  bool failed = false;
  ~ThreadHandle() {
    const CublasApi* api = h != nullptr ? cublas_api(nullptr) : nullptr;
    if (api != nullptr) api->cublasDestroy_v2(h);
  }
};
thread_local ThreadHandle tl_handle;

} // namespace

cublasHandle_t blas_handle(cudaStream_t stream, const CublasApi** api, const char** why) {
  *api = cublas_api(why);
  if (*api == nullptr) return nullptr;
  ThreadHandle& t = tl_handle;
  if (t.h == nullptr) {
    if (t.failed || (*api)->cublasCreate_v2(&t.h) != CUBLAS_STATUS_SUCCESS) {
      t.h = nullptr;
      t.failed = true;
      if (why != nullptr) *why = "cublasCreate failed";
      return nullptr;
    }
  }
  if ((*api)->cublasSetStream_v2(t.h, stream) != CUBLAS_STATUS_SUCCESS) {
    if (why != nullptr) *why = "cublasSetStream failed";
    return nullptr;
  }
  return t.h;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
