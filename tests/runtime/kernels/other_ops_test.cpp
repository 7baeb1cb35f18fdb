// Unary, matmul, reduction, shape, conv/pool, norm and prim kernels. Expected
// values are hand-computed or from Python's math module (double precision).
#include "dtype_test_util.h"

using namespace kt;

namespace {
const std::vector<float> kX{-2, -0.5f, 0, 1, 3};
}

TEST(UnaryOps, Activations) {
  auto a = make<float>(ScalarType::Float, {5}, kX);
  auto o = out(ScalarType::Float, {5});
  std::vector<EValue> v{a->tensor(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::relu.out", v), Error::Ok);
  expect_close(o->values(), {0, 0, 0, 1, 3});
  ASSERT_EQ(call("aten::sigmoid.out", v), Error::Ok);
  expect_close(o->values(), {0.11920292202211755, 0.3775406687981454, 0.5, 0.7310585786300049,
                             0.9525741268224334});
  ASSERT_EQ(call("aten::tanh.out", v), Error::Ok);
  expect_close(o->values(), {-0.9640275800758169, -0.46211715726000974, 0.0, 0.7615941559557649,
                             0.9950547536867305});
  ASSERT_EQ(call("aten::silu.out", v), Error::Ok);
  expect_close(o->values(), {-0.2384058440442351, -0.1887703343990727, 0.0, 0.7310585786300049,
                             2.8577223804672998});
  std::vector<EValue> g{a->tensor(), str("none"), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::gelu.out", g), Error::Ok);
  expect_close(o->values(), {-0.04550026389635842, -0.15426876936299344, 0.0, 0.8413447460685429,
                             2.99595030590511});
  std::vector<EValue> g2{a->tensor(), str("tanh"), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::gelu.out", g2), Error::Ok);
  expect_close(o->values(), {-0.04540230591222494, -0.15428599017485606, 0.0, 0.8411919906082768,
                             2.996362607918227});
  std::vector<EValue> g3{a->tensor(), str("bogus"), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::gelu.out", g3), Error::InvalidArgument);
  // int relu; sigmoid of int into float; silu of int refused
  auto i = make<int32_t>(ScalarType::Int, {3}, {-3, 0, 7});
  auto io = out(ScalarType::Int, {3});
  std::vector<EValue> r{i->tensor(), io->tensor(), io->tensor()};
  ASSERT_EQ(call("aten::relu.out", r), Error::Ok);
  EXPECT_EQ(io->values(), (std::vector<double>{0, 0, 7}));
  auto fo = out(ScalarType::Float, {3});
  std::vector<EValue> s{i->tensor(), fo->tensor(), fo->tensor()};
  ASSERT_EQ(call("aten::sigmoid.out", s), Error::Ok);
  EXPECT_NEAR(fo->values()[1], 0.5, 1e-7);
  EXPECT_EQ(call("aten::silu.out", r), Error::InvalidArgument);
  // wrong tag for out
  std::vector<EValue> bad{a->tensor(), EValue(int64_t(1)), EValue(int64_t(1))};
  EXPECT_EQ(call("aten::relu.out", bad), Error::InvalidArgument);
}

// relu/sigmoid/tanh/silu in any dim order: channels-last in, either order
// out, several dtypes, the out resized within its capacity.
TEST(UnaryOps, ActivationsInAnyDimOrder) {
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  const std::vector<double> x{-2, -0.5, 0, 1, 3, -1, 0.25, 2};
  for (ScalarType t : {ScalarType::Float, ScalarType::Half, ScalarType::Double}) {
    auto a = tensor_of(t, {1, 2, 2, 2}, x, cl);
    for (const bool out_cl : {true, false}) {
      auto o = out_cl ? out_of(t, {1, 2, 2, 2}, cl) : out_of(t, {1, 2, 2, 2}, {}, 16);
      ASSERT_EQ(call_out("aten::relu.out", {a->tensor(), o->tensor()}, *o), Error::Ok);
      std::vector<double> want;
      for (double v : x) want.push_back(v < 0 ? 0 : as_dtype(t, v));
      EXPECT_EQ(logical(*o), want) << dtype_name(t);
      ASSERT_EQ(call_out("aten::sigmoid.out", {a->tensor(), o->tensor()}, *o), Error::Ok);
      want.clear();
      for (double v : x) want.push_back(1 / (1 + std::exp(-as_dtype(t, v))));
      expect_close(logical(*o), want, tolerance(t), tolerance(t));
      ASSERT_EQ(call_out("aten::silu.out", {a->tensor(), o->tensor()}, *o), Error::Ok);
      want.clear();
      for (double v : x) want.push_back(v / (1 + std::exp(-v)));
      expect_close(logical(*o), want, tolerance(t), tolerance(t));
    }
  }
  auto i = tensor_of(ScalarType::Int, {1, 2, 1, 2}, {-3, 4, 0, -1}, cl);
  auto io = out_of(ScalarType::Int, {1, 2, 1, 2}, cl);
  ASSERT_EQ(call_out("aten::relu.out", {i->tensor(), io->tensor()}, *io), Error::Ok);
  EXPECT_EQ(logical(*io), (std::vector<double>{0, 4, 0, 0}));
  auto fo = out_of(ScalarType::Float, {1, 2, 1, 2});
  ASSERT_EQ(call_out("aten::tanh.out", {i->tensor(), fo->tensor()}, *fo), Error::Ok);
  expect_close(logical(*fo), {std::tanh(-3.0), std::tanh(4.0), 0, std::tanh(-1.0)});
}

TEST(UnaryOps, CopiesAndFull) {
  auto a = make<float>(ScalarType::Float, {2, 2}, {1.5f, -2.5f, 3, 4});
  auto o = out(ScalarType::Float, {2, 2});
  std::vector<EValue> c{a->tensor(), EValue(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::clone.out", c), Error::Ok);
  EXPECT_EQ(o->values(), a->values());
  auto l = out(ScalarType::Long, {2, 2});
  std::vector<EValue> t{a->tensor(), EValue(false), EValue(), l->tensor(), l->tensor()};
  ASSERT_EQ(call("aten::_to_copy.out", t), Error::Ok);
  EXPECT_EQ(l->values(), (std::vector<double>{1, -2, 3, 4}));
  // contiguous -> channels-last through _to_dim_order_copy
  auto n = make<float>(ScalarType::Float, {1, 2, 1, 2}, {1, 2, 3, 4});
  TT cl(ScalarType::Float, {1, 2, 1, 2}, 0, TensorShapeDynamism::STATIC, {0, 2, 3, 1});
  IntListArg order({0, 2, 3, 1});
  std::vector<EValue> d{n->tensor(), EValue(false), order.ev(), cl.tensor(), cl.tensor()};
  ASSERT_EQ(call("dim_order_ops::_to_dim_order_copy.out", d), Error::Ok);
  EXPECT_EQ(cl.values(), (std::vector<double>{1, 3, 2, 4}));
  IntListArg wrong({0, 1, 2, 3});
  std::vector<EValue> d2{n->tensor(), EValue(false), wrong.ev(), cl.tensor(), cl.tensor()};
  EXPECT_EQ(call("dim_order_ops::_clone_dim_order.out", d2), Error::InvalidArgument);
  IntListArg sz({2, 3});
  auto f = out(ScalarType::Int, {2, 3});
  std::vector<EValue> fv{sz.ev(), EValue(int64_t(7)), f->tensor(), f->tensor()};
  ASSERT_EQ(call("aten::full.out", fv), Error::Ok);
  EXPECT_EQ(f->values(), (std::vector<double>(6, 7)));
}

TEST(Matmul, MmBmmAddmmLinear) {
  auto a = make<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = make<float>(ScalarType::Float, {3, 2}, {7, 8, 9, 10, 11, 12});
  auto o = out(ScalarType::Float, {2, 2});
  std::vector<EValue> v{a->tensor(), b->tensor(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::mm.out", v), Error::Ok);
  expect_close(o->values(), {58, 64, 139, 154});
  auto bias = make<float>(ScalarType::Float, {2}, {1, -1});
  std::vector<EValue> am{bias->tensor(), a->tensor(), b->tensor(), EValue(int64_t(2)),
                         EValue(0.5),    o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::addmm.out", am), Error::Ok);
  expect_close(o->values(), {31, 30, 71.5, 75});
  // linear: x (2,3) @ w(2,3)^T + bias
  auto w = make<float>(ScalarType::Float, {2, 3}, {1, 0, -1, 0.5f, 0.5f, 0.5f});
  std::vector<EValue> lv{a->tensor(), w->tensor(), bias->tensor(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::linear.out", lv), Error::Ok);
  expect_close(o->values(), {-1, 2, -1, 6.5});
  std::vector<EValue> lv2{a->tensor(), w->tensor(), EValue(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::linear.out", lv2), Error::Ok);
  expect_close(o->values(), {-2, 3, -2, 7.5});
  // bmm with batch 2
  auto ba = make<double>(ScalarType::Double, {2, 1, 2}, {1, 2, 3, 4});
  auto bb = make<double>(ScalarType::Double, {2, 2, 1}, {5, 6, 7, 8});
  auto bo = out(ScalarType::Double, {2, 1, 1});
  std::vector<EValue> bv{ba->tensor(), bb->tensor(), bo->tensor(), bo->tensor()};
  ASSERT_EQ(call("aten::bmm.out", bv), Error::Ok);
  EXPECT_EQ(bo->values(), (std::vector<double>{17, 53}));
  // half mm, int64 mm
  auto h = make<Half>(ScalarType::Half, {1, 2}, {Half(1.5f), Half(2.0f)});
  auto h2 = make<Half>(ScalarType::Half, {2, 1}, {Half(2.0f), Half(0.25f)});
  auto ho = out(ScalarType::Half, {1, 1});
  std::vector<EValue> hv{h->tensor(), h2->tensor(), ho->tensor(), ho->tensor()};
  ASSERT_EQ(call("aten::mm.out", hv), Error::Ok);
  EXPECT_EQ(ho->values()[0], 3.5);
  auto la = make<int64_t>(ScalarType::Long, {1, 2}, {3, 4});
  auto lb = make<int64_t>(ScalarType::Long, {2, 1}, {5, 6});
  auto lo = out(ScalarType::Long, {1, 1});
  std::vector<EValue> lmv{la->tensor(), lb->tensor(), lo->tensor(), lo->tensor()};
  ASSERT_EQ(call("aten::mm.out", lmv), Error::Ok);
  EXPECT_EQ(lo->values()[0], 39);
  // shape mismatch and dtype mismatch
  std::vector<EValue> bad{a->tensor(), a->tensor(), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::mm.out", bad), Error::InvalidArgument);
  std::vector<EValue> bad2{a->tensor(), lb->tensor(), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::mm.out", bad2), Error::InvalidArgument);
  // k == 0: zeros
  auto z1 = make<float>(ScalarType::Float, {2, 0}, {});
  auto z2 = make<float>(ScalarType::Float, {0, 2}, {});
  std::vector<EValue> zv{z1->tensor(), z2->tensor(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::mm.out", zv), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>(4, 0)));
}

TEST(Reductions, SoftmaxAndLogSoftmax) {
  auto a = make<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 1, 2, 3});
  auto o = out(ScalarType::Float, {2, 3});
  std::vector<EValue> v{a->tensor(), EValue(int64_t(-1)), EValue(false), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::_softmax.out", v), Error::Ok);
  const std::vector<double> sm{0.09003057317038046, 0.24472847105479767, 0.6652409557748219};
  std::vector<double> want = sm;
  want.insert(want.end(), sm.begin(), sm.end());
  expect_close(o->values(), want);
  ASSERT_EQ(call("aten::_log_softmax.out", v), Error::Ok);
  expect_close(o->values(), {-2.40760596444438, -1.4076059644443801, -0.40760596444438013,
                             -2.40760596444438, -1.4076059644443801, -0.40760596444438013});
  // dim 0: pairs of equal values -> 0.5
  std::vector<EValue> v0{a->tensor(), EValue(int64_t(0)), EValue(false), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::_softmax.out", v0), Error::Ok);
  expect_close(o->values(), std::vector<double>(6, 0.5));
  std::vector<EValue> bad{a->tensor(), EValue(int64_t(2)), EValue(false), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::_softmax.out", bad), Error::InvalidArgument);
}

TEST(Reductions, SumMeanAmaxArgmax) {
  auto a = make<float>(ScalarType::Float, {2, 3}, {1, 5, 3, 4, 2, 6});
  IntListArg d1({1});
  auto o = out(ScalarType::Float, {2});
  std::vector<EValue> s{a->tensor(), d1.ev(), EValue(false), EValue(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::sum.IntList_out", s), Error::Ok);
  expect_close(o->values(), {9, 12});
  ASSERT_EQ(call("aten::mean.out", s), Error::Ok);
  expect_close(o->values(), {3, 4});
  IntListArg d0({0});
  auto o3 = out(ScalarType::Float, {1, 3});
  std::vector<EValue> m{a->tensor(), d0.ev(), EValue(true), EValue(), o3->tensor(), o3->tensor()};
  ASSERT_EQ(call("aten::mean.out", m), Error::Ok);
  expect_close(o3->values(), {2.5, 3.5, 4.5});
  // all dims (None)
  auto sc = out(ScalarType::Float, {});
  std::vector<EValue> all{a->tensor(), EValue(),     EValue(false),
                          EValue(),    sc->tensor(), sc->tensor()};
  ASSERT_EQ(call("aten::sum.IntList_out", all), Error::Ok);
  expect_close(sc->values(), {21});
  // int sum into int64
  auto ia = make<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  auto lo = out(ScalarType::Long, {});
  IntListArg dz({0});
  std::vector<EValue> is{ia->tensor(),       dz.ev(),      EValue(false),
                         EValue(int64_t(4)), lo->tensor(), lo->tensor()};
  ASSERT_EQ(call("aten::sum.IntList_out", is), Error::Ok);
  EXPECT_EQ(lo->values()[0], 6);
  std::vector<EValue> am{a->tensor(), d1.ev(), EValue(false), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::amax.out", am), Error::Ok);
  expect_close(o->values(), {5, 6});
  auto ai = out(ScalarType::Long, {2});
  std::vector<EValue> ag{a->tensor(), EValue(int64_t(1)), EValue(false), ai->tensor(),
                         ai->tensor()};
  ASSERT_EQ(call("aten::argmax.out", ag), Error::Ok);
  EXPECT_EQ(ai->values(), (std::vector<double>{1, 2}));
  auto a0 = out(ScalarType::Long, {});
  std::vector<EValue> ag2{a->tensor(), EValue(), EValue(false), a0->tensor(), a0->tensor()};
  ASSERT_EQ(call("aten::argmax.out", ag2), Error::Ok);
  EXPECT_EQ(a0->values()[0], 5);
  // mean into int refused
  auto io = out(ScalarType::Int, {2});
  std::vector<EValue> bad{a->tensor(), d1.ev(),      EValue(false),
                          EValue(),    io->tensor(), io->tensor()};
  EXPECT_EQ(call("aten::mean.out", bad), Error::InvalidArgument);
}

TEST(ShapeOps, ViewPermuteTransposeSliceSelect) {
  auto a = make<int32_t>(ScalarType::Int, {2, 3}, {0, 1, 2, 3, 4, 5});
  auto o = out(ScalarType::Int, {3, 2});
  IntListArg sz({3, -1});
  std::vector<EValue> v{a->tensor(), sz.ev(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::view_copy.out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  IntListArg perm({1, 0});
  std::vector<EValue> p{a->tensor(), perm.ev(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::permute_copy.out", p), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  std::vector<EValue> t{a->tensor(), EValue(int64_t(0)), EValue(int64_t(-1)), o->tensor(),
                        o->tensor()};
  ASSERT_EQ(call("aten::transpose_copy.int_out", t), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  std::vector<EValue> tc{a->tensor(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::t_copy.out", tc), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  auto so = out(ScalarType::Int, {2, 2});
  std::vector<EValue> sl{a->tensor(),          EValue(int64_t(1)), EValue(int64_t(0)),
                         EValue(int64_t(100)), EValue(int64_t(2)), so->tensor(),
                         so->tensor()};
  ASSERT_EQ(call("aten::slice_copy.Tensor_out", sl), Error::Ok);
  EXPECT_EQ(so->values(), (std::vector<double>{0, 2, 3, 5}));
  auto se = out(ScalarType::Int, {3});
  std::vector<EValue> sel{a->tensor(), EValue(int64_t(0)), EValue(int64_t(-1)), se->tensor(),
                          se->tensor()};
  ASSERT_EQ(call("aten::select_copy.int_out", sel), Error::Ok);
  EXPECT_EQ(se->values(), (std::vector<double>{3, 4, 5}));
  std::vector<EValue> selb{a->tensor(), EValue(int64_t(0)), EValue(int64_t(2)), se->tensor(),
                           se->tensor()};
  EXPECT_EQ(call("aten::select_copy.int_out", selb), Error::InvalidArgument);
  IntListArg bad({4, -1});
  std::vector<EValue> vb{a->tensor(), bad.ev(), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::view_copy.out", vb), Error::InvalidArgument);
}

TEST(ShapeOps, SqueezeExpandCatEmbeddingPad) {
  auto a = make<float>(ScalarType::Float, {1, 3}, {1, 2, 3});
  auto u = out(ScalarType::Float, {1, 3, 1});
  std::vector<EValue> us{a->tensor(), EValue(int64_t(-1)), u->tensor(), u->tensor()};
  ASSERT_EQ(call("aten::unsqueeze_copy.out", us), Error::Ok);
  EXPECT_EQ(u->shape(), (std::vector<int32_t>{1, 3, 1}));
  auto sq = out(ScalarType::Float, {3});
  IntListArg dims({0, 1});
  std::vector<EValue> sv{a->tensor(), dims.ev(), sq->tensor(), sq->tensor()};
  ASSERT_EQ(call("aten::squeeze_copy.dims_out", sv), Error::Ok);
  EXPECT_EQ(sq->values(), (std::vector<double>{1, 2, 3}));
  std::vector<EValue> sd{a->tensor(), EValue(int64_t(0)), sq->tensor(), sq->tensor()};
  ASSERT_EQ(call("aten::squeeze_copy.dim_out", sd), Error::Ok);
  auto e = out(ScalarType::Float, {2, 3});
  IntListArg es({2, -1});
  std::vector<EValue> ev{a->tensor(), es.ev(), EValue(false), e->tensor(), e->tensor()};
  ASSERT_EQ(call("aten::expand_copy.out", ev), Error::Ok);
  EXPECT_EQ(e->values(), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  auto b = make<float>(ScalarType::Float, {1, 2}, {4, 5});
  auto empty = make<float>(ScalarType::Float, {0}, {});
  TensorListArg list({a.get(), empty.get(), b.get()});
  auto c = out(ScalarType::Float, {1, 5});
  std::vector<EValue> cv{list.ev(), EValue(int64_t(1)), c->tensor(), c->tensor()};
  ASSERT_EQ(call("aten::cat.out", cv), Error::Ok);
  EXPECT_EQ(c->values(), (std::vector<double>{1, 2, 3, 4, 5}));
  std::vector<EValue> cv0{list.ev(), EValue(int64_t(0)), c->tensor(), c->tensor()};
  EXPECT_EQ(call("aten::cat.out", cv0), Error::InvalidArgument);
  auto w = make<float>(ScalarType::Float, {3, 2}, {0, 1, 10, 11, 20, 21});
  auto idx = make<int64_t>(ScalarType::Long, {2}, {2, 0});
  auto eo = out(ScalarType::Float, {2, 2});
  std::vector<EValue> em{w->tensor(),   idx->tensor(), EValue(int64_t(-1)), EValue(false),
                         EValue(false), eo->tensor(),  eo->tensor()};
  ASSERT_EQ(call("aten::embedding.out", em), Error::Ok);
  EXPECT_EQ(eo->values(), (std::vector<double>{20, 21, 0, 1}));
  auto bidx = make<int64_t>(ScalarType::Long, {2}, {3, 0});
  std::vector<EValue> emb{w->tensor(),   bidx->tensor(), EValue(int64_t(-1)), EValue(false),
                          EValue(false), eo->tensor(),   eo->tensor()};
  EXPECT_EQ(call("aten::embedding.out", emb), Error::InvalidArgument);
  IntListArg pad({1, 0, 0, 1});
  auto po = out(ScalarType::Float, {2, 4});
  std::vector<EValue> pv{a->tensor(), pad.ev(), EValue(-1.0), po->tensor(), po->tensor()};
  ASSERT_EQ(call("aten::constant_pad_nd.out", pv), Error::Ok);
  EXPECT_EQ(po->values(), (std::vector<double>{-1, 1, 2, 3, -1, -1, -1, -1}));
}

TEST(ConvPool, Conv2dGroupsStridePadding) {
  // 1x1x3x3 input, 1x1x2x2 kernel of ones, stride 1, no padding: 2x2 sums.
  auto in = make<float>(ScalarType::Float, {1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto w = make<float>(ScalarType::Float, {1, 1, 2, 2}, {1, 1, 1, 1});
  auto b = make<float>(ScalarType::Float, {1}, {0.5f});
  auto o = out(ScalarType::Float, {1, 1, 2, 2});
  IntListArg s1({1, 1}), p0({0, 0}), d1({1, 1}), op0({0, 0});
  std::vector<EValue> v{
      in->tensor(),  w->tensor(), b->tensor(),        s1.ev(),     p0.ev(),    d1.ev(),
      EValue(false), op0.ev(),    EValue(int64_t(1)), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::convolution.out", v), Error::Ok);
  expect_close(o->values(), {12.5, 16.5, 24.5, 28.5});
  // padding 1, stride 2 -> 2x2: windows at (-1,-1),( -1,1),(1,-1),(1,1)
  IntListArg s2({2, 2}), p1({1, 1});
  std::vector<EValue> v2{
      in->tensor(),  w->tensor(), EValue(),           s2.ev(),     p1.ev(),    d1.ev(),
      EValue(false), op0.ev(),    EValue(int64_t(1)), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::convolution.out", v2), Error::Ok);
  expect_close(o->values(), {1, 5, 11, 28});
  // depthwise: 2 channels, groups 2, 1x1 kernels (scale by 2 and -1)
  auto in2 = make<float>(ScalarType::Float, {1, 2, 1, 2}, {1, 2, 3, 4});
  auto w2 = make<float>(ScalarType::Float, {2, 1, 1, 1}, {2, -1});
  auto o2 = out(ScalarType::Float, {1, 2, 1, 2});
  std::vector<EValue> v3{
      in2->tensor(), w2->tensor(), EValue(),           s1.ev(),      p0.ev(),     d1.ev(),
      EValue(false), op0.ev(),     EValue(int64_t(2)), o2->tensor(), o2->tensor()};
  ASSERT_EQ(call("aten::convolution.out", v3), Error::Ok);
  expect_close(o2->values(), {2, 4, -3, -4});
  std::vector<EValue> v4{
      in2->tensor(), w2->tensor(), EValue(),           s1.ev(),      p0.ev(),     d1.ev(),
      EValue(false), op0.ev(),     EValue(int64_t(3)), o2->tensor(), o2->tensor()};
  EXPECT_EQ(call("aten::convolution.out", v4), Error::InvalidArgument);
}

TEST(ConvPool, MaxAndAvgPool) {
  auto in = make<float>(ScalarType::Float, {1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto o = out(ScalarType::Float, {1, 1, 2, 2});
  auto idx = out(ScalarType::Long, {1, 1, 2, 2});
  IntListArg k({2, 2}), s({1, 1}), p({0}), d({1});
  // Upstream's layout: 6 inputs, 2 outs, the returned tuple as one list.
  TensorListArg ret({o.get(), idx.get()});
  std::vector<EValue> v{in->tensor(),  k.ev(),      s.ev(),        p.ev(),  d.ev(),
                        EValue(false), o->tensor(), idx->tensor(), ret.ev()};
  ASSERT_EQ(call("aten::max_pool2d_with_indices.out", v), Error::Ok);
  expect_close(o->values(), {5, 6, 8, 9});
  EXPECT_EQ(idx->values(), (std::vector<double>{4, 5, 7, 8}));
  IntListArg empty({});
  std::vector<EValue> a{in->tensor(), k.ev(),   s.ev(),      p.ev(),     EValue(false),
                        EValue(true), EValue(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::avg_pool2d.out", a), Error::Ok);
  expect_close(o->values(), {3, 4, 6, 7});
  // stride defaults to the kernel: ceil mode gives 2x2 with partial windows
  IntListArg p0({0, 0});
  std::vector<EValue> a2{in->tensor(), k.ev(),   empty.ev(),  p0.ev(),    EValue(true),
                         EValue(true), EValue(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::avg_pool2d.out", a2), Error::Ok);
  expect_close(o->values(), {3, 4.5, 7.5, 9});
}

TEST(Norm, LayerNormAndBatchNorm) {
  auto in = make<float>(ScalarType::Float, {2, 4}, {1, 2, 4, 5, 1, 2, 4, 5});
  IntListArg ns({4});
  auto w = make<float>(ScalarType::Float, {4}, {1, 1, 2, 2});
  auto b = make<float>(ScalarType::Float, {4}, {0, 0, 0, 1});
  auto o = out(ScalarType::Float, {2, 4});
  auto m = out(ScalarType::Float, {2, 1});
  auto r = out(ScalarType::Float, {2, 1});
  TensorListArg ret({o.get(), m.get(), r.get()});
  std::vector<EValue> v{in->tensor(), ns.ev(),     w->tensor(), b->tensor(), EValue(1e-5),
                        o->tensor(),  m->tensor(), r->tensor(), ret.ev()};
  ASSERT_EQ(call("aten::native_layer_norm.out", v), Error::Ok);
  const double k = 0.6324542671264065;
  expect_close(o->values(), {-2 * k, -k, 2 * k, 4 * k + 1, -2 * k, -k, 2 * k, 4 * k + 1});
  expect_close(m->values(), {3, 3});
  expect_close(r->values(), {k, k});
  auto x = make<float>(ScalarType::Float, {1, 2, 2}, {1, 2, 3, 4});
  auto rm = make<float>(ScalarType::Float, {2}, {1, 2});
  auto rv = make<float>(ScalarType::Float, {2}, {4, 1});
  auto bo = out(ScalarType::Float, {1, 2, 2});
  auto e1 = out(ScalarType::Float, {0});
  auto e2 = out(ScalarType::Float, {0});
  TensorListArg bret({bo.get(), e1.get(), e2.get()});
  std::vector<EValue> bn{x->tensor(),  EValue(),     EValue(),    rm->tensor(),
                         rv->tensor(), EValue(0.1),  EValue(0.0), bo->tensor(),
                         e1->tensor(), e2->tensor(), bret.ev()};
  ASSERT_EQ(call("aten::_native_batch_norm_legit_no_training.out", bn), Error::Ok);
  expect_close(bo->values(), {0, 0.5, 1, 2});
}

TEST(Prim, ScalarOpsSymSizeEtView) {
  auto a = make<float>(ScalarType::Float, {2, 3}, {0, 1, 2, 3, 4, 5});
  std::vector<EValue> s{a->tensor(), EValue(int64_t(-1)), EValue()};
  auto fn = ::executorch::runtime::get_op_function_from_registry("aten::sym_size.int");
  ASSERT_TRUE(fn.ok());
  {
    std::vector<EValue*> ptrs{&s[0], &s[1], &s[2]};
    KernelRuntimeContext ctx;
    (*fn)(ctx, Span<EValue*>(ptrs.data(), ptrs.size()));
    ASSERT_EQ(ctx.failure_state(), Error::Ok);
    EXPECT_EQ(s[2].toInt(), 3);
  }
  auto run = [](const char* n, EValue x, EValue y, EValue* r) {
    std::vector<EValue> v{x, y, EValue()};
    Error e = call(n, v);
    *r = v[2];
    return e;
  };
  EValue r;
  ASSERT_EQ(run("executorch_prim::add.Scalar", EValue(int64_t(2)), EValue(int64_t(3)), &r),
            Error::Ok);
  EXPECT_EQ(r.toInt(), 5);
  ASSERT_EQ(run("executorch_prim::mul.Scalar", EValue(int64_t(2)), EValue(1.5), &r), Error::Ok);
  EXPECT_EQ(r.toDouble(), 3.0);
  ASSERT_EQ(run("executorch_prim::sub.Scalar", EValue(int64_t(2)), EValue(int64_t(5)), &r),
            Error::Ok);
  EXPECT_EQ(r.toInt(), -3);
  ASSERT_EQ(run("executorch_prim::floordiv.Scalar", EValue(int64_t(-7)), EValue(int64_t(2)), &r),
            Error::Ok);
  EXPECT_EQ(r.toInt(), -4);
  EXPECT_EQ(run("executorch_prim::floordiv.Scalar", EValue(int64_t(1)), EValue(int64_t(0)), &r),
            Error::InvalidArgument);
  auto a2 = make<float>(ScalarType::Float, {2, 3}, {});
  EXPECT_EQ(run("executorch_prim::add.Scalar", a2->tensor(), EValue(int64_t(0)), &r),
            Error::InvalidArgument);
  // et_view: shares the data
  TT view(ScalarType::Float, {6}, 0, TensorShapeDynamism::DYNAMIC_BOUND);
  IntListArg sz({-1});
  std::vector<EValue> ev{a->tensor(), sz.ev(), view.tensor()};
  ASSERT_EQ(call("executorch_prim::et_view.default", ev), Error::Ok);
  EXPECT_EQ(view.impl->data(), a->impl->data());
}
