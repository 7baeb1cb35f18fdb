// Convolution and max pooling as checked call descriptions: the portable and the optimized
// kernels share the argument checking (prepare_convolution) and differ only in
// how they compute it.
#pragma once

#include <cmath>

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
  const Tensor* bias; // null when absent
  Tensor* out;
  ConvGeom g;
};

bool prepare_convolution(KernelRuntimeContext& ctx, Args args, ConvCall* call);

// The reference computation (double accumulation).
void conv_direct(const Tensor& in, const Tensor& w, const Tensor* bias, Tensor& out,
                 const ConvGeom& g);

// A 2-D pooling window over `planes` planes of H x W.
struct PoolGeom {
  int64_t planes, H, W, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw;
};

// max_pool2d_with_indices: in and out of one dtype, int64 indices, all
// contiguous and resized.
struct MaxPoolCall {
  const Tensor* in;
  Tensor* out;
  Tensor* ind;
  PoolGeom g;
};

bool prepare_max_pool2d(KernelRuntimeContext& ctx, Args args, MaxPoolCall* call);
void max_pool_planes(const MaxPoolCall& call);

// One max-pooling window of a plane, sample i of the plane being load(i):
// only samples inside the input count, the first of equal maxima wins, and
// a NaN wins and stays. A window wholly in the padding gives -inf at 0.
template <typename Load>
void max_pool_window(const PoolGeom& g, int64_t oh, int64_t ow, Load load, double* best,
                     int64_t* at) {
  double b = -INFINITY;
  int64_t bi = -1;
  for (int64_t kh = 0; kh < g.kh; ++kh) {
    const int64_t ih = oh * g.sh - g.ph + kh * g.dh;
    if (ih < 0 || ih >= g.H) continue;
    for (int64_t kw = 0; kw < g.kw; ++kw) {
      const int64_t iw = ow * g.sw - g.pw + kw * g.dw;
      if (iw < 0 || iw >= g.W) continue;
      const double v = load(ih * g.W + iw);
      if (bi < 0 || (!std::isnan(b) && (std::isnan(v) || v > b))) {
        b = v;
        bi = ih * g.W + iw;
      }
    }
  }
  *best = b;
  *at = bi < 0 ? 0 : bi;
}

} // namespace portable
} // namespace runtime
} // namespace executorch
