// Dtype helpers for kernel and extension authors: C++ type <-> ScalarType
// traits, the ET_FORALL_* X-macros over dtype subsets, dtype predicates,
// casting and promotion rules, and the ET_SWITCH_* dispatch macros
// (scalar_type_switch.h, included at the end).
#pragma once

#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/platform/assert.h>

namespace executorch {
namespace runtime {

using ::executorch::aten::ScalarType;

// ---- C++ type <-> ScalarType -----------------------------------------------

template <ScalarType N>
struct ScalarTypeToCppType;
#define ET_INTERNAL_ST_TO_CPP_(ctype, name)      \
  template <>                                    \
  struct ScalarTypeToCppType<ScalarType::name> { \
    using type = ctype;                          \
  };
ET_FORALL_SCALAR_TYPES(ET_INTERNAL_ST_TO_CPP_)
#undef ET_INTERNAL_ST_TO_CPP_

template <typename T>
struct CppTypeToScalarType;
#define ET_INTERNAL_CPP_TO_ST_(ctype, name) \
  template <>                               \
  struct CppTypeToScalarType<ctype> : std::integral_constant<ScalarType, ScalarType::name> {};
ET_FORALL_SCALAR_TYPES(ET_INTERNAL_CPP_TO_ST_)
#undef ET_INTERNAL_CPP_TO_ST_

// Floating point in the wide sense: the C++ floating types, Half, BFloat16.
template <typename T>
struct is_floating_point
    : std::integral_constant<bool, std::is_floating_point<T>::value ||
                                       std::is_same<T, ::executorch::aten::Half>::value ||
                                       std::is_same<T, ::executorch::aten::BFloat16>::value> {};

template <typename T>
struct is_reduced_floating_point
    : std::integral_constant<bool, std::is_same<T, ::executorch::aten::Half>::value ||
                                       std::is_same<T, ::executorch::aten::BFloat16>::value> {};
template <typename T>
constexpr bool is_reduced_floating_point_v = is_reduced_floating_point<T>::value;

} // namespace runtime
} // namespace executorch

// ---- ET_FORALL_*: X-macros over dtype subsets -------------------------------
//
// Each calls `_` once per dtype with (C type, ScalarType enumerator name);
// the _WITH forms pass one or two extra leading arguments through. SCALARTYPE
// arguments are bare enumerator names (Half, Bool, ...). Names are fully
// qualified so the macros work in any namespace.

#define ET_INTERNAL_CPP_TYPE_OF(NAME) \
  ::executorch::runtime::ScalarTypeToCppType<::executorch::aten::ScalarType::NAME>::type

// "INT": the signed/unsigned C integer types (no bool, no quantized types).
#define ET_FORALL_INT_TYPES(_) \
  _(uint8_t, Byte)             \
  _(int8_t, Char)              \
  _(int16_t, Short)            \
  _(int32_t, Int)              \
  _(int64_t, Long)
#define ET_FORALL_INT_TYPES_AND(SCALARTYPE, _) \
  ET_FORALL_INT_TYPES(_)                       \
  _(ET_INTERNAL_CPP_TYPE_OF(SCALARTYPE), SCALARTYPE)
#define ET_FORALL_INT_TYPES_WITH(A, _) \
  _(A, uint8_t, Byte)                  \
  _(A, int8_t, Char)                   \
  _(A, int16_t, Short)                 \
  _(A, int32_t, Int)                   \
  _(A, int64_t, Long)
#define ET_FORALL_INT_TYPES_WITH2(A, B, _) \
  _(A, B, uint8_t, Byte)                   \
  _(A, B, int8_t, Char)                    \
  _(A, B, int16_t, Short)                  \
  _(A, B, int32_t, Int)                    \
  _(A, B, int64_t, Long)

// "FLOAT": float and double (Half and BFloat16 only where named).
#define ET_FORALL_FLOAT_TYPES(_) \
  _(float, Float)                \
  _(double, Double)
#define ET_FORALL_FLOAT_TYPES_AND(SCALARTYPE, _) \
  ET_FORALL_FLOAT_TYPES(_)                       \
  _(ET_INTERNAL_CPP_TYPE_OF(SCALARTYPE), SCALARTYPE)
#define ET_FORALL_FLOAT_TYPES_AND2(SCALARTYPE1, SCALARTYPE2, _) \
  ET_FORALL_FLOAT_TYPES_AND(SCALARTYPE1, _)                     \
  _(ET_INTERNAL_CPP_TYPE_OF(SCALARTYPE2), SCALARTYPE2)
#define ET_FORALL_FLOATH_TYPES(_) ET_FORALL_FLOAT_TYPES_AND(Half, _)
#define ET_FORALL_FLOATHBF16_TYPES(_) ET_FORALL_FLOAT_TYPES_AND2(Half, BFloat16, _)
#define ET_FORALL_FLOAT_TYPES_WITH(A, _) \
  _(A, float, Float)                     \
  _(A, double, Double)
#define ET_FORALL_FLOATH_TYPES_WITH(A, _) \
  ET_FORALL_FLOAT_TYPES_WITH(A, _)        \
  _(A, ::executorch::aten::Half, Half)
#define ET_FORALL_FLOAT_TYPES_WITH2(A, B, _) \
  _(A, B, float, Float)                      \
  _(A, B, double, Double)
#define ET_FORALL_FLOATHBF16_TYPES_WITH2(A, B, _) \
  ET_FORALL_FLOAT_TYPES_WITH2(A, B, _)            \
  _(A, B, ::executorch::aten::Half, Half)         \
  _(A, B, ::executorch::aten::BFloat16, BFloat16)

// "REAL": INT and FLOAT (Half, BFloat16 and Bool only where named: H, BF16, B).
#define ET_FORALL_REAL_TYPES(_) \
  ET_FORALL_INT_TYPES(_)        \
  ET_FORALL_FLOAT_TYPES(_)
#define ET_FORALL_REAL_TYPES_AND(SCALARTYPE, _) \
  ET_FORALL_REAL_TYPES(_)                       \
  _(ET_INTERNAL_CPP_TYPE_OF(SCALARTYPE), SCALARTYPE)
#define ET_FORALL_REAL_TYPES_AND2(SCALARTYPE1, SCALARTYPE2, _) \
  ET_FORALL_REAL_TYPES_AND(SCALARTYPE1, _)                     \
  _(ET_INTERNAL_CPP_TYPE_OF(SCALARTYPE2), SCALARTYPE2)
#define ET_FORALL_REAL_TYPES_AND3(SCALARTYPE1, SCALARTYPE2, SCALARTYPE3, _) \
  ET_FORALL_REAL_TYPES_AND2(SCALARTYPE1, SCALARTYPE2, _)                    \
  _(ET_INTERNAL_CPP_TYPE_OF(SCALARTYPE3), SCALARTYPE3)
#define ET_FORALL_REALH_TYPES(_) ET_FORALL_REAL_TYPES_AND(Half, _)
#define ET_FORALL_REALHBF16_TYPES(_) ET_FORALL_REAL_TYPES_AND2(Half, BFloat16, _)
#define ET_FORALL_REALHBBF16_TYPES(_) ET_FORALL_REAL_TYPES_AND3(Bool, Half, BFloat16, _)
#define ET_FORALL_REAL_TYPES_WITH(A, _) \
  ET_FORALL_INT_TYPES_WITH(A, _)        \
  ET_FORALL_FLOAT_TYPES_WITH(A, _)
#define ET_FORALL_REAL_TYPES_AND_WITH(SCALARTYPE, A, _) \
  ET_FORALL_REAL_TYPES_WITH(A, _)                       \
  _(A, ET_INTERNAL_CPP_TYPE_OF(SCALARTYPE), SCALARTYPE)
#define ET_FORALL_REAL_TYPES_WITH2(A, B, _) \
  ET_FORALL_INT_TYPES_WITH2(A, B, _)        \
  ET_FORALL_FLOAT_TYPES_WITH2(A, B, _)
#define ET_FORALL_REALHBF16_TYPES_WITH2(A, B, _) \
  ET_FORALL_INT_TYPES_WITH2(A, B, _)             \
  ET_FORALL_FLOATHBF16_TYPES_WITH2(A, B, _)
#define ET_FORALL_REALHBBF16_TYPES_WITH2(A, B, _) \
  ET_FORALL_REALHBF16_TYPES_WITH2(A, B, _)        \
  _(A, B, bool, Bool)

#define ET_FORALL_QINT_TYPES(_)            \
  _(::torch::executor::qint8, QInt8)       \
  _(::torch::executor::quint8, QUInt8)     \
  _(::torch::executor::qint32, QInt32)     \
  _(::torch::executor::quint4x2, QUInt4x2) \
  _(::torch::executor::quint2x4, QUInt2x4)

// "COMPLEX": complex of float and double; COMPLEXH adds complex<Half>.
#define ET_FORALL_COMPLEX_TYPES(_)                    \
  _(::executorch::aten::complex<float>, ComplexFloat) \
  _(::executorch::aten::complex<double>, ComplexDouble)
#define ET_FORALL_COMPLEXH_TYPES(_)                                     \
  _(::executorch::aten::complex<::executorch::aten::Half>, ComplexHalf) \
  ET_FORALL_COMPLEX_TYPES(_)

namespace executorch {
namespace runtime {

// ---- names and sizes ---------------------------------------------------------

// Whether `type` is one of the ET_FORALL_SCALAR_TYPES enumerators.
constexpr inline bool isValid(ScalarType type) {
  return static_cast<int8_t>(type) >= 0 && type < ScalarType::Undefined;
}

// The enumerator's name ("Float"), "Undefined", or "UNKNOWN_SCALAR".
inline const char* toString(ScalarType t) {
#define ET_INTERNAL_CASE_NAME_(ctype, name) \
  case ScalarType::name:                    \
    return #name;
  switch (t) {
    ET_FORALL_SCALAR_TYPES(ET_INTERNAL_CASE_NAME_)
    case ScalarType::Undefined:
      return "Undefined";
    default:
      return "UNKNOWN_SCALAR";
  }
#undef ET_INTERNAL_CASE_NAME_
}

// Size in bytes of one element, or 0 for Undefined/unknown values (the
// non-aborting form used on untrusted input).
inline size_t elementSizeOrZero(ScalarType t) {
#define ET_INTERNAL_CASE_SIZE_(ctype, name) \
  case ScalarType::name:                    \
    return sizeof(ctype);
  switch (t) {
    ET_FORALL_SCALAR_TYPES(ET_INTERNAL_CASE_SIZE_)
    default:
      return 0;
  }
#undef ET_INTERNAL_CASE_SIZE_
}

// Size in bytes of one element; aborts on Undefined or an unknown value.
inline size_t elementSize(ScalarType t) {
  const size_t n = elementSizeOrZero(t);
  ET_CHECK_MSG(n != 0, "Unknown ScalarType %" PRId8, static_cast<int8_t>(t));
  return n;
}

// ---- categories ----------------------------------------------------------------

// As upstream (and c10): the barebones unsigned types UInt16/32/64 are not
// integral here, so canCast() lets floating data into them.
constexpr bool isIntegralType(ScalarType t, bool includeBool) {
  return (includeBool && t == ScalarType::Bool) || t == ScalarType::Byte || t == ScalarType::Char ||
         t == ScalarType::Short || t == ScalarType::Int || t == ScalarType::Long;
}
constexpr bool isFloatingType(ScalarType t) {
  return t == ScalarType::Double || t == ScalarType::Float || t == ScalarType::Half ||
         t == ScalarType::BFloat16;
}
constexpr bool isRealType(ScalarType t) {
  return t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Short ||
         t == ScalarType::Int || t == ScalarType::Long || t == ScalarType::Float ||
         t == ScalarType::Double;
}
constexpr bool isRealHType(ScalarType t) { return isRealType(t) || t == ScalarType::Half; }
constexpr bool isRealHBType(ScalarType t) { return isRealHType(t) || t == ScalarType::Bool; }
constexpr bool isRealHBF16Type(ScalarType t) { return isRealHType(t) || t == ScalarType::BFloat16; }
constexpr bool isRealHBBF16Type(ScalarType t) {
  return isRealHBType(t) || t == ScalarType::BFloat16;
}
constexpr bool isComplexType(ScalarType t) {
  return t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat ||
         t == ScalarType::ComplexDouble;
}
constexpr bool isQIntType(ScalarType t) {
  return t == ScalarType::QInt8 || t == ScalarType::QUInt8 || t == ScalarType::QInt32 ||
         t == ScalarType::QUInt4x2 || t == ScalarType::QUInt2x4;
}
constexpr bool isBitsType(ScalarType t) {
  return t == ScalarType::Bits1x8 || t == ScalarType::Bits2x4 || t == ScalarType::Bits4x2 ||
         t == ScalarType::Bits8 || t == ScalarType::Bits16;
}
constexpr bool isFloat8Type(ScalarType t) {
  return t == ScalarType::Float8_e5m2 || t == ScalarType::Float8_e4m3fn ||
         t == ScalarType::Float8_e5m2fnuz || t == ScalarType::Float8_e4m3fnuz;
}
// The unsigned types wider than a byte, which only support storage and copies.
constexpr bool isBarebonesUnsignedType(ScalarType t) {
  return t == ScalarType::UInt16 || t == ScalarType::UInt32 || t == ScalarType::UInt64;
}
constexpr bool isUnsignedType(ScalarType t) {
  return t == ScalarType::Byte || isBarebonesUnsignedType(t);
}

template <typename T, bool includeBool>
struct is_integral_type
    : std::integral_constant<bool, isIntegralType(CppTypeToScalarType<T>::value, includeBool)> {};
template <typename T>
struct is_complex_type
    : std::integral_constant<bool, isComplexType(CppTypeToScalarType<T>::value)> {};
template <typename T>
struct is_qint_type : std::integral_constant<bool, isQIntType(CppTypeToScalarType<T>::value)> {};
template <typename T>
struct is_bits_type : std::integral_constant<bool, isBitsType(CppTypeToScalarType<T>::value)> {};
template <typename T>
struct is_float8_type : std::integral_constant<bool, isFloat8Type(CppTypeToScalarType<T>::value)> {
};
template <typename T>
struct is_barebones_unsigned_type
    : std::integral_constant<bool, isBarebonesUnsignedType(CppTypeToScalarType<T>::value)> {};

// ---- conversions between related dtypes ---------------------------------------

// The quantized type whose storage is `t` (Byte -> QUInt8, Char -> QInt8,
// Int -> QInt32); other types are returned unchanged.
inline ScalarType toQIntType(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
      return ScalarType::QUInt8;
    case ScalarType::Char:
      return ScalarType::QInt8;
    case ScalarType::Int:
      return ScalarType::QInt32;
    default:
      return t;
  }
}

// The storage type of a quantized type; other types are returned unchanged.
inline ScalarType toUnderlying(ScalarType t) {
  switch (t) {
    case ScalarType::QUInt8:
    case ScalarType::QUInt4x2:
    case ScalarType::QUInt2x4:
      return ScalarType::Byte;
    case ScalarType::QInt8:
      return ScalarType::Char;
    case ScalarType::QInt32:
      return ScalarType::Int;
    default:
      return t;
  }
}

inline bool isUnderlying(ScalarType type, ScalarType qtype) { return type == toUnderlying(qtype); }

// Whether the dtype holds negative values. Aborts for quantized, bits,
// float8 and unknown dtypes, which have no such notion here.
inline bool isSignedType(ScalarType t) {
#define ET_INTERNAL_CASE_SIGNED_(ctype, name) \
  case ScalarType::name:                      \
    return std::numeric_limits<ctype>::is_signed;
  switch (t) {
    case ScalarType::ComplexHalf:
    case ScalarType::ComplexFloat:
    case ScalarType::ComplexDouble:
    case ScalarType::Half:
    case ScalarType::BFloat16:
      return true;
      ET_FORALL_REAL_TYPES_AND(Bool, ET_INTERNAL_CASE_SIGNED_)
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64:
      return false;
    default:
      break;
  }
#undef ET_INTERNAL_CASE_SIGNED_
  ET_CHECK_MSG(false, "isSignedType: no signedness for ScalarType %s", toString(t));
  return false;
}

// The part type of a complex dtype; other types are returned unchanged.
constexpr ScalarType toRealValueType(ScalarType t) {
  switch (t) {
    case ScalarType::ComplexHalf:
      return ScalarType::Half;
    case ScalarType::ComplexFloat:
      return ScalarType::Float;
    case ScalarType::ComplexDouble:
      return ScalarType::Double;
    default:
      return t;
  }
}

// The complex dtype with parts of `t` (BFloat16 maps to ComplexFloat, the
// narrowest that holds its range); Undefined when there is none.
constexpr ScalarType toComplexType(ScalarType t) {
  switch (t) {
    case ScalarType::Half:
    case ScalarType::ComplexHalf:
      return ScalarType::ComplexHalf;
    case ScalarType::BFloat16:
    case ScalarType::Float:
    case ScalarType::ComplexFloat:
      return ScalarType::ComplexFloat;
    case ScalarType::Double:
    case ScalarType::ComplexDouble:
      return ScalarType::ComplexDouble;
    default:
      return ScalarType::Undefined;
  }
}

// ---- casting -------------------------------------------------------------------

// Whether a value of `from` may be written into `to` under the same-kind
// rules: no complex -> real, no floating -> integral, no non-bool -> bool.
constexpr bool canCast(ScalarType from, ScalarType to) {
  return !(isComplexType(from) && !isComplexType(to)) &&
         !(isFloatingType(from) && isIntegralType(to, false)) &&
         !(from != ScalarType::Bool && to == ScalarType::Bool);
}

template <typename From, typename To>
struct can_cast : std::integral_constant<bool, canCast(CppTypeToScalarType<From>::value,
                                                       CppTypeToScalarType<To>::value)> {};

// static_cast, except that floating -> integral goes through int64_t, so
// out-of-range values wrap instead of being undefined behaviour for the
// narrower types.
template <typename To, typename From>
To convert(From val) {
  if constexpr (std::is_floating_point<From>::value && std::is_integral<To>::value) {
    return static_cast<To>(static_cast<int64_t>(val));
  } else {
    return static_cast<To>(val);
  }
}

// ---- promotion -----------------------------------------------------------------

namespace internal {
// Integer rank for promotion among Byte/Char/Short/Int/Long (and Bool, lowest).
constexpr int integral_promotion_rank(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      return 0;
    case ScalarType::Byte:
      return 1;
    case ScalarType::Char:
      return 1;
    case ScalarType::Short:
      return 2;
    case ScalarType::Int:
      return 3;
    case ScalarType::Long:
      return 4;
    default:
      return -1;
  }
}
// Precision rank of the floating and complex types (by their part type).
constexpr int floating_promotion_rank(ScalarType t) {
  switch (t) {
    case ScalarType::Half:
    case ScalarType::BFloat16:
    case ScalarType::ComplexHalf:
      return 1;
    case ScalarType::Float:
    case ScalarType::ComplexFloat:
      return 2;
    case ScalarType::Double:
    case ScalarType::ComplexDouble:
      return 3;
    default:
      return 0;
  }
}
constexpr ScalarType floating_of_rank(int rank, bool complex) {
  return rank >= 3 ? (complex ? ScalarType::ComplexDouble : ScalarType::Double)
                   : (complex ? ScalarType::ComplexFloat : ScalarType::Float);
}
// a and b differ and both are bool, integral, floating or complex.
constexpr ScalarType promote_distinct(ScalarType a, ScalarType b) {
  const bool a_fp = isFloatingType(a) || isComplexType(a);
  const bool b_fp = isFloatingType(b) || isComplexType(b);
  if (!a_fp && !b_fp) { // bool and integral
    if (a == ScalarType::Bool || b == ScalarType::Bool) {
      return a == ScalarType::Bool ? b : a;
    }
    if ((a == ScalarType::Byte && b == ScalarType::Char) ||
        (a == ScalarType::Char && b == ScalarType::Byte)) {
      return ScalarType::Short; // the narrowest type holding both ranges
    }
    return integral_promotion_rank(a) > integral_promotion_rank(b) ? a : b;
  }
  if (a_fp != b_fp) { // an integral or bool with a floating/complex type
    return a_fp ? a : b;
  }
  const bool complex = isComplexType(a) || isComplexType(b);
  const int ra = floating_promotion_rank(a), rb = floating_promotion_rank(b);
  if (ra == 1 && rb == 1) {
    // Half with BFloat16 (or either with ComplexHalf): neither holds the
    // other, so both go to the next wider type. Half with ComplexHalf stays.
    const bool has_bf16 = a == ScalarType::BFloat16 || b == ScalarType::BFloat16;
    if (complex && !has_bf16) {
      return ScalarType::ComplexHalf;
    }
    return floating_of_rank(2, complex);
  }
  if (!complex) {
    return ra > rb ? a : b;
  }
  return floating_of_rank(ra > rb ? ra : rb, true);
}
} // namespace internal

// The dtype both operands are computed in (PyTorch's promote_types rules).
// With half_to_float, a Half or BFloat16 result becomes Float. Quantized,
// bits, float8 and the wide unsigned types only promote with themselves;
// any other pairing (or an unknown dtype) gives Undefined instead of
// aborting, so callers can reject it.
constexpr ScalarType promoteTypes(ScalarType a, ScalarType b, bool half_to_float = false) {
  auto promotable = [](ScalarType t) {
    return t == ScalarType::Bool || isRealType(t) || isFloatingType(t) || isComplexType(t);
  };
  ScalarType r = ScalarType::Undefined;
  if (a == b && isValid(a)) {
    r = a;
  } else if (promotable(a) && promotable(b)) {
    r = internal::promote_distinct(a, b);
  }
  if (half_to_float && (r == ScalarType::Half || r == ScalarType::BFloat16)) {
    r = ScalarType::Float;
  }
  return r;
}

// promoteTypes for C++ types: promote_types<T1, T2>::type.
template <typename T1, typename T2, bool half_to_float = false>
struct promote_types {
 private:
  static constexpr ScalarType kPromoted =
      promoteTypes(CppTypeToScalarType<T1>::value, CppTypeToScalarType<T2>::value, half_to_float);
  static_assert(kPromoted != ScalarType::Undefined,
                "promote_types: these types do not promote (quantized, bits, "
                "float8 and the wide unsigned types only promote with themselves)");

 public:
  using type = typename ScalarTypeToCppType<kPromoted>::type;
};

} // namespace runtime
} // namespace executorch

namespace executorch {
namespace aten {
using ::executorch::runtime::elementSize;
} // namespace aten
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::can_cast;
using ::executorch::runtime::canCast;
using ::executorch::runtime::convert;
using ::executorch::runtime::CppTypeToScalarType;
using ::executorch::runtime::elementSize;
using ::executorch::runtime::is_barebones_unsigned_type;
using ::executorch::runtime::is_bits_type;
using ::executorch::runtime::is_complex_type;
using ::executorch::runtime::is_float8_type;
using ::executorch::runtime::is_floating_point;
using ::executorch::runtime::is_integral_type;
using ::executorch::runtime::is_qint_type;
using ::executorch::runtime::is_reduced_floating_point;
using ::executorch::runtime::isBitsType;
using ::executorch::runtime::isComplexType;
using ::executorch::runtime::isFloatingType;
using ::executorch::runtime::isIntegralType;
using ::executorch::runtime::isQIntType;
using ::executorch::runtime::isRealHBType;
using ::executorch::runtime::isRealHType;
using ::executorch::runtime::isRealType;
using ::executorch::runtime::isValid;
using ::executorch::runtime::promote_types;
using ::executorch::runtime::promoteTypes;
using ::executorch::runtime::ScalarTypeToCppType;
using ::executorch::runtime::toString;
} // namespace executor
} // namespace torch

#include <executorch/runtime/core/exec_aten/util/scalar_type_switch.h>
