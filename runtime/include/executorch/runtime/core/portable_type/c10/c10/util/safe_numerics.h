// Overflow-checked integer arithmetic (c10::add_overflows, mul_overflows,
// safe_multiplies_u64): each returns true when the result overflowed and
// stores the wrapped result.
#pragma once

#include <cstddef>
#include <cstdint>

namespace c10 {

inline bool add_overflows(uint64_t a, uint64_t b, uint64_t* out) {
  return __builtin_add_overflow(a, b, out);
}

inline bool mul_overflows(uint64_t a, uint64_t b, uint64_t* out) {
  return __builtin_mul_overflow(a, b, out);
}

inline bool mul_overflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_mul_overflow(a, b, out);
}

// The product of [first, last); *out gets it (wrapped on overflow).
template <typename It>
bool safe_multiplies_u64(It first, It last, uint64_t* out) {
  uint64_t prod = 1;
  bool overflow = false;
  for (; first != last; ++first) {
    overflow |= mul_overflows(prod, static_cast<uint64_t>(*first), &prod);
  }
  *out = prod;
  return overflow;
}

template <typename Container>
bool safe_multiplies_u64(const Container& c, uint64_t* out) {
  return safe_multiplies_u64(c.begin(), c.end(), out);
}

} // namespace c10
