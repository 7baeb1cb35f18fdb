// Operands that read as a "window" of out's positions (same shape, scalar,
// suffix or inner-dim broadcast), so that an elementwise loop over a range of
// out runs as a few flat loops. Shared by the optimized elementwise kernels.
#pragma once

#include <algorithm>
#include <cstdint>

#include "../../portable/kernel_util.h"

namespace executorch {
namespace runtime {
namespace optimized {

// How an operand's element for out position i is found: p[(i / inner) % mid].
// A full operand has inner 1 and mid numel; a scalar mid 1.
template <typename T>
struct Window {
  const T* p;
  int64_t inner, mid;
};

// Whether strides st over shape s address such a window (dims of size 1
// do not count): the non-zero strides must be the contiguous strides of one
// run of dims.
template <typename T>
bool find_window(const portable::Shape& s, const int64_t* st, Window<T>* w) {
  int64_t inner = 1, mid = 1;
  int state = 0; // 0: trailing broadcast dims, 1: inside the window, 2: leading broadcast dims
  for (int d = s.n - 1; d >= 0; --d) {
    if (s.s[d] == 1) continue;
    if (st[d] == 0) {
      if (state == 0) inner *= s.s[d];
      if (state == 1) state = 2;
      continue;
    }
    if (state == 2 || st[d] != mid) return false;
    state = 1;
    mid *= s.s[d];
  }
  w->inner = inner;
  w->mid = mid;
  return true;
}

// Whether strides st over shape s (numel n) are out's contiguous layout.
inline bool is_flat(const portable::Shape& s, const int64_t* st, int64_t n) {
  Window<void> w;
  return find_window(s, st, &w) && (n <= 1 || (w.inner == 1 && w.mid == n));
}

// The longest run from out position i (at most n) over which w is either
// contiguous (*scalar false) or one value (*scalar true); *p is its start.
template <typename T>
int64_t run_of(const Window<T>& w, int64_t i, int64_t n, const T** p, bool* scalar) {
  if (w.mid == 1) {
    *p = w.p;
    *scalar = true;
    return n;
  }
  if (w.inner > 1) {
    *p = w.p + (i / w.inner) % w.mid;
    *scalar = true;
    return std::min(n, w.inner - i % w.inner);
  }
  *p = w.p + i % w.mid;
  *scalar = false;
  return std::min(n, w.mid - i % w.mid);
}

// The body of a loop o[i] = EXPR over n elements of two fp32 operands a and
// b (x and y in EXPR), either of which may be a scalar read at [0] (a_s,
// b_s): one plain loop per case, so that each vectorizes. OUT is o's
// element type.
#define ET_OPERAND_LOOPS(OUT, EXPR)           \
  if (!a_s && !b_s) {                         \
    for (int64_t i = 0; i < n; ++i) {         \
      const float x = a[i], y = b[i];         \
      o[i] = EXPR;                            \
    }                                         \
  } else if (!b_s) {                          \
    const float x = *a;                       \
    for (int64_t i = 0; i < n; ++i) {         \
      const float y = b[i];                   \
      o[i] = EXPR;                            \
    }                                         \
  } else if (!a_s) {                          \
    const float y = *b;                       \
    for (int64_t i = 0; i < n; ++i) {         \
      const float x = a[i];                   \
      o[i] = EXPR;                            \
    }                                         \
  } else {                                    \
    const float x = *a, y = *b;               \
    const OUT v = EXPR;                       \
    for (int64_t i = 0; i < n; ++i) o[i] = v; \
  }

} // namespace optimized
} // namespace runtime
} // namespace executorch
