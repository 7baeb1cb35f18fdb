// fp32 max pooling over planes split across the pool, and fp32 convolution:
// depthwise directly, 1x1 (stride 1, no padding) as one
// GEMM, everything else as im2col + GEMM over bounded column chunks. The
// portable kernel checks the arguments (prepare_convolution) and computes
// every other dtype.
#include <algorithm>
#include <cmath>
#include <vector>

#include "../portable/conv.h"
#include "blas_gemm.h"
#include "optimized_ops.h"
#include "parallel.h"
#include "simd.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

using portable::ConvCall;
using portable::ConvGeom;

// im2col scratch per pool thread, in floats (4 MiB): chunks of output columns
// are sized to fit, so the scratch never grows past this however large the
// convolution is.
constexpr int64_t kScratchFloats = int64_t{1} << 20;

// One (batch, group) plane of a convolution and where its data lives.
struct Plane {
  const float* in;   // ICg channels of H x W
  const float* w;    // OCg x (ICg * KH * KW)
  const float* bias; // OCg values, or null
  float* out;        // OCg channels of OH x OW
};

Plane plane(const ConvCall& c, int64_t n, int64_t grp) {
  const ConvGeom& g = c.g;
  const int64_t ocg = g.OC / g.groups;
  const float* bias = c.bias != nullptr ? c.bias->const_data_ptr<float>() + grp * ocg : nullptr;
  return Plane{c.in->const_data_ptr<float>() + (n * g.C + grp * g.ICg) * g.H * g.W,
               c.w->const_data_ptr<float>() + grp * ocg * g.ICg * g.KH * g.KW, bias,
               c.out->mutable_data_ptr<float>() + (n * g.OC + grp * ocg) * g.OH * g.OW};
}

// The output columns [lo, hi) whose input column ow * s - p + k * d is inside
// [0, size).
void valid_range(int64_t out_size, int64_t size, int64_t s, int64_t p, int64_t off, int64_t* lo,
                 int64_t* hi) {
  // ow * s + (off - p) in [0, size)
  const int64_t shift = off - p;
  *lo = shift >= 0 ? 0 : (-shift + s - 1) / s;
  *hi = size - shift <= 0 ? 0 : std::min(out_size, (size - 1 - shift) / s + 1);
  if (*hi < *lo) *hi = *lo;
}

// orow[ow] += w * row[ow * stride] over [lo, hi); stride 1 (the common
// case) is a separate loop so that it vectorizes.
inline void tap_row(float* orow, const float* row, float w, int64_t lo, int64_t hi,
                    int64_t stride) {
  if (stride == 1) {
    for (int64_t ow = lo; ow < hi; ++ow) orow[ow] += w * row[ow];
  } else {
    for (int64_t ow = lo; ow < hi; ++ow) orow[ow] += w * row[ow * stride];
  }
}

// One input channel into OCg output channels (depthwise: ICg == 1). The ISA
// is picked once per plane: the rows are short, a dispatch per row costs
// more than the row.
ET_SIMD_CLONES void depthwise_plane(const ConvGeom& g, const Plane& p, int64_t ocg) {
  const int64_t P = g.OH * g.OW;
  for (int64_t oc = 0; oc < ocg; ++oc) {
    float* out = p.out + oc * P;
    std::fill(out, out + P, p.bias != nullptr ? p.bias[oc] : 0.0f);
    for (int64_t kh = 0; kh < g.KH; ++kh) {
      int64_t oh_lo, oh_hi;
      valid_range(g.OH, g.H, g.sh, g.ph, kh * g.dh, &oh_lo, &oh_hi);
      for (int64_t kw = 0; kw < g.KW; ++kw) {
        const float wv = p.w[(oc * g.KH + kh) * g.KW + kw];
        int64_t ow_lo, ow_hi;
        valid_range(g.OW, g.W, g.sw, g.pw, kw * g.dw, &ow_lo, &ow_hi);
        for (int64_t oh = oh_lo; oh < oh_hi; ++oh) {
          const float* row = p.in + (oh * g.sh - g.ph + kh * g.dh) * g.W - g.pw + kw * g.dw;
          tap_row(out + oh * g.OW, row, wv, ow_lo, ow_hi, g.sw);
        }
      }
    }
  }
}

// One row (ic, kh, kw) of the unfolded input over output columns [p0, p1):
// zeros where the kernel tap falls in the padding, else the input sample.
void im2col_row(const ConvGeom& g, const float* plane, int64_t kh, int64_t kw, int64_t p0,
                int64_t p1, float* dst) {
  int64_t ow_lo, ow_hi;
  valid_range(g.OW, g.W, g.sw, g.pw, kw * g.dw, &ow_lo, &ow_hi);
  for (int64_t oh = p0 / g.OW; oh * g.OW < p1; ++oh) {
    const int64_t first = std::max(p0, oh * g.OW), last = std::min(p1, (oh + 1) * g.OW);
    float* d = dst + oh * g.OW - p0; // d[ow] is column (oh, ow)
    const int64_t b = first - oh * g.OW, e = last - oh * g.OW;
    const int64_t ih = oh * g.sh - g.ph + kh * g.dh;
    if (ih < 0 || ih >= g.H) {
      std::fill(d + b, d + e, 0.0f);
      continue;
    }
    const int64_t lo = std::min(std::max(b, ow_lo), e), hi = std::max(std::min(e, ow_hi), lo);
    std::fill(d + b, d + lo, 0.0f);
    const float* src = plane + ih * g.W - g.pw + kw * g.dw;
    if (g.sw == 1) {
      std::copy(src + lo, src + hi, d + lo);
    } else {
      for (int64_t ow = lo; ow < hi; ++ow) d[ow] = src[ow * g.sw];
    }
    std::fill(d + hi, d + e, 0.0f);
  }
}

// Rows (ic, kh, kw) x output columns [p0, p1) of the unfolded input.
void im2col(const ConvGeom& g, const float* in, int64_t p0, int64_t p1, float* col) {
  const int64_t cols = p1 - p0;
  for (int64_t ic = 0; ic < g.ICg; ++ic) {
    for (int64_t kh = 0; kh < g.KH; ++kh) {
      for (int64_t kw = 0; kw < g.KW; ++kw) {
        im2col_row(g, in + ic * g.H * g.W, kh, kw, p0, p1,
                   col + ((ic * g.KH + kh) * g.KW + kw) * cols);
      }
    }
  }
}

bool pointwise(const ConvGeom& g) {
  return g.KH == 1 && g.KW == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 && g.pw == 0;
}

// Output columns [p0, p1) of one plane: bias, then the product added.
bool gemm_chunk(const ConvGeom& g, const Plane& p, int64_t p0, int64_t p1) {
  const int64_t ocg = g.OC / g.groups, P = g.OH * g.OW, K = g.ICg * g.KH * g.KW;
  for (int64_t oc = 0; oc < ocg; ++oc) {
    std::fill(p.out + oc * P + p0, p.out + oc * P + p1, p.bias != nullptr ? p.bias[oc] : 0.0f);
  }
  if (pointwise(g)) {
    return sgemm_serial(false, ocg, p1 - p0, K, 1.0f, p.w, K, p.in + p0, g.H * g.W, 1.0f,
                        p.out + p0, P);
  }
  thread_local std::vector<float> scratch;
  scratch.resize(static_cast<size_t>(K * (p1 - p0)));
  im2col(g, p.in, p0, p1, scratch.data());
  return sgemm_serial(false, ocg, p1 - p0, K, 1.0f, p.w, K, scratch.data(), p1 - p0, 1.0f,
                      p.out + p0, P);
}

// Columns per chunk: bounded by the scratch, and small enough that a single
// plane still spreads over the pool.
int64_t chunk_columns(const ConvGeom& g, int64_t planes) {
  const int64_t P = g.OH * g.OW, K = g.ICg * g.KH * g.KW;
  int64_t cols = std::max<int64_t>(1, std::min(P, kScratchFloats / std::max<int64_t>(K, 1)));
  const int64_t threads = static_cast<int64_t>(
      ::executorch::extension::threadpool::get_threadpool()->get_thread_count());
  // Chunks per plane: enough to spread a few planes over the pool, but no
  // chunk below kMinTaskWork (the GEMM of a narrow chunk is also slower).
  const int64_t plane_work = g.OC / g.groups * P * K;
  const int64_t per_plane =
      std::min((threads + planes - 1) / planes, std::max<int64_t>(1, plane_work / kMinTaskWork));
  if (per_plane > 1) cols = std::min(cols, std::max<int64_t>(16, (P + per_plane - 1) / per_plane));
  return cols;
}

bool conv_fp32(const ConvCall& c) {
  const ConvGeom& g = c.g;
  const int64_t planes = g.N * g.groups, ocg = g.OC / g.groups, P = g.OH * g.OW;
  if (planes == 0 || P == 0 || ocg == 0) return true;
  const int64_t work = ocg * P * g.ICg * g.KH * g.KW; // multiply-adds per plane
  if (g.ICg == 1 && g.groups > 1) {
    parallel_for(planes, grain_for(work), [&](int64_t q0, int64_t q1) {
      for (int64_t q = q0; q < q1; ++q) {
        depthwise_plane(g, plane(c, q / g.groups, q % g.groups), ocg);
      }
    });
    return true;
  }
  const int64_t cols = chunk_columns(g, planes);
  const int64_t chunks = (P + cols - 1) / cols;
  const int64_t task_work = std::max<int64_t>(1, work / chunks);
  bool ok = true;
  parallel_for(planes * chunks, grain_for(task_work), [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t q = t / chunks, p0 = (t % chunks) * cols;
      if (!gemm_chunk(g, plane(c, q / g.groups, q % g.groups), p0, std::min(P, p0 + cols))) {
        ok = false;
      }
    }
  });
  return ok;
}

// One plane of fp32 max pooling, with the portable kernel's rules: the first
// of equal maxima wins, and a NaN wins and stays.
void max_pool_plane(const portable::PoolGeom& g, const float* in, float* out, int64_t* ind) {
  for (int64_t oh = 0; oh < g.OH; ++oh) {
    for (int64_t ow = 0; ow < g.OW; ++ow) {
      float best = -INFINITY;
      int64_t best_i = -1;
      for (int64_t kh = 0; kh < g.kh; ++kh) {
        const int64_t ih = oh * g.sh - g.ph + kh * g.dh;
        if (ih < 0 || ih >= g.H) continue;
        for (int64_t kw = 0; kw < g.kw; ++kw) {
          const int64_t iw = ow * g.sw - g.pw + kw * g.dw;
          if (iw < 0 || iw >= g.W) continue;
          const float v = in[ih * g.W + iw];
          if (best_i < 0 || (!std::isnan(best) && (std::isnan(v) || v > best))) {
            best = v;
            best_i = ih * g.W + iw;
          }
        }
      }
      out[oh * g.OW + ow] = best;
      ind[oh * g.OW + ow] = best_i < 0 ? 0 : best_i;
    }
  }
}

} // namespace

void max_pool2d_with_indices_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  portable::MaxPoolCall c;
  if (!portable::prepare_max_pool2d(ctx, args, &c)) return;
  if (c.in->scalar_type() != ScalarType::Float) {
    portable::max_pool_planes(c);
    return;
  }
  const portable::PoolGeom& g = c.g;
  const float* in = c.in->const_data_ptr<float>();
  float* out = c.out->mutable_data_ptr<float>();
  int64_t* ind = c.ind->mutable_data_ptr<int64_t>();
  const int64_t plane_work = g.OH * g.OW * g.kh * g.kw;
  parallel_for(g.planes, grain_for(plane_work), [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      max_pool_plane(g, in + p * g.H * g.W, out + p * g.OH * g.OW, ind + p * g.OH * g.OW);
    }
  });
}

void convolution_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  ConvCall c;
  if (!portable::prepare_convolution(ctx, args, &c)) return;
  if (c.in->scalar_type() != ScalarType::Float || !conv_fp32(c)) {
    portable::conv_direct(*c.in, *c.w, c.bias, *c.out, c.g);
  }
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
