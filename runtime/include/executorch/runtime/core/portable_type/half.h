// IEEE 754 binary16, stored as bits; arithmetic goes through float.
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
inline float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else { // subnormal: normalize
      exponent = 127 - 15 + 1;
      while ((mantissa & 0x400u) == 0) {
        mantissa <<= 1;
        --exponent;
      }
      mantissa &= 0x3ffu;
      bits = sign | (exponent << 23) | (mantissa << 13);
    }
  } else if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

inline uint16_t float_to_half_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t abs = bits & 0x7fffffffu;
  if (abs >= 0x7f800000u) { // inf or nan
    return sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u);
  }
  if (abs >= 0x477ff000u) { // rounds to >= 65520: overflow to inf
    return sign | 0x7c00u;
  }
  if (abs < 0x38800000u) { // below the smallest normal half: subnormal or 0
    if (abs < 0x33000000u) {
      return sign;
    }
    // value = mantissa * 2^(exponent - 150); in units of 2^-24 that is
    // mantissa >> (126 - exponent), with shift in [14, 24] here.
    const uint32_t exponent = abs >> 23;
    const uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - exponent;
    uint32_t result = mantissa >> shift;
    const uint32_t rem = mantissa & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (result & 1u))) {
      ++result;
    }
    return static_cast<uint16_t>(sign | result);
  }
  uint32_t result = abs - 0x38000000u; // rebias exponent 127 -> 15
  // round to nearest even on the 13 dropped mantissa bits
  const uint32_t rem = result & 0x1fffu;
  result >>= 13;
  if (rem > 0x1000u || (rem == 0x1000u && (result & 1u))) {
    ++result;
  }
  return static_cast<uint16_t>(sign | result);
}
} // namespace internal

struct alignas(2) Half {
  uint16_t x;

  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return from_bits_t(); }

  Half() = default;
  constexpr Half(uint16_t bits, from_bits_t) : x(bits) {}
  /* implicit */ Half(float value) : x(internal::float_to_half_bits(value)) {}
  operator float() const { return internal::half_bits_to_float(x); }
};

ET_INTERNAL_DEFINE_REDUCED_FLOAT_OPS(Half)

namespace internal {
// The conversion helpers under the names c10 and upstream use.
inline uint32_t fp32_to_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}
inline float fp32_from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}
inline float fp16_ieee_to_fp32_value(uint16_t h) { return half_bits_to_float(h); }
inline uint32_t fp16_ieee_to_fp32_bits(uint16_t h) { return fp32_to_bits(half_bits_to_float(h)); }
inline uint16_t fp16_ieee_from_fp32_value(float f) { return float_to_half_bits(f); }
} // namespace internal

} // namespace etensor
} // namespace runtime
} // namespace executorch

namespace std {
template <>
class numeric_limits<::executorch::runtime::etensor::Half>
    : public ::executorch::runtime::etensor::internal::ReducedFloatLimitsBase<
          ::executorch::runtime::etensor::Half> {
  using H = ::executorch::runtime::etensor::Half;

 public:
  static constexpr bool is_iec559 = true;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;
  static constexpr H min() { return bits(0x0400); }
  static constexpr H lowest() { return bits(0xFBFF); }
  static constexpr H max() { return bits(0x7BFF); }
  static constexpr H epsilon() { return bits(0x1400); }
  static constexpr H round_error() { return bits(0x3800); }
  static constexpr H infinity() { return bits(0x7C00); }
  static constexpr H quiet_NaN() { return bits(0x7E00); }
  static constexpr H signaling_NaN() { return bits(0x7D00); }
};
} // namespace std

namespace torch {
namespace executor {
using ::executorch::runtime::etensor::Half;
namespace internal {
using ::executorch::runtime::etensor::internal::fp16_ieee_from_fp32_value;
using ::executorch::runtime::etensor::internal::fp16_ieee_to_fp32_bits;
using ::executorch::runtime::etensor::internal::fp16_ieee_to_fp32_value;
using ::executorch::runtime::etensor::internal::fp32_from_bits;
using ::executorch::runtime::etensor::internal::fp32_to_bits;
} // namespace internal
} // namespace executor
} // namespace torch
