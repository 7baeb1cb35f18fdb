// add / sub / mul / div through the registry, against hand-computed values.
#include "dtype_test_util.h"

using namespace kt;

TEST(BinaryOps, AddFloatSameShapeAlphaInt) {
  auto a = make<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = make<float>(ScalarType::Float, {2, 3}, {0.5f, -1, 2, 0, 10, -6});
  auto o = out(ScalarType::Float, {2, 3});
  std::vector<EValue> v{a->tensor(), b->tensor(), EValue(int64_t(1)), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::add.out", v), Error::Ok);
  expect_close(o->values(), {1.5, 1, 5, 4, 15, 0});
}

TEST(BinaryOps, AddBroadcastAlphaDouble) {
  auto a = make<float>(ScalarType::Float, {2, 1}, {1, 2});
  auto b = make<float>(ScalarType::Float, {3}, {10, 20, 30});
  auto o = out(ScalarType::Float, {3, 2}); // dynamic: resized to {2, 3}
  std::vector<EValue> v{a->tensor(), b->tensor(), EValue(0.5), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::add.out", v), Error::Ok);
  EXPECT_EQ(o->shape(), (std::vector<int32_t>{2, 3}));
  expect_close(o->values(), {6, 11, 16, 7, 12, 17});
}

TEST(BinaryOps, AddDoubleIntLong) {
  auto a = make<double>(ScalarType::Double, {3}, {1.25, -2, 1e10});
  auto b = make<double>(ScalarType::Double, {1}, {0.125});
  auto o = out(ScalarType::Double, {3});
  std::vector<EValue> v{a->tensor(), b->tensor(), EValue(int64_t(2)), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::add.out", v), Error::Ok);
  expect_close(o->values(), {1.5, -1.75, 1e10 + 0.25}, 1e-12);

  auto ia = make<int32_t>(ScalarType::Int, {4}, {1, -2, 3, 2147483647});
  auto ib = make<int32_t>(ScalarType::Int, {4}, {5, 5, -3, 1});
  auto io = out(ScalarType::Int, {4});
  std::vector<EValue> v2{ia->tensor(), ib->tensor(), EValue(int64_t(3)), io->tensor(),
                         io->tensor()};
  ASSERT_EQ(call("aten::add.out", v2), Error::Ok);
  EXPECT_EQ(io->values(), (std::vector<double>{16, 13, -6, -2147483646})); // wraps

  auto la = make<int64_t>(ScalarType::Long, {2}, {int64_t(1) << 40, 7});
  auto lb = make<int32_t>(ScalarType::Int, {2}, {1, 2});
  auto lo = out(ScalarType::Long, {2});
  std::vector<EValue> v3{la->tensor(), lb->tensor(), EValue(int64_t(1)), lo->tensor(),
                         lo->tensor()};
  ASSERT_EQ(call("aten::add.out", v3), Error::Ok);
  EXPECT_EQ(lo->data<int64_t>()[0], (int64_t(1) << 40) + 1);
  EXPECT_EQ(lo->data<int64_t>()[1], 9);
}

TEST(BinaryOps, AddIntTensorsFloatAlphaFails) {
  auto a = make<int32_t>(ScalarType::Int, {1}, {1});
  auto o = out(ScalarType::Int, {1});
  std::vector<EValue> v{a->tensor(), a->tensor(), EValue(0.5), o->tensor(), o->tensor()};
  EXPECT_NE(call("aten::add.out", v), Error::Ok);
}

TEST(BinaryOps, AddHalfBFloat16) {
  auto a = make<Half>(ScalarType::Half, {3}, {Half(1.5f), Half(-2.0f), Half(1000.0f)});
  auto b = make<Half>(ScalarType::Half, {3}, {Half(0.25f), Half(4.0f), Half(0.5f)});
  auto o = out(ScalarType::Half, {3});
  std::vector<EValue> v{a->tensor(), b->tensor(), EValue(int64_t(1)), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::add.out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{1.75, 2.0, 1000.5}));

  auto c = make<BFloat16>(ScalarType::BFloat16, {2}, {BFloat16(1.0f), BFloat16(3.0f)});
  auto d = make<BFloat16>(ScalarType::BFloat16, {2}, {BFloat16(2.0f), BFloat16(0.5f)});
  auto bo = out(ScalarType::BFloat16, {2});
  std::vector<EValue> v2{c->tensor(), d->tensor(), o->tensor(), bo->tensor()};
  v2.insert(v2.begin() + 2, EValue(int64_t(1)));
  v2.erase(v2.begin() + 3);
  v2.push_back(bo->tensor());
  ASSERT_EQ(call("aten::add.out", v2), Error::Ok);
  EXPECT_EQ(bo->values(), (std::vector<double>{3.0, 3.5}));
}

TEST(BinaryOps, MulFloatBroadcastAndPromotion) {
  auto a = make<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto b = make<float>(ScalarType::Float, {2, 1}, {-1, 0.5f});
  auto o = out(ScalarType::Float, {2, 2});
  std::vector<EValue> v{a->tensor(), b->tensor(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::mul.out", v), Error::Ok);
  expect_close(o->values(), {-1, -2, 1.5, 2});

  // int * float -> float
  auto ia = make<int64_t>(ScalarType::Long, {3}, {1, 2, 3});
  auto fb = make<float>(ScalarType::Float, {1}, {1.5f});
  auto fo = out(ScalarType::Float, {3});
  std::vector<EValue> v2{ia->tensor(), fb->tensor(), fo->tensor(), fo->tensor()};
  ASSERT_EQ(call("aten::mul.out", v2), Error::Ok);
  expect_close(fo->values(), {1.5, 3, 4.5});

  // float result into an int output is refused
  auto lo = out(ScalarType::Long, {3});
  std::vector<EValue> v3{ia->tensor(), fb->tensor(), lo->tensor(), lo->tensor()};
  EXPECT_NE(call("aten::mul.out", v3), Error::Ok);
}

TEST(BinaryOps, MulIntHalfBool) {
  auto a = make<int32_t>(ScalarType::Int, {3}, {3, -4, 5});
  auto o = out(ScalarType::Int, {3});
  std::vector<EValue> v{a->tensor(), a->tensor(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::mul.out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{9, 16, 25}));

  auto h = make<Half>(ScalarType::Half, {2}, {Half(1.5f), Half(-3.0f)});
  auto ho = out(ScalarType::Half, {2});
  std::vector<EValue> v2{h->tensor(), h->tensor(), ho->tensor(), ho->tensor()};
  ASSERT_EQ(call("aten::mul.out", v2), Error::Ok);
  EXPECT_EQ(ho->values(), (std::vector<double>{2.25, 9}));

  auto bf = make<BFloat16>(ScalarType::BFloat16, {1}, {BFloat16(2.0f)});
  auto bfo = out(ScalarType::BFloat16, {1});
  std::vector<EValue> v4{bf->tensor(), bf->tensor(), bfo->tensor(), bfo->tensor()};
  ASSERT_EQ(call("aten::mul.out", v4), Error::Ok);
  EXPECT_EQ(bfo->values(), (std::vector<double>{4}));

  auto b = make<bool>(ScalarType::Bool, {4}, {true, true, false, false});
  auto c = make<bool>(ScalarType::Bool, {4}, {true, false, true, false});
  auto bo = out(ScalarType::Bool, {4});
  std::vector<EValue> v3{b->tensor(), c->tensor(), bo->tensor(), bo->tensor()};
  ASSERT_EQ(call("aten::mul.out", v3), Error::Ok);
  EXPECT_EQ(bo->values(), (std::vector<double>{1, 0, 0, 0}));
}

TEST(BinaryOps, ScalarForms) {
  auto a = make<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto o = out(ScalarType::Float, {3});
  std::vector<EValue> v{a->tensor(), EValue(2.0), EValue(int64_t(3)), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::add.Scalar_out", v), Error::Ok);
  expect_close(o->values(), {7, 8, 9});
  std::vector<EValue> v2{a->tensor(), EValue(int64_t(1)), EValue(int64_t(2)), o->tensor(),
                         o->tensor()};
  ASSERT_EQ(call("aten::sub.Scalar_out", v2), Error::Ok);
  expect_close(o->values(), {-1, 0, 1});
  std::vector<EValue> v3{a->tensor(), EValue(-0.5), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::mul.Scalar_out", v3), Error::Ok);
  expect_close(o->values(), {-0.5, -1, -1.5});
  std::vector<EValue> v4{a->tensor(), EValue(int64_t(4)), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::div.Scalar_out", v4), Error::Ok);
  expect_close(o->values(), {0.25, 0.5, 0.75});

  // int tensor * float scalar -> float output
  auto ia = make<int32_t>(ScalarType::Int, {2}, {3, 5});
  auto fo = out(ScalarType::Float, {2});
  std::vector<EValue> v5{ia->tensor(), EValue(0.5), fo->tensor(), fo->tensor()};
  ASSERT_EQ(call("aten::mul.Scalar_out", v5), Error::Ok);
  expect_close(fo->values(), {1.5, 2.5});
}

TEST(BinaryOps, SubAndDiv) {
  auto a = make<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto b = make<float>(ScalarType::Float, {2}, {4, 8});
  auto o = out(ScalarType::Float, {2, 2});
  std::vector<EValue> v{a->tensor(), b->tensor(), EValue(int64_t(1)), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::sub.out", v), Error::Ok);
  expect_close(o->values(), {-3, -6, -1, -4});
  std::vector<EValue> v2{a->tensor(), b->tensor(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::div.out", v2), Error::Ok);
  expect_close(o->values(), {0.25, 0.25, 0.75, 0.5});

  // int / int -> float
  auto ia = make<int64_t>(ScalarType::Long, {3}, {7, -7, 1});
  auto ib = make<int64_t>(ScalarType::Long, {3}, {2, 2, 0});
  auto fo = out(ScalarType::Float, {3});
  std::vector<EValue> v3{ia->tensor(), ib->tensor(), fo->tensor(), fo->tensor()};
  ASSERT_EQ(call("aten::div.out", v3), Error::Ok);
  EXPECT_EQ(fo->values()[0], 3.5);
  EXPECT_EQ(fo->values()[1], -3.5);
  EXPECT_TRUE(std::isinf(fo->values()[2]));
  auto lo = out(ScalarType::Long, {3});
  std::vector<EValue> v4{ia->tensor(), ib->tensor(), lo->tensor(), lo->tensor()};
  EXPECT_NE(call("aten::div.out", v4), Error::Ok);
}

TEST(BinaryOps, ZeroSizeAndOneElement) {
  auto a = make<float>(ScalarType::Float, {0, 3}, {});
  auto b = make<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto o = out(ScalarType::Float, {0, 3});
  std::vector<EValue> v{a->tensor(), b->tensor(), EValue(int64_t(1)), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::add.out", v), Error::Ok);
  EXPECT_EQ(o->impl->numel(), 0);

  auto s = make<float>(ScalarType::Float, {}, {2.5f});
  auto so = out(ScalarType::Float, {});
  std::vector<EValue> v2{s->tensor(), s->tensor(), so->tensor(), so->tensor()};
  ASSERT_EQ(call("aten::mul.out", v2), Error::Ok);
  expect_close(so->values(), {6.25});
}

TEST(BinaryOps, Failures) {
  auto a = make<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = make<float>(ScalarType::Float, {2}, {1, 2});
  auto o = out(ScalarType::Float, {2, 3});
  // shapes that do not broadcast
  std::vector<EValue> v{a->tensor(), b->tensor(), EValue(int64_t(1)), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::add.out", v), Error::InvalidArgument);
  // wrong arg count
  std::vector<EValue> v2{a->tensor(), a->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::add.out", v2), Error::InvalidArgument);
  // wrong tag: alpha is a tensor, other is an int
  std::vector<EValue> v3{a->tensor(), a->tensor(), a->tensor(), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::add.out", v3), Error::InvalidArgument);
  std::vector<EValue> v4{a->tensor(), EValue(int64_t(1)), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::mul.out", v4), Error::InvalidArgument);
  // static output of the wrong shape
  TT st(ScalarType::Float, {3, 2}, 0, TensorShapeDynamism::STATIC);
  std::vector<EValue> v5{a->tensor(), a->tensor(), st.tensor(), st.tensor()};
  EXPECT_EQ(call("aten::mul.out", v5), Error::InvalidArgument);
  // output bigger than its capacity
  auto small = out(ScalarType::Float, {2, 2});
  std::vector<EValue> v6{a->tensor(), a->tensor(), small->tensor(), small->tensor()};
  EXPECT_EQ(call("aten::mul.out", v6), Error::InvalidArgument);
  // unsupported dtype (complex)
  TT cx(ScalarType::ComplexFloat, {2, 3});
  std::vector<EValue> v7{cx.tensor(), cx.tensor(), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::mul.out", v7), Error::InvalidArgument);
  // bool - bool
  auto bb = make<bool>(ScalarType::Bool, {1}, {true});
  std::vector<EValue> v8{bb->tensor(), bb->tensor(), EValue(int64_t(1)), bb->tensor(),
                         bb->tensor()};
  EXPECT_EQ(call("aten::sub.out", v8), Error::InvalidArgument);
}

// Any dim order: channels-last and contiguous operands mixed, broadcast, and
// a channels-last out; every value computed here in double.
TEST(BinaryOps, ChannelsLastOperandsInSeveralDtypes) {
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  std::vector<double> av, bv{3, -2};
  for (int i = 0; i < 8; ++i) av.push_back(i - 3);
  for (ScalarType t : {ScalarType::Float, ScalarType::Half, ScalarType::Double, ScalarType::Int,
                       ScalarType::Char}) {
    auto a = tensor_of(t, {1, 2, 2, 2}, av, cl);
    auto b = tensor_of(t, {2, 1, 1}, bv);
    for (const char* op : {"aten::add.out", "aten::sub.out", "aten::mul.out"}) {
      auto o = out_of(t, {1, 2, 2, 2}, cl);
      const std::string n = op;
      std::vector<EValue> v{a->tensor(), b->tensor()};
      if (n != "aten::mul.out") v.emplace_back(int64_t(2));
      v.emplace_back(o->tensor());
      ASSERT_EQ(call_out(op, v, *o), Error::Ok) << op << " " << dtype_name(t);
      std::vector<double> want;
      for (int i = 0; i < 8; ++i) {
        const double x = av[i], y = bv[i / 4];
        want.push_back(n == "aten::add.out" ? x + 2 * y : n == "aten::sub.out" ? x - 2 * y : x * y);
      }
      expect_close(logical(*o), want, tolerance(t));
    }
  }
  // div of two int channels-last tensors into a contiguous float out.
  auto a = tensor_of(ScalarType::Int, {1, 2, 1, 2}, {1, 2, 3, 4}, cl);
  auto b = tensor_of(ScalarType::Long, {1, 2, 1, 2}, {4, 4, 2, 8}, cl);
  auto o = out_of(ScalarType::Float, {1, 2, 1, 2});
  ASSERT_EQ(call_out("aten::div.out", {a->tensor(), b->tensor(), o->tensor()}, *o), Error::Ok);
  expect_close(logical(*o), {0.25, 0.5, 1.5, 0.5});
}

// The out shrinks to a result shorter than its capacity (dynamic shapes).
TEST(BinaryOps, OutResizedWithinCapacity) {
  auto a = tensor_of(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = tensor_of(ScalarType::Float, {3}, {1, 1, 1});
  auto o = out_of(ScalarType::Float, {4, 3});
  ASSERT_EQ(call_out("aten::mul.out", {a->tensor(), b->tensor(), o->tensor()}, *o), Error::Ok);
  EXPECT_EQ(o->shape(), (std::vector<int32_t>{2, 3}));
  expect_close(logical(*o), {1, 2, 3, 4, 5, 6});
}
