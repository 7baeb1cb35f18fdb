// The caller stream: a per-thread choice of the CUDA stream that GPU
// backends should run on. Its state lives in libexecutorch_extension_cuda.so.1
// only, so the caller and every backend in the process see the same value.
//
// This header does not need the CUDA toolkit.
#pragma once

#include <optional>
#include <type_traits>

#include <executorch/extension/cuda/export.h>

#if defined(EXECUTORCH_USE_HIP)
#include <runtime_api.h>
#else
typedef struct CUstream_st* cudaStream_t;
#endif

namespace executorch {
namespace extension {
namespace cuda {

static_assert(std::is_trivially_copyable_v<std::optional<cudaStream_t>>,
              "the caller stream state must be trivially copyable");

// The stream of the innermost live CallerStreamGuard on this thread, or
// nullopt when there is none. A guard made with nullptr (the legacy default
// stream) still counts: has_value() is true.
EXECUTORCH_EXTENSION_CUDA_API std::optional<cudaStream_t> getCallerStream();

// Selects `stream` for this thread until destruction, then restores the
// previous selection, so guards nest.
class EXECUTORCH_EXTENSION_CUDA_API CallerStreamGuard {
 public:
  explicit CallerStreamGuard(cudaStream_t stream);
  ~CallerStreamGuard();

  CallerStreamGuard(const CallerStreamGuard&) = delete;
  CallerStreamGuard& operator=(const CallerStreamGuard&) = delete;
  CallerStreamGuard(CallerStreamGuard&&) = delete;
  CallerStreamGuard& operator=(CallerStreamGuard&&) = delete;

 private:
  std::optional<cudaStream_t> previous_;
};

} // namespace cuda
} // namespace extension
} // namespace executorch
