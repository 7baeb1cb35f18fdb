// fp32 max pooling, planes split over the pool; also a values-only variant
// for calls whose indices nothing reads. Each kernel tap is one
// unit-stride pass over a band of output rows (phase_split.h) that keeps
// the running maximum and the number of the tap that gave it, taps visited
// in the portable kernel's order with its rules: the first of equal maxima
// wins, and a NaN wins and stays. The split pads with -inf; the windows that
// start in the padding are redone one at a time so that a padded sample
// never wins.
#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

#include "../portable/conv.h"
#include "optimized_ops.h"
#include "parallel.h"
#include "phase_split.h"
#include "simd.h"
#include "window_range.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

using portable::PoolGeom;

constexpr int64_t kSplitFloats = int64_t{1} << 16; // per pool thread (256 KiB)

// Folds tap number t (samples x) into the running maxima of n outputs.
ET_SIMD_INLINE void fold_tap(float* __restrict best, int32_t* __restrict at,
                             const float* __restrict x, int64_t n, int32_t t) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i], b = best[i];
    const int32_t a = at[i];
    const bool take = a < 0 || (b == b && (v > b || v != v));
    best[i] = take ? v : b;
    at[i] = take ? t : a;
  }
}

ET_SIMD_CLONES void fold_band(const PoolGeom& g, const PhaseSplit& s, const float* split, int64_t n,
                              float* best, int32_t* at) {
  std::fill(best, best + n, -INFINITY);
  std::fill(at, at + n, int32_t{-1});
  for (int64_t kh = 0; kh < g.kh; ++kh) {
    for (int64_t kw = 0; kw < g.kw; ++kw) {
      fold_tap(best, at, s.tap(split, kh, kw), n, static_cast<int32_t>(kh * g.kw + kw));
    }
  }
}

// Output rows and columns whose window's first tap lies inside the input.
// There the padding (-inf) cannot win: the first tap is taken, and a later
// -inf is not greater. Elsewhere the first valid sample must win even if it
// is -inf, so those windows are redone one at a time.
struct Interior {
  int64_t oh_lo, oh_hi, ow_lo, ow_hi;
};

Interior interior(const PoolGeom& g) {
  Interior r;
  valid_range(g.OH, g.H, g.sh, g.ph, 0, &r.oh_lo, &r.oh_hi);
  valid_range(g.OW, g.W, g.sw, g.pw, 0, &r.ow_lo, &r.ow_hi);
  return r;
}

struct Scratch {
  std::vector<float> split, best;
  std::vector<int32_t> at;
};

// Per tap number: its flat input offset from the window's corner.
std::vector<int64_t> tap_offsets(const PoolGeom& g) {
  std::vector<int64_t> off;
  for (int64_t kh = 0; kh < g.kh; ++kh) {
    for (int64_t kw = 0; kw < g.kw; ++kw) off.push_back(kh * g.dh * g.W + kw * g.dw);
  }
  return off;
}

// Band rows [oh0, oh0 + rows) from the folded maxima into out and ind.
void store_band(const PoolGeom& g, const PhaseSplit& s, const Interior& box,
                const std::vector<int64_t>& offsets, const float* in, const Scratch& sc,
                int64_t oh0, int64_t rows, float* out, int64_t* ind) {
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t oh = oh0 + r;
    const float* best = sc.best.data() + r * s.width();
    const int32_t* at = sc.at.data() + r * s.width();
    const bool inside = oh >= box.oh_lo && oh < box.oh_hi;
    for (int64_t ow = 0; ow < g.OW; ++ow) {
      const int64_t o = oh * g.OW + ow;
      if (!inside || ow < box.ow_lo || ow >= box.ow_hi) {
        double best;
        portable::max_pool_window(
            g, oh, ow, [&](int64_t i) { return in[i]; }, &best, ind + o);
        out[o] = static_cast<float>(best); // a float sample, exactly
        continue;
      }
      out[o] = best[ow];
      ind[o] = (oh * g.sh - g.ph) * g.W + ow * g.sw - g.pw + offsets[static_cast<size_t>(at[ow])];
    }
  }
}

// pads_kept: the scratch holds the split of another plane of this call.
void max_pool_plane(const PoolGeom& g, const PhaseSplit& s, const Interior& box,
                    const std::vector<int64_t>& offsets, const float* in, float* out, int64_t* ind,
                    Scratch* sc, bool pads_kept) {
  sc->split.resize(static_cast<size_t>(s.floats()));
  sc->best.resize(static_cast<size_t>(s.band() * s.width()));
  sc->at.resize(sc->best.size());
  for (int64_t oh0 = 0; oh0 < g.OH; oh0 += s.band()) {
    const int64_t rows = std::min(s.band(), g.OH - oh0);
    s.fill(in, oh0, -INFINITY, sc->split.data(), pads_kept);
    fold_band(g, s, sc->split.data(), rows * s.width(), sc->best.data(), sc->at.data());
    store_band(g, s, box, offsets, in, *sc, oh0, rows, out, ind);
  }
}

// Values only (no tap numbers): the running maximum under fold_tap's rule,
// started from tap 0. The -inf padding cannot change a maximum that has a
// sample in its window, so no window is redone.
ET_SIMD_INLINE void fold_value(float* __restrict best, const float* __restrict x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i], b = best[i];
    best[i] = b == b && (v > b || v != v) ? v : b;
  }
}

ET_SIMD_CLONES void max_band(const PoolGeom& g, const PhaseSplit& s, const float* split, int64_t n,
                             float* best) {
  std::copy(s.tap(split, 0, 0), s.tap(split, 0, 0) + n, best);
  for (int64_t t = 1; t < g.kh * g.kw; ++t) fold_value(best, s.tap(split, t / g.kw, t % g.kw), n);
}

void max_values_plane(const PoolGeom& g, const PhaseSplit& s, const float* in, float* out,
                      Scratch* sc, bool pads_kept) {
  sc->split.resize(static_cast<size_t>(s.floats()));
  sc->best.resize(static_cast<size_t>(s.band() * s.width()));
  for (int64_t oh0 = 0; oh0 < g.OH; oh0 += s.band()) {
    const int64_t rows = std::min(s.band(), g.OH - oh0);
    s.fill(in, oh0, -INFINITY, sc->split.data(), pads_kept);
    max_band(g, s, sc->split.data(), rows * s.width(), sc->best.data());
    store_band_rows(sc->best.data(), s.width(), rows, g.OW, out + oh0 * g.OW);
  }
}

} // namespace

void max_pool2d_values_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  portable::MaxPoolCall c;
  if (!portable::prepare_max_pool2d(ctx, args, &c)) return;
  const PoolGeom& g = c.g;
  if (c.in->scalar_type() != ScalarType::Float) {
    portable::max_pool_planes(c);
    return;
  }
  if (g.planes == 0 || g.OH == 0 || g.OW == 0) return;
  const float* in = c.in->const_data_ptr<float>();
  float* out = c.out->mutable_data_ptr<float>();
  const PhaseSplit s(Window{g.H, g.W, g.OH, g.OW, g.kh, g.kw, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw},
                     kSplitFloats);
  parallel_for(g.planes, grain_for(g.OH * g.OW * g.kh * g.kw), [&](int64_t p0, int64_t p1) {
    thread_local Scratch scratch;
    for (int64_t p = p0; p < p1; ++p) {
      max_values_plane(g, s, in + p * g.H * g.W, out + p * g.OH * g.OW, &scratch, p > p0);
    }
  });
}

void max_pool2d_with_indices_out(KernelRuntimeContext& ctx, Span<EValue*> args) {
  portable::MaxPoolCall c;
  if (!portable::prepare_max_pool2d(ctx, args, &c)) return;
  const PoolGeom& g = c.g;
  if (c.in->scalar_type() != ScalarType::Float || g.kh * g.kw > INT32_MAX) {
    portable::max_pool_planes(c);
    return;
  }
  if (g.planes == 0 || g.OH == 0 || g.OW == 0) return;
  const float* in = c.in->const_data_ptr<float>();
  float* out = c.out->mutable_data_ptr<float>();
  int64_t* ind = c.ind->mutable_data_ptr<int64_t>();
  const PhaseSplit s(Window{g.H, g.W, g.OH, g.OW, g.kh, g.kw, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw},
                     kSplitFloats);
  const Interior box = interior(g);
  const std::vector<int64_t> offsets = tap_offsets(g);
  const int64_t plane_work = g.OH * g.OW * g.kh * g.kw;
  parallel_for(g.planes, grain_for(plane_work), [&](int64_t p0, int64_t p1) {
    thread_local Scratch scratch;
    for (int64_t p = p0; p < p1; ++p) {
      max_pool_plane(g, s, box, offsets, in + p * g.H * g.W, out + p * g.OH * g.OW,
                     ind + p * g.OH * g.OW, &scratch, p > p0);
    }
  });
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
