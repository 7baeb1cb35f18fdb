// quantized_decomposed::embedding_byte / embedding_4bit / embedding_2bit
// (.out and .dtype_out) against a reference that packs the weights itself
// (upstream's order: 4-bit element 2k in the high nibble, 2-bit element 4k+i
// in bits 2i..2i+1, stored offset by 8 and 2) and dequantizes
// (w - zp) * scale in float32 per row or per group; hand-decoded bytes; and
// the arguments that must fail.
#include "quant_test_util.h"

namespace {

using namespace qt;

struct Case {
  int nbit;              // 8, 4 or 2
  ScalarType wt;         // weight dtype (uint8 or int8 for 8)
  int rows, dim, groups; // groups 0: 1-D scales
  bool zero_points;
  ScalarType pt; // scales / zero points dtype
  ScalarType ot; // out dtype
  std::vector<int32_t> idx_shape;
  ScalarType it; // indices dtype
};

const char* op_name(int nbit, bool dtype_overload) {
  if (nbit == 8) {
    return dtype_overload ? "quantized_decomposed::embedding_byte.dtype_out"
                          : "quantized_decomposed::embedding_byte.out";
  }
  if (nbit == 4) {
    return dtype_overload ? "quantized_decomposed::embedding_4bit.dtype_out"
                          : "quantized_decomposed::embedding_4bit.out";
  }
  return dtype_overload ? "quantized_decomposed::embedding_2bit.dtype_out"
                        : "quantized_decomposed::embedding_2bit.out";
}

// Packs unpacked values (row-major, rows x dim) as upstream stores them.
std::vector<double> pack(int nbit, int rows, int dim, const std::vector<int>& v) {
  if (nbit == 8) return std::vector<double>(v.begin(), v.end());
  const int per = 8 / nbit, off = nbit == 4 ? 8 : 2;
  std::vector<double> out;
  for (int r = 0; r < rows; ++r) {
    for (int b = 0; b < dim / per; ++b) {
      int byte = 0;
      for (int k = 0; k < per; ++k) {
        const int u = v[r * dim + b * per + k] + off;
        byte |= nbit == 4 ? (k == 0 ? u << 4 : u) : u << (2 * k);
      }
      out.push_back(byte);
    }
  }
  return out;
}

Error run(const Case& c, bool dtype_overload, EValue dtype, std::vector<double>* got,
          std::vector<double>* want) {
  uint32_t s = static_cast<uint32_t>(c.nbit * 131 + c.rows + c.dim);
  const int lo = c.nbit == 8 ? (c.wt == ScalarType::Byte ? 0 : -128) : -(1 << (c.nbit - 1));
  const int hi = c.nbit == 8 ? (c.wt == ScalarType::Byte ? 255 : 127) : (1 << (c.nbit - 1)) - 1;
  std::vector<int> w;
  for (int i = 0; i < c.rows * c.dim; ++i) {
    w.push_back(static_cast<int>(std::floor(pseudo(&s, lo, hi + 1))));
  }
  w[0] = lo;
  w[1] = hi;
  const int ng = c.groups == 0 ? 1 : c.groups;
  std::vector<double> sc, zp;
  for (int i = 0; i < c.rows * ng; ++i) {
    sc.push_back(as_dtype(c.pt, pseudo(&s, 0.01, 0.2)));
    zp.push_back(as_dtype(c.pt, std::floor(pseudo(&s, lo, hi))));
  }
  const std::vector<int32_t> ps =
      c.groups == 0 ? std::vector<int32_t>{c.rows} : std::vector<int32_t>{c.rows, c.groups};
  auto weight = tensor_of(c.wt, {c.rows, c.dim * c.nbit / 8}, pack(c.nbit, c.rows, c.dim, w));
  auto scales = tensor_of(c.pt, ps, sc);
  auto zps = tensor_of(c.pt, ps, zp);
  size_t n = 1;
  for (int32_t d : c.idx_shape) n *= static_cast<size_t>(d);
  std::vector<double> idx;
  for (size_t i = 0; i < n; ++i) idx.push_back(static_cast<double>((i * 7 + 3) % c.rows));
  auto indices = tensor_of(c.it, c.idx_shape, idx);
  std::vector<int32_t> os = c.idx_shape;
  os.push_back(c.dim);
  auto out = out_of(c.ot, os);
  std::vector<EValue> a{
      weight->tensor(), scales->tensor(), c.zero_points ? EValue(zps->tensor()) : EValue(),
      i64(lo),          i64(hi),          indices->tensor()};
  if (dtype_overload) a.push_back(dtype);
  a.push_back(out->tensor());
  const Error e = call_out(op_name(c.nbit, dtype_overload), a, *out);
  *got = logical(*out);
  want->clear();
  const int gs = c.dim / ng;
  for (size_t i = 0; i < n; ++i) {
    const int r = static_cast<int>(idx[i]);
    for (int j = 0; j < c.dim; ++j) {
      const int g = r * ng + j / gs;
      const float z = c.zero_points ? static_cast<float>(zp[g]) : 0.0f;
      const float v = (static_cast<float>(w[r * c.dim + j]) - z) * static_cast<float>(sc[g]);
      want->push_back(as_dtype(c.ot, v));
    }
  }
  return e;
}

TEST(QuantizedEmbedding, MatchesTheReference) {
  int cases = 0;
  for (int nbit : {8, 4, 2}) {
    for (ScalarType wt : {ScalarType::Byte, ScalarType::Char}) {
      if (nbit != 8 && wt == ScalarType::Char) continue;
      for (int groups : {0, 1, 4}) {
        for (bool zps : {false, true}) {
          for (ScalarType pt : {ScalarType::Float, ScalarType::Half, ScalarType::BFloat16}) {
            for (ScalarType it : {ScalarType::Long, ScalarType::Int}) {
              const Case c{nbit, wt, 5, 16, groups, zps, pt, pt, {2, 3}, it};
              std::vector<double> got, want;
              ASSERT_EQ(run(c, false, EValue(), &got, &want), Error::Ok)
                  << nbit << " groups " << groups;
              EXPECT_EQ(got, want) << nbit << " groups " << groups << " " << dtype_name(pt);
              ++cases;
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 144);
}

TEST(QuantizedEmbedding, DtypeOverloadChoosesTheOutDtype) {
  int cases = 0;
  for (int nbit : {8, 4, 2}) {
    for (ScalarType pt : {ScalarType::Float, ScalarType::Half, ScalarType::BFloat16}) {
      for (ScalarType ot : {ScalarType::Float, ScalarType::Half, ScalarType::BFloat16}) {
        const Case c{nbit, ScalarType::Byte, 4, 8, 2, true, pt, ot, {3}, ScalarType::Long};
        std::vector<double> got, want;
        ASSERT_EQ(run(c, true, dt(ot), &got, &want), Error::Ok);
        EXPECT_EQ(got, want);
        ASSERT_EQ(run(c, true, EValue(), &got, &want), Error::Ok); // None: out's dtype
        EXPECT_EQ(got, want);
        const ScalarType other = ot == ScalarType::Float ? ScalarType::Half : ScalarType::Float;
        EXPECT_EQ(run(c, true, dt(other), &got, &want), Error::InvalidArgument);
        cases += 3;
      }
    }
  }
  EXPECT_EQ(cases, 81);
}

TEST(QuantizedEmbedding, UpstreamsPackingOrderByHand) {
  // 4-bit: 0x1F = high nibble 1, low 15 -> elements -7, 7; 0x80 -> 0, -8.
  auto w4 = tensor_of(ScalarType::Byte, {1, 2}, {0x1F, 0x80});
  auto s = tensor_of(ScalarType::Float, {1}, {1.0});
  auto idx = tensor_of(ScalarType::Long, {1}, {0});
  auto o4 = out_of(ScalarType::Float, {1, 4});
  ASSERT_EQ(
      call_out("quantized_decomposed::embedding_4bit.out",
               {w4->tensor(), s->tensor(), EValue(), i64(-8), i64(7), idx->tensor(), o4->tensor()},
               *o4),
      Error::Ok);
  EXPECT_EQ(logical(*o4), (std::vector<double>{-7, 7, 0, -8}));
  // 2-bit: 0xE4 = 0b11'10'01'00 -> elements (bits 0-1 first) -2, -1, 0, 1.
  auto w2 = tensor_of(ScalarType::Byte, {1, 1}, {0xE4});
  auto o2 = out_of(ScalarType::Float, {1, 4});
  ASSERT_EQ(
      call_out("quantized_decomposed::embedding_2bit.out",
               {w2->tensor(), s->tensor(), EValue(), i64(-2), i64(1), idx->tensor(), o2->tensor()},
               *o2),
      Error::Ok);
  EXPECT_EQ(logical(*o2), (std::vector<double>{-2, -1, 0, 1}));
}

TEST(QuantizedEmbedding, EmptyIndicesAndScalarIndex) {
  auto w = tensor_of(ScalarType::Char, {2, 3}, {1, 2, 3, -4, -5, -6});
  auto s = tensor_of(ScalarType::Float, {2}, {0.5, 2.0});
  auto empty = tensor_of(ScalarType::Long, {0}, {});
  auto o = out_of(ScalarType::Float, {1, 3}, {}, 6);
  ASSERT_EQ(call_out("quantized_decomposed::embedding_byte.out",
                     {w->tensor(), s->tensor(), EValue(), i64(-128), i64(127), empty->tensor(),
                      o->tensor()},
                     *o),
            Error::Ok);
  EXPECT_EQ(o->shape(), (std::vector<int32_t>{0, 3}));
  auto one = tensor_of(ScalarType::Long, {}, {1});
  auto o1 = out_of(ScalarType::Float, {3});
  ASSERT_EQ(call_out("quantized_decomposed::embedding_byte.out",
                     {w->tensor(), s->tensor(), EValue(), i64(-128), i64(127), one->tensor(),
                      o1->tensor()},
                     *o1),
            Error::Ok);
  EXPECT_EQ(logical(*o1), (std::vector<double>{-8, -10, -12}));
}

// Calls `op` with the given arguments (7 of the .out form) and expects a
// clean failure.
void expect_fail(const char* op, const TT& w, const TT& s, EValue zp, int64_t qmin, int64_t qmax,
                 const TT& idx, const TT& out) {
  EXPECT_EQ(
      call_out(op, {w.tensor(), s.tensor(), zp, i64(qmin), i64(qmax), idx.tensor(), out.tensor()},
               out),
      Error::InvalidArgument)
      << op;
}

TEST(QuantizedEmbedding, BadArgumentsFail) {
  const char* b = "quantized_decomposed::embedding_byte.out";
  const char* q4 = "quantized_decomposed::embedding_4bit.out";
  auto wp = tensor_of(ScalarType::Byte, {3, 4}, std::vector<double>(12, 1));
  auto sp = tensor_of(ScalarType::Float, {3}, {1, 1, 1});
  const TT& w = *wp;
  const TT& s = *sp;
  auto idx = tensor_of(ScalarType::Long, {2}, {0, 2});
  auto out = out_of(ScalarType::Float, {2, 4});
  auto out8 = out_of(ScalarType::Float, {2, 8});
  // The good call, then one argument wrong at a time.
  EXPECT_EQ(
      call_out(b,
               {w.tensor(), s.tensor(), EValue(), i64(0), i64(255), idx->tensor(), out->tensor()},
               *out),
      Error::Ok);
  expect_fail(b, w, s, EValue(), 0, 255, *tensor_of(ScalarType::Long, {1}, {3}), *out);
  expect_fail(b, w, s, EValue(), 0, 255, *tensor_of(ScalarType::Long, {1}, {-1}), *out);
  expect_fail(b, w, s, EValue(), 0, 255, *tensor_of(ScalarType::Float, {1}, {0}), *out);
  expect_fail(b, w, s, EValue(), 5, 4, *idx, *out);
  expect_fail(b, *tensor_of(ScalarType::Byte, {12}, std::vector<double>(12, 1)), s, EValue(), 0,
              255, *idx, *out);
  expect_fail(b, *tensor_of(ScalarType::Short, {3, 4}, std::vector<double>(12, 1)), s, EValue(), 0,
              255, *idx, *out);
  expect_fail(q4, *tensor_of(ScalarType::Char, {3, 4}, std::vector<double>(12, 1)), s, EValue(), -8,
              7, *idx, *out8);
  expect_fail(b, w, *tensor_of(ScalarType::Float, {2}, {1, 1}), EValue(), 0, 255, *idx, *out);
  expect_fail(b, w, *tensor_of(ScalarType::Float, {3, 3}, std::vector<double>(9, 1)), EValue(), 0,
              255, *idx, *out); // 3 groups do not divide 4
  expect_fail(b, w, *tensor_of(ScalarType::Float, {3, 0}, {}), EValue(), 0, 255, *idx, *out);
  expect_fail(b, w, *tensor_of(ScalarType::Double, {3}, {1, 1, 1}), EValue(), 0, 255, *idx, *out);
  expect_fail(b, w, *tensor_of(ScalarType::Half, {3}, {1, 1, 1}), EValue(), 0, 255, *idx,
              *out); // .out: scales must have out's dtype
  auto zp2 = tensor_of(ScalarType::Float, {3, 1}, {0, 0, 0});
  expect_fail(b, w, s, EValue(zp2->tensor()), 0, 255, *idx, *out); // zp shape
  auto zpl = tensor_of(ScalarType::Long, {3}, {0, 0, 0});
  expect_fail(b, w, s, EValue(zpl->tensor()), 0, 255, *idx, *out); // zp dtype
  expect_fail(b, w, s, EValue(), 0, 255, *idx, *out_of(ScalarType::Double, {2, 4}));
  expect_fail(b, w, s, EValue(), 0, 255, *idx, *out_of(ScalarType::Float, {2}));
  std::vector<EValue> few{w.tensor(), s.tensor(), EValue(), i64(0), i64(255), idx->tensor()};
  EXPECT_EQ(call(b, few), Error::InvalidArgument);
}

} // namespace
