#include "phase_split.h"

#include <algorithm>

#include "simd.h"

namespace executorch {
namespace runtime {
namespace optimized {

PhaseSplit::PhaseSplit(const Window& w, int64_t max_floats, int64_t max_rows) : w_(w) {
  const int64_t wp = (w.OW - 1) * w.sw + (w.KW - 1) * w.dw + 1; // padded columns read
  ws_ = (wp + w.sw - 1) / w.sw;
  qh_ = (w.KH - 1) * w.dh / w.sh;
  qw_ = (w.KW - 1) * w.dw / w.sw;
  const int64_t phase_rows_fit = std::max<int64_t>(1, max_floats / (w.sh * w.sw * ws_));
  band_ = std::max<int64_t>(1, std::min({w.OH, max_rows, phase_rows_fit - qh_}));
  hs_ = band_ + qh_;
  // qw of slack: the dropped columns of the last row read past the block.
  floats_ = w.sh * w.sw * hs_ * ws_ + qw_;
  // Entry j of column phase b is padded column j * sw + b, input column
  // j * sw + b - pw.
  for (int64_t b = 0; b < w.sw; ++b) {
    col_lo_.push_back((w.pw - b + w.sw - 1) / w.sw);
    col_hi_.push_back(std::min(ws_, (w.W + w.pw - b + w.sw - 1) / w.sw));
  }
  for (int64_t kh = 0; kh < w.KH; ++kh) {
    for (int64_t kw = 0; kw < w.KW; ++kw) {
      const int64_t r = kh * w.dh, c = kw * w.dw;
      tap_offset_.push_back(((r % w.sh) * w.sw + c % w.sw) * hs_ * ws_ + (r / w.sh) * ws_ +
                            c / w.sw);
    }
  }
}

namespace {

// Rows [0, rows) of one row phase of a column-stride-1 split, from input
// rows ih0 + i * ih_step: the common case, kept free of per-row calls
// because small planes have short rows.
ET_SIMD_CLONES void fill_unit_stride(const float* in, int64_t H, int64_t W, int64_t ih0,
                                     int64_t ih_step, int64_t rows, int64_t ws, int64_t pw,
                                     float pad, float* split, bool pads_kept) {
  const int64_t lo = std::min(pw, ws), hi = std::max(lo, std::min(ws, W + pw));
  for (int64_t i = 0; i < rows; ++i, split += ws) {
    const int64_t ih = ih0 + i * ih_step;
    if (ih < 0 || ih >= H) {
      if (!pads_kept) std::fill(split, split + ws, pad);
      continue;
    }
    if (!pads_kept) {
      std::fill(split, split + lo, pad);
      std::fill(split + hi, split + ws, pad);
    }
    const float* row = in + ih * W;
    for (int64_t j = lo; j < hi; ++j) split[j] = row[j - pw];
  }
}

// The same for column stride 2: each row into its two column phases,
// `block` floats apart; lo and hi are the phases' input entries.
ET_SIMD_CLONES_SHORT void fill_two_phases(const float* in, int64_t H, int64_t W, int64_t ih0,
                                          int64_t ih_step, int64_t rows, int64_t ws, int64_t pw,
                                          const int64_t* lo, const int64_t* hi, int64_t block,
                                          float pad, float* split, bool pads_kept) {
  for (int64_t i = 0; i < rows; ++i, split += ws) {
    const int64_t ih = ih0 + i * ih_step;
    for (int64_t b = 0; b < 2; ++b) {
      float* d = split + b * block;
      if (ih < 0 || ih >= H) {
        if (!pads_kept) std::fill(d, d + ws, pad);
        continue;
      }
      if (!pads_kept) {
        std::fill(d, d + lo[b], pad);
        std::fill(d + hi[b], d + ws, pad);
      }
      const float* row = in + ih * W;
      for (int64_t j = lo[b]; j < hi[b]; ++j) d[j] = row[2 * j + b - pw];
    }
  }
}

} // namespace

// An explicit loop: small planes have rows of a few floats, too short for a
// memmove call per row.
ET_SIMD_CLONES void store_band_rows(const float* __restrict band, int64_t ws, int64_t rows,
                                    int64_t OW, float* __restrict out) {
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t ow = 0; ow < OW; ++ow) out[r * OW + ow] = band[r * ws + ow];
  }
}

// One padded input row (null: all padding) into its sw column phases,
// `stride` floats apart, for column strides above 2 (fill() has loops of
// its own for 1 and 2). With pads_kept only the input's entries are written.
void PhaseSplit::fill_row(const float* src, float pad, float* dst, int64_t stride,
                          bool pads_kept) const {
  for (int64_t b = 0; b < w_.sw; ++b) {
    float* d = dst + b * stride;
    if (src == nullptr) {
      if (!pads_kept) std::fill(d, d + ws_, pad);
      continue;
    }
    const int64_t lo = std::min(col_lo_[b], ws_), hi = std::max(lo, col_hi_[b]);
    if (!pads_kept) {
      std::fill(d, d + lo, pad);
      std::fill(d + hi, d + ws_, pad);
    }
    for (int64_t j = lo; j < hi; ++j) d[j] = src[j * w_.sw + b - w_.pw];
  }
}

void PhaseSplit::fill(const float* in, int64_t oh0, float pad, float* split, bool pads_kept) const {
  const int64_t block = hs_ * ws_; // one (row phase, column phase)
  // Another plane's fill left the same padding only if the plane is one band.
  pads_kept = pads_kept && band_ >= w_.OH;
  if (w_.sw == 1) {
    for (int64_t a = 0; a < w_.sh; ++a) {
      fill_unit_stride(in, w_.H, w_.W, oh0 * w_.sh + a - w_.ph, w_.sh, hs_, ws_, w_.pw, pad,
                       split + a * block, pads_kept);
    }
    if (!pads_kept) std::fill(split + w_.sh * block, split + floats_, pad);
    return;
  }
  if (w_.sw == 2) {
    const int64_t lo[2] = {std::min(col_lo_[0], ws_), std::min(col_lo_[1], ws_)};
    const int64_t hi[2] = {std::max(lo[0], col_hi_[0]), std::max(lo[1], col_hi_[1])};
    for (int64_t a = 0; a < w_.sh; ++a) {
      fill_two_phases(in, w_.H, w_.W, oh0 * w_.sh + a - w_.ph, w_.sh, hs_, ws_, w_.pw, lo, hi,
                      block, pad, split + a * 2 * block, pads_kept);
    }
    if (!pads_kept) std::fill(split + w_.sh * 2 * block, split + floats_, pad);
    return;
  }
  for (int64_t a = 0; a < w_.sh; ++a) {
    for (int64_t i = 0; i < hs_; ++i) {
      const int64_t ih = (oh0 + i) * w_.sh + a - w_.ph;
      const float* src = ih >= 0 && ih < w_.H ? in + ih * w_.W : nullptr;
      if (src == nullptr && pads_kept) continue;
      fill_row(src, pad, split + a * w_.sw * block + i * ws_, block, pads_kept);
    }
  }
  if (!pads_kept) std::fill(split + w_.sh * w_.sw * block, split + floats_, pad);
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
