// Matrix products (mm, bmm, addmm, linear) as a checked call description: the
// portable and the optimized kernels share the argument checking (prepare_*)
// and differ only in how they compute it.
#pragma once

#include "kernel_util.h"

namespace executorch {
namespace runtime {
namespace portable {

// c[b] (n x m) = alpha * a[b] (n x k) @ b[b] (k x m) + beta * bias, for b in
// [0, batch); b is read with strides (b_row, b_col) (linear reads its weight
// transposed) and bias, when not null, at i * bias_stride[0] + j * bias_stride[1].
// Every tensor is contiguous and of one dtype; out is already resized.
struct GemmCall {
  ScalarType dtype;
  int64_t batch, n, k, m;
  const void* a;
  const void* b;
  int64_t b_row, b_col;
  void* c;
  double alpha, beta;
  const Tensor* bias;
  int64_t bias_stride[2];
};

// Each reads and checks one operator's arguments, resizes out and fills
// *call; false (after failing ctx) when the arguments are wrong.
bool prepare_mm(KernelRuntimeContext& ctx, Args args, GemmCall* call);
bool prepare_bmm(KernelRuntimeContext& ctx, Args args, GemmCall* call);
bool prepare_addmm(KernelRuntimeContext& ctx, Args args, GemmCall* call);
bool prepare_linear(KernelRuntimeContext& ctx, Args args, GemmCall* call);

// The reference computation (double accumulation; exact wrapping integers).
void run_gemm(const GemmCall& call);

} // namespace portable
} // namespace runtime
} // namespace executorch
