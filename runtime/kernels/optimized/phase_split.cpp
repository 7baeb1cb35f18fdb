#include "phase_split.h"

#include <algorithm>

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

// One padded input row (null: all padding) into its sw column phases,
// `stride` floats apart.
void PhaseSplit::fill_row(const float* src, float pad, float* dst, int64_t stride) const {
  for (int64_t b = 0; b < w_.sw; ++b) {
    float* d = dst + b * stride;
    if (src == nullptr) {
      std::fill(d, d + ws_, pad);
      continue;
    }
    const int64_t shift = b - w_.pw, lo = std::min(col_lo_[b], ws_), hi = std::max(lo, col_hi_[b]);
    std::fill(d, d + lo, pad);
    // Strides 1 and 2 (nearly every model) as constants, so the copy vectorizes.
    if (w_.sw == 1) {
      std::copy(src + lo + shift, src + hi + shift, d + lo);
    } else if (w_.sw == 2) {
      for (int64_t j = lo; j < hi; ++j) d[j] = src[j * 2 + shift];
    } else {
      for (int64_t j = lo; j < hi; ++j) d[j] = src[j * w_.sw + shift];
    }
    std::fill(d + hi, d + ws_, pad);
  }
}

void PhaseSplit::fill(const float* in, int64_t oh0, float pad, float* split) const {
  const int64_t block = hs_ * ws_; // one (row phase, column phase)
  for (int64_t a = 0; a < w_.sh; ++a) {
    for (int64_t i = 0; i < hs_; ++i) {
      const int64_t ih = (oh0 + i) * w_.sh + a - w_.ph;
      const float* src = ih >= 0 && ih < w_.H ? in + ih * w_.W : nullptr;
      fill_row(src, pad, split + a * w_.sw * block + i * ws_, block);
    }
  }
  std::fill(split + w_.sh * w_.sw * block, split + floats_, pad);
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
