// Creation ops: zeros, ones, empty, _empty_dim_order, fill, rand, randn.
#include "kernel_test_util.h"

using namespace kt;

TEST(CreationOps, ZerosOnesResizeWithinCapacity) {
  // A dynamic output of capacity 12 resized to (2, 3).
  for (ScalarType t : {ScalarType::Float, ScalarType::Half, ScalarType::BFloat16, ScalarType::Long,
                       ScalarType::Byte, ScalarType::Bool}) {
    auto o = out(t, {3, 4});
    std::memset(o->bytes.data(), 0x5a, o->bytes.size());
    IntListArg size({2, 3});
    std::vector<EValue> v{size.ev(), o->tensor(), o->tensor()};
    ASSERT_EQ(call("aten::zeros.out", v), Error::Ok) << static_cast<int>(t);
    EXPECT_EQ(o->shape(), (std::vector<int32_t>{2, 3}));
    EXPECT_EQ(o->values(), std::vector<double>(6, 0.0));
    ASSERT_EQ(call("aten::ones.out", v), Error::Ok);
    EXPECT_EQ(o->values(), std::vector<double>(6, 1.0));
  }
  // Past the capacity, a negative size, a rank change: errors.
  auto o = out(ScalarType::Float, {2, 2});
  IntListArg big({3, 3}), neg({-1, 2}), rank({4});
  for (IntListArg* s : {&big, &neg, &rank}) {
    std::vector<EValue> v{s->ev(), o->tensor(), o->tensor()};
    EXPECT_EQ(call("aten::zeros.out", v), Error::InvalidArgument);
  }
  // Sizes whose product overflows int64 fail cleanly.
  IntListArg huge({INT32_MAX, INT32_MAX, INT32_MAX, 4});
  auto o4 = out(ScalarType::Float, {1, 1, 1, 1});
  std::vector<EValue> hv{huge.ev(), o4->tensor(), o4->tensor()};
  EXPECT_EQ(call("aten::ones.out", hv), Error::InvalidArgument);
}

TEST(CreationOps, EmptyAndEmptyDimOrder) {
  auto o = out(ScalarType::Int, {4});
  IntListArg size({3});
  std::vector<EValue> v{size.ev(), EValue(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::empty.out", v), Error::Ok);
  EXPECT_EQ(o->shape(), (std::vector<int32_t>{3}));
  std::vector<EValue> bad{size.ev(), EValue(1.5), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::empty.out", bad), Error::InvalidArgument);

  TT cl(ScalarType::Float, {1, 2, 2, 3}, 0, TensorShapeDynamism::STATIC, {0, 2, 3, 1});
  IntListArg s4({1, 2, 2, 3}), order({0, 2, 3, 1}), wrong({0, 1, 2, 3});
  std::vector<EValue> d{s4.ev(), order.ev(), cl.tensor(), cl.tensor()};
  EXPECT_EQ(call("dim_order_ops::_empty_dim_order.out", d), Error::Ok);
  std::vector<EValue> d2{s4.ev(), wrong.ev(), cl.tensor(), cl.tensor()};
  EXPECT_EQ(call("dim_order_ops::_empty_dim_order.out", d2), Error::InvalidArgument);
  std::vector<EValue> d3{s4.ev(), EValue(), cl.tensor(), cl.tensor()};
  EXPECT_EQ(call("dim_order_ops::_empty_dim_order.out", d3), Error::InvalidArgument);
}

TEST(CreationOps, FillScalarAndTensor) {
  auto a = make<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto o = out(ScalarType::Float, {2, 2});
  std::vector<EValue> v{a->tensor(), EValue(-2.5), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::fill.Scalar_out", v), Error::Ok);
  EXPECT_EQ(o->values(), std::vector<double>(4, -2.5));
  // A floating value truncates into an integer tensor; into bool it tests != 0.
  auto i = make<int16_t>(ScalarType::Short, {3}, {0, 0, 0});
  auto io = out(ScalarType::Short, {3});
  std::vector<EValue> iv{i->tensor(), EValue(7.9), io->tensor(), io->tensor()};
  ASSERT_EQ(call("aten::fill.Scalar_out", iv), Error::Ok);
  EXPECT_EQ(io->values(), std::vector<double>(3, 7));
  auto b = make<bool>(ScalarType::Bool, {2}, {false, false});
  auto bo = out(ScalarType::Bool, {2});
  std::vector<EValue> bv{b->tensor(), EValue(int64_t(3)), bo->tensor(), bo->tensor()};
  ASSERT_EQ(call("aten::fill.Scalar_out", bv), Error::Ok);
  EXPECT_EQ(bo->values(), std::vector<double>(2, 1));
  // fill.Tensor with a 0-dim double value into bf16.
  auto h = make<BFloat16>(ScalarType::BFloat16, {3}, {BFloat16(0.f), BFloat16(0.f), BFloat16(0.f)});
  auto ho = out(ScalarType::BFloat16, {3});
  auto val = make<double>(ScalarType::Double, {}, {0.375});
  std::vector<EValue> tv{h->tensor(), val->tensor(), ho->tensor(), ho->tensor()};
  ASSERT_EQ(call("aten::fill.Tensor_out", tv), Error::Ok);
  EXPECT_EQ(ho->values(), std::vector<double>(3, 0.375));
  // A value of rank 1 and a dtype mismatch are errors.
  auto v1 = make<double>(ScalarType::Double, {1}, {1.0});
  std::vector<EValue> e1{h->tensor(), v1->tensor(), ho->tensor(), ho->tensor()};
  EXPECT_EQ(call("aten::fill.Tensor_out", e1), Error::InvalidArgument);
  std::vector<EValue> e2{a->tensor(), EValue(1.0), io->tensor(), io->tensor()};
  EXPECT_EQ(call("aten::fill.Scalar_out", e2), Error::InvalidArgument);
}

TEST(CreationOps, RandAndRandn) {
  IntListArg size({4000});
  for (ScalarType t : {ScalarType::Float, ScalarType::BFloat16, ScalarType::Double}) {
    auto o = out(t, {4000});
    std::vector<EValue> v{size.ev(), o->tensor(), o->tensor()};
    ASSERT_EQ(call("aten::rand.out", v), Error::Ok);
    double sum = 0;
    for (double x : o->values()) {
      ASSERT_GE(x, 0.0);
      ASSERT_LT(x, 1.0);
      sum += x;
    }
    EXPECT_NEAR(sum / 4000, 0.5, 0.05); // mean of U(0,1): sd of the mean ~0.005
    ASSERT_EQ(call("aten::randn.out", v), Error::Ok);
    double s1 = 0, s2 = 0;
    for (double x : o->values()) {
      s1 += x;
      s2 += x * x;
    }
    EXPECT_NEAR(s1 / 4000, 0.0, 0.1);
    EXPECT_NEAR(s2 / 4000, 1.0, 0.15);
  }
  auto io = out(ScalarType::Int, {4000});
  std::vector<EValue> iv{size.ev(), io->tensor(), io->tensor()};
  EXPECT_EQ(call("aten::rand.out", iv), Error::InvalidArgument);
}
