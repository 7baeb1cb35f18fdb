// any.out (keepdim or not, negative dim, bool/uint8 out) and cumsum.out
// (result dtypes, any dim, channels-last) with hand-worked results.
#include "dtype_test_util.h"

namespace {

using namespace kt;

TEST(Any, AlongADimInEveryDtype) {
  for (ScalarType t : all_dtypes()) {
    // [2, 3]: row 0 all zero, row 1 one non-zero; columns: 0, 1, 0.
    auto x = tensor_of(t, {2, 3}, {0, 0, 0, 0, 1, 0});
    auto out = out_of(ScalarType::Bool, {2, 1});
    std::vector<EValue> a{x->tensor(), EValue(int64_t(-1)), EValue(true), out->tensor()};
    ASSERT_EQ(call_out("aten::any.out", a, *out), Error::Ok) << dtype_name(t);
    EXPECT_EQ(logical(*out), (std::vector<double>{0, 1})) << dtype_name(t);
    auto out0 = out_of(ScalarType::Byte, {3});
    std::vector<EValue> b{x->tensor(), EValue(int64_t(0)), EValue(false), out0->tensor()};
    ASSERT_EQ(call_out("aten::any.out", b, *out0), Error::Ok) << dtype_name(t);
    EXPECT_EQ(logical(*out0), (std::vector<double>{0, 1, 0})) << dtype_name(t);
  }
  // NaN counts as true; an empty lane as false.
  auto n = tensor_of(ScalarType::Float, {1, 2}, {NAN, 0});
  auto out = out_of(ScalarType::Bool, {1});
  std::vector<EValue> a{n->tensor(), EValue(int64_t(1)), EValue(false), out->tensor()};
  ASSERT_EQ(call_out("aten::any.out", a, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{1}));
  auto e = tensor_of(ScalarType::Float, {2, 0}, {});
  auto eo = out_of(ScalarType::Bool, {2});
  std::vector<EValue> b{e->tensor(), EValue(int64_t(1)), EValue(false), eo->tensor()};
  ASSERT_EQ(call_out("aten::any.out", b, *eo), Error::Ok);
  EXPECT_EQ(logical(*eo), (std::vector<double>{0, 0}));
}

TEST(Cumsum, DtypesAndDims) {
  // A bool mask's running count (the position-id pattern): int64 out.
  auto m = tensor_of(ScalarType::Bool, {1, 5}, {1, 1, 0, 1, 1});
  auto lo = out_of(ScalarType::Long, {1, 5});
  std::vector<EValue> a{m->tensor(), EValue(int64_t(-1)), EValue(), lo->tensor()};
  ASSERT_EQ(call_out("aten::cumsum.out", a, *lo), Error::Ok);
  EXPECT_EQ(logical(*lo), (std::vector<double>{1, 2, 2, 3, 4}));
  for (ScalarType t : float_dtypes()) {
    auto x = tensor_of(t, {2, 3}, {1, 2, 3, 0.5, -1, 4});
    auto out = out_of(t, {2, 3});
    std::vector<EValue> b{x->tensor(), EValue(int64_t(0)), EValue(), out->tensor()};
    ASSERT_EQ(call_out("aten::cumsum.out", b, *out), Error::Ok);
    EXPECT_EQ(logical(*out), (std::vector<double>{1, 2, 3, 1.5, 1, 7})) << dtype_name(t);
  }
  // dtype given: int32 input summed into a double out.
  auto i = tensor_of(ScalarType::Int, {3}, {1, 2, 3});
  auto d = out_of(ScalarType::Double, {3});
  std::vector<EValue> c{i->tensor(), EValue(int64_t(0)),
                        EValue(int64_t(static_cast<int>(ScalarType::Double))), d->tensor()};
  ASSERT_EQ(call_out("aten::cumsum.out", c, *d), Error::Ok);
  EXPECT_EQ(logical(*d), (std::vector<double>{1, 3, 6}));
  // Channels-last along C.
  auto x = tensor_of(ScalarType::Float, {1, 3, 1, 2}, {1, 2, 3, 4, 5, 6}, {0, 2, 3, 1});
  auto out = out_of(ScalarType::Float, {1, 3, 1, 2}, {0, 2, 3, 1});
  std::vector<EValue> e{x->tensor(), EValue(int64_t(1)), EValue(), out->tensor()};
  ASSERT_EQ(call_out("aten::cumsum.out", e, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{1, 2, 4, 6, 9, 12}));
}

TEST(AnyCumsum, Errors) {
  auto x = tensor_of(ScalarType::Int, {2}, {1, 2});
  auto f = out_of(ScalarType::Float, {1});
  std::vector<EValue> a{x->tensor(), EValue(int64_t(0)), EValue(false), f->tensor()};
  EXPECT_EQ(call_out("aten::any.out", a, *f), Error::InvalidArgument);
  auto b = out_of(ScalarType::Bool, {1});
  std::vector<EValue> c{x->tensor(), EValue(int64_t(2)), EValue(false), b->tensor()};
  EXPECT_EQ(call_out("aten::any.out", c, *b), Error::InvalidArgument);
  auto i32 = out_of(ScalarType::Int, {2}); // int input sums to int64 without dtype
  std::vector<EValue> d{x->tensor(), EValue(int64_t(0)), EValue(), i32->tensor()};
  EXPECT_EQ(call_out("aten::cumsum.out", d, *i32), Error::InvalidArgument);
  std::vector<EValue> e{x->tensor(), EValue(int64_t(0)), EValue(int64_t(1000)), i32->tensor()};
  EXPECT_EQ(call_out("aten::cumsum.out", e, *i32), Error::InvalidArgument);
}

} // namespace
