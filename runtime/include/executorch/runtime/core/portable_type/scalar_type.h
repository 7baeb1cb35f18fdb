// ScalarType: tensor element types, numbered as upstream (and as c10).
#pragma once

#include <cstdint>

#include <executorch/runtime/core/portable_type/bfloat16.h>
#include <executorch/runtime/core/portable_type/bits_types.h>
#include <executorch/runtime/core/portable_type/complex.h>
#include <executorch/runtime/core/portable_type/half.h>
#include <executorch/runtime/core/portable_type/qint_types.h>

namespace executorch {
namespace runtime {
namespace etensor {

// Float8 dtypes exist in the enum (their numbers are part of the format)
// but nothing computes with them: storage only.
struct alignas(1) Float8_e5m2 {
  uint8_t x;
};
struct alignas(1) Float8_e4m3fn {
  uint8_t x;
};
struct alignas(1) Float8_e5m2fnuz {
  uint8_t x;
};
struct alignas(1) Float8_e4m3fnuz {
  uint8_t x;
};

#define ET_FORALL_SCALAR_TYPES(_)                                                                \
  _(uint8_t, Byte)                                                                               \
  _(int8_t, Char)                                                                                \
  _(int16_t, Short)                                                                              \
  _(int32_t, Int)                                                                                \
  _(int64_t, Long)                                                                               \
  _(::executorch::runtime::etensor::Half, Half)                                                  \
  _(float, Float)                                                                                \
  _(double, Double)                                                                              \
  _(::executorch::runtime::etensor::complex< ::executorch::runtime::etensor::Half>, ComplexHalf) \
  _(::executorch::runtime::etensor::complex<float>, ComplexFloat)                                \
  _(::executorch::runtime::etensor::complex<double>, ComplexDouble)                              \
  _(bool, Bool)                                                                                  \
  _(::executorch::runtime::etensor::qint8, QInt8)                                                \
  _(::executorch::runtime::etensor::quint8, QUInt8)                                              \
  _(::executorch::runtime::etensor::qint32, QInt32)                                              \
  _(::executorch::runtime::etensor::BFloat16, BFloat16)                                          \
  _(::executorch::runtime::etensor::quint4x2, QUInt4x2)                                          \
  _(::executorch::runtime::etensor::quint2x4, QUInt2x4)                                          \
  _(::executorch::runtime::etensor::bits1x8, Bits1x8)                                            \
  _(::executorch::runtime::etensor::bits2x4, Bits2x4)                                            \
  _(::executorch::runtime::etensor::bits4x2, Bits4x2)                                            \
  _(::executorch::runtime::etensor::bits8, Bits8)                                                \
  _(::executorch::runtime::etensor::bits16, Bits16)                                              \
  _(::executorch::runtime::etensor::Float8_e5m2, Float8_e5m2)                                    \
  _(::executorch::runtime::etensor::Float8_e4m3fn, Float8_e4m3fn)                                \
  _(::executorch::runtime::etensor::Float8_e5m2fnuz, Float8_e5m2fnuz)                            \
  _(::executorch::runtime::etensor::Float8_e4m3fnuz, Float8_e4m3fnuz)                            \
  _(uint16_t, UInt16)                                                                            \
  _(uint32_t, UInt32)                                                                            \
  _(uint64_t, UInt64)

enum class ScalarType : int8_t {
#define ET_DEFINE_ENUM_VAL_(unused, name) name,
  ET_FORALL_SCALAR_TYPES(ET_DEFINE_ENUM_VAL_)
#undef ET_DEFINE_ENUM_VAL_
      Undefined,
  NumOptions,
};

} // namespace etensor
} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::etensor::ScalarType;
} // namespace executor
} // namespace torch
