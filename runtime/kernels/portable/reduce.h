// sum/mean over dims and group norm as checked call descriptions: the
// portable and the optimized kernels share the argument checking (prepare_*)
// and differ only in how they compute it.
#pragma once

#include "kernel_util.h"

namespace executorch {
namespace runtime {
namespace portable {

// sum.IntList_out / mean.out: in and out contiguous, out resized. When the
// reduced dims are one run of consecutive dims, the input is (outer, count,
// inner) and out is (outer, inner); `run` says so.
struct SumMeanCall {
  const Tensor* in;
  Tensor* out;
  bool mask[kMaxDim];
  bool mean;
  bool run;
  int64_t outer, count, inner;
};

bool prepare_sum_mean(KernelRuntimeContext& ctx, Args args, bool mean, SumMeanCall* call);
void sum_mean_compute(const SumMeanCall& call);

// native_group_norm.out: in is (N, C, *) in any dim order, weight and bias
// (either null) floating of shape (C); the three outputs are resized.
struct GroupNormCall {
  const Tensor* in;
  const Tensor* w;
  const Tensor* b;
  Tensor* out;
  Tensor* mean_out;
  Tensor* rstd_out;
  int64_t N, C, HxW, group;
  double eps;
};

bool prepare_group_norm(KernelRuntimeContext& ctx, Args args, GroupNormCall* call);
void group_norm_compute(const GroupNormCall& call);

} // namespace portable
} // namespace runtime
} // namespace executorch
