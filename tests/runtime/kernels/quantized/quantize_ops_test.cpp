// quantized_decomposed::quantize_per_tensor (.out, .Tensor_out),
// quantize_per_channel.out and quantize_per_token.out, called as upstream's
// emitter lays them out (inputs, out, the returned out), against the
// reference in quant_test_util.h: every input and quantized dtype, ties
// rounded half to even, clamping at the range ends, non-finite inputs, every
// axis, empty and one-element inputs, and the arguments that must fail.
#include "quant_test_util.h"

namespace {

using namespace qt;

constexpr const char* kPerTensor = "quantized_decomposed::quantize_per_tensor.out";
constexpr const char* kPerTensorT = "quantized_decomposed::quantize_per_tensor.Tensor_out";
constexpr const char* kPerChannel = "quantized_decomposed::quantize_per_channel.out";
constexpr const char* kPerToken = "quantized_decomposed::quantize_per_token.out";

Error per_tensor(const TT& in, double scale, int64_t zp, int64_t qmin, int64_t qmax,
                 ScalarType dtype, const TT& out) {
  return call_out(
      kPerTensor,
      {in.tensor(), EValue(scale), i64(zp), i64(qmin), i64(qmax), dt(dtype), out.tensor()}, out);
}

Error per_tensor_t(const TT& in, const TT& scale, const TT& zp, int64_t qmin, int64_t qmax,
                   ScalarType dtype, const TT& out) {
  return call_out(
      kPerTensorT,
      {in.tensor(), scale.tensor(), zp.tensor(), i64(qmin), i64(qmax), dt(dtype), out.tensor()},
      out);
}

Error per_channel(const TT& in, const TT& scales, const TT& zps, int64_t axis, int64_t qmin,
                  int64_t qmax, ScalarType dtype, const TT& out) {
  return call_out(kPerChannel,
                  {in.tensor(), scales.tensor(), zps.tensor(), i64(axis), i64(qmin), i64(qmax),
                   dt(dtype), out.tensor()},
                  out);
}

Error per_token(const TT& in, const TT& scales, const TT& zps, int64_t qmin, int64_t qmax,
                ScalarType dtype, const TT& out) {
  return call_out(
      kPerToken,
      {in.tensor(), scales.tensor(), zps.tensor(), i64(qmin), i64(qmax), dt(dtype), out.tensor()},
      out);
}

// Values around and beyond the range of every scale used below, with ties.
std::vector<double> sample_values(uint32_t seed, size_t n) {
  std::vector<double> v{0.0, 0.25, -0.25, 0.75, -0.75, 1.25, 2.5, -2.5, 1e6, -1e6};
  uint32_t s = seed;
  while (v.size() < n) v.push_back(pseudo(&s, -300.0, 300.0));
  v.resize(n);
  return v;
}

TEST(QuantizePerTensor, MatchesTheReferenceForEveryDtype) {
  const std::vector<double> raw = sample_values(7, 40);
  int cases = 0;
  for (ScalarType it : float_dtypes()) {
    std::vector<double> x;
    for (double v : raw) x.push_back(as_dtype(it, v));
    auto in = tensor_of(it, {5, 8}, x);
    for (ScalarType qt : quant_dtypes()) {
      const QRange r = range_of(qt);
      const int64_t narrow_hi = r.lo + 100;
      for (const auto& p : {std::make_tuple(0.5, int64_t{0}, r.lo, r.hi),
                            std::make_tuple(0.1, r.lo + 3, r.lo, r.hi),
                            std::make_tuple(3.0, r.lo + 50, r.lo + 1, narrow_hi)}) {
        const double scale = std::get<0>(p);
        const int64_t zp = std::get<1>(p), qmin = std::get<2>(p), qmax = std::get<3>(p);
        auto out = out_of(qt, {5, 8});
        ASSERT_EQ(per_tensor(*in, scale, zp, qmin, qmax, qt, *out), Error::Ok)
            << dtype_name(it) << "->" << dtype_name(qt);
        const std::vector<double> got = logical(*out);
        for (size_t i = 0; i < x.size(); ++i) {
          EXPECT_EQ(got[i], ref_quantize(it, x[i], scale, zp, qmin, qmax))
              << dtype_name(it) << "->" << dtype_name(qt) << " x=" << x[i] << " scale=" << scale;
        }
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 48);
}

TEST(QuantizePerTensor, TiesRoundHalfToEven) {
  // Worked by hand: x / 1 with ties going to the even neighbour.
  auto in = tensor_of(ScalarType::Float, {8}, {0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 2.4999});
  auto out = out_of(ScalarType::Char, {8});
  ASSERT_EQ(per_tensor(*in, 1.0, 0, -128, 127, ScalarType::Char, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{0, 2, 2, 4, 0, -2, -2, 2}));
  // With a zero point and scale 0.5: 0.25 / 0.5 = 0.5 -> 0, + 10.
  auto in2 = tensor_of(ScalarType::Double, {3}, {0.25, 0.75, -0.75});
  auto out2 = out_of(ScalarType::Byte, {3});
  ASSERT_EQ(per_tensor(*in2, 0.5, 10, 0, 255, ScalarType::Byte, *out2), Error::Ok);
  EXPECT_EQ(logical(*out2), (std::vector<double>{10, 12, 8}));
}

TEST(QuantizePerTensor, ClampsAtTheRangeEndsAndNonFinite) {
  const double inf = std::numeric_limits<double>::infinity();
  auto in = tensor_of(ScalarType::Float, {6}, {1e30, -1e30, inf, -inf, NAN, 0.0});
  for (ScalarType qt : quant_dtypes()) {
    const QRange r = range_of(qt);
    auto out = out_of(qt, {6});
    ASSERT_EQ(per_tensor(*in, 0.01, 0, r.lo, r.hi, qt, *out), Error::Ok);
    EXPECT_EQ(logical(*out), (std::vector<double>{double(r.hi), double(r.lo), double(r.hi),
                                                  double(r.lo), double(r.lo), 0.0}))
        << dtype_name(qt);
  }
  // A narrowed range: [-5, 5] in int8.
  auto in2 = tensor_of(ScalarType::Float, {4}, {100, -100, 4.4, -5.6});
  auto out2 = out_of(ScalarType::Char, {4});
  ASSERT_EQ(per_tensor(*in2, 1.0, 0, -5, 5, ScalarType::Char, *out2), Error::Ok);
  EXPECT_EQ(logical(*out2), (std::vector<double>{5, -5, 4, -5}));
}

TEST(QuantizePerTensor, EmptyOneElementAndResize) {
  auto empty = tensor_of(ScalarType::Float, {0, 3}, {});
  auto out = out_of(ScalarType::Char, {2, 3}, {}, 6);
  ASSERT_EQ(per_tensor(*empty, 1.0, 0, -128, 127, ScalarType::Char, *out), Error::Ok);
  EXPECT_EQ(out->shape(), (std::vector<int32_t>{0, 3}));
  auto one = tensor_of(ScalarType::Float, {}, {3.7});
  auto o1 = out_of(ScalarType::Char, {});
  ASSERT_EQ(per_tensor(*one, 0.5, 1, -128, 127, ScalarType::Char, *o1), Error::Ok);
  // 3.7 / 0.5 = 7.4 -> 7, + 1.
  EXPECT_EQ(logical(*o1), (std::vector<double>{8}));
  // Resized from a smaller shape within capacity.
  auto x = tensor_of(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto o2 = out_of(ScalarType::Byte, {1, 1}, {}, 8);
  ASSERT_EQ(per_tensor(*x, 1.0, 0, 0, 255, ScalarType::Byte, *o2), Error::Ok);
  EXPECT_EQ(o2->shape(), (std::vector<int32_t>{2, 2}));
  EXPECT_EQ(logical(*o2), (std::vector<double>{1, 2, 3, 4}));
}

TEST(QuantizePerTensor, TensorOverloadMatchesTheScalarOne) {
  const std::vector<double> x = sample_values(11, 24);
  auto in = tensor_of(ScalarType::Float, {4, 6}, x);
  auto scale = tensor_of(ScalarType::Double, {1}, {0.37});
  auto zp = tensor_of(ScalarType::Long, {1}, {-7});
  auto out = out_of(ScalarType::Char, {4, 6});
  ASSERT_EQ(per_tensor_t(*in, *scale, *zp, -128, 127, ScalarType::Char, *out), Error::Ok);
  const std::vector<double> got = logical(*out);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(got[i], ref_quantize(ScalarType::Float, float(x[i]), 0.37, -7, -128, 127)) << i;
  }
}

TEST(QuantizePerTensor, BadArgumentsFail) {
  auto in = tensor_of(ScalarType::Float, {4}, {1, 2, 3, 4});
  auto i8 = out_of(ScalarType::Char, {4});
  const ScalarType c = ScalarType::Char;
  EXPECT_EQ(per_tensor(*tensor_of(ScalarType::Int, {4}, {1, 2, 3, 4}), 1, 0, -128, 127, c, *i8),
            Error::InvalidArgument); // integer input
  EXPECT_EQ(per_tensor(*in, 1, 0, 0, 255, ScalarType::Byte, *i8),
            Error::InvalidArgument); // out dtype is not dtype
  auto l = out_of(ScalarType::Long, {4});
  EXPECT_EQ(per_tensor(*in, 1, 0, 0, 10, ScalarType::Long, *l), Error::InvalidArgument);
  auto f = out_of(ScalarType::Float, {4});
  EXPECT_EQ(per_tensor(*in, 1, 0, 0, 10, ScalarType::Float, *f), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, 1, 0, -129, 127, c, *i8), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, 1, 0, -128, 128, c, *i8), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, 1, 0, 5, 4, c, *i8), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, 0.0, 0, -128, 127, c, *i8), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, NAN, 0, -128, 127, c, *i8), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, INFINITY, 0, -128, 127, c, *i8), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, 1e-300, 0, -128, 127, c, *i8), Error::InvalidArgument);
  EXPECT_EQ(per_tensor(*in, 1, int64_t{1} << 40, -128, 127, c, *i8), Error::InvalidArgument);
  auto small = std::make_unique<TT>(c, std::vector<int32_t>{2}, 0, TensorShapeDynamism::STATIC);
  EXPECT_EQ(per_tensor(*in, 1, 0, -128, 127, c, *small), Error::InvalidArgument); // no room
  auto cl = tensor_of(ScalarType::Float, {1, 2, 1, 2}, {1, 2, 3, 4}, {0, 2, 3, 1});
  auto o4 = out_of(c, {1, 2, 1, 2});
  EXPECT_EQ(per_tensor(*cl, 1, 0, -128, 127, c, *o4), Error::InvalidArgument); // not contiguous
  std::vector<EValue> few{in->tensor(), EValue(1.0), i64(0), i64(-128), i64(127), i8->tensor()};
  EXPECT_EQ(call(kPerTensor, few), Error::InvalidArgument);
  // .Tensor_out: float64 scale and int64 zero point of one element each.
  auto s1 = tensor_of(ScalarType::Double, {1}, {1.0});
  auto z1 = tensor_of(ScalarType::Long, {1}, {0});
  EXPECT_EQ(per_tensor_t(*in, *tensor_of(ScalarType::Float, {1}, {1.0}), *z1, -128, 127, c, *i8),
            Error::InvalidArgument);
  EXPECT_EQ(per_tensor_t(*in, *s1, *tensor_of(ScalarType::Int, {1}, {0}), -128, 127, c, *i8),
            Error::InvalidArgument);
  EXPECT_EQ(per_tensor_t(*in, *tensor_of(ScalarType::Double, {2}, {1, 1}), *z1, -128, 127, c, *i8),
            Error::InvalidArgument);
  EXPECT_EQ(per_tensor_t(*in, *s1, *tensor_of(ScalarType::Long, {0}, {}), -128, 127, c, *i8),
            Error::InvalidArgument);
  EXPECT_EQ(per_tensor_t(*in, *s1, *z1, -128, 127, c, *i8), Error::Ok);
}

TEST(QuantizePerChannel, EveryAxisMatchesTheReference) {
  const std::vector<int32_t> sizes{2, 3, 4};
  const std::vector<double> x = sample_values(3, 24);
  int cases = 0;
  for (ScalarType it : {ScalarType::Float, ScalarType::Double, ScalarType::Half}) {
    std::vector<double> xs;
    for (double v : x) xs.push_back(as_dtype(it, v));
    auto in = tensor_of(it, sizes, xs);
    for (int64_t axis : {0, 1, 2, -1, -3}) {
      const size_t a = static_cast<size_t>(axis < 0 ? axis + 3 : axis);
      std::vector<double> sc, zs;
      for (int32_t c = 0; c < sizes[a]; ++c) {
        sc.push_back(0.05 + 0.3 * c);
        zs.push_back(c * 3 - 4);
      }
      auto scales = tensor_of(ScalarType::Double, {sizes[a]}, sc);
      auto zps = tensor_of(ScalarType::Long, {sizes[a]}, zs);
      for (ScalarType qt : quant_dtypes()) {
        const QRange r = range_of(qt);
        auto out = out_of(qt, sizes);
        ASSERT_EQ(per_channel(*in, *scales, *zps, axis, r.lo, r.hi, qt, *out), Error::Ok);
        const std::vector<double> got = logical(*out);
        for (size_t i = 0; i < xs.size(); ++i) {
          const int64_t ch = coord(sizes, i, a);
          EXPECT_EQ(got[i],
                    ref_quantize(it, xs[i], sc[ch], static_cast<int64_t>(zs[ch]), r.lo, r.hi))
              << "axis " << axis << " i " << i << " " << dtype_name(qt);
        }
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 60);
}

TEST(QuantizePerChannel, BadArgumentsFail) {
  auto in = tensor_of(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto s3 = tensor_of(ScalarType::Double, {3}, {1, 1, 1});
  auto z3 = tensor_of(ScalarType::Long, {3}, {0, 0, 0});
  auto out = out_of(ScalarType::Char, {2, 3});
  const ScalarType c = ScalarType::Char;
  EXPECT_EQ(per_channel(*in, *s3, *z3, 1, -128, 127, c, *out), Error::Ok);
  EXPECT_EQ(per_channel(*in, *s3, *z3, 0, -128, 127, c, *out), Error::InvalidArgument); // 2 != 3
  EXPECT_EQ(per_channel(*in, *s3, *z3, 2, -128, 127, c, *out), Error::InvalidArgument);
  EXPECT_EQ(per_channel(*in, *s3, *z3, -3, -128, 127, c, *out), Error::InvalidArgument);
  EXPECT_EQ(
      per_channel(*in, *tensor_of(ScalarType::Float, {3}, {1, 1, 1}), *z3, 1, -128, 127, c, *out),
      Error::InvalidArgument);
  EXPECT_EQ(
      per_channel(*in, *s3, *tensor_of(ScalarType::Int, {3}, {0, 0, 0}), 1, -128, 127, c, *out),
      Error::InvalidArgument);
  EXPECT_EQ(per_channel(*in, *s3, *tensor_of(ScalarType::Long, {2}, {0, 0}), 1, -128, 127, c, *out),
            Error::InvalidArgument);
  EXPECT_EQ(
      per_channel(*in, *tensor_of(ScalarType::Double, {3}, {1, 0, 1}), *z3, 1, -128, 127, c, *out),
      Error::InvalidArgument); // a zero scale
  EXPECT_EQ(
      per_channel(*in, *s3, *tensor_of(ScalarType::Long, {3}, {0, 1e10, 0}), 1, -128, 127, c, *out),
      Error::InvalidArgument); // a zero point beyond int32
  EXPECT_EQ(per_channel(*in, *s3, *z3, 1, 0, 255, ScalarType::Byte, *out),
            Error::InvalidArgument); // out dtype
  auto scalar = tensor_of(ScalarType::Float, {}, {1});
  auto so = out_of(c, {});
  auto s1 = tensor_of(ScalarType::Double, {1}, {1});
  auto z1 = tensor_of(ScalarType::Long, {1}, {0});
  EXPECT_EQ(per_channel(*scalar, *s1, *z1, 0, -128, 127, c, *so), Error::InvalidArgument);
}

TEST(QuantizePerToken, MatchesTheReferenceAndChecksTheTokenCount) {
  const std::vector<int32_t> sizes{2, 3, 5};
  const std::vector<double> x = sample_values(5, 30);
  auto in = tensor_of(ScalarType::Float, sizes, x);
  std::vector<double> sc, zs;
  for (int t = 0; t < 6; ++t) {
    sc.push_back(0.02 + 0.5 * t);
    zs.push_back(t - 3);
  }
  auto scales = tensor_of(ScalarType::Double, {2, 3, 1}, sc);
  auto zps = tensor_of(ScalarType::Long, {2, 3, 1}, zs);
  auto out = out_of(ScalarType::Char, sizes);
  ASSERT_EQ(per_token(*in, *scales, *zps, -128, 127, ScalarType::Char, *out), Error::Ok);
  const std::vector<double> got = logical(*out);
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t t = i / 5;
    EXPECT_EQ(got[i], ref_quantize(ScalarType::Float, float(x[i]), sc[t],
                                   static_cast<int64_t>(zs[t]), -128, 127))
        << i;
  }
  // A 1-D input is one token.
  auto v = tensor_of(ScalarType::Float, {3}, {1, -1, 2.5});
  auto o = out_of(ScalarType::Byte, {3});
  ASSERT_EQ(per_token(*v, *tensor_of(ScalarType::Double, {1}, {0.5}),
                      *tensor_of(ScalarType::Long, {1}, {100}), 0, 255, ScalarType::Byte, *o),
            Error::Ok);
  EXPECT_EQ(logical(*o), (std::vector<double>{102, 98, 105}));
  auto s5 = tensor_of(ScalarType::Double, {5}, {1, 1, 1, 1, 1});
  auto z5 = tensor_of(ScalarType::Long, {5}, {0, 0, 0, 0, 0});
  EXPECT_EQ(per_token(*in, *s5, *z5, -128, 127, ScalarType::Char, *out), Error::InvalidArgument);
  auto scalar = tensor_of(ScalarType::Float, {}, {1});
  auto so = out_of(ScalarType::Char, {});
  EXPECT_EQ(per_token(*scalar, *tensor_of(ScalarType::Double, {1}, {1}),
                      *tensor_of(ScalarType::Long, {1}, {0}), -128, 127, ScalarType::Char, *so),
            Error::InvalidArgument);
}

} // namespace
