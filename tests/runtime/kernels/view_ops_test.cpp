// Strided-view copies: detach/lift_fresh, narrow, as_strided, diagonal,
// unfold, flip, pixel_shuffle/unshuffle. References are written out by hand.
#include <numeric>

#include "kernel_test_util.h"

using namespace kt;

namespace {
std::vector<double> iota(size_t n, double from = 0) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}
template <typename T>
std::unique_ptr<TT> arange(ScalarType t, std::vector<int32_t> shape) {
  size_t n = 1;
  for (int32_t s : shape) n *= static_cast<size_t>(s);
  std::vector<T> v;
  for (size_t i = 0; i < n; ++i) v.push_back(static_cast<T>(i));
  return make<T>(t, shape, v);
}
} // namespace

TEST(ViewOps, DetachAndLiftFresh) {
  auto a = make<int8_t>(ScalarType::Char, {3}, {-1, 2, 7});
  auto o = out(ScalarType::Char, {5});
  std::vector<EValue> v{a->tensor(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::detach_copy.out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{-1, 2, 7}));
  ASSERT_EQ(call("aten::lift_fresh_copy.out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{-1, 2, 7}));
  auto wrong = out(ScalarType::Int, {3});
  std::vector<EValue> bad{a->tensor(), wrong->tensor(), wrong->tensor()};
  EXPECT_EQ(call("aten::detach_copy.out", bad), Error::InvalidArgument);
}

TEST(ViewOps, NarrowCopy) {
  auto a = arange<float>(ScalarType::Float, {3, 4});
  auto o = out(ScalarType::Float, {3, 4});
  std::vector<EValue> v{a->tensor(),        EValue(int64_t(1)), EValue(int64_t(-3)),
                        EValue(int64_t(2)), o->tensor(),        o->tensor()};
  ASSERT_EQ(call("aten::narrow_copy.out", v), Error::Ok);
  EXPECT_EQ(o->shape(), (std::vector<int32_t>{3, 2}));
  EXPECT_EQ(o->values(), (std::vector<double>{1, 2, 5, 6, 9, 10}));
  std::vector<EValue> bad{a->tensor(),        EValue(int64_t(0)), EValue(int64_t(2)),
                          EValue(int64_t(2)), o->tensor(),        o->tensor()};
  EXPECT_EQ(call("aten::narrow_copy.out", bad), Error::InvalidArgument);
}

TEST(ViewOps, AsStridedCopy) {
  auto a = arange<int64_t>(ScalarType::Long, {10});
  auto o = out(ScalarType::Long, {2, 3});
  IntListArg size({2, 3}), stride({4, 2});
  std::vector<EValue> v{a->tensor(),        size.ev(),   stride.ev(),
                        EValue(int64_t(1)), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::as_strided_copy.out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{1, 3, 5, 5, 7, 9}));
  // One past the end, a negative stride, a negative offset: errors.
  std::vector<EValue> past{a->tensor(),        size.ev(),   stride.ev(),
                           EValue(int64_t(2)), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::as_strided_copy.out", past), Error::InvalidArgument);
  IntListArg negs({4, -1});
  std::vector<EValue> ns{a->tensor(), size.ev(), negs.ev(), EValue(), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::as_strided_copy.out", ns), Error::InvalidArgument);
  IntListArg huge({INT64_MAX / 2, 1});
  std::vector<EValue> hs{a->tensor(), size.ev(), huge.ev(), EValue(), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::as_strided_copy.out", hs), Error::InvalidArgument);
}

TEST(ViewOps, DiagonalCopy) {
  auto a = arange<double>(ScalarType::Double, {3, 4});
  auto o = out(ScalarType::Double, {4});
  for (auto [offset, want] : std::vector<std::pair<int64_t, std::vector<double>>>{
           {0, {0, 5, 10}}, {1, {1, 6, 11}}, {-1, {4, 9}}, {3, {3}}, {4, {}}, {-5, {}}}) {
    std::vector<EValue> v{a->tensor(),        EValue(offset), EValue(int64_t(0)),
                          EValue(int64_t(1)), o->tensor(),    o->tensor()};
    ASSERT_EQ(call("aten::diagonal_copy.out", v), Error::Ok) << offset;
    EXPECT_EQ(o->values(), want) << offset;
  }
  // Batched, dims (2, 0) of a (2, 2, 3) tensor: out (2, d) with d over dim0/dim2.
  auto b = arange<int32_t>(ScalarType::Int, {2, 2, 3});
  auto bo = out(ScalarType::Int, {2, 2});
  std::vector<EValue> bv{b->tensor(),        EValue(int64_t(0)), EValue(int64_t(2)),
                         EValue(int64_t(0)), bo->tensor(),       bo->tensor()};
  ASSERT_EQ(call("aten::diagonal_copy.out", bv), Error::Ok);
  // out[j, k] = b[k, j, k]: b[0,0,0]=0, b[1,0,1]=7, b[0,1,0]=3, b[1,1,1]=10
  EXPECT_EQ(bo->values(), (std::vector<double>{0, 7, 3, 10}));
  std::vector<EValue> same{a->tensor(),         EValue(int64_t(0)), EValue(int64_t(1)),
                           EValue(int64_t(-1)), o->tensor(),        o->tensor()};
  EXPECT_EQ(call("aten::diagonal_copy.out", same), Error::InvalidArgument);
}

TEST(ViewOps, UnfoldCopy) {
  auto a = arange<float>(ScalarType::Float, {2, 5});
  auto o = out(ScalarType::Float, {2, 2, 2});
  std::vector<EValue> v{a->tensor(),        EValue(int64_t(1)), EValue(int64_t(2)),
                        EValue(int64_t(2)), o->tensor(),        o->tensor()};
  ASSERT_EQ(call("aten::unfold_copy.out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{0, 1, 2, 3, 5, 6, 7, 8}));
  std::vector<EValue> bad{a->tensor(),        EValue(int64_t(1)), EValue(int64_t(6)),
                          EValue(int64_t(1)), o->tensor(),        o->tensor()};
  EXPECT_EQ(call("aten::unfold_copy.out", bad), Error::InvalidArgument);
}

TEST(ViewOps, FlipAnyDimOrder) {
  auto a = arange<int16_t>(ScalarType::Short, {2, 3});
  auto o = out(ScalarType::Short, {2, 3});
  IntListArg dims({-1, 0});
  std::vector<EValue> v{a->tensor(), dims.ev(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::flip.out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{5, 4, 3, 2, 1, 0}));
  // A channels-last input (logical (1, 2, 1, 3)) flipped along C into a
  // contiguous output.
  TT cl(ScalarType::Float, {1, 2, 1, 3}, 0, TensorShapeDynamism::STATIC, {0, 2, 3, 1});
  cl.set<float>({0, 3, 1, 4, 2, 5}); // memory (h, w, c): logical c0 = 0 1 2, c1 = 3 4 5
  auto co = out(ScalarType::Float, {1, 2, 1, 3});
  IntListArg c({1});
  std::vector<EValue> cv{cl.tensor(), c.ev(), co->tensor(), co->tensor()};
  ASSERT_EQ(call("aten::flip.out", cv), Error::Ok);
  EXPECT_EQ(co->values(), (std::vector<double>{3, 4, 5, 0, 1, 2}));
  IntListArg twice({0, 0});
  std::vector<EValue> bad{a->tensor(), twice.ev(), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::flip.out", bad), Error::InvalidArgument);
}

TEST(ViewOps, PixelShuffleRoundTrip) {
  // (1, 8, 2, 2) with r = 2 -> (1, 2, 4, 4): out[c, h*2+i, w*2+j] = in[c*4+i*2+j, h, w].
  auto a = arange<float>(ScalarType::Float, {1, 8, 2, 2});
  auto o = out(ScalarType::Float, {1, 2, 4, 4});
  std::vector<EValue> v{a->tensor(), EValue(int64_t(2)), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::pixel_shuffle.out", v), Error::Ok);
  const auto got = o->values();
  for (int c = 0; c < 2; ++c)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int src = ((c * 4 + (y % 2) * 2 + (x % 2)) * 2 + y / 2) * 2 + x / 2;
        EXPECT_EQ(got[static_cast<size_t>((c * 4 + y) * 4 + x)], src);
      }
  auto back = out(ScalarType::Float, {1, 8, 2, 2});
  std::vector<EValue> u{o->tensor(), EValue(int64_t(2)), back->tensor(), back->tensor()};
  ASSERT_EQ(call("aten::pixel_unshuffle.out", u), Error::Ok);
  EXPECT_EQ(back->values(), iota(32));
  // The same into a channels-last output.
  TT cl(ScalarType::Float, {1, 2, 4, 4}, 0, TensorShapeDynamism::STATIC, {0, 2, 3, 1});
  std::vector<EValue> vc{a->tensor(), EValue(int64_t(2)), cl.tensor(), cl.tensor()};
  ASSERT_EQ(call("aten::pixel_shuffle.out", vc), Error::Ok);
  const float* m = cl.data<float>();
  EXPECT_EQ(m[1], got[16]); // memory (h, w, c): element 1 is c=1, h=0, w=0
  std::vector<EValue> bad{a->tensor(), EValue(int64_t(3)), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::pixel_shuffle.out", bad), Error::InvalidArgument);
}
