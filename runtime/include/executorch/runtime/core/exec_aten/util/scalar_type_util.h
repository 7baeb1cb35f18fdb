// Dtype helpers: names, sizes, categories, promotion, C++ type traits.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/platform/assert.h>

namespace executorch {
namespace runtime {

using ::executorch::aten::ScalarType;

template <typename T>
struct CppTypeToScalarType;
#define ET_SPECIALIZE_CPP_TO_ST_(ctype, name)                              \
  template <>                                                              \
  struct CppTypeToScalarType<ctype> {                                      \
    static constexpr ScalarType value = ScalarType::name;                  \
  };
ET_FORALL_SCALAR_TYPES(ET_SPECIALIZE_CPP_TO_ST_)
#undef ET_SPECIALIZE_CPP_TO_ST_

template <ScalarType N>
struct ScalarTypeToCppType;
#define ET_SPECIALIZE_ST_TO_CPP_(ctype, name)          \
  template <>                                          \
  struct ScalarTypeToCppType<ScalarType::name> {       \
    using type = ctype;                                \
  };
ET_FORALL_SCALAR_TYPES(ET_SPECIALIZE_ST_TO_CPP_)
#undef ET_SPECIALIZE_ST_TO_CPP_

inline bool isValid(ScalarType type) {
  return static_cast<int8_t>(type) >= 0 && type < ScalarType::Undefined;
}

inline const char* toString(ScalarType t) {
#define ET_CASE_NAME_(ctype, name) \
  case ScalarType::name:           \
    return #name;
  switch (t) {
    ET_FORALL_SCALAR_TYPES(ET_CASE_NAME_)
    case ScalarType::Undefined:
      return "Undefined";
    default:
      return "UNKNOWN_SCALAR";
  }
#undef ET_CASE_NAME_
}

// Size in bytes of one element, or 0 for Undefined/unknown values (the
// non-aborting form used on untrusted input).
inline size_t elementSizeOrZero(ScalarType t) {
#define ET_CASE_SIZE_(ctype, name) \
  case ScalarType::name:           \
    return sizeof(ctype);
  switch (t) {
    ET_FORALL_SCALAR_TYPES(ET_CASE_SIZE_)
    default:
      return 0;
  }
#undef ET_CASE_SIZE_
}

inline size_t elementSize(ScalarType t) {
  const size_t n = elementSizeOrZero(t);
  ET_CHECK_MSG(n != 0, "Unknown ScalarType %d", static_cast<int>(t));
  return n;
}

constexpr bool isIntegralType(ScalarType t, bool includeBool) {
  return (includeBool && t == ScalarType::Bool) || t == ScalarType::Byte ||
      t == ScalarType::Char || t == ScalarType::Int || t == ScalarType::Long ||
      t == ScalarType::Short || t == ScalarType::UInt16 ||
      t == ScalarType::UInt32 || t == ScalarType::UInt64;
}
constexpr bool isFloatingType(ScalarType t) {
  return t == ScalarType::Double || t == ScalarType::Float ||
      t == ScalarType::Half || t == ScalarType::BFloat16;
}
constexpr bool isRealType(ScalarType t) {
  return t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Short ||
      t == ScalarType::Int || t == ScalarType::Long || t == ScalarType::Float ||
      t == ScalarType::Double;
}
constexpr bool isRealHType(ScalarType t) {
  return isRealType(t) || t == ScalarType::Half;
}
constexpr bool isRealHBType(ScalarType t) {
  return isRealHType(t) || t == ScalarType::Bool;
}
constexpr bool isRealHBBF16Type(ScalarType t) {
  return isRealHBType(t) || t == ScalarType::BFloat16;
}
constexpr bool isComplexType(ScalarType t) {
  return t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat ||
      t == ScalarType::ComplexDouble;
}
constexpr bool isQIntType(ScalarType t) {
  return t == ScalarType::QInt8 || t == ScalarType::QUInt8 ||
      t == ScalarType::QInt32 || t == ScalarType::QUInt4x2 ||
      t == ScalarType::QUInt2x4;
}
constexpr bool isBitsType(ScalarType t) {
  return t == ScalarType::Bits1x8 || t == ScalarType::Bits2x4 ||
      t == ScalarType::Bits4x2 || t == ScalarType::Bits8 ||
      t == ScalarType::Bits16;
}
constexpr bool isFloat8Type(ScalarType t) {
  return t == ScalarType::Float8_e5m2 || t == ScalarType::Float8_e4m3fn ||
      t == ScalarType::Float8_e5m2fnuz || t == ScalarType::Float8_e4m3fnuz;
}
constexpr bool isUnsignedType(ScalarType t) {
  return t == ScalarType::Byte || t == ScalarType::UInt16 ||
      t == ScalarType::UInt32 || t == ScalarType::UInt64;
}

// Whether a value of `from` may be written into `to` (same-kind rules:
// no float -> integral, no integral -> bool).
constexpr bool canCast(ScalarType from, ScalarType to) {
  return !(isComplexType(from) && !isComplexType(to)) &&
      !(isFloatingType(from) && isIntegralType(to, false)) &&
      !(from != ScalarType::Bool && to == ScalarType::Bool);
}

// Type promotion for the arithmetic types (bool < integral < floating).
// Returns Undefined for combinations the portable kernels do not compute.


inline ScalarType promoteTypes(ScalarType a, ScalarType b,
                               bool half_to_float = false) {
  if (a == b) {
    if (half_to_float && (a == ScalarType::Half || a == ScalarType::BFloat16)) {
      return ScalarType::Float;
    }
    return a;
  }
  auto rank = [](ScalarType t) -> int {
    switch (t) {
      case ScalarType::Bool: return 0;
      case ScalarType::Byte: return 1;
      case ScalarType::Char: return 2;
      case ScalarType::Short: return 3;
      case ScalarType::Int: return 4;
      case ScalarType::Long: return 5;
      case ScalarType::Half: return 6;
      case ScalarType::BFloat16: return 6;
      case ScalarType::Float: return 7;
      case ScalarType::Double: return 8;
      default: return -1;
    }
  };
  const int ra = rank(a), rb = rank(b);
  if (ra < 0 || rb < 0) {
    return ScalarType::Undefined;
  }
  // uint8 with a signed integer type promotes to the next signed type.
  if ((a == ScalarType::Byte && b == ScalarType::Char) ||
      (a == ScalarType::Char && b == ScalarType::Byte)) {
    return ScalarType::Short;
  }
  if ((a == ScalarType::Half && b == ScalarType::BFloat16) ||
      (a == ScalarType::BFloat16 && b == ScalarType::Half)) {
    return ScalarType::Float;
  }
  ScalarType r = ra >= rb ? a : b;
  if (half_to_float && (r == ScalarType::Half || r == ScalarType::BFloat16)) {
    r = ScalarType::Float;
  }
  return r;
}

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::canCast;
using ::executorch::runtime::CppTypeToScalarType;
using ::executorch::runtime::elementSize;
using ::executorch::runtime::isFloatingType;
using ::executorch::runtime::isIntegralType;
using ::executorch::runtime::promoteTypes;
using ::executorch::runtime::toString;
} // namespace executor
} // namespace torch

namespace executorch {
namespace aten {
using ::executorch::runtime::elementSize;
} // namespace aten
} // namespace executorch

// Dtype dispatch: runs the lambda with CTYPE_ALIAS bound to the C type of
// TYPE, or fails the context with InvalidArgument for other types.
#define ET_INTERNAL_SWITCH_CASE(enum_type, CTYPE_ALIAS, ...)   \
  case enum_type: {                                            \
    using CTYPE_ALIAS = ::executorch::runtime::ScalarTypeToCppType<enum_type>::type; \
    return __VA_ARGS__();                                      \
  }
#define ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME, ...)                        \
  [&] {                                                                     \
    const auto& _st = TYPE;                                                 \
    switch (_st) {                                                          \
      __VA_ARGS__                                                           \
      default:                                                              \
        (CONTEXT).fail(::executorch::runtime::Error::InvalidArgument);      \
        ET_LOG(Error, "Unhandled dtype %s for %s",                          \
               ::executorch::runtime::toString(_st), NAME);                 \
    }                                                                       \
  }()
#define ET_ST_ ::executorch::aten::ScalarType
#define ET_SWITCH_FLOAT_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...)        \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                   \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Float, CTYPE_ALIAS, __VA_ARGS__)        \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Double, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_FLOATHBF16_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...)   \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                   \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Float, CTYPE_ALIAS, __VA_ARGS__)        \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Double, CTYPE_ALIAS, __VA_ARGS__)       \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Half, CTYPE_ALIAS, __VA_ARGS__)         \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::BFloat16, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_INT_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...)          \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                   \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Byte, CTYPE_ALIAS, __VA_ARGS__)         \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Char, CTYPE_ALIAS, __VA_ARGS__)         \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Short, CTYPE_ALIAS, __VA_ARGS__)        \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Int, CTYPE_ALIAS, __VA_ARGS__)          \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Long, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_REAL_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...)         \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                   \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Byte, CTYPE_ALIAS, __VA_ARGS__)         \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Char, CTYPE_ALIAS, __VA_ARGS__)         \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Short, CTYPE_ALIAS, __VA_ARGS__)        \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Int, CTYPE_ALIAS, __VA_ARGS__)          \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Long, CTYPE_ALIAS, __VA_ARGS__)         \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Float, CTYPE_ALIAS, __VA_ARGS__)        \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Double, CTYPE_ALIAS, __VA_ARGS__))
#define ET_SWITCH_REALHBBF16_TYPES(TYPE, CONTEXT, NAME, CTYPE_ALIAS, ...)   \
  ET_INTERNAL_SWITCH(TYPE, CONTEXT, NAME,                                   \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Byte, CTYPE_ALIAS, __VA_ARGS__)         \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Char, CTYPE_ALIAS, __VA_ARGS__)         \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Short, CTYPE_ALIAS, __VA_ARGS__)        \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Int, CTYPE_ALIAS, __VA_ARGS__)          \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Long, CTYPE_ALIAS, __VA_ARGS__)         \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Float, CTYPE_ALIAS, __VA_ARGS__)        \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Double, CTYPE_ALIAS, __VA_ARGS__)       \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Half, CTYPE_ALIAS, __VA_ARGS__)         \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::BFloat16, CTYPE_ALIAS, __VA_ARGS__)     \
    ET_INTERNAL_SWITCH_CASE(ET_ST_::Bool, CTYPE_ALIAS, __VA_ARGS__))
