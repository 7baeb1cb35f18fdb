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
    if (h != nullptr) cublasDestroy(h);
  }
};
thread_local ThreadHandle tl_handle;

} // namespace

cublasHandle_t blas_handle(cudaStream_t stream) {
  ThreadHandle& t = tl_handle;
  if (t.h == nullptr) {
    if (t.failed) return nullptr;
    if (cublasCreate(&t.h) != CUBLAS_STATUS_SUCCESS) {
      t.h = nullptr;
      t.failed = true;
      return nullptr;
    }
  }
  if (cublasSetStream(t.h, stream) != CUBLAS_STATUS_SUCCESS) return nullptr;
  return t.h;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
