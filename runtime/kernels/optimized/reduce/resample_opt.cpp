// fp32 upsample_nearest2d and upsample_bilinear2d over contiguous (N, C, H,
// W) tensors, planes split over the thread pool. The portable kernels check
// the arguments (prepare_upsample_*), give the source coordinates, and
// compute every other case. Bilinear interpolates in float, as ATen does for
// float tensors (the portable kernel works in double): each output row is a
// blend of two input rows, each first resampled along the row.
#include <vector>

#include "../../portable/resample.h"
#include "../parallel.h"
#include "../simd.h"
#include "reduce_opt.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

using portable::ResampleCall;

bool contiguous_fp32(const ResampleCall& c) {
  return c.in->scalar_type() == ScalarType::Float && portable::is_default_dim_order(*c.in) &&
         portable::is_default_dim_order(*c.out);
}

ET_SIMD_CLONES void gather_row(const float* __restrict row, const int32_t* __restrict src,
                               int64_t n, float* __restrict out) {
  for (int64_t x = 0; x < n; ++x) out[x] = row[src[x]];
}

// One plane: output rows that read the same input row as the row above are
// copies of it.
void nearest_plane(const ResampleCall& c, const std::vector<int32_t>& src_x, const float* in,
                   float* out) {
  int64_t prev = -1;
  for (int64_t y = 0; y < c.out_h; ++y) {
    const int64_t sy = portable::nearest_source(y, c.in_h, c.out_h, c.near_h);
    float* o = out + y * c.out_w;
    if (sy == prev) {
      std::copy(o - c.out_w, o, o);
    } else {
      gather_row(in + sy * c.in_w, src_x.data(), c.out_w, o);
    }
    prev = sy;
  }
}

// One axis's taps for every output index: input indices and float weights,
// computed once per call and shared by all planes. Tensor sizes are int32,
// so the indices fit.
struct AxisTaps {
  std::vector<int32_t> i0, i1;
  std::vector<float> w0, w1;
};

AxisTaps axis_taps(int64_t in, int64_t out, double step, bool align_corners) {
  AxisTaps t;
  for (int64_t o = 0; o < out; ++o) {
    const portable::Taps taps = portable::bilinear_taps(o, in, out, step, align_corners);
    t.i0.push_back(static_cast<int32_t>(taps.i0));
    t.i1.push_back(static_cast<int32_t>(taps.i1));
    t.w0.push_back(static_cast<float>(taps.w0));
    t.w1.push_back(static_cast<float>(taps.w1));
  }
  return t;
}

ET_SIMD_CLONES void blend_along_row(const float* __restrict row, const AxisTaps& t, int64_t n,
                                    float* __restrict out) {
  const int32_t *i0 = t.i0.data(), *i1 = t.i1.data();
  const float *w0 = t.w0.data(), *w1 = t.w1.data();
  for (int64_t x = 0; x < n; ++x) out[x] = w0[x] * row[i0[x]] + w1[x] * row[i1[x]];
}

ET_SIMD_CLONES void blend_rows(const float* __restrict a, const float* __restrict b, float wa,
                               float wb, int64_t n, float* __restrict out) {
  for (int64_t x = 0; x < n; ++x) out[x] = wa * a[x] + wb * b[x];
}

// One plane; `rows` holds two resampled input rows, reused while the output
// rows read the same ones.
void bilinear_plane(const ResampleCall& c, const AxisTaps& tx, const AxisTaps& ty, const float* in,
                    float* out, std::vector<float>* rows) {
  rows->resize(static_cast<size_t>(2 * c.out_w));
  float* r0 = rows->data();
  float* r1 = r0 + c.out_w;
  int64_t have0 = -1, have1 = -1;
  for (size_t y = 0; y < ty.i0.size(); ++y) {
    if (ty.i0[y] != have0) {
      blend_along_row(in + ty.i0[y] * c.in_w, tx, c.out_w, r0);
      have0 = ty.i0[y];
    }
    if (ty.i1[y] != have1) {
      blend_along_row(in + ty.i1[y] * c.in_w, tx, c.out_w, r1);
      have1 = ty.i1[y];
    }
    blend_rows(r0, r1, ty.w0[y], ty.w1[y], c.out_w, out + static_cast<int64_t>(y) * c.out_w);
  }
}

// Calls fn(plane index) for every (n, c) plane over the pool.
template <typename Fn>
void each_plane(const ResampleCall& c, const Fn& fn) {
  const int64_t planes = c.in->size(0) * c.in->size(1);
  const int64_t per_plane = c.out_h * c.out_w + c.in_h * c.in_w;
  parallel_for(planes, grain_for(per_plane, kMinTaskElems), [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) fn(p);
  });
}

} // namespace

void upsample_nearest2d_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  ResampleCall c;
  if (!portable::prepare_upsample_nearest2d(ctx, args, &c)) return;
  if (!contiguous_fp32(c)) {
    portable::upsample_nearest2d_compute(c);
    return;
  }
  std::vector<int32_t> src_x;
  for (int64_t x = 0; x < c.out_w; ++x) {
    src_x.push_back(static_cast<int32_t>(portable::nearest_source(x, c.in_w, c.out_w, c.near_w)));
  }
  const float* in = c.in->const_data_ptr<float>();
  float* out = c.out->mutable_data_ptr<float>();
  each_plane(c, [&](int64_t p) {
    nearest_plane(c, src_x, in + p * c.in_h * c.in_w, out + p * c.out_h * c.out_w);
  });
}

void upsample_bilinear2d_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  ResampleCall c;
  if (!portable::prepare_upsample_bilinear2d(ctx, args, &c)) return;
  if (!contiguous_fp32(c)) {
    portable::upsample_bilinear2d_compute(c);
    return;
  }
  const AxisTaps tx = axis_taps(c.in_w, c.out_w, c.step_w, c.align_corners);
  const AxisTaps ty = axis_taps(c.in_h, c.out_h, c.step_h, c.align_corners);
  const float* in = c.in->const_data_ptr<float>();
  float* out = c.out->mutable_data_ptr<float>();
  each_plane(c, [&](int64_t p) {
    thread_local std::vector<float> rows;
    bilinear_plane(c, tx, ty, in + p * c.in_h * c.in_w, out + p * c.out_h * c.out_w, &rows);
  });
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
