// full_like, scalar_tensor and arange (both forms): dtypes, the resize to
// the made shape, the fill-value range check and bad ranges.
#include <cmath>

#include "dtype_test_util.h"

namespace {

using namespace kt;

TEST(ScalarCreation, FullLikeResizesAndFillsEveryDtype) {
  auto self = tensor_of(ScalarType::Float, {2, 3}, {0, 0, 0, 0, 0, 0});
  for (ScalarType t : all_dtypes()) {
    auto out = out_of(t, {1, 1}, {}, 6);
    std::vector<EValue> v{self->tensor(), EValue(int64_t(1)), EValue(), out->tensor()};
    ASSERT_EQ(call_out("aten::full_like.out", v, *out), Error::Ok) << dtype_name(t);
    EXPECT_EQ(out->shape(), (std::vector<int32_t>{2, 3}));
    EXPECT_EQ(logical(*out), std::vector<double>(6, 1)) << dtype_name(t);
  }
  auto out = out_of(ScalarType::Float, {2, 3});
  std::vector<EValue> v{self->tensor(), EValue(-INFINITY), EValue(int64_t(1)), out->tensor()};
  ASSERT_EQ(call_out("aten::full_like.out", v, *out), Error::Ok);
  EXPECT_EQ(logical(*out), std::vector<double>(6, -INFINITY));
}

TEST(ScalarCreation, ScalarTensor) {
  auto out = out_of(ScalarType::Float, {});
  std::vector<EValue> v{EValue(-2.5), out->tensor()};
  ASSERT_EQ(call_out("aten::scalar_tensor.out", v, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{-2.5}));
  auto lo = out_of(ScalarType::Long, {});
  std::vector<EValue> w{EValue(int64_t(7)), lo->tensor()};
  ASSERT_EQ(call_out("aten::scalar_tensor.out", w, *lo), Error::Ok);
  EXPECT_EQ(logical(*lo), (std::vector<double>{7}));
}

TEST(ScalarCreation, Arange) {
  auto out = out_of(ScalarType::Long, {1}, {}, 16);
  std::vector<EValue> a{EValue(int64_t(2)), EValue(int64_t(12)), EValue(int64_t(3)), out->tensor()};
  ASSERT_EQ(call_out("aten::arange.start_out", a, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{2, 5, 8, 11}));
  std::vector<EValue> b{EValue(int64_t(5)), EValue(int64_t(0)), EValue(int64_t(-2)), out->tensor()};
  ASSERT_EQ(call_out("aten::arange.start_out", b, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{5, 3, 1}));
  auto f = out_of(ScalarType::Float, {1}, {}, 16);
  std::vector<EValue> c{EValue(0.0), EValue(1.0), EValue(0.25), f->tensor()};
  ASSERT_EQ(call_out("aten::arange.start_out", c, *f), Error::Ok);
  EXPECT_EQ(logical(*f), (std::vector<double>{0, 0.25, 0.5, 0.75}));
  std::vector<EValue> d{EValue(int64_t(4)), f->tensor()};
  ASSERT_EQ(call_out("aten::arange.out", d, *f), Error::Ok);
  EXPECT_EQ(logical(*f), (std::vector<double>{0, 1, 2, 3}));
  // An empty range.
  std::vector<EValue> e{EValue(int64_t(3)), EValue(int64_t(3)), EValue(int64_t(1)), out->tensor()};
  ASSERT_EQ(call_out("aten::arange.start_out", e, *out), Error::Ok);
  EXPECT_EQ(out->shape(), (std::vector<int32_t>{0}));
}

TEST(ScalarCreation, Errors) {
  auto out = out_of(ScalarType::Long, {4});
  for (auto args : std::vector<std::vector<EValue>>{
           {EValue(int64_t(0)), EValue(int64_t(4)), EValue(int64_t(0))},
           {EValue(int64_t(0)), EValue(int64_t(4)), EValue(int64_t(-1))},
           {EValue(0.0), EValue(INFINITY), EValue(1.0)},
           {EValue(int64_t(0)), EValue(int64_t(5)), EValue(int64_t(1))}}) { // too long
    args.push_back(out->tensor());
    EXPECT_EQ(call_out("aten::arange.start_out", args, *out), Error::InvalidArgument);
  }
  auto self = tensor_of(ScalarType::Float, {2}, {0, 0});
  auto i8 = out_of(ScalarType::Char, {2});
  std::vector<EValue> a{self->tensor(), EValue(int64_t(300)), EValue(), i8->tensor()};
  EXPECT_EQ(call_out("aten::full_like.out", a, *i8), Error::InvalidArgument);
  auto f16 = out_of(ScalarType::Half, {2});
  std::vector<EValue> b{self->tensor(), EValue(1e6), EValue(), f16->tensor()};
  EXPECT_EQ(call_out("aten::full_like.out", b, *f16), Error::InvalidArgument);
  auto rank1 = out_of(ScalarType::Float, {1});
  std::vector<EValue> c{EValue(1.0), rank1->tensor()};
  EXPECT_EQ(call_out("aten::scalar_tensor.out", c, *rank1), Error::InvalidArgument);
}

} // namespace
