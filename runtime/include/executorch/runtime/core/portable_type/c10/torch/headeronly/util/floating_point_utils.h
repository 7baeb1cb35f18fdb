// float <-> its IEEE bits, as c10::detail has them.
#pragma once

#include <cstdint>

#include <torch/headeronly/util/bit_cast.h>

namespace c10 {
namespace detail {
inline float fp32_from_bits(uint32_t w) { return c10::bit_cast<float>(w); }
inline uint32_t fp32_to_bits(float f) { return c10::bit_cast<uint32_t>(f); }
} // namespace detail
} // namespace c10
