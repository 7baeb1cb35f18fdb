// scalar_type_util.h: type traits, the ET_FORALL_* families, predicates,
// casting, promotion and the ET_SWITCH_* dispatch macros, used the way
// kernel authors use them.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>

using ::executorch::aten::BFloat16;
using ::executorch::aten::Half;
using ::executorch::aten::ScalarType;
using ::executorch::runtime::Error;
using ::executorch::runtime::KernelRuntimeContext;
namespace et = ::executorch::runtime;

namespace {

// Collects the ScalarType names an ET_FORALL_* macro visits, in order.
std::vector<std::string> g_visited;
#define RECORD_NAME(ctype, name) g_visited.push_back(#name);
#define RECORD_NAME_WITH(extra, ctype, name) g_visited.push_back(std::string(extra) + #name);
#define RECORD_NAME_WITH2(a, b, ctype, name) g_visited.push_back(std::string(a) + b + #name);

template <typename F>
std::vector<std::string> visit(F f) {
  g_visited.clear();
  f();
  return g_visited;
}

using Names = std::vector<std::string>;

} // namespace

TEST(ScalarTypeUtilTest, TraitsMapBothWays) {
  static_assert(std::is_same<et::ScalarTypeToCppType<ScalarType::Float>::type, float>::value);
  static_assert(std::is_same<et::ScalarTypeToCppType<ScalarType::Half>::type, Half>::value);
  static_assert(std::is_same<et::ScalarTypeToCppType<ScalarType::ComplexFloat>::type,
                             ::executorch::aten::complex<float>>::value);
  static_assert(std::is_same<et::ScalarTypeToCppType<ScalarType::QInt8>::type,
                             ::torch::executor::qint8>::value);
  static_assert(et::CppTypeToScalarType<int64_t>::value == ScalarType::Long);
  static_assert(et::CppTypeToScalarType<bool>::value == ScalarType::Bool);
  static_assert(et::CppTypeToScalarType<BFloat16>::value == ScalarType::BFloat16);
  static_assert(et::CppTypeToScalarType<uint16_t>::value == ScalarType::UInt16);
  // Every dtype's C type maps back to itself.
#define ROUND_TRIP(ctype, name)                                                              \
  EXPECT_EQ(et::CppTypeToScalarType<et::ScalarTypeToCppType<ScalarType::name>::type>::value, \
            ScalarType::name);
  ET_FORALL_SCALAR_TYPES(ROUND_TRIP)
#undef ROUND_TRIP
  static_assert(et::is_floating_point<Half>::value && et::is_floating_point<double>::value);
  static_assert(!et::is_floating_point<int>::value);
  static_assert(et::is_reduced_floating_point_v<BFloat16> &&
                !et::is_reduced_floating_point_v<float>);
  static_assert(et::is_integral_type<bool, true>::value &&
                !et::is_integral_type<bool, false>::value);
  static_assert(et::is_complex_type<::executorch::aten::complex<double>>::value);
  static_assert(et::is_qint_type<::torch::executor::quint4x2>::value);
  static_assert(et::is_bits_type<::torch::executor::bits16>::value);
  static_assert(et::is_barebones_unsigned_type<uint32_t>::value &&
                !et::is_barebones_unsigned_type<uint8_t>::value);
}

TEST(ScalarTypeUtilTest, ForallFamiliesVisitTheirSubsets) {
  EXPECT_EQ(visit([] { ET_FORALL_INT_TYPES(RECORD_NAME) }),
            (Names{"Byte", "Char", "Short", "Int", "Long"}));
  EXPECT_EQ(visit([] { ET_FORALL_FLOAT_TYPES(RECORD_NAME) }), (Names{"Float", "Double"}));
  EXPECT_EQ(visit([] { ET_FORALL_FLOATHBF16_TYPES(RECORD_NAME) }),
            (Names{"Float", "Double", "Half", "BFloat16"}));
  EXPECT_EQ(visit([] { ET_FORALL_REALH_TYPES(RECORD_NAME) }).back(), "Half");
  EXPECT_EQ(visit([] { ET_FORALL_REAL_TYPES(RECORD_NAME) }).size(), 7u);
  EXPECT_EQ(visit([] { ET_FORALL_REALHBF16_TYPES(RECORD_NAME) }).size(), 9u);
  EXPECT_EQ(visit([] { ET_FORALL_REALHBBF16_TYPES(RECORD_NAME) }),
            (Names{"Byte", "Char", "Short", "Int", "Long", "Float", "Double", "Bool", "Half",
                   "BFloat16"}));
  EXPECT_EQ(visit([] { ET_FORALL_REAL_TYPES_AND(Bool, RECORD_NAME) }).back(), "Bool");
  EXPECT_EQ(visit([] { ET_FORALL_INT_TYPES_AND(Bool, RECORD_NAME) }).size(), 6u);
  EXPECT_EQ(visit([] { ET_FORALL_FLOAT_TYPES_AND(Half, RECORD_NAME) }),
            (Names{"Float", "Double", "Half"}));
  EXPECT_EQ(visit([] { ET_FORALL_QINT_TYPES(RECORD_NAME) }),
            (Names{"QInt8", "QUInt8", "QInt32", "QUInt4x2", "QUInt2x4"}));
  EXPECT_EQ(visit([] { ET_FORALL_COMPLEX_TYPES(RECORD_NAME) }),
            (Names{"ComplexFloat", "ComplexDouble"}));
  EXPECT_EQ(visit([] { ET_FORALL_COMPLEXH_TYPES(RECORD_NAME) }).front(), "ComplexHalf");
  EXPECT_EQ(visit([] { ET_FORALL_INT_TYPES_WITH("x", RECORD_NAME_WITH) }).front(), "xByte");
  EXPECT_EQ(visit([] { ET_FORALL_REAL_TYPES_AND_WITH(Half, "y", RECORD_NAME_WITH) }).back(),
            "yHalf");
  EXPECT_EQ(visit([] { ET_FORALL_FLOATH_TYPES_WITH("z", RECORD_NAME_WITH) }),
            (Names{"zFloat", "zDouble", "zHalf"}));
  EXPECT_EQ(visit([] { ET_FORALL_REAL_TYPES_WITH2("a", "b", RECORD_NAME_WITH2) }).size(), 7u);
  EXPECT_EQ(visit([] { ET_FORALL_REALHBBF16_TYPES_WITH2("a", "b", RECORD_NAME_WITH2) }),
            (Names{"abByte", "abChar", "abShort", "abInt", "abLong", "abFloat", "abDouble",
                   "abHalf", "abBFloat16", "abBool"}));
  EXPECT_EQ(visit([] { ET_FORALL_FLOATHBF16_TYPES_WITH2("a", "b", RECORD_NAME_WITH2) }).back(),
            "abBFloat16");
}

TEST(ScalarTypeUtilTest, ForallGivesTheCTypes) {
  // The C type each macro passes is the dtype's element type.
#define CHECK_SIZE(ctype, name) EXPECT_EQ(sizeof(ctype), et::elementSize(ScalarType::name));
  ET_FORALL_REALHBBF16_TYPES(CHECK_SIZE)
  ET_FORALL_COMPLEXH_TYPES(CHECK_SIZE)
  ET_FORALL_QINT_TYPES(CHECK_SIZE)
#undef CHECK_SIZE
}

TEST(ScalarTypeUtilTest, NamesSizesAndValidity) {
  EXPECT_STREQ(et::toString(ScalarType::Float), "Float");
  EXPECT_STREQ(et::toString(ScalarType::QUInt2x4), "QUInt2x4");
  EXPECT_STREQ(et::toString(ScalarType::Undefined), "Undefined");
  EXPECT_STREQ(et::toString(static_cast<ScalarType>(100)), "UNKNOWN_SCALAR");
  EXPECT_EQ(et::elementSize(ScalarType::ComplexDouble), 16u);
  EXPECT_EQ(et::elementSize(ScalarType::Bits16), 2u);
  EXPECT_EQ(::executorch::aten::elementSize(ScalarType::Long), 8u);
  EXPECT_EQ(et::elementSizeOrZero(ScalarType::Undefined), 0u);
  EXPECT_TRUE(et::isValid(ScalarType::UInt64));
  EXPECT_FALSE(et::isValid(ScalarType::Undefined));
  EXPECT_FALSE(et::isValid(ScalarType::NumOptions));
  EXPECT_FALSE(et::isValid(static_cast<ScalarType>(-3)));
}

TEST(ScalarTypeUtilDeathTest, ElementSizeOfUndefinedAborts) {
  EXPECT_DEATH(et::elementSize(ScalarType::Undefined), "");
}

TEST(ScalarTypeUtilTest, Categories) {
  EXPECT_TRUE(et::isIntegralType(ScalarType::Short, false));
  EXPECT_FALSE(et::isIntegralType(ScalarType::Bool, false));
  EXPECT_TRUE(et::isIntegralType(ScalarType::Bool, true));
  EXPECT_FALSE(et::isIntegralType(ScalarType::Float, true));
  // Upstream leaves the barebones unsigned types out.
  EXPECT_FALSE(et::isIntegralType(ScalarType::UInt32, true));
  EXPECT_FALSE(et::isIntegralType(ScalarType::UInt64, false));
  EXPECT_TRUE(et::isFloatingType(ScalarType::BFloat16));
  EXPECT_FALSE(et::isFloatingType(ScalarType::ComplexFloat));
  EXPECT_TRUE(et::isRealType(ScalarType::Double));
  EXPECT_FALSE(et::isRealType(ScalarType::Half));
  EXPECT_TRUE(et::isRealHType(ScalarType::Half));
  EXPECT_FALSE(et::isRealHType(ScalarType::Bool));
  EXPECT_TRUE(et::isRealHBType(ScalarType::Bool));
  EXPECT_FALSE(et::isRealHBType(ScalarType::BFloat16));
  EXPECT_TRUE(et::isRealHBF16Type(ScalarType::BFloat16));
  EXPECT_FALSE(et::isRealHBF16Type(ScalarType::Bool));
  EXPECT_TRUE(et::isRealHBBF16Type(ScalarType::Bool));
  EXPECT_TRUE(et::isComplexType(ScalarType::ComplexHalf));
  EXPECT_TRUE(et::isQIntType(ScalarType::QInt32));
  EXPECT_FALSE(et::isQIntType(ScalarType::Int));
  EXPECT_TRUE(et::isBitsType(ScalarType::Bits4x2));
  EXPECT_TRUE(et::isFloat8Type(ScalarType::Float8_e4m3fnuz));
  EXPECT_TRUE(et::isBarebonesUnsignedType(ScalarType::UInt16));
  EXPECT_FALSE(et::isBarebonesUnsignedType(ScalarType::Byte));
}

TEST(ScalarTypeUtilTest, RelatedTypes) {
  EXPECT_EQ(et::toQIntType(ScalarType::Byte), ScalarType::QUInt8);
  EXPECT_EQ(et::toQIntType(ScalarType::Char), ScalarType::QInt8);
  EXPECT_EQ(et::toQIntType(ScalarType::Int), ScalarType::QInt32);
  EXPECT_EQ(et::toQIntType(ScalarType::Float), ScalarType::Float);
  EXPECT_EQ(et::toUnderlying(ScalarType::QUInt4x2), ScalarType::Byte);
  EXPECT_EQ(et::toUnderlying(ScalarType::QInt32), ScalarType::Int);
  EXPECT_TRUE(et::isUnderlying(ScalarType::Char, ScalarType::QInt8));
  EXPECT_FALSE(et::isUnderlying(ScalarType::Byte, ScalarType::QInt8));
  EXPECT_TRUE(et::isSignedType(ScalarType::Char));
  EXPECT_FALSE(et::isSignedType(ScalarType::Byte));
  EXPECT_FALSE(et::isSignedType(ScalarType::Bool));
  EXPECT_TRUE(et::isSignedType(ScalarType::BFloat16));
  EXPECT_TRUE(et::isSignedType(ScalarType::ComplexFloat));
  EXPECT_FALSE(et::isSignedType(ScalarType::UInt32));
  static_assert(et::toRealValueType(ScalarType::ComplexDouble) == ScalarType::Double);
  static_assert(et::toRealValueType(ScalarType::Int) == ScalarType::Int);
  static_assert(et::toComplexType(ScalarType::BFloat16) == ScalarType::ComplexFloat);
  static_assert(et::toComplexType(ScalarType::Half) == ScalarType::ComplexHalf);
  EXPECT_EQ(et::toComplexType(ScalarType::Long), ScalarType::Undefined);
}

TEST(ScalarTypeUtilDeathTest, IsSignedTypeOfQuantizedAborts) {
  EXPECT_DEATH(et::isSignedType(ScalarType::QInt8), "");
}

TEST(ScalarTypeUtilTest, CanCastFollowsSameKindRules) {
  EXPECT_TRUE(et::canCast(ScalarType::Int, ScalarType::Float));
  EXPECT_TRUE(et::canCast(ScalarType::Bool, ScalarType::Int));
  EXPECT_TRUE(et::canCast(ScalarType::Float, ScalarType::ComplexFloat));
  EXPECT_FALSE(et::canCast(ScalarType::Float, ScalarType::Int));
  EXPECT_TRUE(et::canCast(ScalarType::Float, ScalarType::UInt32));
  EXPECT_FALSE(et::canCast(ScalarType::ComplexFloat, ScalarType::Double));
  EXPECT_FALSE(et::canCast(ScalarType::Int, ScalarType::Bool));
  static_assert(et::can_cast<int32_t, double>::value);
  static_assert(!et::can_cast<float, int64_t>::value);
}

TEST(ScalarTypeUtilTest, ConvertWrapsFloatToNarrowInt) {
  EXPECT_EQ(et::convert<int32_t>(3.9), 3);
  EXPECT_EQ(et::convert<float>(int64_t(7)), 7.0f);
  // 300.0 -> int64 300 -> uint8 44: defined, unlike a direct cast.
  EXPECT_EQ(et::convert<uint8_t>(300.0f), uint8_t(44));
}

TEST(ScalarTypeUtilTest, PromoteTypesMatchesPyTorch) {
  using ST = ScalarType;
  struct Case {
    ST a, b, want;
  };
  const Case cases[] = {
      {ST::Byte, ST::Char, ST::Short},
      {ST::Byte, ST::Int, ST::Int},
      {ST::Char, ST::Long, ST::Long},
      {ST::Bool, ST::Byte, ST::Byte},
      {ST::Bool, ST::Half, ST::Half},
      {ST::Long, ST::Half, ST::Half},
      {ST::Int, ST::BFloat16, ST::BFloat16},
      {ST::Half, ST::BFloat16, ST::Float},
      {ST::Half, ST::Float, ST::Float},
      {ST::BFloat16, ST::Double, ST::Double},
      {ST::Float, ST::Double, ST::Double},
      {ST::Half, ST::ComplexHalf, ST::ComplexHalf},
      {ST::BFloat16, ST::ComplexHalf, ST::ComplexFloat},
      {ST::Float, ST::ComplexHalf, ST::ComplexFloat},
      {ST::Double, ST::ComplexFloat, ST::ComplexDouble},
      {ST::Long, ST::ComplexFloat, ST::ComplexFloat},
      {ST::ComplexHalf, ST::ComplexDouble, ST::ComplexDouble},
      {ST::QInt8, ST::QInt8, ST::QInt8},
      {ST::UInt16, ST::UInt16, ST::UInt16},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(et::promoteTypes(c.a, c.b), c.want)
        << et::toString(c.a) << " with " << et::toString(c.b);
    EXPECT_EQ(et::promoteTypes(c.b, c.a), c.want)
        << et::toString(c.b) << " with " << et::toString(c.a);
  }
  // half_to_float turns a reduced-precision result into Float.
  EXPECT_EQ(et::promoteTypes(ST::Half, ST::Half, true), ST::Float);
  EXPECT_EQ(et::promoteTypes(ST::Int, ST::BFloat16, true), ST::Float);
  EXPECT_EQ(et::promoteTypes(ST::Int, ST::Double, true), ST::Double);
  // Pairings without a rule give Undefined (upstream aborts).
  EXPECT_EQ(et::promoteTypes(ST::QInt8, ST::Float), ST::Undefined);
  EXPECT_EQ(et::promoteTypes(ST::Bits8, ST::Byte), ST::Undefined);
  EXPECT_EQ(et::promoteTypes(ST::UInt32, ST::Long), ST::Undefined);
  EXPECT_EQ(et::promoteTypes(ST::Float8_e5m2, ST::Float), ST::Undefined);
  EXPECT_EQ(et::promoteTypes(ST::Undefined, ST::Undefined), ST::Undefined);
}

TEST(ScalarTypeUtilTest, PromoteTypesTemplate) {
  static_assert(std::is_same<et::promote_types<uint8_t, int8_t>::type, int16_t>::value);
  static_assert(std::is_same<et::promote_types<int32_t, float>::type, float>::value);
  static_assert(std::is_same<et::promote_types<Half, BFloat16>::type, float>::value);
  static_assert(std::is_same<et::promote_types<Half, int64_t>::type, Half>::value);
  static_assert(std::is_same<et::promote_types<Half, int64_t, true>::type, float>::value);
  static_assert(std::is_same<::torch::executor::promote_types<bool, double>::type, double>::value);
  // The promoted type computes: int8 + uint8 in int16 does not wrap.
  const et::promote_types<uint8_t, int8_t>::type sum =
      static_cast<int16_t>(uint8_t(200)) + static_cast<int16_t>(int8_t(100));
  EXPECT_EQ(sum, 300);
}

namespace {

// A kernel body in the upstream style: copies `in` into `out`, converting,
// for the real types plus Half/BFloat16/Bool.
void copy_cast(KernelRuntimeContext& ctx, ScalarType in_type, const void* in, ScalarType out_type,
               void* out, size_t n) {
  ET_SWITCH_REALHBBF16_TYPES(in_type, ctx, "copy_cast", CTYPE_IN, [&]() {
    ET_SWITCH_REALHBBF16_TYPES(out_type, ctx, "copy_cast", CTYPE_OUT, [&]() {
      const auto* src = static_cast<const CTYPE_IN*>(in);
      auto* dst = static_cast<CTYPE_OUT*>(out);
      for (size_t i = 0; i < n; ++i) {
        dst[i] = static_cast<CTYPE_OUT>(src[i]);
      }
    });
  });
}

} // namespace

TEST(ScalarTypeUtilTest, SwitchDispatchesToTheCType) {
  KernelRuntimeContext ctx;
  const int32_t in[3] = {1, -2, 300};
  double out_d[3] = {};
  copy_cast(ctx, ScalarType::Int, in, ScalarType::Double, out_d, 3);
  EXPECT_EQ(ctx.failure_state(), Error::Ok);
  EXPECT_EQ(out_d[2], 300.0);
  Half out_h[3];
  copy_cast(ctx, ScalarType::Int, in, ScalarType::Half, out_h, 3);
  EXPECT_EQ(static_cast<float>(out_h[1]), -2.0f);
  bool out_b[3];
  copy_cast(ctx, ScalarType::Int, in, ScalarType::Bool, out_b, 3);
  EXPECT_TRUE(out_b[0] && out_b[1] && out_b[2]);
  EXPECT_EQ(ctx.failure_state(), Error::Ok);
}

TEST(ScalarTypeUtilTest, SwitchFailsTheContextOnOtherTypes) {
  KernelRuntimeContext ctx;
  const int32_t in[1] = {1};
  int32_t out[1] = {7};
  copy_cast(ctx, ScalarType::ComplexFloat, in, ScalarType::Int, out, 1);
  EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument);
  EXPECT_EQ(out[0], 7); // nothing ran
}

TEST(ScalarTypeUtilTest, SwitchReturnsTheLambdaValue) {
  KernelRuntimeContext ctx;
  const size_t size = ET_SWITCH_FLOAT_TYPES(ScalarType::Double, ctx, "size", CTYPE,
                                            [&]() { return sizeof(CTYPE); });
  EXPECT_EQ(size, sizeof(double));
  const bool is_unsigned = ET_SWITCH_INT_TYPES_AND(Bool, ScalarType::Byte, ctx, "sign", CTYPE,
                                                   [&]() { return !std::is_signed<CTYPE>::value; });
  EXPECT_TRUE(is_unsigned);
}

namespace {

// Which dtypes a switch accepts, found by running it on every dtype.
#define ACCEPTED_BY(SWITCH_CALL)                                                   \
  [] {                                                                             \
    std::vector<std::string> names;                                                \
    for (int i = 0; i < static_cast<int>(ScalarType::NumOptions); ++i) {           \
      const auto t = static_cast<ScalarType>(i);                                   \
      KernelRuntimeContext ctx;                                                    \
      SWITCH_CALL(t, ctx, "probe", CTYPE,                                          \
                  [&]() { EXPECT_EQ(et::CppTypeToScalarType<CTYPE>::value, t); }); \
      if (ctx.failure_state() == Error::Ok) {                                      \
        names.push_back(et::toString(t));                                          \
      }                                                                            \
    }                                                                              \
    return names;                                                                  \
  }()

#define SWITCH_REAL_AND_BOOL(...) ET_SWITCH_REAL_TYPES_AND(Bool, __VA_ARGS__)
#define SWITCH_FLOAT_AND3(...) ET_SWITCH_FLOAT_TYPES_AND3(Half, BFloat16, Long, __VA_ARGS__)
#define SWITCH_TWO(...) ET_SWITCH_TWO_TYPES(Bool, Float, __VA_ARGS__)
#define SWITCH_THREE(...) ET_SWITCH_THREE_TYPES(Bool, Float, Long, __VA_ARGS__)
#define SWITCH_FOUR(...) ET_SWITCH_FOUR_TYPES(Bool, Float, Long, Half, __VA_ARGS__)
#define SWITCH_FLOATHBF16_AND(...) ET_SWITCH_FLOATHBF16_TYPES_AND(Int, __VA_ARGS__)

} // namespace

TEST(ScalarTypeUtilTest, EachSwitchAcceptsItsSet) {
  // Every probe of an unaccepted dtype logs an error; keep the output short.
  const auto level = et::get_log_level();
  et::set_log_level(et::LogLevel::Fatal);
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_REAL_TYPES),
            (Names{"Byte", "Char", "Short", "Int", "Long", "Float", "Double"}));
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_INT_TYPES), (Names{"Byte", "Char", "Short", "Int", "Long"}));
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_FLOAT_TYPES), (Names{"Float", "Double"}));
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_FLOATH_TYPES), (Names{"Half", "Float", "Double"}));
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_FLOATHBF16_TYPES),
            (Names{"Half", "Float", "Double", "BFloat16"}));
  EXPECT_EQ(ACCEPTED_BY(SWITCH_FLOATHBF16_AND),
            (Names{"Int", "Half", "Float", "Double", "BFloat16"}));
  EXPECT_EQ(ACCEPTED_BY(SWITCH_FLOAT_AND3), (Names{"Long", "Half", "Float", "Double", "BFloat16"}));
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_REALH_TYPES).size(), 8u);
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_REALB_TYPES).size(), 8u);
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_REALHB_TYPES).size(), 9u);
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_REALHBF16_TYPES).size(), 9u);
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_REALHBBF16_TYPES).size(), 10u);
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_REALHBBF16_AND_UINT_TYPES).size(), 13u);
  EXPECT_EQ(ACCEPTED_BY(SWITCH_REAL_AND_BOOL).back(), "Bool");
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_QINT_TYPES).size(), 5u);
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_COMPLEX_TYPES), (Names{"ComplexFloat", "ComplexDouble"}));
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_COMPLEXH_TYPES).size(), 3u);
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_SCALAR_OBJ_TYPES), (Names{"Long", "Double", "Bool"}));
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_SCALAR_OBJ_REAL_TYPES), (Names{"Long", "Double"}));
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_SCALAR_OBJ_INTB_TYPES), (Names{"Long", "Bool"}));
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_SCALAR_OBJ_FLOATB_TYPES), (Names{"Double", "Bool"}));
  EXPECT_EQ(ACCEPTED_BY(SWITCH_TWO), (Names{"Float", "Bool"}));
  EXPECT_EQ(ACCEPTED_BY(SWITCH_THREE), (Names{"Long", "Float", "Bool"}));
  EXPECT_EQ(ACCEPTED_BY(SWITCH_FOUR), (Names{"Long", "Half", "Float", "Bool"}));
  // ALL: everything but Float8, the wide unsigned types (and Undefined).
  EXPECT_EQ(ACCEPTED_BY(ET_SWITCH_ALL_TYPES).size(), 23u);
  et::set_log_level(level);
}

TEST(ScalarTypeUtilTest, LegacyNamespaceAliases) {
  EXPECT_EQ(::torch::executor::promoteTypes(ScalarType::Int, ScalarType::Float), ScalarType::Float);
  EXPECT_STREQ(::torch::executor::toString(ScalarType::Bool), "Bool");
  EXPECT_TRUE(::torch::executor::isValid(ScalarType::Int));
  static_assert(::torch::executor::CppTypeToScalarType<float>::value == ScalarType::Float);
}

// isValid is constexpr, as upstream's (its headers use it in constant
// expressions).
static_assert(::executorch::runtime::isValid(ScalarType::Float), "");
static_assert(!::executorch::runtime::isValid(ScalarType::Undefined), "");
