// The calling thread's cuBLAS handle. Handles are not shared between threads
// (each thread drives its own stream); one is created on first use and
// destroyed when the thread exits, so nothing is left for leak checkers.
#pragma once

#include <cstdint>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// This thread's handle bound to `stream`; nullptr when cublasCreate fails.
cublasHandle_t blas_handle(cudaStream_t stream);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
