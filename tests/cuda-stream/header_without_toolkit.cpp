// caller_stream.h must compile with no CUDA header on the include path (this
// target gets none) and must not drag in cuda_runtime.h.
#include <executorch/extension/cuda/caller_stream.h>

#if defined(__CUDA_RUNTIME_H__) || defined(__CUDA_RUNTIME_API_H__)
#error "caller_stream.h pulled in a CUDA toolkit header"
#endif

int main() {
  cudaStream_t s = nullptr;
  executorch::extension::cuda::CallerStreamGuard guard(s);
  return executorch::extension::cuda::getCallerStream().has_value() ? 0 : 1;
}
