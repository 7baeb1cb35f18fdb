// max.dim_max, min.dim_min, max/min.unary_out, argmin; first extreme wins,
// NaN beats every number (ATen's rules).
#include <cmath>

#include "kernel_test_util.h"

using namespace kt;

TEST(MinMaxOps, MaxMinDimWithIndices) {
  auto a = make<float>(ScalarType::Float, {2, 3}, {1, 5, 5, 7, -2, 7});
  auto vals = out(ScalarType::Float, {2}), idx = out(ScalarType::Long, {2});
  TensorListArg ret({vals.get(), idx.get()});
  std::vector<EValue> v{a->tensor(),    EValue(int64_t(1)), EValue(false),
                        vals->tensor(), idx->tensor(),      ret.ev()};
  ASSERT_EQ(call("aten::max.dim_max", v), Error::Ok);
  EXPECT_EQ(vals->values(), (std::vector<double>{5, 7}));
  EXPECT_EQ(idx->values(), (std::vector<double>{1, 0}));
  ASSERT_EQ(call("aten::min.dim_min", v), Error::Ok);
  EXPECT_EQ(vals->values(), (std::vector<double>{1, -2}));
  EXPECT_EQ(idx->values(), (std::vector<double>{0, 1}));
  // keepdim along dim 0, int64 values.
  auto l = make<int64_t>(ScalarType::Long, {2, 2}, {INT64_MIN, 4, 9, INT64_MAX});
  auto lv = out(ScalarType::Long, {1, 2}), li = out(ScalarType::Long, {1, 2});
  TensorListArg lret({lv.get(), li.get()});
  std::vector<EValue> kv{l->tensor(),  EValue(int64_t(0)), EValue(true),
                         lv->tensor(), li->tensor(),       lret.ev()};
  ASSERT_EQ(call("aten::max.dim_max", kv), Error::Ok);
  EXPECT_EQ(lv->shape(), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(l->data<int64_t>()[3], lv->data<int64_t>()[1]);
  EXPECT_EQ(li->values(), (std::vector<double>{1, 1}));
  // Indices of the wrong dtype; the schema's count without the tuple.
  auto bad_idx = out(ScalarType::Int, {2});
  TensorListArg bret({vals.get(), bad_idx.get()});
  std::vector<EValue> b{a->tensor(),    EValue(int64_t(1)), EValue(false),
                        vals->tensor(), bad_idx->tensor(),  bret.ev()};
  EXPECT_EQ(call("aten::max.dim_max", b), Error::InvalidArgument);
  std::vector<EValue> s(v.begin(), v.end() - 1);
  EXPECT_EQ(call("aten::max.dim_max", s), Error::InvalidArgument);
}

TEST(MinMaxOps, NanWinsAndUnaryForms) {
  auto a = make<double>(ScalarType::Double, {4}, {1, NAN, 3, NAN});
  auto v = out(ScalarType::Double, {}), i = out(ScalarType::Long, {});
  TensorListArg ret({v.get(), i.get()});
  std::vector<EValue> args{a->tensor(), EValue(int64_t(0)), EValue(false),
                           v->tensor(), i->tensor(),        ret.ev()};
  ASSERT_EQ(call("aten::min.dim_min", args), Error::Ok);
  EXPECT_TRUE(std::isnan(v->values()[0]));
  EXPECT_EQ(i->values(), (std::vector<double>{1}));
  std::vector<EValue> u{a->tensor(), v->tensor(), v->tensor()};
  ASSERT_EQ(call("aten::max.unary_out", u), Error::Ok);
  EXPECT_TRUE(std::isnan(v->values()[0]));
  auto b = make<bool>(ScalarType::Bool, {3}, {false, true, false});
  auto bo = out(ScalarType::Bool, {});
  std::vector<EValue> bu{b->tensor(), bo->tensor(), bo->tensor()};
  ASSERT_EQ(call("aten::max.unary_out", bu), Error::Ok);
  EXPECT_EQ(bo->values(), (std::vector<double>{1}));
  ASSERT_EQ(call("aten::min.unary_out", bu), Error::Ok);
  EXPECT_EQ(bo->values(), (std::vector<double>{0}));
  auto e = make<float>(ScalarType::Float, {0}, {});
  auto eo = out(ScalarType::Float, {});
  std::vector<EValue> ev{e->tensor(), eo->tensor(), eo->tensor()};
  EXPECT_EQ(call("aten::min.unary_out", ev), Error::InvalidArgument);
}

TEST(MinMaxOps, Argmin) {
  auto a = make<int8_t>(ScalarType::Char, {2, 3}, {4, -3, 2, -3, 9, -3});
  auto o = out(ScalarType::Long, {});
  std::vector<EValue> flat{a->tensor(), EValue(), EValue(false), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::argmin.out", flat), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{1}));
  auto od = out(ScalarType::Long, {3});
  std::vector<EValue> d0{a->tensor(), EValue(int64_t(0)), EValue(false), od->tensor(),
                         od->tensor()};
  ASSERT_EQ(call("aten::argmin.out", d0), Error::Ok);
  EXPECT_EQ(od->values(), (std::vector<double>{1, 0, 1}));
  // A channels-last input reduced over C keeps the logical positions.
  TT cl(ScalarType::Float, {1, 3, 1, 2}, 0, TensorShapeDynamism::STATIC, {0, 2, 3, 1});
  cl.set<float>({5, 1, 7, 8, 0, 9}); // memory (w, c): w0 = (5, 1, 7), w1 = (8, 0, 9)
  auto co = out(ScalarType::Long, {1, 1, 2});
  std::vector<EValue> cv{cl.tensor(), EValue(int64_t(1)), EValue(false), co->tensor(),
                         co->tensor()};
  ASSERT_EQ(call("aten::argmin.out", cv), Error::Ok);
  EXPECT_EQ(co->values(), (std::vector<double>{1, 1}));
  auto wrong = out(ScalarType::Int, {});
  std::vector<EValue> bad{a->tensor(), EValue(), EValue(false), wrong->tensor(), wrong->tensor()};
  EXPECT_EQ(call("aten::argmin.out", bad), Error::InvalidArgument);
}
