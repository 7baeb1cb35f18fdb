// cuBLAS, loaded on first use with dlopen("libcublas.so.<major>") so that
// the backend carries no NEEDED entry for it: libcublas and libcublasLt
// (~600 MB) took most of the backend's load time, and programs whose
// matrix products are Triton kernels (upstream's exporter compiles them so)
// never call cuBLAS at all. cublas_v2.h gives types and prototypes only.
#pragma once

#include <cublas_v2.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// The C entry points (cublas_api.h also declares C++ overloads of the gemm
// functions, so their types are spelled out here).
using CublasGemmExFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                          int, int, const void*, const void*, cudaDataType, int,
                                          const void*, cudaDataType, int, const void*, void*,
                                          cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
using CublasGemmStridedBatchedExFn = cublasStatus_t (*)(
    cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*, const void*,
    cudaDataType, int, long long, const void*, cudaDataType, int, long long, const void*, void*,
    cudaDataType, int, long long, int, cublasComputeType_t, cublasGemmAlgo_t);

// X(name, type) for every cuBLAS entry point the shim uses (the _v2 names
// are what cublas_v2.h's cublasCreate & co. stand for).
#define AOTI_CUBLAS_FUNCTIONS(X)                         \
  X(cublasCreate_v2, decltype(&::cublasCreate_v2))       \
  X(cublasDestroy_v2, decltype(&::cublasDestroy_v2))     \
  X(cublasSetStream_v2, decltype(&::cublasSetStream_v2)) \
  X(cublasGemmEx, CublasGemmExFn)                        \
  X(cublasGemmStridedBatchedEx, CublasGemmStridedBatchedExFn)

struct CublasApi {
#define AOTI_CUBLAS_MEMBER(name, type) type name = nullptr;
  AOTI_CUBLAS_FUNCTIONS(AOTI_CUBLAS_MEMBER)
#undef AOTI_CUBLAS_MEMBER
};

// The loaded API (opened once, thread-safely, never closed); nullptr when
// the library or one of its symbols is missing, with the reason in *why
// (static storage; why may be null).
const CublasApi* cublas_api(const char** why);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
