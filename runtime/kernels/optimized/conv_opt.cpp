// fp32 convolution: depthwise directly (conv_depthwise.cpp), 1x1 (stride 1,
// no padding) as one GEMM, everything else as im2col + GEMM over bounded
// column chunks. The
// portable kernel checks the arguments (prepare_convolution) and computes
// every other dtype.
#include <algorithm>
#include <vector>

#include "../portable/conv.h"
#include "blas_gemm.h"
#include "conv_depthwise.h"
#include "optimized_ops.h"
#include "parallel.h"
#include "window_range.h"

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
  if (depthwise_fp32(c)) return true;
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

} // namespace

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
