// any (all, dims), prod, var, mean.dtype, amin; references by hand.
#include <cmath>

#include "kernel_test_util.h"

using namespace kt;

TEST(ReduceOps, AnyAllAndDims) {
  auto a = make<float>(ScalarType::Float, {2, 3}, {0, 0, 0, 0, -0.5f, 0});
  auto o = out(ScalarType::Bool, {});
  std::vector<EValue> v{a->tensor(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::any.all_out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{1}));
  auto od = out(ScalarType::Bool, {3});
  IntListArg d0({0});
  std::vector<EValue> dv{a->tensor(), d0.ev(), EValue(false), od->tensor(), od->tensor()};
  ASSERT_EQ(call("aten::any.dims_out", dv), Error::Ok);
  EXPECT_EQ(od->values(), (std::vector<double>{0, 1, 0}));
  // keepdim over dims (0, 1) into a (1, 1) output; None means every dim.
  auto ok = out(ScalarType::Bool, {1, 1});
  IntListArg both({1, 0});
  std::vector<EValue> kv{a->tensor(), both.ev(), EValue(true), ok->tensor(), ok->tensor()};
  ASSERT_EQ(call("aten::any.dims_out", kv), Error::Ok);
  EXPECT_EQ(ok->values(), (std::vector<double>{1}));
  auto z = make<int64_t>(ScalarType::Long, {2}, {0, 0});
  auto zo = out(ScalarType::Bool, {});
  std::vector<EValue> nv{z->tensor(), EValue(), EValue(false), zo->tensor(), zo->tensor()};
  ASSERT_EQ(call("aten::any.dims_out", nv), Error::Ok);
  EXPECT_EQ(zo->values(), (std::vector<double>{0}));
  auto fo = out(ScalarType::Float, {});
  std::vector<EValue> bad{a->tensor(), fo->tensor(), fo->tensor()};
  EXPECT_EQ(call("aten::any.all_out", bad), Error::InvalidArgument);
}

TEST(ReduceOps, Prod) {
  auto a = make<int32_t>(ScalarType::Int, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto o = out(ScalarType::Long, {});
  std::vector<EValue> v{a->tensor(), EValue(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::prod.out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{720}));
  auto od = out(ScalarType::Long, {2, 1});
  std::vector<EValue> dv{a->tensor(),  EValue(int64_t(-1)),
                         EValue(true), EValue(static_cast<int64_t>(ScalarType::Long)),
                         od->tensor(), od->tensor()};
  ASSERT_EQ(call("aten::prod.int_out", dv), Error::Ok);
  EXPECT_EQ(od->values(), (std::vector<double>{6, 120}));
  // Half: products of dim 0.
  auto h = make<Half>(ScalarType::Half, {2, 2}, {Half(0.5f), Half(2.f), Half(3.f), Half(-1.f)});
  auto ho = out(ScalarType::Half, {2});
  std::vector<EValue> hv{h->tensor(), EValue(int64_t(0)), EValue(false),
                         EValue(),    ho->tensor(),       ho->tensor()};
  ASSERT_EQ(call("aten::prod.int_out", hv), Error::Ok);
  EXPECT_EQ(ho->values(), (std::vector<double>{1.5, -2}));
  // A dtype argument that differs from the output's.
  std::vector<EValue> bad{a->tensor(), EValue(static_cast<int64_t>(ScalarType::Int)), o->tensor(),
                          o->tensor()};
  EXPECT_EQ(call("aten::prod.out", bad), Error::InvalidArgument);
}

TEST(ReduceOps, VarBothForms) {
  auto a = make<double>(ScalarType::Double, {2, 4}, {1, 2, 3, 4, 2, 2, 2, 2});
  auto o = out(ScalarType::Double, {2});
  IntListArg d1({1});
  std::vector<EValue> v{a->tensor(),   d1.ev(),     EValue(true),
                        EValue(false), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::var.out", v), Error::Ok);
  expect_close(o->values(), {5.0 / 3, 0});
  std::vector<EValue> b{a->tensor(),   d1.ev(),     EValue(false),
                        EValue(false), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::var.out", b), Error::Ok);
  expect_close(o->values(), {1.25, 0});
  // correction 2 over everything: mean 2.25, squares sum 5.5, 8 - 2 = 6.
  auto all = out(ScalarType::Double, {});
  std::vector<EValue> c{a->tensor(),   EValue(),      EValue(int64_t(2)),
                        EValue(false), all->tensor(), all->tensor()};
  ASSERT_EQ(call("aten::var.correction_out", c), Error::Ok);
  expect_close(all->values(), {5.5 / 6});
  // Correction None means 1; an integer input is refused.
  std::vector<EValue> dflt{a->tensor(),   EValue(),      EValue(),
                           EValue(false), all->tensor(), all->tensor()};
  ASSERT_EQ(call("aten::var.correction_out", dflt), Error::Ok);
  expect_close(all->values(), {5.5 / 7});
  auto i = make<int32_t>(ScalarType::Int, {2}, {1, 2});
  auto io = out(ScalarType::Int, {});
  std::vector<EValue> bad{i->tensor(),   EValue(),     EValue(),
                          EValue(false), io->tensor(), io->tensor()};
  EXPECT_EQ(call("aten::var.correction_out", bad), Error::InvalidArgument);
}

TEST(ReduceOps, MeanDtypeAndAmin) {
  auto a = make<int16_t>(ScalarType::Short, {4}, {1, 2, 3, 5});
  auto o = out(ScalarType::Float, {});
  std::vector<EValue> v{a->tensor(), EValue(static_cast<int64_t>(ScalarType::Float)), o->tensor(),
                        o->tensor()};
  ASSERT_EQ(call("aten::mean.dtype_out", v), Error::Ok);
  expect_close(o->values(), {2.75});
  std::vector<EValue> nodtype{a->tensor(), EValue(), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::mean.dtype_out", nodtype), Error::InvalidArgument);

  auto f = make<float>(ScalarType::Float, {2, 3}, {3, -1, 2, NAN, 5, 4});
  auto fo = out(ScalarType::Float, {2});
  IntListArg d1({1});
  std::vector<EValue> mv{f->tensor(), d1.ev(), EValue(false), fo->tensor(), fo->tensor()};
  ASSERT_EQ(call("aten::amin.out", mv), Error::Ok);
  const auto got = fo->values();
  EXPECT_EQ(got[0], -1);
  EXPECT_TRUE(std::isnan(got[1]));
  auto e = make<float>(ScalarType::Float, {2, 0}, {});
  std::vector<EValue> ev{e->tensor(), d1.ev(), EValue(false), fo->tensor(), fo->tensor()};
  EXPECT_EQ(call("aten::amin.out", ev), Error::InvalidArgument);
}
