// upsample_nearest2d.vec and upsample_bilinear2d.vec as checked call
// descriptions: the portable and the optimized kernels share the argument
// checking (prepare_*) and the source coordinates (ATen's), and differ only
// in how they compute.
#pragma once

#include "kernel_util.h"

namespace executorch {
namespace runtime {
namespace portable {

// A 4-D (N, C, H, W) resampling; out already resized to (N, C, out_h, out_w).
// The steps are the input distance per output step along each axis.
struct ResampleCall {
  const Tensor* in = nullptr;
  Tensor* out = nullptr;
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  bool align_corners = false;    // bilinear only
  float near_h = 0, near_w = 0;  // nearest: computed in float, as ATen does
  double step_h = 0, step_w = 0; // bilinear
  int64_t istr[4] = {}, ostr[4] = {};
};

bool prepare_upsample_nearest2d(KernelRuntimeContext& ctx, Args args, ResampleCall* call);
bool prepare_upsample_bilinear2d(KernelRuntimeContext& ctx, Args args, ResampleCall* call);
// The portable computation of a prepared call (any dtype and dim order).
void upsample_nearest2d_compute(const ResampleCall& call);
void upsample_bilinear2d_compute(const ResampleCall& call);

// The input index output index o reads along an axis of `in` -> `out`.
int64_t nearest_source(int64_t o, int64_t in, int64_t out, float step);

// One axis of bilinear interpolation: the two taps and their weights.
struct Taps {
  int64_t i0 = 0, i1 = 0;
  double w0 = 1, w1 = 0;
};

Taps bilinear_taps(int64_t o, int64_t in, int64_t out, double step, bool align_corners);

} // namespace portable
} // namespace runtime
} // namespace executorch
