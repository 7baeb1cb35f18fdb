// fp32 depthwise convolution (one input channel per group): per kernel row,
// one pass over a band of output rows, read straight from the input for
// stride-1 "same width" layers (same_width.h), else from the input's stride
// phases (phase_split.h); small planes 16 channels at a time, interleaved.
#include "conv_depthwise.h"

#include <algorithm>
#include <vector>

#include "parallel.h"
#include "phase_split.h"
#include "same_width.h"
#include "window_range.h"
#include "simd.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

using portable::ConvGeom;

// Floats of split input per pool thread (1 MiB); a larger plane is done in
// bands of output rows.
constexpr int64_t kSplitFloats = int64_t{1} << 18;

// Narrower same-width planes are mostly edge columns (redone one by one):
// cheaper through the padded split.
constexpr int64_t kMinSameWidth = 32;

ET_SIMD_INLINE void taps3(float* __restrict acc, const float* __restrict x,
                          const float* __restrict y, const float* __restrict z, const float* w,
                          int64_t n) {
  const float w0 = w[0], w1 = w[1], w2 = w[2];
  for (int64_t i = 0; i < n; ++i) acc[i] += w0 * x[i] + w1 * y[i] + w2 * z[i];
}

ET_SIMD_INLINE void taps2(float* __restrict acc, const float* __restrict x,
                          const float* __restrict y, const float* w, int64_t n) {
  const float w0 = w[0], w1 = w[1];
  for (int64_t i = 0; i < n; ++i) acc[i] += w0 * x[i] + w1 * y[i];
}

ET_SIMD_INLINE void taps5(float* __restrict acc, const float* __restrict x,
                          const float* __restrict y, const float* __restrict z,
                          const float* __restrict u, const float* __restrict v, const float* w,
                          int64_t n) {
  const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4];
  for (int64_t i = 0; i < n; ++i) {
    acc[i] += (w0 * x[i] + w1 * y[i]) + (w2 * z[i] + w3 * u[i]) + w4 * v[i];
  }
}

ET_SIMD_INLINE void taps1(float* __restrict acc, const float* __restrict x, float w, int64_t n) {
  for (int64_t i = 0; i < n; ++i) acc[i] += w * x[i];
}

// One kernel row's taps (tap(kw) is where tap kw reads for acc[0]) with
// weights w: one pass over acc for a row of five, else one per three taps,
// since acc's traffic, not the multiply-adds, bounds these loops.
template <typename Tap>
ET_SIMD_INLINE void row_taps(float* acc, const Tap& tap, const float* w, int64_t kw_count,
                             int64_t n) {
  if (kw_count == 5) return taps5(acc, tap(0), tap(1), tap(2), tap(3), tap(4), w, n);
  int64_t kw = 0;
  for (; kw + 3 <= kw_count; kw += 3) taps3(acc, tap(kw), tap(kw + 1), tap(kw + 2), w + kw, n);
  if (kw_count - kw == 2) taps2(acc, tap(kw), tap(kw + 1), w + kw, n);
  if (kw_count - kw == 1) taps1(acc, tap(kw), w[kw], n);
}

// A 3x3 kernel's nine taps in one pass, written over acc with the bias.
template <typename Tap>
ET_SIMD_INLINE void taps3x3(float* __restrict acc, const Tap& tap, const float* w, float bias,
                            int64_t n) {
  const float* __restrict a = tap(0, 0), * __restrict b = tap(0, 1), * __restrict c = tap(0, 2);
  const float* __restrict d = tap(1, 0), * __restrict e = tap(1, 1), * __restrict f = tap(1, 2);
  const float* __restrict p = tap(2, 0), * __restrict q = tap(2, 1), * __restrict r = tap(2, 2);
  for (int64_t i = 0; i < n; ++i) {
    acc[i] = bias + (w[0] * a[i] + w[1] * b[i] + w[2] * c[i]) +
             (w[3] * d[i] + w[4] * e[i] + w[5] * f[i]) + (w[6] * p[i] + w[7] * q[i] + w[8] * r[i]);
  }
}

// `rows` output rows of one channel at the split's width: bias, then each
// kernel row's taps.
ET_SIMD_CLONES void band_taps(const ConvGeom& g, const PhaseSplit& s, const float* split,
                              const float* w, float bias, int64_t rows, float* acc) {
  const int64_t n = rows * s.width();
  if (g.KH == 3 && g.KW == 3) {
    taps3x3(
        acc, [&](int64_t kh, int64_t kw) { return s.tap(split, kh, kw); }, w, bias, n);
    return;
  }
  std::fill(acc, acc + n, bias);
  for (int64_t kh = 0; kh < g.KH; ++kh) {
    row_taps(
        acc, [&](int64_t kw) { return s.tap(split, kh, kw); }, w + kh * g.KW, g.KW, n);
  }
}

// The edge columns of one output channel of a same-width layer (where its
// row passes wrapped into the neighbouring row), summed again over the taps
// that read inside the input. Tap by tap down the column, so the rows'
// sums are independent and pipeline.
void redo_edges(const ConvGeom& g, const float* in, const float* w, float bias, float* out) {
  for (int64_t e = 0; e < 2 * g.pw; ++e) {
    const int64_t ow = e < g.pw ? e : g.OW - 2 * g.pw + e;
    for (int64_t oh = 0; oh < g.OH; ++oh) out[oh * g.OW + ow] = bias;
    int64_t kw0 = 0, kw1 = 0;
    valid_range(g.KW, g.W, g.dw, g.pw - ow, 0, &kw0, &kw1);
    for (int64_t kh = 0; kh < g.KH; ++kh) {
      int64_t oh0 = 0, oh1 = 0; // rows whose kernel row kh reads an input row
      valid_range(g.OH, g.H, 1, g.ph, kh * g.dh, &oh0, &oh1);
      for (int64_t kw = kw0; kw < kw1; ++kw) {
        const float wt = w[kh * g.KW + kw];
        const float* src = in + (kh * g.dh - g.ph) * g.W + ow + kw * g.dw - g.pw;
        for (int64_t oh = oh0; oh < oh1; ++oh) out[oh * g.OW + ow] += wt * src[oh * g.W];
      }
    }
  }
}

// One output channel of a same-width layer, written in place: bias, each
// kernel row as one pass over the rows it reaches, then the edge columns,
// where those passes wrapped into the neighbouring row, redone.
ET_SIMD_CLONES void same_width_channel(const ConvGeom& g, const SameWidth& s, const float* in,
                                       const float* w, float bias, float* out) {
  const int64_t P = g.OH * g.OW;
  std::fill(out, out + P, bias);
  for (int64_t kh = 0; kh < g.KH; ++kh) {
    int64_t lo = 0, hi = 0;
    s.span(kh, 0, g.KW - 1, 0, P, &lo, &hi);
    if (lo == hi) continue;
    row_taps(
        out + lo, [&](int64_t kw) { return in + lo + s.shift(kh, kw); }, w + kh * g.KW, g.KW,
        hi - lo);
  }
  redo_edges(g, in, w, bias, out);
}

struct Scratch {
  std::vector<float> split, acc;
};

// One input plane into its `ocg` output channels. pads_kept: the scratch
// holds the split of another plane of this call.
void depthwise_plane(const ConvGeom& g, const PhaseSplit& s, const float* in, const float* w,
                     const float* bias, float* out, int64_t ocg, Scratch* scratch, bool pads_kept) {
  const int64_t P = g.OH * g.OW, taps = g.KH * g.KW, ws = s.width();
  scratch->split.resize(static_cast<size_t>(s.floats()));
  scratch->acc.resize(static_cast<size_t>(s.band() * ws));
  const float* acc = scratch->acc.data();
  for (int64_t oh0 = 0; oh0 < g.OH; oh0 += s.band()) {
    const int64_t rows = std::min(s.band(), g.OH - oh0);
    s.fill(in, oh0, 0.0f, scratch->split.data(), pads_kept);
    for (int64_t oc = 0; oc < ocg; ++oc) {
      band_taps(g, s, scratch->split.data(), w + oc * taps, bias != nullptr ? bias[oc] : 0.0f, rows,
                scratch->acc.data());
      float* o = out + oc * P + oh0 * g.OW;
      store_band_rows(acc, ws, rows, g.OW, o);
    }
  }
}

// Small planes, kLanes channels at a time. Per channel, the split, the taps
// pass and the store cost more in loop and call overhead than a 4x4 plane's
// multiply-adds, so channels of one multiplier are interleaved (kLanes per
// input pixel) into a zero-padded block and each tap of an output pixel is
// one kLanes-wide multiply-add.
constexpr int64_t kLanes = 16;
constexpr int64_t kMaxLanePixels = 64; // output pixels per plane
using Lanes = float __attribute__((vector_size(kLanes * sizeof(float))));

int64_t lane_scratch_floats(const ConvGeom& g) {
  return ((g.H + 2 * g.ph) * (g.W + 2 * g.pw) + g.KH * g.KW) * kLanes;
}

// Multiplier 1, enough channels, a small output plane, and the padded input
// block within the split's scratch bound.
bool lanes_fit(const ConvGeom& g) {
  if (g.OC != g.groups || g.groups < kLanes || g.OH * g.OW > kMaxLanePixels) return false;
  if (g.H + 2 * g.ph > kSplitFloats || g.W + 2 * g.pw > kSplitFloats) return false;
  return lane_scratch_floats(g) <= kSplitFloats;
}

// kLanes consecutive channels: input planes from `in`, their weights from
// `w` (KH x KW each), bias from `bias` (or none), output planes to `out`.
ET_SIMD_CLONES void depthwise_lanes(const ConvGeom& g, const float* in, const float* w,
                                    const float* bias, float* out, float* scratch) {
  const int64_t Wp = g.W + 2 * g.pw, taps = g.KH * g.KW, P = g.OH * g.OW;
  float* x = scratch;                                   // (H + 2ph) x Wp x kLanes
  float* wl = scratch + (g.H + 2 * g.ph) * Wp * kLanes; // taps x kLanes
  std::fill(x, wl, 0.0f);
  for (int64_t c = 0; c < kLanes; ++c) {
    const float* src = in + c * g.H * g.W;
    for (int64_t ih = 0; ih < g.H; ++ih) {
      float* d = x + ((ih + g.ph) * Wp + g.pw) * kLanes + c;
      for (int64_t iw = 0; iw < g.W; ++iw) d[iw * kLanes] = src[ih * g.W + iw];
    }
    for (int64_t t = 0; t < taps; ++t) wl[t * kLanes + c] = w[c * taps + t];
  }
  Lanes b = {};
  if (bias != nullptr) __builtin_memcpy(&b, bias, sizeof b);
  for (int64_t oh = 0; oh < g.OH; ++oh) {
    for (int64_t ow = 0; ow < g.OW; ++ow) {
      const float* at = x + (oh * g.sh * Wp + ow * g.sw) * kLanes;
      Lanes acc = b;
      for (int64_t kh = 0; kh < g.KH; ++kh) {
        for (int64_t kw = 0; kw < g.KW; ++kw) {
          Lanes xv, wv;
          __builtin_memcpy(&xv, at + (kh * g.dh * Wp + kw * g.dw) * kLanes, sizeof xv);
          __builtin_memcpy(&wv, wl + (kh * g.KW + kw) * kLanes, sizeof wv);
          acc += wv * xv;
        }
      }
      for (int64_t c = 0; c < kLanes; ++c) out[c * P + oh * g.OW + ow] = acc[c];
    }
  }
}

// The channels below lane_channels of every batch entry through
// depthwise_lanes, in blocks of kLanes.
void depthwise_lane_blocks(const portable::ConvCall& c, int64_t lane_channels) {
  const ConvGeom& g = c.g;
  const int64_t blocks = lane_channels / kLanes, taps = g.KH * g.KW, P = g.OH * g.OW;
  const float* in = c.in->const_data_ptr<float>();
  const float* w = c.w->const_data_ptr<float>();
  const float* bias = c.bias != nullptr ? c.bias->const_data_ptr<float>() : nullptr;
  float* out = c.out->mutable_data_ptr<float>();
  parallel_for(g.N * blocks, grain_for(kLanes * P * taps), [&](int64_t t0, int64_t t1) {
    thread_local std::vector<float> scratch;
    scratch.resize(static_cast<size_t>(lane_scratch_floats(g)));
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t n = t / blocks, c0 = t % blocks * kLanes;
      depthwise_lanes(g, in + (n * g.C + c0) * g.H * g.W, w + c0 * taps,
                      bias != nullptr ? bias + c0 : nullptr, out + (n * g.OC + c0) * P,
                      scratch.data());
    }
  });
}

} // namespace

bool depthwise_fp32(const portable::ConvCall& c) {
  const ConvGeom& g = c.g;
  if (!(g.ICg == 1 && g.groups > 1)) return false;
  const int64_t planes = g.N * g.groups, ocg = g.OC / g.groups, P = g.OH * g.OW;
  if (planes == 0 || P == 0 || ocg == 0) return true;
  const Window win{g.H, g.W, g.OH, g.OW, g.KH, g.KW, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw};
  const PhaseSplit s(win, kSplitFloats);
  const SameWidth same(win);
  const bool direct = SameWidth::fits(win) && g.W >= kMinSameWidth;
  const float* in = c.in->const_data_ptr<float>();
  const float* w = c.w->const_data_ptr<float>();
  const float* bias = c.bias != nullptr ? c.bias->const_data_ptr<float>() : nullptr;
  float* out = c.out->mutable_data_ptr<float>();
  const int64_t work = ocg * P * g.KH * g.KW; // multiply-adds per plane
  // Channels below lane_channels go through depthwise_lanes, the rest here.
  const int64_t lane_channels = lanes_fit(g) ? g.groups / kLanes * kLanes : 0;
  if (lane_channels > 0) depthwise_lane_blocks(c, lane_channels);
  if (lane_channels == g.groups) return true;
  parallel_for(planes, grain_for(work), [&](int64_t q0, int64_t q1) {
    thread_local Scratch scratch;
    bool filled = false; // the scratch holds another plane's split
    for (int64_t q = q0; q < q1; ++q) {
      const int64_t grp = q % g.groups; // input plane q is (n, grp)
      if (grp < lane_channels) continue;
      const float* wq = w + grp * ocg * g.KH * g.KW;
      const float* bq = bias != nullptr ? bias + grp * ocg : nullptr;
      if (!direct) {
        depthwise_plane(g, s, in + q * g.H * g.W, wq, bq, out + q * ocg * P, ocg, &scratch, filled);
        filled = true;
        continue;
      }
      for (int64_t oc = 0; oc < ocg; ++oc) {
        same_width_channel(g, same, in + q * g.H * g.W, wq + oc * g.KH * g.KW,
                           bq != nullptr ? bq[oc] : 0.0f, out + (q * ocg + oc) * P);
      }
    }
  });
  return true;
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
