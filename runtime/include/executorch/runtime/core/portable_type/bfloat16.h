// bfloat16: the top 16 bits of a float32, rounded to nearest even.
#pragma once

#include <cstdint>
#include <cstring>

namespace executorch {
namespace runtime {
namespace etensor {

namespace internal {
inline float bf16_bits_to_float(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}
inline uint16_t float_to_bf16_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u) {
    return 0x7fc0u;  // canonical NaN
  }
  const uint32_t rounding_bias = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding_bias) >> 16);
}
} // namespace internal

struct alignas(2) BFloat16 {
  uint16_t x;

  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return from_bits_t(); }

  BFloat16() = default;
  constexpr BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  /* implicit */ BFloat16(float value) : x(internal::float_to_bf16_bits(value)) {}
  operator float() const { return internal::bf16_bits_to_float(x); }
};

inline BFloat16 operator+(BFloat16 a, BFloat16 b) { return BFloat16(float(a) + float(b)); }
inline BFloat16 operator-(BFloat16 a, BFloat16 b) { return BFloat16(float(a) - float(b)); }
inline BFloat16 operator*(BFloat16 a, BFloat16 b) { return BFloat16(float(a) * float(b)); }
inline BFloat16 operator/(BFloat16 a, BFloat16 b) { return BFloat16(float(a) / float(b)); }
inline BFloat16 operator-(BFloat16 a) { return BFloat16(-float(a)); }

} // namespace etensor
} // namespace runtime
} // namespace executorch
