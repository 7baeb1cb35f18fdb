// copy.out, copy_ (broadcast and dtype conversion, the returned self),
// alias_copy.out and split_with_sizes_copy.out, with the errors.
#include "dtype_test_util.h"

namespace {

using namespace kt;

TEST(Copy, OutBroadcastsAndConverts) {
  auto self = tensor_of(ScalarType::Float, {2, 3}, std::vector<double>(6, 0));
  auto src = tensor_of(ScalarType::Int, {3}, {1, 2, 3});
  auto out = out_of(ScalarType::Float, {1, 1}, {}, 6);
  std::vector<EValue> v{self->tensor(), src->tensor(), EValue(false), out->tensor()};
  ASSERT_EQ(call_out("aten::copy.out", v, *out), Error::Ok);
  EXPECT_EQ(out->shape(), (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(logical(*out), (std::vector<double>{1, 2, 3, 1, 2, 3}));
}

TEST(Copy, InPlaceWritesSelfAndReturnsIt) {
  for (ScalarType t : {ScalarType::Float, ScalarType::BFloat16, ScalarType::Long}) {
    auto self = tensor_of(t, {2, 2}, {0, 0, 0, 0}, {1, 0}); // column-major
    auto src = tensor_of(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
    auto other = out_of(t, {2, 2});
    std::vector<EValue> v{self->tensor(), src->tensor(), EValue(false), other->tensor()};
    ASSERT_EQ(call("aten::copy_", v), Error::Ok) << dtype_name(t);
    EXPECT_EQ(logical(*self), (std::vector<double>{1, 2, 3, 4})) << dtype_name(t);
    // The return value now refers to self's tensor.
    ASSERT_TRUE(v[3].isTensor());
    EXPECT_EQ(v[3].toTensor().unsafeGetTensorImpl(), self->impl.get());
  }
}

TEST(Copy, AliasCopy) {
  auto self = tensor_of(ScalarType::Half, {3}, {1, 2, 3});
  auto out = out_of(ScalarType::Half, {1}, {}, 3);
  std::vector<EValue> v{self->tensor(), out->tensor()};
  ASSERT_EQ(call_out("aten::alias_copy.out", v, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{1, 2, 3}));
}

TEST(Copy, SplitWithSizes) {
  std::vector<double> sv;
  for (int i = 0; i < 12; ++i) sv.push_back(i);
  auto self = tensor_of(ScalarType::Float, {2, 6}, sv);
  auto a = out_of(ScalarType::Float, {2, 1}, {}, 12);
  auto b = out_of(ScalarType::Float, {2, 3});
  auto c = out_of(ScalarType::Float, {2, 2});
  TensorListArg outs({a.get(), b.get(), c.get()});
  TensorListArg ret({a.get(), b.get(), c.get()});
  IntListArg sizes({1, 3, 2});
  std::vector<EValue> v{self->tensor(), sizes.ev(), EValue(int64_t(-1)), outs.ev(), ret.ev()};
  ASSERT_EQ(call("aten::split_with_sizes_copy.out", v), Error::Ok);
  EXPECT_EQ(logical(*a), (std::vector<double>{0, 6}));
  EXPECT_EQ(logical(*b), (std::vector<double>{1, 2, 3, 7, 8, 9}));
  EXPECT_EQ(logical(*c), (std::vector<double>{4, 5, 10, 11}));
  IntListArg bad({1, 3, 3});
  std::vector<EValue> w{self->tensor(), bad.ev(), EValue(int64_t(1)), outs.ev(), ret.ev()};
  EXPECT_EQ(call("aten::split_with_sizes_copy.out", w), Error::InvalidArgument);
  IntListArg two({3, 3});
  std::vector<EValue> x{self->tensor(), two.ev(), EValue(int64_t(1)), outs.ev(), ret.ev()};
  EXPECT_EQ(call("aten::split_with_sizes_copy.out", x), Error::InvalidArgument);
}

TEST(Copy, Errors) {
  auto self = tensor_of(ScalarType::Float, {2, 3}, std::vector<double>(6, 0));
  auto src = tensor_of(ScalarType::Float, {2}, {1, 2});
  auto out = out_of(ScalarType::Float, {2, 3});
  std::vector<EValue> v{self->tensor(), src->tensor(), EValue(false), out->tensor()};
  EXPECT_EQ(call_out("aten::copy.out", v, *out), Error::InvalidArgument);
  std::vector<EValue> w{self->tensor(), src->tensor(), EValue(false), self->tensor()};
  EXPECT_EQ(call("aten::copy_", w), Error::InvalidArgument);
  auto io = out_of(ScalarType::Int, {2, 3});
  std::vector<EValue> x{self->tensor(), io->tensor()};
  EXPECT_EQ(call_out("aten::alias_copy.out", x, *io), Error::InvalidArgument);
}

} // namespace
