// native_group_norm and _native_batch_norm_legit (training and inference)
// and its no_stats form. References: means and variances worked out by hand.
#include <cmath>

#include "kernel_test_util.h"

using namespace kt;

TEST(NormStatsOps, GroupNormTwoGroups) {
  // N=1, C=4, HxW=2, 2 groups: group 0 = {1, 2, 3, 4} (mean 2.5, var 1.25),
  // group 1 = {0, 0, 2, 2} (mean 1, var 1).
  auto x = make<float>(ScalarType::Float, {1, 4, 2}, {1, 2, 3, 4, 0, 0, 2, 2});
  auto w = make<float>(ScalarType::Float, {4}, {1, 1, 2, 2});
  auto b = make<float>(ScalarType::Float, {4}, {0, 0, 0, 1});
  auto o = out(ScalarType::Float, {1, 4, 2});
  auto mean = out(ScalarType::Float, {1, 2}), rstd = out(ScalarType::Float, {1, 2});
  TensorListArg ret({o.get(), mean.get(), rstd.get()});
  const double eps = 1e-5;
  std::vector<EValue> v{x->tensor(),        w->tensor(),        b->tensor(),
                        EValue(int64_t(1)), EValue(int64_t(4)), EValue(int64_t(2)),
                        EValue(int64_t(2)), EValue(eps),        o->tensor(),
                        mean->tensor(),     rstd->tensor(),     ret.ev()};
  ASSERT_EQ(call("aten::native_group_norm.out", v), Error::Ok);
  const double r0 = 1 / std::sqrt(1.25 + eps), r1 = 1 / std::sqrt(1 + eps);
  expect_close(mean->values(), {2.5, 1});
  expect_close(rstd->values(), {r0, r1});
  expect_close(o->values(), {-1.5 * r0, -0.5 * r0, 0.5 * r0, 1.5 * r0, -2 * r1, -2 * r1, 2 * r1 + 1,
                             2 * r1 + 1});
  // Channels that do not divide into the groups; the schema's count without
  // the returned tuple.
  std::vector<EValue> bad{x->tensor(),        w->tensor(),        b->tensor(),
                          EValue(int64_t(1)), EValue(int64_t(4)), EValue(int64_t(2)),
                          EValue(int64_t(3)), EValue(eps),        o->tensor(),
                          mean->tensor(),     rstd->tensor(),     ret.ev()};
  EXPECT_EQ(call("aten::native_group_norm.out", bad), Error::InvalidArgument);
  std::vector<EValue> short_args(v.begin(), v.end() - 1);
  EXPECT_EQ(call("aten::native_group_norm.out", short_args), Error::InvalidArgument);
}

TEST(NormStatsOps, GroupNormChannelsLastDouble) {
  // (1, 2, 1, 2) channels-last: memory (h, w, c) = x00c0 x00c1 x01c0 x01c1.
  TT x(ScalarType::Double, {1, 2, 1, 2}, 0, TensorShapeDynamism::STATIC, {0, 2, 3, 1});
  x.set<double>({1, 10, 3, 30}); // channel 0 = {1, 3}, channel 1 = {10, 30}
  TT o(ScalarType::Double, {1, 2, 1, 2}, 0, TensorShapeDynamism::STATIC, {0, 2, 3, 1});
  auto mean = out(ScalarType::Double, {1, 2}), rstd = out(ScalarType::Double, {1, 2});
  TensorListArg ret({&o, mean.get(), rstd.get()});
  std::vector<EValue> v{x.tensor(),         EValue(),           EValue(),
                        EValue(int64_t(1)), EValue(int64_t(2)), EValue(int64_t(2)),
                        EValue(int64_t(2)), EValue(0.0),        o.tensor(),
                        mean->tensor(),     rstd->tensor(),     ret.ev()};
  ASSERT_EQ(call("aten::native_group_norm.out", v), Error::Ok);
  expect_close(mean->values(), {2, 20});
  expect_close(rstd->values(), {1, 0.1});
  expect_close(o.values(), {-1, -1, 1, 1}); // memory order
}

TEST(NormStatsOps, BatchNormLegitTrainingUpdatesRunningStats) {
  // N=2, C=2, no spatial dims: channel 0 = {1, 3}, channel 1 = {2, 6}.
  auto x = make<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 6});
  auto rm = make<float>(ScalarType::Float, {2}, {0, 0});
  auto rv = make<float>(ScalarType::Float, {2}, {1, 1});
  auto o = out(ScalarType::Float, {2, 2});
  auto sm = out(ScalarType::Float, {2}), si = out(ScalarType::Float, {2});
  TensorListArg ret({o.get(), sm.get(), si.get()});
  std::vector<EValue> v{x->tensor(),  EValue(),     EValue(),     rm->tensor(),
                        rv->tensor(), EValue(true), EValue(0.1),  EValue(0.0),
                        o->tensor(),  sm->tensor(), si->tensor(), ret.ev()};
  ASSERT_EQ(call("aten::_native_batch_norm_legit.out", v), Error::Ok);
  expect_close(sm->values(), {2, 4});
  expect_close(si->values(), {1, 0.5}); // biased variances 1 and 4
  expect_close(o->values(), {-1, -1, 1, 1});
  // running = 0.9 * running + 0.1 * batch, with unbiased variances 2 and 8
  expect_close(rm->values(), {0.2, 0.4});
  expect_close(rv->values(), {0.9 + 0.2, 0.9 + 0.8});
  // Inference uses the running statistics (the _no_training kernel).
  std::vector<EValue> inf{x->tensor(),  EValue(),      EValue(),     rm->tensor(),
                          rv->tensor(), EValue(false), EValue(0.1),  EValue(0.0),
                          o->tensor(),  sm->tensor(),  si->tensor(), ret.ev()};
  ASSERT_EQ(call("aten::_native_batch_norm_legit.out", inf), Error::Ok);
  expect_close(o->values(), {(1 - 0.2) / std::sqrt(1.1), (2 - 0.4) / std::sqrt(1.7),
                             (3 - 0.2) / std::sqrt(1.1), (6 - 0.4) / std::sqrt(1.7)});
}

TEST(NormStatsOps, BatchNormNoStats) {
  auto x = make<BFloat16>(ScalarType::BFloat16, {2, 1, 2},
                          {BFloat16(0.f), BFloat16(2.f), BFloat16(4.f), BFloat16(6.f)});
  auto w = make<float>(ScalarType::Float, {1}, {2});
  auto b = make<float>(ScalarType::Float, {1}, {1});
  auto o = out(ScalarType::BFloat16, {2, 1, 2});
  auto sm = out(ScalarType::BFloat16, {1}), si = out(ScalarType::BFloat16, {1});
  TensorListArg ret({o.get(), sm.get(), si.get()});
  std::vector<EValue> v{x->tensor(), w->tensor(), b->tensor(),  EValue(true), EValue(0.1),
                        EValue(0.0), o->tensor(), sm->tensor(), si->tensor(), ret.ev()};
  ASSERT_EQ(call("aten::_native_batch_norm_legit.no_stats_out", v), Error::Ok);
  // mean 3, variance 5: (x - 3) / sqrt(5) * 2 + 1, to bf16 precision.
  const double s = 2 / std::sqrt(5.0);
  expect_close(o->values(), {1 - 3 * s, 1 - s, 1 + s, 1 + 3 * s}, 1e-2);
  expect_close(sm->values(), {3});
  std::vector<EValue> eval{x->tensor(), w->tensor(), b->tensor(),  EValue(false), EValue(0.1),
                           EValue(0.0), o->tensor(), sm->tensor(), si->tensor(),  ret.ev()};
  EXPECT_EQ(call("aten::_native_batch_norm_legit.no_stats_out", eval), Error::InvalidArgument);
}
