// mm, bmm, addmm and linear in fp32 through CBLAS; the portable kernels
// check the arguments (prepare_*) and compute every other dtype.
#include <vector>

#include "../portable/matmul.h"
#include "blas_gemm.h"
#include "optimized_ops.h"
#include "parallel.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

using portable::GemmCall;

// c = beta * bias (broadcast), so that the BLAS call adds the product to it.
void fill_bias(const GemmCall& g, float* c) {
  const float* bias = g.bias->const_data_ptr<float>();
  const float beta = static_cast<float>(g.beta);
  for (int64_t i = 0; i < g.n; ++i) {
    for (int64_t j = 0; j < g.m; ++j) {
      c[i * g.m + j] = beta * bias[i * g.bias_stride[0] + j * g.bias_stride[1]];
    }
  }
}

// One batch item; false when BLAS cannot take its sizes.
bool gemm_item(const GemmCall& g, int64_t item, bool serial) {
  const bool trans_b = g.b_col != 1;
  const int64_t ldb = trans_b ? g.b_col : g.b_row;
  const float* a = static_cast<const float*>(g.a) + item * g.n * g.k;
  const float* b = static_cast<const float*>(g.b) + item * g.k * g.m;
  float* c = static_cast<float*>(g.c) + item * g.n * g.m;
  float beta = 0.0f;
  if (g.bias != nullptr) {
    fill_bias(g, c);
    beta = 1.0f;
  }
  const float alpha = static_cast<float>(g.alpha);
  return serial ? sgemm_serial(trans_b, g.n, g.m, g.k, alpha, a, g.k, b, ldb, beta, c, g.m)
                : sgemm(trans_b, g.n, g.m, g.k, alpha, a, g.k, b, ldb, beta, c, g.m);
}

// True when computed here; false leaves it to the portable kernel.
bool gemm_fp32(const GemmCall& g) {
  if (g.dtype != ScalarType::Float || (g.b_col != 1 && g.b_row != 1)) return false;
  if (g.batch == 1) return gemm_item(g, 0, false);
  // Many small products (attention heads): one thread per run of items.
  bool ok = true;
  const int64_t item_work = g.n * g.m * (g.k > 0 ? g.k : 1);
  parallel_for(g.batch, (int64_t{1} << 16) / item_work + 1, [&](int64_t b0, int64_t b1) {
    for (int64_t i = b0; i < b1; ++i) {
      if (!gemm_item(g, i, true)) ok = false;
    }
  });
  return ok;
}

void run(const GemmCall& g) {
  if (!gemm_fp32(g)) portable::run_gemm(g);
}

} // namespace

void mm_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  GemmCall g;
  if (portable::prepare_mm(ctx, args, &g)) run(g);
}

void bmm_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  GemmCall g;
  if (portable::prepare_bmm(ctx, args, &g)) run(g);
}

void addmm_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  GemmCall g;
  if (portable::prepare_addmm(ctx, args, &g)) run(g);
}

void linear_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  GemmCall g;
  if (portable::prepare_linear(ctx, args, &g)) run(g);
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
