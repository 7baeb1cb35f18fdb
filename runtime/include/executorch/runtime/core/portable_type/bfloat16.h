// bfloat16: the top 16 bits of a float32, rounded to nearest even.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>

#include <executorch/runtime/core/portable_type/reduced_float_ops.h>

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
    return 0x7fc0u; // canonical NaN
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

ET_INTERNAL_DEFINE_REDUCED_FLOAT_OPS(BFloat16)

namespace internal {
// The conversion helpers under the names c10 and upstream use: the float
// with these top 16 bits; the top 16 bits of a float (truncating); and the
// nearest bfloat16 (ties to even, NaN kept a NaN).
inline float f32_from_bits(uint16_t src) { return bf16_bits_to_float(src); }
inline uint16_t bits_from_f32(float src) {
  uint32_t bits;
  std::memcpy(&bits, &src, sizeof(bits));
  return static_cast<uint16_t>(bits >> 16);
}
inline uint16_t round_to_nearest_even(float src) { return float_to_bf16_bits(src); }
} // namespace internal

} // namespace etensor
} // namespace runtime
} // namespace executorch

namespace std {
template <>
class numeric_limits<::executorch::runtime::etensor::BFloat16>
    : public ::executorch::runtime::etensor::internal::ReducedFloatLimitsBase<
          ::executorch::runtime::etensor::BFloat16> {
  using B = ::executorch::runtime::etensor::BFloat16;

 public:
  static constexpr bool is_iec559 = false;
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr int min_exponent = -125;
  static constexpr int min_exponent10 = -37;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;
  static constexpr B min() { return bits(0x0080); }
  static constexpr B lowest() { return bits(0xFF7F); }
  static constexpr B max() { return bits(0x7F7F); }
  static constexpr B epsilon() { return bits(0x3C00); }
  static constexpr B round_error() { return bits(0x3F00); }
  static constexpr B infinity() { return bits(0x7F80); }
  static constexpr B quiet_NaN() { return bits(0x7FC0); }
  static constexpr B signaling_NaN() { return bits(0x7FA0); }
};
} // namespace std

namespace torch {
namespace executor {
using ::executorch::runtime::etensor::BFloat16;
namespace internal {
using ::executorch::runtime::etensor::internal::bits_from_f32;
using ::executorch::runtime::etensor::internal::f32_from_bits;
using ::executorch::runtime::etensor::internal::round_to_nearest_even;
} // namespace internal
} // namespace executor
} // namespace torch
