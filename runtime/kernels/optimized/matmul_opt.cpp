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

using ::executorch::aten::TensorImpl;
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
  parallel_for(g.batch, grain_for(item_work), [&](int64_t b0, int64_t b1) {
    for (int64_t i = b0; i < b1; ++i) {
      if (!gemm_item(g, i, true)) ok = false;
    }
  });
  return ok;
}

// Half and BFloat16 widened to float (exactly), multiplied by the fp32 path
// and rounded back once, as the portable kernel rounds its double result
// once. The float copies live in per-thread scratch that grows to the
// largest product seen (the operands' sizes, in float).
template <typename T>
void widen(const void* src, int64_t n, std::vector<float>& dst) {
  dst.resize(static_cast<size_t>(n));
  const T* s = static_cast<const T*>(src);
  for (int64_t i = 0; i < n; ++i) dst[static_cast<size_t>(i)] = static_cast<float>(s[i]);
}

template <typename T>
bool gemm_reduced(const GemmCall& g) {
  thread_local std::vector<float> a, b, bias, c;
  widen<T>(g.a, g.batch * g.n * g.k, a);
  widen<T>(g.b, g.batch * g.k * g.m, b);
  GemmCall f = g;
  f.dtype = ScalarType::Float;
  f.a = a.data();
  f.b = b.data();
  c.resize(static_cast<size_t>(g.batch * g.n * g.m));
  f.c = c.data();
  // The bias as a float tensor of as many elements (fill_bias reads it
  // through the call's bias strides).
  if (g.bias != nullptr) widen<T>(g.bias->const_data_ptr(), g.bias->numel(), bias);
  TensorImpl::SizesType bias_size[1] = {static_cast<TensorImpl::SizesType>(bias.size())};
  TensorImpl bias_impl(ScalarType::Float, 1, bias_size, bias.data());
  Tensor bias_f(&bias_impl);
  if (g.bias != nullptr) f.bias = &bias_f;
  if (!gemm_fp32(f)) return false;
  T* out = static_cast<T*>(g.c);
  for (size_t i = 0; i < c.size(); ++i) out[i] = static_cast<T>(c[i]);
  return true;
}

void run(const GemmCall& g) {
  bool done = false;
  switch (g.dtype) {
    case ScalarType::Float:
      done = gemm_fp32(g);
      break;
    case ScalarType::Half:
      done = gemm_reduced<::executorch::aten::Half>(g);
      break;
    case ScalarType::BFloat16:
      done = gemm_reduced<::executorch::aten::BFloat16>(g);
      break;
    default:
      break;
  }
  if (!done) portable::run_gemm(g);
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
