// fp32 GEMM through the system CBLAS, split over the thread pool.
#pragma once

#include <cstdint>

namespace executorch {
namespace runtime {
namespace optimized {

// c (m x n, row stride ldc) = alpha * a (m x k, row stride lda) @ op(b)
//                             + beta * c,
// where op(b) is b (k x n, row stride ldb) or, with trans_b, the transpose of
// b (n x k, row stride ldb). False, with c untouched, when a size does not
// fit the BLAS integer type: the caller then computes it another way.
bool sgemm(bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
           const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

// The same on the calling thread alone (for callers that split work
// themselves).
bool sgemm_serial(bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                  int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

} // namespace optimized
} // namespace runtime
} // namespace executorch
