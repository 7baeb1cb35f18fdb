// quantized_decomposed::add.out against its definition, dequantize a and b
// ((q - zp) * scale), add in float32, quantize into out (rounded half to
// even, clamped): every integer dtype, hand-worked values, clamping at the
// output range, and the arguments that must fail.
#include "quant_test_util.h"

namespace {

using namespace qt;

constexpr const char* kAdd = "quantized_decomposed::add.out";

struct QP {
  double scale;
  int64_t zp, qmin, qmax;
};

Error add(const TT& a, QP qa, const TT& b, QP qb, QP qo, const TT& out) {
  return call_out(kAdd,
                  {a.tensor(), EValue(qa.scale), i64(qa.zp), i64(qa.qmin), i64(qa.qmax), b.tensor(),
                   EValue(qb.scale), i64(qb.zp), i64(qb.qmin), i64(qb.qmax), EValue(qo.scale),
                   i64(qo.zp), i64(qo.qmin), i64(qo.qmax), out.tensor()},
                  out);
}

double ref_add(double a, QP qa, double b, QP qb, QP qo) {
  const float fa = static_cast<float>((a - qa.zp) * static_cast<double>(float(qa.scale)));
  const float fb = static_cast<float>((b - qb.zp) * static_cast<double>(float(qb.scale)));
  return static_cast<double>(
      ref_quantize(ScalarType::Float, fa + fb, qo.scale, qo.zp, qo.qmin, qo.qmax));
}

TEST(QuantizedAdd, MatchesTheDefinitionForEveryIntegerDtype) {
  // Ranges within [0, 127]: the part of upstream's [0, 255] every dtype holds.
  const QP qa{0.05, 10, 0, 127}, qb{0.02, 100, 0, 127}, qo{0.07, 64, 0, 127};
  uint32_t s = 3;
  std::vector<double> a, b;
  for (int i = 0; i < 48; ++i) {
    a.push_back(std::floor(pseudo(&s, 0, 128)));
    b.push_back(std::floor(pseudo(&s, 0, 128)));
  }
  a[0] = 0;
  b[0] = 0;
  a[1] = 127;
  b[1] = 127;
  int cases = 0;
  for (ScalarType t : int_dtypes()) {
    auto ta = tensor_of(t, {4, 12}, a);
    auto tb = tensor_of(t, {4, 12}, b);
    auto out = out_of(t, {4, 12});
    ASSERT_EQ(add(*ta, qa, *tb, qb, qo, *out), Error::Ok) << dtype_name(t);
    const std::vector<double> got = logical(*out);
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(got[i], ref_add(a[i], qa, b[i], qb, qo)) << dtype_name(t) << " " << i;
    }
    ++cases;
  }
  EXPECT_EQ(cases, 5);
}

TEST(QuantizedAdd, HandWorkedAndClamped) {
  // (20 - 10) * 0.5 + (4 - 0) * 0.25 = 6; 6 / 0.5 = 12, + 100 = 112.
  // (0 - 10) * 0.5 + 0 = -5 -> -10 + 100 = 90; large sums clamp at 120.
  // (11 - 10) * 0.5 + (1 - 0) * 0.25 = 0.75 -> 1.5 rounds to 2 -> 102.
  auto a = tensor_of(ScalarType::Byte, {4}, {20, 0, 255, 11});
  auto b = tensor_of(ScalarType::Byte, {4}, {4, 0, 255, 1});
  auto out = out_of(ScalarType::Byte, {4});
  ASSERT_EQ(add(*a, {0.5, 10, 0, 255}, *b, {0.25, 0, 0, 255}, {0.5, 100, 0, 120}, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{112, 90, 120, 102}));
  auto e = tensor_of(ScalarType::Byte, {0}, {});
  auto eo = out_of(ScalarType::Byte, {2}, {}, 2);
  ASSERT_EQ(add(*e, {1, 0, 0, 255}, *e, {1, 0, 0, 255}, {1, 0, 0, 255}, *eo), Error::Ok);
  EXPECT_EQ(eo->shape(), (std::vector<int32_t>{0}));
}

TEST(QuantizedAdd, BadArgumentsFail) {
  auto a = tensor_of(ScalarType::Byte, {2}, {1, 2});
  auto b = tensor_of(ScalarType::Byte, {2}, {3, 4});
  auto out = out_of(ScalarType::Byte, {2});
  const QP ok{1, 0, 0, 255};
  ASSERT_EQ(add(*a, ok, *b, ok, ok, *out), Error::Ok);
  const Error bad = Error::InvalidArgument;
  EXPECT_EQ(add(*a, ok, *tensor_of(ScalarType::Char, {2}, {3, 4}), ok, ok, *out), bad);
  EXPECT_EQ(add(*a, ok, *tensor_of(ScalarType::Byte, {3}, {3, 4, 5}), ok, ok, *out), bad);
  EXPECT_EQ(add(*a, ok, *b, ok, ok, *out_of(ScalarType::Char, {2})), bad);
  EXPECT_EQ(
      add(*tensor_of(ScalarType::Float, {2}, {1, 2}), ok,
          *tensor_of(ScalarType::Float, {2}, {1, 2}), ok, ok, *out_of(ScalarType::Float, {2})),
      bad);
  EXPECT_EQ(add(*a, {1, 0, -1, 255}, *b, ok, ok, *out), bad);
  EXPECT_EQ(add(*a, ok, *b, {1, 0, 0, 256}, ok, *out), bad);
  EXPECT_EQ(add(*a, ok, *b, ok, {1, 0, 9, 8}, *out), bad);
  EXPECT_EQ(add(*a, ok, *b, ok, {0.0, 0, 0, 255}, *out), bad);
  EXPECT_EQ(add(*a, {1, int64_t{1} << 40, 0, 255}, *b, ok, ok, *out), bad);
  // int8 cannot hold the upper half of [0, 255].
  auto c = tensor_of(ScalarType::Char, {2}, {1, 2});
  EXPECT_EQ(add(*c, ok, *c, ok, ok, *out_of(ScalarType::Char, {2})), bad);
}

} // namespace
