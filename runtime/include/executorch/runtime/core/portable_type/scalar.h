// Scalar: a bool, integer or floating-point value passed to kernels.
#pragma once

#include <cstdint>
#include <type_traits>

#include <executorch/runtime/core/portable_type/bfloat16.h>
#include <executorch/runtime/core/portable_type/half.h>
#include <executorch/runtime/platform/assert.h>

namespace executorch {
namespace runtime {
namespace etensor {

class Scalar {
 public:
  Scalar() : Scalar(int64_t(0)) {}
  template <typename T,
            typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value,
                                    bool>::type = true>
  /* implicit */ Scalar(T val) : tag_(Tag::Int) {
    v_.as_int = static_cast<int64_t>(val);
  }
  /* implicit */ Scalar(bool val) : tag_(Tag::Bool) { v_.as_bool = val; }
  /* implicit */ Scalar(double val) : tag_(Tag::Double) { v_.as_double = val; }
  /* implicit */ Scalar(float val) : Scalar(static_cast<double>(val)) {}
  /* implicit */ Scalar(Half val) : Scalar(static_cast<double>(float(val))) {}
  /* implicit */ Scalar(BFloat16 val) : Scalar(static_cast<double>(float(val))) {}

  template <typename T>
  T to() const;

  bool isIntegral(bool includeBool) const {
    return tag_ == Tag::Int || (includeBool && tag_ == Tag::Bool);
  }
  bool isFloatingPoint() const { return tag_ == Tag::Double; }
  bool isBoolean() const { return tag_ == Tag::Bool; }

 private:
  int64_t toInt() const {
    if (tag_ == Tag::Int) return v_.as_int;
    if (tag_ == Tag::Bool) return v_.as_bool ? 1 : 0;
    return static_cast<int64_t>(v_.as_double);
  }
  double toDouble() const {
    if (tag_ == Tag::Double) return v_.as_double;
    if (tag_ == Tag::Int) return static_cast<double>(v_.as_int);
    return v_.as_bool ? 1.0 : 0.0;
  }
  bool toBool() const {
    if (tag_ == Tag::Bool) return v_.as_bool;
    if (tag_ == Tag::Int) return v_.as_int != 0;
    return v_.as_double != 0.0;
  }

  enum class Tag { Double, Int, Bool } tag_;
  union {
    double as_double;
    int64_t as_int;
    bool as_bool;
  } v_;
};

template <>
inline int64_t Scalar::to<int64_t>() const {
  return toInt();
}
template <>
inline double Scalar::to<double>() const {
  return toDouble();
}
template <>
inline bool Scalar::to<bool>() const {
  return toBool();
}

} // namespace etensor
} // namespace runtime
} // namespace executorch
