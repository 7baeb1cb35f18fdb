// Layer norm and inference batch norm as checked call descriptions: the
// portable and the optimized kernels share the argument checking (prepare_*)
// and differ only in how they compute it.
#pragma once

#include "kernel_util.h"

namespace executorch {
namespace runtime {
namespace portable {

// native_layer_norm: `outer` rows of `inner` contiguous elements, weight and
// bias (either may be null) of `inner` elements, all of in's dtype; the three
// outputs are resized.
struct LayerNormCall {
  const Tensor* in;
  const Tensor* w;
  const Tensor* b;
  double eps;
  int64_t outer, inner;
  Tensor* out;
  Tensor* mean_out;
  Tensor* rstd_out;
};

bool prepare_layer_norm(KernelRuntimeContext& ctx, Args args, LayerNormCall* call);
void layer_norm_rows(const Tensor& in, const Tensor* w, const Tensor* b, double eps, int64_t outer,
                     int64_t inner, Tensor& out, Tensor& mean_out, Tensor& rstd_out);

// _native_batch_norm_legit_no_training: in is (N, C, inner...) contiguous;
// w and b may be null; the per-channel tensors are floating, maybe of
// another dtype than in; out is resized.
struct BatchNormCall {
  const Tensor* in;
  const Tensor* w;
  const Tensor* b;
  const Tensor* rm;
  const Tensor* rv;
  double eps;
  int64_t N, C, inner;
  Tensor* out;
};

bool prepare_batch_norm(KernelRuntimeContext& ctx, Args args, BatchNormCall* call);
void batch_norm_rows(const BatchNormCall& call);

} // namespace portable
} // namespace runtime
} // namespace executorch
