// fp32 convolution: depthwise directly (conv_depthwise.cpp), 1x1 (stride 1,
// no padding) as one GEMM over bounded column chunks, everything else as
// im2col + GEMM over bands of output rows. The
// portable kernel checks the arguments (prepare_convolution) and computes
// every other dtype.
#include <algorithm>
#include <vector>

#include "../portable/conv.h"
#include "blas_gemm.h"
#include "conv_depthwise.h"
#include "optimized_ops.h"
#include "parallel.h"
#include "phase_split.h"
#include "same_width.h"
#include "simd.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

using portable::ConvCall;
using portable::ConvGeom;

// im2col scratch per pool thread, in floats (4 MiB): chunks of output rows
// are sized to fit. A chunk is at least one output row, so the scratch may
// reach kMaxScratchFloats (16 MiB) for very wide rows; past that the
// convolution takes the portable loop.
constexpr int64_t kScratchFloats = int64_t{1} << 20;
constexpr int64_t kMaxScratchFloats = int64_t{4} << 20;

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

bool pointwise(const ConvGeom& g) {
  return g.KH == 1 && g.KW == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 && g.pw == 0;
}

void fill_bias(const ConvGeom& g, const Plane& p, int64_t p0, int64_t p1) {
  const int64_t ocg = g.OC / g.groups, P = g.OH * g.OW;
  for (int64_t oc = 0; oc < ocg; ++oc) {
    std::fill(p.out + oc * P + p0, p.out + oc * P + p1, p.bias != nullptr ? p.bias[oc] : 0.0f);
  }
}

// Output columns [p0, p1) of one pointwise plane: bias, then the product of
// the weights and the input's columns added.
bool pointwise_chunk(const ConvGeom& g, const Plane& p, int64_t p0, int64_t p1) {
  fill_bias(g, p, p0, p1);
  return sgemm_serial(false, g.OC / g.groups, p1 - p0, g.ICg, 1.0f, p.w, g.ICg, p.in + p0,
                      g.H * g.W, 1.0f, p.out + p0, g.OH * g.OW);
}

struct Scratch {
  std::vector<float> split, col;
};

// The unfolded input of output rows [oh0, oh0 + rows): row (ic, kh, kw) is
// tap (kh, kw) of channel ic, read from the channel's stride phases.
ET_SIMD_CLONES void im2col_band(const ConvGeom& g, const PhaseSplit& s, const float* in,
                                int64_t oh0, int64_t rows, int64_t ld, Scratch* sc) {
  const int64_t ws = s.width();
  float* col = sc->col.data();
  for (int64_t ic = 0; ic < g.ICg; ++ic) {
    float* split = sc->split.data() + ic * s.floats();
    s.fill(in + ic * g.H * g.W, oh0, 0.0f, split);
    for (int64_t kh = 0; kh < g.KH; ++kh) {
      for (int64_t kw = 0; kw < g.KW; ++kw, col += ld) {
        const float* src = s.tap(split, kh, kw);
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t ow = 0; ow < g.OW; ++ow) col[r * g.OW + ow] = src[r * ws + ow];
        }
      }
    }
  }
}

// The same for a same-width layer (same_width.h), straight from the input:
// each tap's row is one shifted copy of the band, its wrapped edge columns
// and the rows the kernel row misses cleared.
ET_SIMD_CLONES void im2col_same_width(const ConvGeom& g, const SameWidth& s, const float* in,
                                      int64_t oh0, int64_t rows, int64_t ld, float* col) {
  const int64_t W = g.W, n = rows * W, o0 = oh0 * W;
  for (int64_t ic = 0; ic < g.ICg; ++ic) {
    const float* plane = in + ic * g.H * W;
    for (int64_t kh = 0; kh < g.KH; ++kh) {
      for (int64_t kw = 0; kw < g.KW; ++kw, col += ld) {
        int64_t lo = 0, hi = 0;
        s.span(kh, kw, kw, o0, o0 + n, &lo, &hi);
        const int64_t shift = s.shift(kh, kw);
        // Loops, not calls: at a few floats per tap row the call dominates.
        for (int64_t j = 0; j < lo - o0; ++j) col[j] = 0.0f;
        for (int64_t j = lo - o0; j < hi - o0; ++j) col[j] = plane[o0 + j + shift];
        for (int64_t j = hi - o0; j < n; ++j) col[j] = 0.0f;
        const int64_t c = kw * g.dw - g.pw; // columns ow + c outside [0, W) wrapped
        if (c == 0) continue;
        const int64_t e0 = c < 0 ? 0 : W - c, e1 = c < 0 ? -c : W;
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t e = e0; e < e1; ++e) col[r * W + e] = 0.0f;
        }
      }
    }
  }
}

// Row stride of the unfolded input for n columns. Rows a multiple of 2 KiB
// apart fall into a few L1 sets, so the GEMM's reads down the columns (and
// OpenBLAS's packing of them) keep evicting each other: on the build VM a
// 8 x 1024 x 147 product took 81 us with rows 1024 floats apart and 38 us
// with 1040.
int64_t unfolded_stride(int64_t n) { return n % 512 == 0 ? n + 16 : n; }

// Output rows [oh0, oh0 + rows) of one plane: bias, then the product of the
// weights and the unfolded input added.
Window window(const ConvGeom& g) {
  return Window{g.H, g.W, g.OH, g.OW, g.KH, g.KW, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw};
}

// The unfolded input of output rows [oh0, oh0 + rows) of a plane, into this
// thread's scratch (rows ld floats apart).
const float* unfold(const ConvGeom& g, const PhaseSplit& s, const float* in, int64_t oh0,
                    int64_t rows, int64_t ld) {
  thread_local Scratch sc;
  sc.col.resize(static_cast<size_t>(g.ICg * g.KH * g.KW * ld));
  if (SameWidth::fits(window(g))) {
    im2col_same_width(g, SameWidth(window(g)), in, oh0, rows, ld, sc.col.data());
  } else {
    sc.split.resize(static_cast<size_t>(g.ICg * s.floats()));
    im2col_band(g, s, in, oh0, rows, ld, &sc);
  }
  return sc.col.data();
}

bool im2col_chunk(const ConvGeom& g, const PhaseSplit& s, const Plane& p, int64_t oh0,
                  int64_t rows) {
  const int64_t K = g.ICg * g.KH * g.KW, n = rows * g.OW, p0 = oh0 * g.OW;
  const int64_t ld = unfolded_stride(n);
  const float* col = unfold(g, s, p.in, oh0, rows, ld);
  fill_bias(g, p, p0, p0 + n);
  return sgemm_serial(false, g.OC / g.groups, n, K, 1.0f, p.w, K, col, ld, 1.0f, p.out + p0,
                      g.OH * g.OW);
}

// A single plane with at least as many output channels as output columns (a
// CNN's late layers, e.g. 512 channels of 7x7): split by columns, each
// thread would get a sliver of them and pack the whole weight matrix, so the
// plane is unfolded once and the GEMM split over output channels instead.
// False when it does not fit the scratch bound (the banded path takes it).
bool conv_by_channels(const ConvCall& c, bool* ok) {
  const ConvGeom& g = c.g;
  const int64_t P = g.OH * g.OW, K = g.ICg * g.KH * g.KW, ld = unfolded_stride(P);
  if (g.N * g.groups != 1 || g.OC < P) return false;
  const Plane p = plane(c, 0, 0);
  if (pointwise(g)) {
    fill_bias(g, p, 0, P);
    *ok = sgemm(false, g.OC, P, K, 1.0f, p.w, K, p.in, g.H * g.W, 1.0f, p.out, P);
    return true;
  }
  const PhaseSplit whole(window(g), INT64_MAX, g.OH);
  if (K * ld > kScratchFloats || g.ICg * whole.floats() > kScratchFloats) return false;
  const float* col = unfold(g, whole, p.in, 0, g.OH, ld);
  fill_bias(g, p, 0, P);
  *ok = sgemm(false, g.OC, P, K, 1.0f, p.w, K, col, ld, 1.0f, p.out, P);
  return true;
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
  if (depthwise_fp32(c)) return true;
  bool ok = true;
  if (conv_by_channels(c, &ok)) return ok;
  const int64_t work = ocg * P * g.ICg * g.KH * g.KW; // multiply-adds per plane
  // Chunks of whole output rows unless pointwise (no unfolding: any columns).
  const bool direct = pointwise(g);
  const int64_t cols = chunk_columns(g, planes);
  const int64_t rows = std::max<int64_t>(1, cols / g.OW);
  const int64_t step = direct ? cols : rows * g.OW, chunks = (P + step - 1) / step;
  const PhaseSplit split(window(g), INT64_MAX, rows);
  // A single output row whose unfolding (or input rows) would outgrow the
  // scratch bound: the portable loop, which needs none.
  const int64_t K = g.ICg * g.KH * g.KW;
  if (!direct && (K * unfolded_stride(rows * g.OW) > kMaxScratchFloats ||
                  g.ICg * split.floats() > kMaxScratchFloats)) {
    return false;
  }
  parallel_for(
      planes * chunks, grain_for(std::max<int64_t>(1, work / chunks)), [&](int64_t t0, int64_t t1) {
        for (int64_t t = t0; t < t1; ++t) {
          const Plane p = plane(c, t / chunks / g.groups, t / chunks % g.groups);
          const int64_t p0 = (t % chunks) * step, p1 = std::min(P, p0 + step);
          const bool done = direct ? pointwise_chunk(g, p, p0, p1)
                                   : im2col_chunk(g, split, p, p0 / g.OW, (p1 - p0) / g.OW);
          if (!done) ok = false;
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
