// Stride-1 windows whose output rows are as wide as the input rows (the
// "same" padding of nearly every stride-1 layer: 2 * pw == (KW - 1) * dw).
// Output (oh, ow) reads tap (kh, kw) at flat input index
// oh * W + ow + shift(kh, kw), so a tap is one unit-stride pass over whole
// rows, read straight from the input plane with no padded copy. A pass over
// whole rows wraps into the neighbouring row only in the pw columns at each
// end of a row; callers redo or clear those.
#pragma once

#include <algorithm>
#include <cstdint>

#include "phase_split.h"

namespace executorch {
namespace runtime {
namespace optimized {

class SameWidth {
 public:
  explicit SameWidth(const Window& w) : w_(w) {}

  // Stride 1, output rows as wide as input rows, and columns left between
  // the two edges.
  static bool fits(const Window& w) {
    return w.sh == 1 && w.sw == 1 && w.OW == w.W && w.ph >= 0 && w.pw >= 0 && 2 * w.pw < w.W;
  }

  // Flat input index minus flat output index for tap (kh, kw).
  int64_t shift(int64_t kh, int64_t kw) const {
    return (kh * w_.dh - w_.ph) * w_.W + kw * w_.dw - w_.pw;
  }

  // The flat outputs [*lo, *hi), within [o0, o1), where kernel row kh reads
  // an input row and taps kw0..kw1 of the row all read inside the plane.
  // Outputs left out are padding for this row or edge columns.
  void span(int64_t kh, int64_t kw0, int64_t kw1, int64_t o0, int64_t o1, int64_t* lo,
            int64_t* hi) const {
    const int64_t r = kh * w_.dh - w_.ph;
    const int64_t first_row = std::max<int64_t>(0, -r), end_row = std::min(w_.OH, w_.H - r);
    *lo = std::max({o0, first_row * w_.W, -shift(kh, kw0)});
    *hi = std::min({o1, end_row * w_.W, w_.H * w_.W - shift(kh, kw1)});
    if (*hi < *lo) *hi = *lo;
  }

 private:
  Window w_;
};

} // namespace optimized
} // namespace runtime
} // namespace executorch
