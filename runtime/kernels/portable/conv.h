// Convolution as a checked call description: the portable and the optimized
// kernels share the argument checking (prepare_convolution) and differ only in
// how they compute it.
#pragma once

#include "kernel_util.h"

namespace executorch {
namespace runtime {
namespace portable {

// Sizes, stride, padding and dilation of one convolution; 1-D runs with H=1.
// ICg is the input channels per group.
struct ConvGeom {
  int64_t N, C, H, W, OC, ICg, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw, groups;
};

// A checked, non-transposed convolution: contiguous tensors of one floating
// dtype, out already resized to (N, OC, OH, OW) (or (N, OC, OW) for 1-D).
struct ConvCall {
  const Tensor* in;
  const Tensor* w;
  const Tensor* bias;  // null when absent
  Tensor* out;
  ConvGeom g;
};

bool prepare_convolution(KernelRuntimeContext& ctx, Args args, ConvCall* call);

// The reference computation (double accumulation).
void conv_direct(const Tensor& in, const Tensor& w, const Tensor* bias, Tensor& out,
                 const ConvGeom& g);

} // namespace portable
} // namespace runtime
} // namespace executorch
