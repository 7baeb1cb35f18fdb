// Sliding windows (convolution, pooling) as unit-stride passes. An input
// plane is copied, padded, into stride phases: row phase a and column phase
// b hold the padded samples (i * sh + a, j * sw + b). Output (oh, ow) reads
// tap (kh, kw) from phase ((kh * dh) % sh, (kw * dw) % sw) at
// (oh + (kh * dh) / sh, ow + (kw * dw) / sw), so with the output kept at the
// phases' row width `ws`, every tap is one unit-stride pass over the whole
// band of output rows, whatever the stride or dilation, and vectorizes even
// for planes a few columns wide. The columns past OW are computed and dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace executorch {
namespace runtime {
namespace optimized {

// One plane's window: input H x W, output OH x OW, a KH x KW kernel.
struct Window {
  int64_t H, W, OH, OW, KH, KW, sh, sw, ph, pw, dh, dw;
};

// Output rows computed at a split's width() (ws floats apart) into the
// output's narrower rows (OW floats apart).
void store_band_rows(const float* band, int64_t ws, int64_t rows, int64_t OW, float* out);

class PhaseSplit {
 public:
  // Bands of output rows are sized so the split stays near max_floats, and
  // hold at most max_rows rows.
  PhaseSplit(const Window& w, int64_t max_floats, int64_t max_rows = INT64_MAX);

  int64_t band() const { return band_; }     // output rows per band
  int64_t width() const { return ws_; }      // floats per computed output row
  int64_t floats() const { return floats_; } // split floats per band

  // The phases of the rows the band from output row oh0 reads; `pad` where
  // the window is outside the input. pads_kept: `split` already holds a fill
  // with this pad for another plane, so when the plane is a single band only
  // the entries that come from the input are written.
  void fill(const float* in, int64_t oh0, float pad, float* split, bool pads_kept = false) const;

  // Where tap (kh, kw) of output (oh0, 0) is in a band's split: that tap of
  // output i (flat over rows of width()) is at the result + i.
  const float* tap(const float* split, int64_t kh, int64_t kw) const {
    return split + tap_offset_[static_cast<size_t>(kh * w_.KW + kw)];
  }

 private:
  void fill_row(const float* src, float pad, float* dst, int64_t stride, bool pads_kept) const;

  Window w_;
  int64_t ws_, qh_, qw_, band_, hs_, floats_;
  // Per column phase b: the phase's entries [lo, hi) that are input columns.
  std::vector<int64_t> col_lo_, col_hi_;
  // Per tap kh * KW + kw: where output (oh0, 0) reads it in a band's split.
  std::vector<int64_t> tap_offset_;
};

} // namespace optimized
} // namespace runtime
} // namespace executorch
