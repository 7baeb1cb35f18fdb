// _softmax and _log_softmax as a checked call description, shared by the
// portable and the optimized kernels.
#pragma once

#include "kernel_util.h"

namespace executorch {
namespace runtime {
namespace portable {

// in and out (resized, same floating dtype, contiguous) seen as
// outer x size x inner, normalized over `size`.
struct SoftmaxCall {
  const Tensor* in;
  Tensor* out;
  int64_t outer, size, inner;
  bool log;
};

bool prepare_softmax(KernelRuntimeContext& ctx, Args args, bool log, SoftmaxCall* call);
void softmax_rows(const SoftmaxCall& call);

} // namespace portable
} // namespace runtime
} // namespace executorch
