// Overflow-checked arithmetic for sizes, strides, offsets and element counts.
// Every such number that comes from a file (or from a caller's sizes) goes
// through these helpers: a wrap in this arithmetic is how a crafted program
// turns into an out-of-bounds access. Internal to libexecutorch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace executorch {
namespace runtime {
namespace internal {

// *out = a * b; false (and *out untouched) when the product does not fit T.
template <typename T>
inline bool checked_mul(T a, T b, T* out) {
  T r;
  if (__builtin_mul_overflow(a, b, &r)) {
    return false;
  }
  *out = r;
  return true;
}

// *out = a + b; false (and *out untouched) when the sum does not fit T.
template <typename T>
inline bool checked_add(T a, T b, T* out) {
  T r;
  if (__builtin_add_overflow(a, b, &r)) {
    return false;
  }
  *out = r;
  return true;
}

// The largest size_t, as the 64-bit type file fields are read in.
constexpr uint64_t kSizeMax = std::numeric_limits<size_t>::max();

// Whether a 64-bit size, offset or count read from a file fits size_t (and
// `limit`, which tests set to UINT32_MAX to play a 32-bit host). On i386 or
// armhf a value above 4 GiB would otherwise wrap to a small size.
constexpr bool fits_size_t(uint64_t v, uint64_t limit = kSizeMax) {
  return v <= limit && v <= kSizeMax;
}

// *out = v; false (and *out untouched) when v does not fit size_t or limit.
inline bool to_size(uint64_t v, size_t* out, uint64_t limit = kSizeMax) {
  if (!fits_size_t(v, limit)) {
    return false;
  }
  *out = static_cast<size_t>(v);
  return true;
}

// The same for signed fields (int64_t sizes, off_t): a negative never fits.
inline bool to_size_signed(int64_t v, size_t* out, uint64_t limit = kSizeMax) {
  return v >= 0 && to_size(static_cast<uint64_t>(v), out, limit);
}

// a + b, or the largest uint64_t when that overflows (for counters).
inline uint64_t saturating_add(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<uint64_t>::max() : r;
}

// Number of elements of a tensor of these sizes. False on a negative size or
// when the count does not fit int64_t.
inline bool checked_numel(const int32_t* sizes, size_t rank, int64_t* out) {
  int64_t n = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (sizes[i] < 0 || !checked_mul<int64_t>(n, sizes[i], &n)) {
      return false;
    }
  }
  *out = n;
  return true;
}

// Where checked_dense_strides stopped: the dimension whose stride (or the
// product feeding it) does not fit, and that value as far as it was computed.
struct StrideOverflow {
  size_t dim = 0;
  int64_t value = 0;
};

// Dense strides of `sizes` laid out in `dim_order` (a permutation of
// [0, rank), checked by the caller), in elements. A size of 0 counts as 1,
// as dim_order_to_stride does, so that strides stay meaningful. False when a
// stride does not fit int32_t (the kernels' and ETensor's stride type);
// `bad` then names the dimension and value.
inline bool checked_dense_strides(const int32_t* sizes, const uint8_t* dim_order, size_t rank,
                                  int32_t* strides, StrideOverflow* bad = nullptr) {
  int64_t running = 1;
  for (size_t i = rank; i-- > 0;) {
    const uint8_t d = dim_order[i];
    if (running > std::numeric_limits<int32_t>::max()) {
      if (bad != nullptr) {
        bad->dim = d;
        bad->value = running;
      }
      return false;
    }
    strides[d] = static_cast<int32_t>(running);
    const int64_t s = sizes[d] <= 0 ? 1 : sizes[d];
    if (!checked_mul<int64_t>(running, s, &running)) {
      running = std::numeric_limits<int64_t>::max();
    }
  }
  return true;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
