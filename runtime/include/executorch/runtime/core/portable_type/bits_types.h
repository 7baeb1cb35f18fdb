// Bits element types: untyped bit patterns of a given width (storage only).
#pragma once

#include <cstdint>

namespace executorch {
namespace runtime {
namespace etensor {

struct alignas(1) bits1x8 {
  using underlying = uint8_t;
  uint8_t val_;
  bits1x8() = default;
  constexpr explicit bits1x8(uint8_t val) : val_(val) {}
};

struct alignas(1) bits2x4 {
  using underlying = uint8_t;
  uint8_t val_;
  bits2x4() = default;
  constexpr explicit bits2x4(uint8_t val) : val_(val) {}
};

struct alignas(1) bits4x2 {
  using underlying = uint8_t;
  uint8_t val_;
  bits4x2() = default;
  constexpr explicit bits4x2(uint8_t val) : val_(val) {}
};

struct alignas(1) bits8 {
  using underlying = uint8_t;
  uint8_t val_;
  bits8() = default;
  constexpr explicit bits8(uint8_t val) : val_(val) {}
};

struct alignas(2) bits16 {
  using underlying = uint16_t;
  uint16_t val_;
  bits16() = default;
  constexpr explicit bits16(uint16_t val) : val_(val) {}
};

} // namespace etensor
} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::etensor::bits16;
using ::executorch::runtime::etensor::bits1x8;
using ::executorch::runtime::etensor::bits2x4;
using ::executorch::runtime::etensor::bits4x2;
using ::executorch::runtime::etensor::bits8;
} // namespace executor
} // namespace torch
