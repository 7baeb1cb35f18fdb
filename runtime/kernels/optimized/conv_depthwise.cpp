// fp32 depthwise convolution (one input channel per group): per kernel row,
// one pass over a band of output rows from the input's stride phases
// (phase_split.h).
#include "conv_depthwise.h"

#include <algorithm>
#include <vector>

#include "parallel.h"
#include "phase_split.h"
#include "simd.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

using portable::ConvGeom;

// Floats of split input per pool thread (1 MiB); a larger plane is done in
// bands of output rows.
constexpr int64_t kSplitFloats = int64_t{1} << 18;

inline void taps3(float* __restrict acc, const float* __restrict x, const float* __restrict y,
                  const float* __restrict z, const float* w, int64_t n) {
  const float w0 = w[0], w1 = w[1], w2 = w[2];
  for (int64_t i = 0; i < n; ++i) acc[i] += w0 * x[i] + w1 * y[i] + w2 * z[i];
}

inline void taps1(float* __restrict acc, const float* __restrict x, float w, int64_t n) {
  for (int64_t i = 0; i < n; ++i) acc[i] += w * x[i];
}

// `rows` output rows of one channel at the split's width: bias, then each
// kernel row's taps in one pass (three at once for the common 3-wide kernel).
ET_SIMD_CLONES void band_taps(const ConvGeom& g, const PhaseSplit& s, const float* split,
                              const float* w, float bias, int64_t rows, float* acc) {
  const int64_t n = rows * s.width();
  std::fill(acc, acc + n, bias);
  for (int64_t kh = 0; kh < g.KH; ++kh) {
    const float* wk = w + kh * g.KW;
    if (g.KW == 3) {
      taps3(acc, s.tap(split, kh, 0), s.tap(split, kh, 1), s.tap(split, kh, 2), wk, n);
    } else {
      for (int64_t kw = 0; kw < g.KW; ++kw) taps1(acc, s.tap(split, kh, kw), wk[kw], n);
    }
  }
}

struct Scratch {
  std::vector<float> split, acc;
};

// One input plane into its `ocg` output channels.
void depthwise_plane(const ConvGeom& g, const PhaseSplit& s, const float* in, const float* w,
                     const float* bias, float* out, int64_t ocg, Scratch* scratch) {
  const int64_t P = g.OH * g.OW, taps = g.KH * g.KW, ws = s.width();
  scratch->split.resize(static_cast<size_t>(s.floats()));
  scratch->acc.resize(static_cast<size_t>(s.band() * ws));
  const float* acc = scratch->acc.data();
  for (int64_t oh0 = 0; oh0 < g.OH; oh0 += s.band()) {
    const int64_t rows = std::min(s.band(), g.OH - oh0);
    s.fill(in, oh0, 0.0f, scratch->split.data());
    for (int64_t oc = 0; oc < ocg; ++oc) {
      band_taps(g, s, scratch->split.data(), w + oc * taps, bias != nullptr ? bias[oc] : 0.0f, rows,
                scratch->acc.data());
      float* o = out + oc * P + oh0 * g.OW;
      for (int64_t r = 0; r < rows; ++r) std::copy(acc + r * ws, acc + r * ws + g.OW, o + r * g.OW);
    }
  }
}

} // namespace

bool depthwise_fp32(const portable::ConvCall& c) {
  const ConvGeom& g = c.g;
  if (!(g.ICg == 1 && g.groups > 1)) return false;
  const int64_t planes = g.N * g.groups, ocg = g.OC / g.groups, P = g.OH * g.OW;
  if (planes == 0 || P == 0 || ocg == 0) return true;
  const PhaseSplit s(Window{g.H, g.W, g.OH, g.OW, g.KH, g.KW, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw},
                     kSplitFloats);
  const float* in = c.in->const_data_ptr<float>();
  const float* w = c.w->const_data_ptr<float>();
  const float* bias = c.bias != nullptr ? c.bias->const_data_ptr<float>() : nullptr;
  float* out = c.out->mutable_data_ptr<float>();
  const int64_t work = ocg * P * g.KH * g.KW; // multiply-adds per plane
  parallel_for(planes, grain_for(work), [&](int64_t q0, int64_t q1) {
    thread_local Scratch scratch;
    for (int64_t q = q0; q < q1; ++q) {
      const int64_t grp = q % g.groups; // input plane q is (n, grp)
      depthwise_plane(g, s, in + q * g.H * g.W, w + grp * ocg * g.KH * g.KW,
                      bias != nullptr ? bias + grp * ocg : nullptr, out + q * ocg * P, ocg,
                      &scratch);
    }
  });
  return true;
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
