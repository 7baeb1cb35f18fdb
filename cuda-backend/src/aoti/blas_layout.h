// Mapping shim tensors onto cuBLAS: element types, and row-major strided
// matrices as column-major operands. Shared by the matmul and SDPA fallbacks.
#pragma once

#include <algorithm>
#include <cstdint>

#include <cublas_v2.h>

#include "shim_internal.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// cuBLAS type of a c10 dtype code (float32, float16, bfloat16, float64).
inline bool cuda_type(int32_t dtype, cudaDataType_t* t) {
  switch (dtype) {
    case kDtF32:
      *t = CUDA_R_32F;
      return true;
    case kDtF16:
      *t = CUDA_R_16F;
      return true;
    case kDtBF16:
      *t = CUDA_R_16BF;
      return true;
    case kDtF64:
      *t = CUDA_R_64F;
      return true;
    default:
      return false;
  }
}

// A row-major [rows, cols] matrix view with strides (s0, s1) expressed as a
// cuBLAS column-major operand of its transpose: op N with ld s0 when rows are
// contiguous, op T with ld s1 when columns are.
inline bool operand(int64_t rows, int64_t cols, int64_t s0, int64_t s1, cublasOperation_t* op,
                    int64_t* ld) {
  if ((s1 == 1 || cols == 1) && (s0 >= cols || rows == 1)) {
    *op = CUBLAS_OP_N;
    *ld = std::max<int64_t>({s0, cols, 1});
    return true;
  }
  if ((s0 == 1 || rows == 1) && (s1 >= rows || cols == 1)) {
    *op = CUBLAS_OP_T;
    *ld = std::max<int64_t>({s1, rows, 1});
    return true;
  }
  return false;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
