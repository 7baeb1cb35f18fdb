// upsample_nearest2d.vec, upsample_bilinear2d.vec, _upsample_bilinear2d_aa.
// References are PyTorch's documented results, derived by hand here.
#include "kernel_test_util.h"

using namespace kt;

namespace {
struct DoubleListArg {
  std::vector<double> v;
  explicit DoubleListArg(std::vector<double> x) : v(std::move(x)) {}
  EValue ev() { return EValue(::executorch::runtime::ArrayRef<double>(v.data(), v.size())); }
};
} // namespace

TEST(UpsampleOps, NearestFromSizeAndFromScales) {
  auto a = make<int32_t>(ScalarType::Int, {1, 1, 2, 3}, {0, 1, 2, 3, 4, 5});
  auto o = out(ScalarType::Int, {1, 1, 8, 8});
  IntListArg size({4, 5});
  std::vector<EValue> v{a->tensor(), size.ev(), EValue(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::upsample_nearest2d.vec_out", v), Error::Ok);
  EXPECT_EQ(o->shape(), (std::vector<int32_t>{1, 1, 4, 5}));
  // rows 0 0 1 1 (2x), columns floor(x * 0.6) = 0 0 1 1 2
  EXPECT_EQ(o->values(),
            (std::vector<double>{0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 3, 3, 4, 4, 5}));
  auto f = make<float>(ScalarType::Float, {1, 1, 2, 2}, {1, 2, 3, 4});
  auto fo = out(ScalarType::Float, {1, 1, 3, 3});
  DoubleListArg scales({1.5, 1.5});
  std::vector<EValue> sv{f->tensor(), EValue(), scales.ev(), fo->tensor(), fo->tensor()};
  ASSERT_EQ(call("aten::upsample_nearest2d.vec_out", sv), Error::Ok);
  EXPECT_EQ(fo->values(), (std::vector<double>{1, 1, 2, 1, 1, 2, 3, 3, 4}));
  // Both or neither of size/scales, and a 3-D input: errors.
  std::vector<EValue> both{f->tensor(), size.ev(), scales.ev(), fo->tensor(), fo->tensor()};
  EXPECT_EQ(call("aten::upsample_nearest2d.vec_out", both), Error::InvalidArgument);
  std::vector<EValue> neither{f->tensor(), EValue(), EValue(), fo->tensor(), fo->tensor()};
  EXPECT_EQ(call("aten::upsample_nearest2d.vec_out", neither), Error::InvalidArgument);
  auto three = make<float>(ScalarType::Float, {1, 2, 2}, {1, 2, 3, 4});
  std::vector<EValue> rank{three->tensor(), size.ev(), EValue(), fo->tensor(), fo->tensor()};
  EXPECT_EQ(call("aten::upsample_nearest2d.vec_out", rank), Error::InvalidArgument);
}

TEST(UpsampleOps, BilinearAlignCornersBothWays) {
  auto a = make<float>(ScalarType::Float, {1, 1, 2, 2}, {1, 2, 3, 4});
  auto o = out(ScalarType::Float, {1, 1, 4, 4});
  IntListArg size({4, 4});
  std::vector<EValue> v{a->tensor(), size.ev(), EValue(false), EValue(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::upsample_bilinear2d.vec_out", v), Error::Ok);
  expect_close(o->values(),
               {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4});
  IntListArg size3({3, 3});
  std::vector<EValue> ac{a->tensor(), size3.ev(), EValue(true), EValue(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::upsample_bilinear2d.vec_out", ac), Error::Ok);
  expect_close(o->values(), {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
  // Channels-last in and out give the same values (read back in memory order).
  TT cl(ScalarType::Float, {1, 2, 2, 2}, 0, TensorShapeDynamism::STATIC, {0, 2, 3, 1});
  cl.set<float>({1, 10, 2, 20, 3, 30, 4, 40});
  TT clo(ScalarType::Float, {1, 2, 4, 4}, 0, TensorShapeDynamism::STATIC, {0, 2, 3, 1});
  std::vector<EValue> cv{cl.tensor(), size.ev(),    EValue(false),
                         EValue(),    clo.tensor(), clo.tensor()};
  ASSERT_EQ(call("aten::upsample_bilinear2d.vec_out", cv), Error::Ok);
  const float* m = clo.data<float>();
  // memory (h, w, c): (y 1, x 1) of channel 0 is at (1 * 4 + 1) * 2 = 10
  EXPECT_FLOAT_EQ(m[2 * 5], 1.75f);
  EXPECT_FLOAT_EQ(m[2 * 5 + 1], 17.5f);
  // Integer input is refused.
  auto i = make<int32_t>(ScalarType::Int, {1, 1, 1, 1}, {1});
  auto io = out(ScalarType::Int, {1, 1, 2, 2});
  std::vector<EValue> iv{i->tensor(), size.ev(),    EValue(false),
                         EValue(),    io->tensor(), io->tensor()};
  EXPECT_EQ(call("aten::upsample_bilinear2d.vec_out", iv), Error::InvalidArgument);
}

TEST(UpsampleOps, BilinearHalfPrecisionAndScaleOne) {
  auto a = make<Half>(ScalarType::Half, {1, 1, 1, 2}, {Half(0.f), Half(4.f)});
  auto o = out(ScalarType::Half, {1, 1, 1, 4});
  DoubleListArg scales({1.0, 2.0});
  std::vector<EValue> v{a->tensor(), EValue(),    EValue(false),
                        scales.ev(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::upsample_bilinear2d.vec_out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{0, 1, 3, 4}));
}

TEST(UpsampleOps, AntialiasedDownscale) {
  // Width 4 -> 2: triangle filter of support 2 around centers 1 and 3:
  // (0.75 a0 + 0.75 a1 + 0.25 a2) / 1.75 and (0.25 a1 + 0.75 a2 + 0.75 a3) / 1.75.
  auto a = make<double>(ScalarType::Double, {1, 1, 1, 4}, {0, 1, 2, 3});
  auto o = out(ScalarType::Double, {1, 1, 1, 2});
  IntListArg size({1, 2});
  std::vector<EValue> v{a->tensor(), size.ev(),   EValue(false), EValue(),
                        EValue(),    o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::_upsample_bilinear2d_aa.out", v), Error::Ok);
  expect_close(o->values(), {1.25 / 1.75, 4.0 / 1.75}, 1e-12);
  // Upscaling with antialias is plain half-pixel bilinear.
  auto b = make<float>(ScalarType::Float, {1, 1, 2, 2}, {1, 2, 3, 4});
  auto bo = out(ScalarType::Float, {1, 1, 4, 4});
  IntListArg size4({4, 4});
  std::vector<EValue> u{b->tensor(), size4.ev(),   EValue(false), EValue(),
                        EValue(),    bo->tensor(), bo->tensor()};
  ASSERT_EQ(call("aten::_upsample_bilinear2d_aa.out", u), Error::Ok);
  expect_close(bo->values(),
               {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4});
  IntListArg bad({0, 2});
  std::vector<EValue> e{a->tensor(), bad.ev(),    EValue(false), EValue(),
                        EValue(),    o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::_upsample_bilinear2d_aa.out", e), Error::InvalidArgument);
}
