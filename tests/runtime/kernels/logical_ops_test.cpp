// logical_not/and/or/xor: truth values of every dtype (NaN is true),
// broadcasting, outs of any dtype, and the errors.
#include "dtype_test_util.h"

namespace {

using namespace kt;

TEST(Logical, NotInEveryDtypeIntoBoolAndFloat) {
  for (ScalarType t : all_dtypes()) {
    const std::vector<double> v =
        t == ScalarType::Bool ? std::vector<double>{0, 1, 1} : std::vector<double>{0, 2, 1};
    auto in = tensor_of(t, {3}, v);
    for (ScalarType ot : {ScalarType::Bool, ScalarType::Float, ScalarType::Long}) {
      auto out = out_of(ot, {3});
      std::vector<EValue> a{in->tensor(), out->tensor()};
      ASSERT_EQ(call_out("aten::logical_not.out", a, *out), Error::Ok) << dtype_name(t);
      EXPECT_EQ(logical(*out), (std::vector<double>{1, 0, 0})) << dtype_name(t);
    }
  }
  auto nan = tensor_of(ScalarType::Float, {2}, {NAN, -0.0});
  auto out = out_of(ScalarType::Bool, {2});
  std::vector<EValue> a{nan->tensor(), out->tensor()};
  ASSERT_EQ(call_out("aten::logical_not.out", a, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{0, 1}));
}

TEST(Logical, BinaryOpsBroadcastAcrossDtypes) {
  auto a = tensor_of(ScalarType::Float, {2, 2}, {0, 0.5, 0, -3});
  auto b = tensor_of(ScalarType::Int, {2}, {0, 7});
  struct Case {
    const char* name;
    std::vector<double> want;
  };
  // a != 0: {0,1,0,1}; b != 0 broadcast: {0,1,0,1}.
  for (const Case& c :
       {Case{"aten::logical_and.out", {0, 1, 0, 1}}, Case{"aten::logical_or.out", {0, 1, 0, 1}},
        Case{"aten::logical_xor.out", {0, 0, 0, 0}}}) {
    auto out = out_of(ScalarType::Bool, {2, 2});
    std::vector<EValue> v{a->tensor(), b->tensor(), out->tensor()};
    ASSERT_EQ(call_out(c.name, v, *out), Error::Ok) << c.name;
    EXPECT_EQ(logical(*out), c.want) << c.name;
  }
  auto x = tensor_of(ScalarType::Bool, {4}, {0, 1, 0, 1});
  auto y = tensor_of(ScalarType::Bool, {4}, {0, 0, 1, 1});
  auto out = out_of(ScalarType::Byte, {4});
  for (const Case& c :
       {Case{"aten::logical_and.out", {0, 0, 0, 1}}, Case{"aten::logical_or.out", {0, 1, 1, 1}},
        Case{"aten::logical_xor.out", {0, 1, 1, 0}}}) {
    std::vector<EValue> v{x->tensor(), y->tensor(), out->tensor()};
    ASSERT_EQ(call_out(c.name, v, *out), Error::Ok) << c.name;
    EXPECT_EQ(logical(*out), c.want) << c.name;
  }
}

TEST(Logical, Errors) {
  auto a = tensor_of(ScalarType::Bool, {3}, {0, 1, 0});
  auto b = tensor_of(ScalarType::Bool, {2}, {0, 1});
  auto out = out_of(ScalarType::Bool, {3});
  std::vector<EValue> v{a->tensor(), b->tensor(), out->tensor()};
  EXPECT_EQ(call_out("aten::logical_or.out", v, *out), Error::InvalidArgument);
  std::vector<EValue> w{a->tensor(), EValue(true), out->tensor()};
  EXPECT_EQ(call_out("aten::logical_and.out", w, *out), Error::InvalidArgument);
  auto small = std::make_unique<TT>(ScalarType::Bool, std::vector<int32_t>{2}, 0,
                                    TensorShapeDynamism::STATIC);
  std::vector<EValue> n{a->tensor(), small->tensor()};
  EXPECT_EQ(call_out("aten::logical_not.out", n, *small), Error::InvalidArgument);
}

} // namespace
