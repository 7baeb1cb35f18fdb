// The calling thread's cuBLAS handle. Handles are not shared between threads
// (each thread drives its own stream); one is created on first use and
// destroyed when the thread exits, so nothing is left for leak checkers.
#pragma once

#include <cstdint>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "aoti/cublas_loader.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// This thread's handle bound to `stream`, and in *api the cuBLAS entry
// points to call with it (cuBLAS is loaded on the first call:
// cublas_loader.h); nullptr with the reason in *why (may be null) when
// cuBLAS cannot be loaded or the handle made.
cublasHandle_t blas_handle(cudaStream_t stream, const CublasApi** api, const char** why);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
