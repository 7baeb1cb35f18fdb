// quantized_decomposed::mixed_mm.out and mixed_linear.out against the
// matrix products computed in float64 from their definitions (the weight
// dequantized by its per-row or per-group scales first), a hand-computed
// case, float16 inputs, and the arguments that must fail (zero points,
// shapes, dtypes, groups that do not divide k).
#include "quant_test_util.h"

namespace {

using namespace qt;

constexpr const char* kMm = "quantized_decomposed::mixed_mm.out";
constexpr const char* kLinear = "quantized_decomposed::mixed_linear.out";

std::vector<double> ramp(uint32_t seed, size_t n, double lo, double hi, bool integral) {
  std::vector<double> v;
  uint32_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    const double x = pseudo(&s, lo, hi);
    v.push_back(integral ? std::floor(x) : x);
  }
  return v;
}

// Tolerance for a sum of `k` products of magnitude up to `mag` in dtype t.
double tol(ScalarType t, int k, double mag) {
  return (t == ScalarType::Half ? 2e-3 : 1e-5) * k * mag + 1e-6;
}

TEST(MixedMm, MatchesTheDequantizedProduct) {
  const int m = 3, k = 5, n = 4;
  for (ScalarType t : {ScalarType::Float, ScalarType::Half}) {
    std::vector<double> x = ramp(1, m * k, -2, 2, false), w = ramp(2, k * n, -128, 128, true),
                        s = ramp(3, k, 0.001, 0.05, false);
    for (double& v : x) v = as_dtype(t, v);
    for (double& v : s) v = as_dtype(t, v);
    auto in = tensor_of(t, {m, k}, x);
    auto wt = tensor_of(ScalarType::Char, {k, n}, w);
    auto sc = tensor_of(t, {k}, s);
    auto out = out_of(t, {1, 1}, {}, m * n);
    ASSERT_EQ(
        call_out(kMm, {in->tensor(), wt->tensor(), sc->tensor(), EValue(), out->tensor()}, *out),
        Error::Ok);
    ASSERT_EQ(out->shape(), (std::vector<int32_t>{m, n}));
    const std::vector<double> got = logical(*out);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        double want = 0;
        for (int kk = 0; kk < k; ++kk) want += x[i * k + kk] * (w[kk * n + j] * s[kk]);
        EXPECT_NEAR(got[i * n + j], want, tol(t, k, 2 * 128 * 0.05)) << i << "," << j;
      }
    }
  }
  // By hand: [1 2] x [[1 -1] [2 3]] with scales [0.5, 2] -> [8.5, 11.5].
  auto in = tensor_of(ScalarType::Float, {1, 2}, {1, 2});
  auto wt = tensor_of(ScalarType::Char, {2, 2}, {1, -1, 2, 3});
  auto sc = tensor_of(ScalarType::Float, {2}, {0.5, 2});
  auto out = out_of(ScalarType::Float, {1, 2});
  ASSERT_EQ(
      call_out(kMm, {in->tensor(), wt->tensor(), sc->tensor(), EValue(), out->tensor()}, *out),
      Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{8.5, 11.5}));
}

TEST(MixedMm, BadArgumentsFail) {
  auto in = tensor_of(ScalarType::Float, {1, 2}, {1, 2});
  auto wt = tensor_of(ScalarType::Char, {2, 2}, {1, -1, 2, 3});
  auto sc = tensor_of(ScalarType::Float, {2}, {0.5, 2});
  auto out = out_of(ScalarType::Float, {1, 2});
  auto bad = [&](const TT& a, const TT& b, const TT& c, EValue z, const TT& o) {
    EXPECT_EQ(call_out(kMm, {a.tensor(), b.tensor(), c.tensor(), z, o.tensor()}, o),
              Error::InvalidArgument);
  };
  bad(*in, *wt, *sc, EValue(sc->tensor()), *out); // zero points
  bad(*in, *tensor_of(ScalarType::Byte, {2, 2}, {1, 1, 2, 3}), *sc, EValue(), *out);
  bad(*in, *tensor_of(ScalarType::Char, {3, 2}, std::vector<double>(6, 1)), *sc, EValue(), *out);
  bad(*in, *wt, *tensor_of(ScalarType::Float, {3}, {1, 1, 1}), EValue(), *out);
  bad(*in, *wt, *tensor_of(ScalarType::Double, {2}, {1, 1}), EValue(), *out);
  bad(*tensor_of(ScalarType::Double, {1, 2}, {1, 2}), *wt, *sc, EValue(), *out);
  bad(*in, *wt, *sc, EValue(), *out_of(ScalarType::Half, {1, 2}));
  bad(*tensor_of(ScalarType::Float, {2}, {1, 2}), *wt, *sc, EValue(), *out);
}

TEST(MixedLinear, MatchesTheDequantizedProductPerRowAndPerGroup) {
  const int m = 2, k = 8, n = 3;
  int cases = 0;
  for (ScalarType t : {ScalarType::Float, ScalarType::Half}) {
    for (int groups : {0, 1, 2, 4}) { // 0: 1-D scales
      const int ng = groups == 0 ? 1 : groups;
      std::vector<double> x = ramp(4, m * k, -1, 1, false), w = ramp(5, n * k, -128, 128, true),
                          s = ramp(6, n * ng, 0.001, 0.05, false);
      for (double& v : x) v = as_dtype(t, v);
      for (double& v : s) v = as_dtype(t, v);
      auto in = tensor_of(t, {m, k}, x);
      auto wt = tensor_of(ScalarType::Char, {n, k}, w);
      auto sc = groups == 0 ? tensor_of(t, {n}, s) : tensor_of(t, {n, groups}, s);
      for (ScalarType ot : {ScalarType::Float, ScalarType::Half}) {
        for (bool given : {false, true}) {
          auto out = out_of(ot, {m, n});
          ASSERT_EQ(call_out(kLinear,
                             {in->tensor(), wt->tensor(), sc->tensor(), EValue(),
                              given ? dt(ot) : EValue(), out->tensor()},
                             *out),
                    Error::Ok);
          const std::vector<double> got = logical(*out);
          for (int i = 0; i < m; ++i) {
            for (int j = 0; j < n; ++j) {
              double want = 0;
              for (int kk = 0; kk < k; ++kk) {
                want += x[i * k + kk] * w[j * k + kk] * s[j * ng + kk / (k / ng)];
              }
              EXPECT_NEAR(got[i * n + j], want, tol(ot == ScalarType::Half ? ot : t, k, 128 * 0.05))
                  << i << "," << j << " groups " << groups;
            }
          }
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 32);
}

TEST(MixedLinear, BadArgumentsFail) {
  auto in = tensor_of(ScalarType::Float, {1, 4}, {1, 2, 3, 4});
  auto wt = tensor_of(ScalarType::Char, {2, 4}, {1, 1, 1, 1, 2, 2, 2, 2});
  auto sc = tensor_of(ScalarType::Float, {2}, {1, 1});
  auto out = out_of(ScalarType::Float, {1, 2});
  auto run = [&](const TT& a, const TT& b, const TT& c, EValue z, EValue d, const TT& o) {
    return call_out(kLinear, {a.tensor(), b.tensor(), c.tensor(), z, d, o.tensor()}, o);
  };
  ASSERT_EQ(run(*in, *wt, *sc, EValue(), EValue(), *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{10, 20})); // by hand
  const Error bad = Error::InvalidArgument;
  EXPECT_EQ(run(*in, *wt, *sc, EValue(sc->tensor()), EValue(), *out), bad); // zero points
  EXPECT_EQ(run(*in, *wt, *sc, EValue(), dt(ScalarType::Half), *out), bad); // dtype vs out
  auto dout = out_of(ScalarType::Double, {1, 2});
  EXPECT_EQ(run(*in, *wt, *sc, EValue(), dt(ScalarType::Double), *dout), bad);
  EXPECT_EQ(run(*in, *wt, *sc, EValue(), EValue(), *dout), Error::Ok);
  EXPECT_EQ(run(*in, *wt, *tensor_of(ScalarType::Float, {2, 3}, std::vector<double>(6, 1)),
                EValue(), EValue(), *out),
            bad); // 3 groups do not divide 4
  EXPECT_EQ(run(*in, *wt, *tensor_of(ScalarType::Float, {3}, {1, 1, 1}), EValue(), EValue(), *out),
            bad);
  EXPECT_EQ(run(*in, *tensor_of(ScalarType::Char, {2, 3}, std::vector<double>(6, 1)), *sc, EValue(),
                EValue(), *out),
            bad);
  EXPECT_EQ(run(*in, *wt, *tensor_of(ScalarType::Half, {2}, {1, 1}), EValue(), EValue(), *out),
            bad); // scales not of the input's dtype
}

} // namespace
