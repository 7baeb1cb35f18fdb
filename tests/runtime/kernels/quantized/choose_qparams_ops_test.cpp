// quantized_decomposed::choose_qparams.Tensor_out and
// choose_qparams_per_token_asymmetric.out: cases worked by hand from the
// rule (range widened to include 0, scale = range / (qmax - qmin), the zero
// point from the end with the smaller error, 0.1 for a zero range, 6.1e-5 as
// the smallest scale), properties on random data (every value comes back
// within half a step, the zero point is in range), per-token rows equal to
// the per-tensor answer for that row, and the arguments that must fail.
#include "quant_test_util.h"

namespace {

using namespace qt;

constexpr const char* kTensor = "quantized_decomposed::choose_qparams.Tensor_out";
constexpr const char* kToken = "quantized_decomposed::choose_qparams_per_token_asymmetric.out";

Error choose(const TT& in, int64_t qmin, int64_t qmax, ScalarType dtype, const TT& scale,
             const TT& zp) {
  TensorListArg ret({const_cast<TT*>(&scale), const_cast<TT*>(&zp)});
  std::vector<EValue> v{in.tensor(), i64(qmin),      i64(qmax),   EValue(1e-7),
                        dt(dtype),   scale.tensor(), zp.tensor(), ret.ev()};
  return call(kTensor, v);
}

Error choose_token(const TT& in, const TT& scale, const TT& zp) {
  TensorListArg ret({const_cast<TT*>(&scale), const_cast<TT*>(&zp)});
  std::vector<EValue> v{in.tensor(), dt(ScalarType::Char), scale.tensor(), zp.tensor(), ret.ev()};
  return call(kToken, v);
}

struct Params {
  double scale;
  int64_t zp;
};

Params choose_values(const std::vector<double>& x, int64_t qmin, int64_t qmax, ScalarType dtype) {
  auto in = tensor_of(ScalarType::Float, {static_cast<int32_t>(x.size())}, x);
  auto s = out_of(ScalarType::Double, {1});
  auto z = out_of(ScalarType::Long, {1});
  EXPECT_EQ(choose(*in, qmin, qmax, dtype, *s, *z), Error::Ok);
  return {s->data<double>()[0], z->data<int64_t>()[0]};
}

TEST(ChooseQparams, HandWorkedCases) {
  // [-1, 3] onto int8: scale 4/255; from_max = 127 - 3 * 255 / 4 = -64.25 has
  // the smaller error (|127| - 191.25 < |-128| - 63.75), rounded to -64.
  Params p = choose_values({-1, 0.5, 3}, -128, 127, ScalarType::Char);
  EXPECT_DOUBLE_EQ(p.scale, 4.0 / 255.0);
  EXPECT_EQ(p.zp, -64);
  // All positive [0.5, 2] onto uint8: the range becomes [0, 2], zero point 0.
  p = choose_values({0.5, 2}, 0, 255, ScalarType::Byte);
  EXPECT_DOUBLE_EQ(p.scale, 2.0 / 255.0);
  EXPECT_EQ(p.zp, 0);
  // All negative onto uint8: range [-2, 0], the zero point at the top.
  p = choose_values({-2, -0.5}, 0, 255, ScalarType::Byte);
  EXPECT_DOUBLE_EQ(p.scale, 2.0 / 255.0);
  EXPECT_EQ(p.zp, 255);
  // All zero: scale 0 becomes 0.1; the errors are 128 (min) and 127 (max),
  // so the zero point comes from the max end: 127.
  p = choose_values({0, 0, 0}, -128, 127, ScalarType::Char);
  EXPECT_DOUBLE_EQ(p.scale, 0.1);
  EXPECT_EQ(p.zp, 127);
  // A tiny range: the scale is raised to 6.1e-5 (as float32).
  p = choose_values({0, 1e-6}, 0, 255, ScalarType::Byte);
  EXPECT_EQ(p.scale, static_cast<double>(6.1e-5f));
  EXPECT_EQ(p.zp, 0);
  // One element.
  p = choose_values({-5.1}, -128, 127, ScalarType::Char);
  EXPECT_DOUBLE_EQ(p.scale, static_cast<double>(5.1f) / 255.0);
  EXPECT_EQ(p.zp, 127);
}

TEST(ChooseQparams, RandomDataComesBackWithinHalfAStep) {
  uint32_t s = 17;
  int cases = 0;
  for (ScalarType qt : {ScalarType::Char, ScalarType::Byte, ScalarType::Short}) {
    const QRange r = range_of(qt);
    for (int trial = 0; trial < 8; ++trial) {
      const double lo = pseudo(&s, -50, 10), hi = lo + pseudo(&s, 0.5, 60);
      std::vector<double> x;
      for (int i = 0; i < 50; ++i) x.push_back(float(pseudo(&s, lo, hi)));
      const Params p = choose_values(x, r.lo, r.hi, qt);
      ASSERT_GT(p.scale, 0);
      EXPECT_GE(p.zp, r.lo);
      EXPECT_LE(p.zp, r.hi);
      for (double v : x) {
        const int64_t q = ref_quantize(ScalarType::Float, v, p.scale, p.zp, r.lo, r.hi);
        const double back = (q - p.zp) * p.scale;
        EXPECT_LE(std::fabs(back - v), p.scale * 0.5 + 1e-4 * std::fabs(v) + 1e-6)
            << "v=" << v << " scale=" << p.scale << " zp=" << p.zp;
      }
      ++cases;
    }
  }
  EXPECT_EQ(cases, 24);
}

TEST(ChooseQparams, BadArgumentsFail) {
  auto in = tensor_of(ScalarType::Float, {3}, {1, 2, 3});
  auto s = out_of(ScalarType::Double, {1});
  auto z = out_of(ScalarType::Long, {1});
  const ScalarType c = ScalarType::Char;
  EXPECT_EQ(choose(*in, -128, 127, c, *s, *z), Error::Ok);
  EXPECT_EQ(choose(*tensor_of(ScalarType::Float, {0}, {}), -128, 127, c, *s, *z),
            Error::InvalidArgument);
  EXPECT_EQ(choose(*tensor_of(ScalarType::Float, {2}, {1, NAN}), -128, 127, c, *s, *z),
            Error::InvalidArgument);
  EXPECT_EQ(choose(*tensor_of(ScalarType::Float, {2}, {1, INFINITY}), -128, 127, c, *s, *z),
            Error::InvalidArgument);
  EXPECT_EQ(choose(*tensor_of(ScalarType::Double, {2}, {1, 2}), -128, 127, c, *s, *z),
            Error::InvalidArgument);
  EXPECT_EQ(choose(*in, 5, 5, c, *s, *z), Error::InvalidArgument);
  EXPECT_EQ(choose(*in, -129, 127, c, *s, *z), Error::InvalidArgument);
  EXPECT_EQ(choose(*in, 0, 10, ScalarType::Float, *s, *z), Error::InvalidArgument);
  EXPECT_EQ(choose(*in, -128, 127, c, *out_of(ScalarType::Float, {1}), *z), Error::InvalidArgument);
  EXPECT_EQ(choose(*in, -128, 127, c, *s, *out_of(ScalarType::Int, {1})), Error::InvalidArgument);
  EXPECT_EQ(choose(*in, -128, 127, c, *out_of(ScalarType::Double, {2}), *z),
            Error::InvalidArgument);
}

TEST(ChooseQparamsPerToken, EachRowIsThePerTensorAnswer) {
  uint32_t st = 5;
  std::vector<double> x;
  for (int i = 0; i < 2 * 3 * 7; ++i) x.push_back(float(pseudo(&st, -4, 9)));
  for (int j = 0; j < 7; ++j) x[7 + j] = 0; // an all-zero token
  auto in = tensor_of(ScalarType::Float, {2, 3, 7}, x);
  auto s = out_of(ScalarType::Double, {1, 1, 1}, {}, 6);
  auto z = out_of(ScalarType::Long, {1, 1, 1}, {}, 6);
  ASSERT_EQ(choose_token(*in, *s, *z), Error::Ok);
  EXPECT_EQ(s->shape(), (std::vector<int32_t>{2, 3, 1}));
  EXPECT_EQ(z->shape(), (std::vector<int32_t>{2, 3, 1}));
  for (int t = 0; t < 6; ++t) {
    const std::vector<double> row(x.begin() + 7 * t, x.begin() + 7 * (t + 1));
    const Params p = choose_values(row, -128, 127, ScalarType::Char);
    EXPECT_EQ(s->data<double>()[t], p.scale) << t;
    EXPECT_EQ(z->data<int64_t>()[t], p.zp) << t;
  }
  EXPECT_EQ(s->data<double>()[1], 0.1);
  EXPECT_EQ(z->data<int64_t>()[1], 127);
  // Errors: rank 0, an empty token, a non-finite value, wrong output dtypes.
  auto so = out_of(ScalarType::Double, {});
  auto zo = out_of(ScalarType::Long, {});
  EXPECT_EQ(choose_token(*tensor_of(ScalarType::Float, {}, {1}), *so, *zo), Error::InvalidArgument);
  auto s2 = out_of(ScalarType::Double, {2, 1});
  auto z2 = out_of(ScalarType::Long, {2, 1});
  EXPECT_EQ(choose_token(*tensor_of(ScalarType::Float, {2, 0}, {}), *s2, *z2),
            Error::InvalidArgument);
  EXPECT_EQ(choose_token(*tensor_of(ScalarType::Float, {2, 2}, {1, 2, NAN, 3}), *s2, *z2),
            Error::InvalidArgument);
  EXPECT_EQ(choose_token(*tensor_of(ScalarType::Float, {2, 2}, {1, 2, 3, 4}),
                         *out_of(ScalarType::Float, {2, 1}), *z2),
            Error::InvalidArgument);
  EXPECT_EQ(choose_token(*tensor_of(ScalarType::Float, {2, 2}, {1, 2, 3, 4}), *s2, *z2), Error::Ok);
}

} // namespace
