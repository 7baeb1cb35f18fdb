// fp32 GEMM through CBLAS. The BLAS is asked to stay on one thread (when it
// has a knob for that) and the product is split over the process's pool, so
// that --threads / EXECUTORCH_NUM_THREADS bound every thread the runtime uses
// and BLAS threads never pile up under pool threads.
#include "blas_gemm.h"

#include <dlfcn.h>

#include <climits>
#include <mutex>

#include <cblas.h>

#include "parallel.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

// OpenBLAS, BLIS and FlexiBLAS each have their own thread-count call, none of
// them in CBLAS; whichever is loaded is found at run time.
void keep_blas_single_threaded() {
  static std::once_flag once;
  std::call_once(once, [] {
    using SetInt = void (*)(int);
    using SetLong = void (*)(long);
    if (auto f = reinterpret_cast<SetInt>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) f(1);
    if (auto f = reinterpret_cast<SetInt>(dlsym(RTLD_DEFAULT, "flexiblas_set_num_threads"))) f(1);
    if (auto f = reinterpret_cast<SetLong>(dlsym(RTLD_DEFAULT, "bli_thread_set_num_threads"))) {
      f(1);
    }
  });
}

bool fits_blas_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

enum class Plan { Unfit, Done, Call };

// What a product needs before CBLAS sees it. Unfit: a size outside the BLAS
// integer type, or a leading dimension below what BLAS requires (a BLAS may
// report that through xerbla, which in the reference BLAS ends the process).
// Done: nothing for BLAS to do (m or n is 0), or k == 0, where c = beta * c
// is written here (k == 0 comes with leading dimensions of 0). Call: go on,
// with BLAS kept on one thread.
Plan plan_sgemm(bool trans_b, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                int64_t ldc, float beta, float* c) {
  if (!fits_blas_int(m) || !fits_blas_int(n) || !fits_blas_int(k) || !fits_blas_int(lda) ||
      !fits_blas_int(ldb) || !fits_blas_int(ldc)) {
    return Plan::Unfit;
  }
  if (m == 0 || n == 0) return Plan::Done;
  if (k == 0) {
    for (int64_t i = 0; i < m; ++i) {
      float* row = c + i * ldc;
      for (int64_t j = 0; j < n; ++j) row[j] = beta == 0.0f ? 0.0f : beta * row[j];
    }
    return Plan::Done;
  }
  if (lda < k || ldb < (trans_b ? k : n) || ldc < n) return Plan::Unfit;
  keep_blas_single_threaded();
  return Plan::Call;
}

void call_sgemm(bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), alpha, a, static_cast<int>(lda), b,
              static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
}

} // namespace

bool sgemm_serial(bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                  int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  const Plan plan = plan_sgemm(trans_b, m, n, k, lda, ldb, ldc, beta, c);
  if (plan != Plan::Call) return plan == Plan::Done;
  call_sgemm(trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  return true;
}

bool sgemm(bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
           const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  const Plan plan = plan_sgemm(trans_b, m, n, k, lda, ldb, ldc, beta, c);
  if (plan != Plan::Call) return plan == Plan::Done;
  const int64_t row_work = n * (k > 0 ? k : 1);
  if (m >= n) {
    // Split the rows of a and c.
    parallel_for(m, grain_for(row_work), [&](int64_t r0, int64_t r1) {
      call_sgemm(trans_b, r1 - r0, n, k, alpha, a + r0 * lda, lda, b, ldb, beta, c + r0 * ldc, ldc);
    });
  } else {
    // Split the columns of op(b) and c.
    const int64_t col_work = m * (k > 0 ? k : 1);
    parallel_for(n, grain_for(col_work), [&](int64_t c0, int64_t c1) {
      const float* bc = trans_b ? b + c0 * ldb : b + c0;
      call_sgemm(trans_b, m, c1 - c0, k, alpha, a, lda, bc, ldb, beta, c + c0, ldc);
    });
  }
  return true;
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
