// quantized_decomposed::dequantize_per_tensor (.out, .Tensor_out),
// dequantize_per_channel.out and dequantize_per_token.out against
// (q - zero_point) * scale computed in float32 (quant_test_util.h): every
// quantized and output dtype, out_dtype given or None, per-channel scales of
// float64 or float32 and zero points of int64, int32 or None, every axis,
// a quantize/dequantize round trip, and the arguments that must fail.
#include "quant_test_util.h"

namespace {

using namespace qt;

constexpr const char* kPerTensor = "quantized_decomposed::dequantize_per_tensor.out";
constexpr const char* kPerTensorT = "quantized_decomposed::dequantize_per_tensor.Tensor_out";
constexpr const char* kPerChannel = "quantized_decomposed::dequantize_per_channel.out";
constexpr const char* kPerToken = "quantized_decomposed::dequantize_per_token.out";

Error per_tensor(const TT& in, double scale, int64_t zp, int64_t qmin, int64_t qmax,
                 ScalarType dtype, EValue out_dtype, const TT& out) {
  return call_out(kPerTensor,
                  {in.tensor(), EValue(scale), i64(zp), i64(qmin), i64(qmax), dt(dtype), out_dtype,
                   out.tensor()},
                  out);
}

Error per_channel(const TT& in, const TT& scales, EValue zps, int64_t axis, int64_t qmin,
                  int64_t qmax, ScalarType dtype, EValue out_dtype, const TT& out) {
  return call_out(kPerChannel,
                  {in.tensor(), scales.tensor(), zps, i64(axis), i64(qmin), i64(qmax), dt(dtype),
                   out_dtype, out.tensor()},
                  out);
}

// Quantized values spread over a dtype's range, ends included.
std::vector<double> quant_values(ScalarType t, size_t n) {
  const QRange r = range_of(t);
  std::vector<double> v{double(r.lo), double(r.hi), 0.0, 1.0};
  uint32_t s = 99;
  while (v.size() < n) v.push_back(std::floor(pseudo(&s, double(r.lo), double(r.hi))));
  v.resize(n);
  return v;
}

TEST(DequantizePerTensor, MatchesTheReferenceForEveryDtype) {
  int cases = 0;
  for (ScalarType qt : quant_dtypes()) {
    const QRange r = range_of(qt);
    const std::vector<double> q = quant_values(qt, 30);
    auto in = tensor_of(qt, {5, 6}, q);
    for (ScalarType ot : float_dtypes()) {
      for (bool given : {false, true}) {
        const double scale = 0.0173;
        const int64_t zp = r.lo + 7;
        auto out = out_of(ot, {5, 6});
        ASSERT_EQ(per_tensor(*in, scale, zp, r.lo, r.hi, qt, given ? dt(ot) : EValue(), *out),
                  Error::Ok)
            << dtype_name(qt) << "->" << dtype_name(ot);
        const std::vector<double> got = logical(*out);
        for (size_t i = 0; i < q.size(); ++i) {
          EXPECT_EQ(got[i], ref_dequantize(ot, static_cast<int64_t>(q[i]), zp, scale))
              << dtype_name(qt) << "->" << dtype_name(ot) << " q=" << q[i];
        }
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 32);
}

TEST(DequantizePerTensor, TensorOverloadEmptyAndOneElement) {
  auto in = tensor_of(ScalarType::Byte, {4}, {0, 128, 255, 3});
  auto scale = tensor_of(ScalarType::Double, {1}, {0.5});
  auto zp = tensor_of(ScalarType::Long, {1}, {128});
  auto out = out_of(ScalarType::Float, {4});
  ASSERT_EQ(call_out(kPerTensorT,
                     {in->tensor(), scale->tensor(), zp->tensor(), i64(0), i64(255),
                      dt(ScalarType::Byte), EValue(), out->tensor()},
                     *out),
            Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{-64, 0, 63.5, -62.5})); // by hand
  auto bad_scale = tensor_of(ScalarType::Float, {1}, {0.5});
  EXPECT_EQ(call_out(kPerTensorT,
                     {in->tensor(), bad_scale->tensor(), zp->tensor(), i64(0), i64(255),
                      dt(ScalarType::Byte), EValue(), out->tensor()},
                     *out),
            Error::InvalidArgument);
  auto two = tensor_of(ScalarType::Long, {2}, {1, 2});
  EXPECT_EQ(call_out(kPerTensorT,
                     {in->tensor(), scale->tensor(), two->tensor(), i64(0), i64(255),
                      dt(ScalarType::Byte), EValue(), out->tensor()},
                     *out),
            Error::InvalidArgument);
  auto empty = tensor_of(ScalarType::Char, {3, 0}, {});
  auto eo = out_of(ScalarType::Float, {1, 1}, {}, 4);
  ASSERT_EQ(per_tensor(*empty, 1.0, 0, -128, 127, ScalarType::Char, EValue(), *eo), Error::Ok);
  EXPECT_EQ(eo->shape(), (std::vector<int32_t>{3, 0}));
  auto one = tensor_of(ScalarType::Int, {}, {-2147483648.0});
  auto oo = out_of(ScalarType::Double, {});
  ASSERT_EQ(
      per_tensor(*one, 1.0, 2147483647, -2147483648LL, 2147483647, ScalarType::Int, EValue(), *oo),
      Error::Ok);
  // (-2^31 - (2^31 - 1)) in float32: no int32 overflow.
  EXPECT_EQ(logical(*oo), (std::vector<double>{double(float(-4294967295.0))}));
}

TEST(DequantizePerTensor, BadArgumentsFail) {
  auto in = tensor_of(ScalarType::Char, {3}, {1, 2, 3});
  auto f = out_of(ScalarType::Float, {3});
  const ScalarType c = ScalarType::Char;
  EXPECT_EQ(per_tensor(*in, 1, 0, 0, 255, ScalarType::Byte, EValue(), *f),
            Error::InvalidArgument); // input is not dtype
  EXPECT_EQ(per_tensor(*in, 1, 0, -128, 127, c, dt(ScalarType::Double), *f),
            Error::InvalidArgument); // out_dtype is not out's
  auto i32 = out_of(ScalarType::Int, {3});
  EXPECT_EQ(per_tensor(*in, 1, 0, -128, 127, c, EValue(), *i32), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, 1, 0, 10, -10, c, EValue(), *f), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, 1, 0, -300, 127, c, EValue(), *f), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, 1, int64_t{1} << 33, -128, 127, c, EValue(), *f),
            Error::InvalidArgument);
  auto l = tensor_of(ScalarType::Long, {3}, {1, 2, 3});
  EXPECT_EQ(per_tensor(*l, 1, 0, 0, 10, ScalarType::Long, EValue(), *f), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, 1, 0, -128, 127, c, dt(ScalarType::Float), *f), Error::Ok);
}

TEST(DequantizePerChannel, EveryAxisScaleAndZeroPointDtype) {
  const std::vector<int32_t> sizes{3, 2, 4};
  int cases = 0;
  for (ScalarType qt : {ScalarType::Char, ScalarType::Byte, ScalarType::Short}) {
    const QRange r = range_of(qt);
    const std::vector<double> q = quant_values(qt, 24);
    auto in = tensor_of(qt, sizes, q);
    for (int64_t axis : {0, 1, 2, -2}) {
      const size_t a = static_cast<size_t>(axis < 0 ? axis + 3 : axis);
      std::vector<double> sc, zs;
      for (int32_t ch = 0; ch < sizes[a]; ++ch) {
        sc.push_back(0.011 * (ch + 1));
        zs.push_back(r.lo + 5 * ch);
      }
      for (ScalarType st : {ScalarType::Double, ScalarType::Float}) {
        for (int zkind = 0; zkind < 3; ++zkind) { // None, int32, int64
          auto scales = tensor_of(st, {sizes[a]}, sc);
          auto zi = tensor_of(zkind == 1 ? ScalarType::Int : ScalarType::Long, {sizes[a]}, zs);
          auto out = out_of(ScalarType::Float, sizes);
          ASSERT_EQ(per_channel(*in, *scales, zkind == 0 ? EValue() : EValue(zi->tensor()), axis,
                                r.lo, r.hi, qt, EValue(), *out),
                    Error::Ok);
          const std::vector<double> got = logical(*out);
          for (size_t i = 0; i < q.size(); ++i) {
            const int64_t ch = coord(sizes, i, a);
            const int64_t zp = zkind == 0 ? 0 : static_cast<int64_t>(zs[ch]);
            const double s = st == ScalarType::Float ? double(float(sc[ch])) : sc[ch];
            EXPECT_EQ(got[i], ref_dequantize(ScalarType::Float, static_cast<int64_t>(q[i]), zp, s))
                << "axis " << axis << " i " << i;
          }
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 72);
}

TEST(DequantizePerChannel, BadArgumentsFail) {
  auto in = tensor_of(ScalarType::Char, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto s3 = tensor_of(ScalarType::Double, {3}, {1, 1, 1});
  auto z3 = tensor_of(ScalarType::Long, {3}, {0, 0, 0});
  auto out = out_of(ScalarType::Float, {2, 3});
  const ScalarType c = ScalarType::Char;
  EXPECT_EQ(per_channel(*in, *s3, z3->tensor(), 1, -128, 127, c, EValue(), *out), Error::Ok);
  EXPECT_EQ(per_channel(*in, *s3, z3->tensor(), 0, -128, 127, c, EValue(), *out),
            Error::InvalidArgument);
  EXPECT_EQ(per_channel(*in, *s3, z3->tensor(), 5, -128, 127, c, EValue(), *out),
            Error::InvalidArgument);
  EXPECT_EQ(per_channel(*in, *tensor_of(ScalarType::Half, {3}, {1, 1, 1}), EValue(), 1, -128, 127,
                        c, EValue(), *out),
            Error::InvalidArgument);
  EXPECT_EQ(per_channel(*in, *s3, tensor_of(ScalarType::Float, {3}, {0, 0, 0})->tensor(), 1, -128,
                        127, c, EValue(), *out),
            Error::InvalidArgument);
  EXPECT_EQ(per_channel(*in, *s3, tensor_of(ScalarType::Long, {2}, {0, 0})->tensor(), 1, -128, 127,
                        c, EValue(), *out),
            Error::InvalidArgument);
  EXPECT_EQ(per_channel(*in, *s3, EValue(), 1, -128, 127, c, dt(ScalarType::Half), *out),
            Error::InvalidArgument);
  EXPECT_EQ(per_channel(*in, *s3, EValue(), 1, 0, 255, ScalarType::Byte, EValue(), *out),
            Error::InvalidArgument);
}

TEST(DequantizePerToken, MatchesTheReference) {
  const std::vector<int32_t> sizes{2, 2, 3};
  const std::vector<double> q = quant_values(ScalarType::Char, 12);
  auto in = tensor_of(ScalarType::Char, sizes, q);
  const std::vector<double> sc{0.1, 0.2, 0.3, 0.4}, zs{-1, 0, 1, 2};
  auto scales = tensor_of(ScalarType::Float, {2, 2, 1}, sc);
  auto zps = tensor_of(ScalarType::Long, {2, 2, 1}, zs);
  for (ScalarType ot : float_dtypes()) {
    auto out = out_of(ot, sizes);
    ASSERT_EQ(call_out(kPerToken,
                       {in->tensor(), scales->tensor(), zps->tensor(), i64(-128), i64(127),
                        dt(ScalarType::Char), dt(ot), out->tensor()},
                       *out),
              Error::Ok);
    const std::vector<double> got = logical(*out);
    for (size_t i = 0; i < q.size(); ++i) {
      EXPECT_EQ(got[i], ref_dequantize(ot, static_cast<int64_t>(q[i]),
                                       static_cast<int64_t>(zs[i / 3]), float(sc[i / 3])))
          << i;
    }
    // output_dtype must name out's dtype.
    const ScalarType other = ot == ScalarType::Float ? ScalarType::Double : ScalarType::Float;
    EXPECT_EQ(call_out(kPerToken,
                       {in->tensor(), scales->tensor(), zps->tensor(), i64(-128), i64(127),
                        dt(ScalarType::Char), dt(other), out->tensor()},
                       *out),
              Error::InvalidArgument);
  }
  auto z3 = tensor_of(ScalarType::Long, {3}, {0, 0, 0});
  auto s3 = tensor_of(ScalarType::Float, {3}, {1, 1, 1});
  auto out = out_of(ScalarType::Float, sizes);
  EXPECT_EQ(call_out(kPerToken,
                     {in->tensor(), s3->tensor(), z3->tensor(), i64(-128), i64(127),
                      dt(ScalarType::Char), dt(ScalarType::Float), out->tensor()},
                     *out),
            Error::InvalidArgument);
}

TEST(QuantizeDequantize, RoundTripWithinHalfAStep) {
  const double scale = 0.05;
  const int64_t zp = 3;
  std::vector<double> x;
  uint32_t s = 1;
  for (int i = 0; i < 64; ++i) x.push_back(pseudo(&s, -6.0, 6.0)); // inside int8's range
  auto in = tensor_of(ScalarType::Float, {64}, x);
  auto q = out_of(ScalarType::Char, {64});
  ASSERT_EQ(call_out("quantized_decomposed::quantize_per_tensor.out",
                     {in->tensor(), EValue(scale), i64(zp), i64(-128), i64(127),
                      dt(ScalarType::Char), q->tensor()},
                     *q),
            Error::Ok);
  auto back = out_of(ScalarType::Float, {64});
  ASSERT_EQ(per_tensor(*q, scale, zp, -128, 127, ScalarType::Char, EValue(), *back), Error::Ok);
  const std::vector<double> got = logical(*back);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_LE(std::fabs(got[i] - float(x[i])), scale / 2 + 1e-6) << i;
  }
}

} // namespace
