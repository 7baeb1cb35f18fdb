// The llama:: custom operators (runtime/kernels/llm/) against reference
// computations written here from the operators' definitions (upstream's
// extension/llm/custom_ops and its Python tests): a naive attention in
// double, softmax(q k^T * scale + mask) v with causal masking relative to
// start_pos and grouped-query heads, and cache writes by hand.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "../dtype_test_util.h"

namespace {

using namespace kt;

constexpr const char* kUpdate = "llama::update_cache.out";
constexpr const char* kUpdateIdx = "llama::update_cache_with_indices.out";
constexpr const char* kSdpa = "llama::custom_sdpa.out";
constexpr const char* kSdpaKv = "llama::sdpa_with_kv_cache.out";
constexpr const char* kQSdpa = "llama::custom_quantized_sdpa.out";

EValue none() { return EValue(); }
EValue i64(int64_t v) { return EValue(v); }

// A deterministic pseudo-random value in [lo, hi).
double pseudo(uint32_t* state, double lo, double hi) {
  *state = *state * 1664525u + 1013904223u;
  return lo + (hi - lo) * ((*state >> 8) / double(1u << 24));
}

std::vector<double> randoms(uint32_t* st, size_t n, double lo = -1, double hi = 1) {
  std::vector<double> r(n);
  for (auto& x : r) x = pseudo(st, lo, hi);
  return r;
}

size_t numel(const std::vector<int32_t>& s) {
  size_t n = 1;
  for (int32_t v : s) n *= static_cast<size_t>(v);
  return n;
}

// Element (b, s, h, d) of a contiguous [B, S, H, D] array.
size_t at4(const std::vector<int32_t>& s, int64_t b, int64_t i, int64_t h, int64_t d) {
  return static_cast<size_t>(((b * s[1] + i) * s[2] + h) * s[3] + d);
}

// The reference attention. q [B, S, H, D], k/v [B, L, Hkv, D] (values as
// doubles); keys 0 .. kv_len-1 take part, kv_len = L with a mask ([S, L],
// added) and start_pos + S without; causal rows see keys up to start_pos + s.
std::vector<double> ref_attention(const std::vector<int32_t>& qs, const std::vector<double>& q,
                                  const std::vector<int32_t>& ks, const std::vector<double>& k,
                                  const std::vector<double>& v, int64_t start_pos, bool causal,
                                  const std::vector<double>* mask, double scale) {
  const int64_t B = qs[0], S = qs[1], H = qs[2], D = qs[3], L = ks[1], Hkv = ks[2];
  const int64_t kv_len = mask != nullptr ? L : start_pos + S;
  std::vector<double> out(numel(qs), 0.0);
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t h = 0; h < H; ++h) {
      const int64_t kh = h / (H / Hkv);
      for (int64_t i = 0; i < S; ++i) {
        std::vector<double> w(static_cast<size_t>(kv_len), -INFINITY);
        double mx = -INFINITY;
        for (int64_t j = 0; j < kv_len; ++j) {
          if (causal && j > start_pos + i) continue;
          double dot = 0;
          for (int64_t d = 0; d < D; ++d) dot += q[at4(qs, b, i, h, d)] * k[at4(ks, b, j, kh, d)];
          double x = dot * scale;
          if (mask != nullptr) x += (*mask)[static_cast<size_t>(i * L + j)];
          w[static_cast<size_t>(j)] = x;
          mx = std::max(mx, x);
        }
        double sum = 0;
        for (auto& x : w) {
          x = std::exp(x - mx);
          sum += x;
        }
        for (int64_t d = 0; d < D; ++d) {
          double acc = 0;
          for (int64_t j = 0; j < kv_len; ++j)
            acc += w[static_cast<size_t>(j)] * v[at4(ks, b, j, kh, d)];
          out[at4(qs, b, i, h, d)] = acc / sum;
        }
      }
    }
  }
  return out;
}

Error custom_sdpa(const TT& q, const TT& k, const TT& v, int64_t start_pos, EValue mask,
                  bool causal, EValue scale, const TT& out) {
  return call_out(kSdpa,
                  {q.tensor(), k.tensor(), v.tensor(), i64(start_pos), mask, EValue(0.0),
                   EValue(causal), scale, out.tensor()},
                  out);
}

Error update_cache(const TT& value, const TT& cache, int64_t start_pos, const TT& out) {
  return call_out(kUpdate, {value.tensor(), cache.tensor(), i64(start_pos), out.tensor()}, out);
}

Error update_cache_idx(const TT& value, const TT& cache, int64_t start_pos, const TT& idx,
                       const TT& out) {
  return call_out(kUpdateIdx,
                  {value.tensor(), cache.tensor(), i64(start_pos), idx.tensor(), out.tensor()},
                  out);
}

// ---- update_cache -------------------------------------------------------------

TEST(LlmUpdateCache, WritesValueAtStartPos) {
  uint32_t st = 11;
  for (ScalarType t : {ScalarType::Float, ScalarType::Half, ScalarType::BFloat16, ScalarType::Char,
                       ScalarType::Long}) {
    const std::vector<int32_t> cs = {2, 7, 3, 4}, vs = {2, 3, 3, 4};
    std::vector<double> c0 = randoms(&st, numel(cs), -50, 50),
                        v0 = randoms(&st, numel(vs), -50, 50);
    for (auto* a : {&c0, &v0}) {
      for (auto& x : *a) x = as_dtype(t, std::floor(x));
    }
    for (int64_t start : {0, 2, 4}) {
      auto cache = tensor_of(t, cs, c0);
      auto value = tensor_of(t, vs, v0);
      auto out = out_of(t, {1});
      ASSERT_EQ(update_cache(*value, *cache, start, *out), Error::Ok) << dtype_name(t);
      std::vector<double> want = c0;
      for (int64_t b = 0; b < 2; ++b)
        for (int64_t s = 0; s < 3; ++s)
          for (int64_t h = 0; h < 3; ++h)
            for (int64_t d = 0; d < 4; ++d)
              want[at4(cs, b, start + s, h, d)] = v0[at4(vs, b, s, h, d)];
      EXPECT_EQ(logical(*cache), want) << dtype_name(t) << " start " << start;
    }
  }
}

TEST(LlmUpdateCache, RoundTripThroughCustomSdpa) {
  // Prefill 3 positions, then decode one at a time; after each step the
  // cache holds every value written so far, and attention over it with
  // start_pos matches the reference over the same prefix.
  uint32_t st = 5;
  const std::vector<int32_t> cs = {1, 8, 2, 4};
  auto kc = tensor_of(ScalarType::Float, cs, std::vector<double>(numel(cs), 0.0));
  auto vc = tensor_of(ScalarType::Float, cs, std::vector<double>(numel(cs), 0.0));
  std::vector<double> kall(numel(cs), 0.0), vall(numel(cs), 0.0);
  int64_t pos = 0;
  for (int32_t len : {3, 1, 1, 2}) {
    const std::vector<int32_t> vs = {1, len, 2, 4}, qs = {1, len, 4, 4};
    auto kv = randoms(&st, numel(vs)), vv = randoms(&st, numel(vs)), qv = randoms(&st, numel(qs));
    for (auto* a : {&kv, &vv, &qv}) {
      for (auto& x : *a) x = as_dtype(ScalarType::Float, x);
    }
    auto kt_ = tensor_of(ScalarType::Float, vs, kv);
    auto vt = tensor_of(ScalarType::Float, vs, vv);
    auto dummy = out_of(ScalarType::Float, {1});
    ASSERT_EQ(update_cache(*kt_, *kc, pos, *dummy), Error::Ok);
    ASSERT_EQ(update_cache(*vt, *vc, pos, *dummy), Error::Ok);
    for (int64_t s = 0; s < len; ++s)
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t d = 0; d < 4; ++d) {
          kall[at4(cs, 0, pos + s, h, d)] = kv[at4(vs, 0, s, h, d)];
          vall[at4(cs, 0, pos + s, h, d)] = vv[at4(vs, 0, s, h, d)];
        }
    EXPECT_EQ(logical(*kc), kall);
    EXPECT_EQ(logical(*vc), vall);
    auto q = tensor_of(ScalarType::Float, qs, qv);
    auto out = out_of(ScalarType::Float, qs);
    ASSERT_EQ(custom_sdpa(*q, *kc, *vc, pos, none(), true, none(), *out), Error::Ok);
    expect_close(logical(*out), ref_attention(qs, qv, cs, kall, vall, pos, true, nullptr, 0.5),
                 1e-5, 1e-6);
    pos += len;
  }
}

TEST(LlmUpdateCache, WithIndicesScattersPositions) {
  uint32_t st = 17;
  const std::vector<int32_t> cs = {2, 6, 2, 3}, vs = {2, 3, 2, 3};
  std::vector<double> c0 = randoms(&st, numel(cs)), v0 = randoms(&st, numel(vs));
  for (auto* a : {&c0, &v0}) {
    for (auto& x : *a) x = as_dtype(ScalarType::Float, x);
  }
  auto cache = tensor_of(ScalarType::Float, cs, c0);
  auto value = tensor_of(ScalarType::Float, vs, v0);
  const std::vector<double> idx = {5, 0, 3, 1, 1, 4}; // duplicate: the later write wins
  auto indices = tensor_of(ScalarType::Long, {2, 3}, idx);
  auto out = out_of(ScalarType::Float, {1});
  // start_pos is not used by the indexed form (upstream ignores it).
  ASSERT_EQ(update_cache_idx(*value, *cache, 99, *indices, *out), Error::Ok);
  std::vector<double> want = c0;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t s = 0; s < 3; ++s)
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t d = 0; d < 3; ++d)
          want[at4(cs, b, static_cast<int64_t>(idx[static_cast<size_t>(b * 3 + s)]), h, d)] =
              v0[at4(vs, b, s, h, d)];
  EXPECT_EQ(logical(*cache), want);
}

TEST(LlmUpdateCache, BadArgumentsFail) {
  auto cache = tensor_of(ScalarType::Float, {1, 4, 2, 2}, std::vector<double>(16, 7.0));
  auto value = tensor_of(ScalarType::Float, {1, 2, 2, 2}, std::vector<double>(8, 1.0));
  auto out = out_of(ScalarType::Float, {1});
  EXPECT_EQ(update_cache(*value, *cache, 3, *out), Error::InvalidArgument); // 3 + 2 > 4
  EXPECT_EQ(update_cache(*value, *cache, -1, *out), Error::InvalidArgument);
  EXPECT_EQ(update_cache(*value, *cache, 4, *out), Error::InvalidArgument);
  EXPECT_EQ(update_cache(*value, *cache, std::numeric_limits<int64_t>::max(), *out),
            Error::InvalidArgument);
  auto wrong_heads = tensor_of(ScalarType::Float, {1, 2, 1, 2}, std::vector<double>(4, 1.0));
  EXPECT_EQ(update_cache(*wrong_heads, *cache, 0, *out), Error::InvalidArgument);
  auto wrong_batch = tensor_of(ScalarType::Float, {2, 1, 2, 2}, std::vector<double>(8, 1.0));
  EXPECT_EQ(update_cache(*wrong_batch, *cache, 0, *out), Error::InvalidArgument);
  auto wrong_dtype = tensor_of(ScalarType::Half, {1, 2, 2, 2}, std::vector<double>(8, 1.0));
  EXPECT_EQ(update_cache(*wrong_dtype, *cache, 0, *out), Error::InvalidArgument);
  auto rank3 = tensor_of(ScalarType::Float, {2, 2, 2}, std::vector<double>(8, 1.0));
  EXPECT_EQ(update_cache(*rank3, *cache, 0, *out), Error::InvalidArgument);
  auto cl = tensor_of(ScalarType::Float, {1, 2, 2, 2}, std::vector<double>(8, 1.0), {0, 2, 3, 1});
  EXPECT_EQ(update_cache(*cl, *cache, 0, *out), Error::InvalidArgument);
  // Wrong argument kinds and counts.
  std::vector<EValue> bad = {value->tensor(), cache->tensor(), EValue(1.5), out->tensor(),
                             out->tensor()};
  EXPECT_EQ(call(kUpdate, bad), Error::InvalidArgument);
  std::vector<EValue> few = {value->tensor(), cache->tensor(), i64(0), out->tensor()};
  EXPECT_EQ(call(kUpdate, few), Error::InvalidArgument);
  // Indexed form: out-of-range, negative, wrong dtype or shape of indices.
  for (const std::vector<double>& iv : {std::vector<double>{0, 4}, std::vector<double>{-1, 0}}) {
    auto idx = tensor_of(ScalarType::Long, {1, 2}, iv);
    EXPECT_EQ(update_cache_idx(*value, *cache, 0, *idx, *out), Error::InvalidArgument);
  }
  auto idx32 = tensor_of(ScalarType::Int, {1, 2}, {0, 1});
  EXPECT_EQ(update_cache_idx(*value, *cache, 0, *idx32, *out), Error::InvalidArgument);
  auto idx_shape = tensor_of(ScalarType::Long, {1, 3}, {0, 1, 2});
  EXPECT_EQ(update_cache_idx(*value, *cache, 0, *idx_shape, *out), Error::InvalidArgument);
  // Nothing failing wrote into the cache.
  EXPECT_EQ(logical(*cache), std::vector<double>(16, 7.0));
}

// ---- custom_sdpa ----------------------------------------------------------------

struct Case {
  int32_t B, S, H, Hkv, D, L;
  int64_t start_pos;
  bool causal;
};

TEST(LlmCustomSdpa, MatchesReferenceOnRandomShapes) {
  uint32_t st = 1234;
  int cases = 0;
  for (int trial = 0; trial < 40; ++trial) {
    Case c;
    c.B = 1 + static_cast<int32_t>(pseudo(&st, 0, 2));
    c.Hkv = 1 + static_cast<int32_t>(pseudo(&st, 0, 3));
    c.H = c.Hkv * (1 + static_cast<int32_t>(pseudo(&st, 0, 4)));
    c.D = 1 + static_cast<int32_t>(pseudo(&st, 0, 17));
    c.L = 1 + static_cast<int32_t>(pseudo(&st, 0, 40));
    c.S = 1 + static_cast<int32_t>(pseudo(&st, 0, std::min(c.L, 9)));
    c.start_pos = static_cast<int64_t>(pseudo(&st, 0, c.L - c.S + 1));
    c.causal = trial % 2 == 0;
    const std::vector<int32_t> qs = {c.B, c.S, c.H, c.D}, ks = {c.B, c.L, c.Hkv, c.D};
    auto qv = randoms(&st, numel(qs), -2, 2), kv = randoms(&st, numel(ks), -2, 2),
         vv = randoms(&st, numel(ks), -2, 2);
    for (auto* a : {&qv, &kv, &vv}) {
      for (auto& x : *a) x = as_dtype(ScalarType::Float, x);
    }
    auto q = tensor_of(ScalarType::Float, qs, qv);
    auto k = tensor_of(ScalarType::Float, ks, kv);
    auto v = tensor_of(ScalarType::Float, ks, vv);
    auto out = out_of(ScalarType::Float, {1, 1, 1, 1}, {}, numel(qs));
    const bool explicit_scale = trial % 3 == 0;
    const double scale = explicit_scale ? 0.3 : 1.0 / std::sqrt(double(c.D));
    ASSERT_EQ(custom_sdpa(*q, *k, *v, c.start_pos, none(), c.causal,
                          explicit_scale ? EValue(0.3) : none(), *out),
              Error::Ok)
        << trial;
    EXPECT_EQ(out->shape(), qs);
    expect_close(logical(*out),
                 ref_attention(qs, qv, ks, kv, vv, c.start_pos, c.causal, nullptr, scale), 1e-5,
                 2e-6);
    ++cases;
  }
  EXPECT_EQ(cases, 40);
}

TEST(LlmCustomSdpa, CausalRelativeToStartPos) {
  // One query at start_pos 3 sees keys 0..3 whether causal or not (both
  // attend to start_pos + S keys); position 4.. of the cache is never read.
  const std::vector<int32_t> qs = {1, 1, 1, 2}, ks = {1, 6, 1, 2};
  std::vector<double> qv = {1, 0};
  std::vector<double> kv = {0, 0, 1, 0, 2, 0, 3, 0, 100, 0, 100, 0};
  std::vector<double> vv = {1, 0, 2, 0, 3, 0, 4, 0, 1e6, 1e6, 1e6, 1e6};
  auto q = tensor_of(ScalarType::Float, qs, qv);
  auto k = tensor_of(ScalarType::Float, ks, kv);
  auto v = tensor_of(ScalarType::Float, ks, vv);
  for (bool causal : {true, false}) {
    auto out = out_of(ScalarType::Float, qs);
    ASSERT_EQ(custom_sdpa(*q, *k, *v, 3, none(), causal, EValue(1.0), *out), Error::Ok);
    // softmax(0, 1, 2, 3) . (1, 2, 3, 4)
    double num = 0, den = 0;
    for (int j = 0; j < 4; ++j) {
      num += std::exp(j) * (j + 1);
      den += std::exp(j);
    }
    expect_close(logical(*out), {num / den, 0.0}, 1e-6, 1e-6);
  }
  // Two queries at start_pos 2, causal: row 0 sees keys 0..2, row 1 keys 0..3.
  const std::vector<int32_t> qs2 = {1, 2, 1, 2};
  auto q2 = tensor_of(ScalarType::Float, qs2, {1, 0, 1, 0});
  auto out2 = out_of(ScalarType::Float, qs2);
  ASSERT_EQ(custom_sdpa(*q2, *k, *v, 2, none(), true, EValue(1.0), *out2), Error::Ok);
  double n3 = 0, d3 = 0, n4 = 0, d4 = 0;
  for (int j = 0; j < 4; ++j) {
    if (j < 3) {
      n3 += std::exp(j) * (j + 1);
      d3 += std::exp(j);
    }
    n4 += std::exp(j) * (j + 1);
    d4 += std::exp(j);
  }
  expect_close(logical(*out2), {n3 / d3, 0.0, n4 / d4, 0.0}, 1e-6, 1e-6);
}

TEST(LlmCustomSdpa, AdditiveMaskOverTheWholeCache) {
  uint32_t st = 99;
  const std::vector<int32_t> qs = {2, 3, 4, 8}, ks = {2, 10, 2, 8};
  auto qv = randoms(&st, numel(qs)), kv = randoms(&st, numel(ks)), vv = randoms(&st, numel(ks));
  for (auto* a : {&qv, &kv, &vv}) {
    for (auto& x : *a) x = as_dtype(ScalarType::Float, x);
  }
  // A causal mask at start_pos 4 plus random biases; positions past 6 masked.
  std::vector<double> mask(3 * 10);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 10; ++j)
      mask[static_cast<size_t>(i * 10 + j)] =
          j > 4 + i ? -INFINITY : as_dtype(ScalarType::Float, pseudo(&st, -1, 1));
  auto q = tensor_of(ScalarType::Float, qs, qv);
  auto k = tensor_of(ScalarType::Float, ks, kv);
  auto v = tensor_of(ScalarType::Float, ks, vv);
  auto m = tensor_of(ScalarType::Float, {3, 10}, mask);
  auto out = out_of(ScalarType::Float, qs);
  ASSERT_EQ(custom_sdpa(*q, *k, *v, 4, m->tensor(), false, none(), *out), Error::Ok);
  expect_close(logical(*out),
               ref_attention(qs, qv, ks, kv, vv, 4, false, &mask, 1.0 / std::sqrt(8.0)), 1e-5,
               2e-6);
}

TEST(LlmCustomSdpa, HalfAndBFloat16) {
  uint32_t st = 7;
  const std::vector<int32_t> qs = {1, 3, 4, 16}, ks = {1, 12, 2, 16};
  for (ScalarType t : {ScalarType::Half, ScalarType::BFloat16}) {
    auto qv = randoms(&st, numel(qs)), kv = randoms(&st, numel(ks)), vv = randoms(&st, numel(ks));
    for (auto* a : {&qv, &kv, &vv}) {
      for (auto& x : *a) x = as_dtype(t, x);
    }
    auto q = tensor_of(t, qs, qv);
    auto k = tensor_of(t, ks, kv);
    auto v = tensor_of(t, ks, vv);
    auto out = out_of(t, qs);
    ASSERT_EQ(custom_sdpa(*q, *k, *v, 5, none(), true, none(), *out), Error::Ok);
    expect_close(logical(*out), ref_attention(qs, qv, ks, kv, vv, 5, true, nullptr, 0.25),
                 4 * tolerance(t), 4 * tolerance(t));
  }
}

TEST(LlmCustomSdpa, BadArgumentsFail) {
  const std::vector<int32_t> qs = {1, 2, 4, 4}, ks = {1, 6, 2, 4};
  auto q = tensor_of(ScalarType::Float, qs, std::vector<double>(numel(qs), 0.5));
  auto k = tensor_of(ScalarType::Float, ks, std::vector<double>(numel(ks), 0.5));
  auto v = tensor_of(ScalarType::Float, ks, std::vector<double>(numel(ks), 0.5));
  auto out = out_of(ScalarType::Float, qs);
  ASSERT_EQ(custom_sdpa(*q, *k, *v, 4, none(), true, none(), *out), Error::Ok);
  EXPECT_EQ(custom_sdpa(*q, *k, *v, 5, none(), true, none(), *out), Error::InvalidArgument);
  EXPECT_EQ(custom_sdpa(*q, *k, *v, -1, none(), true, none(), *out), Error::InvalidArgument);
  EXPECT_EQ(
      custom_sdpa(*q, *k, *v, std::numeric_limits<int64_t>::max(), none(), false, none(), *out),
      Error::InvalidArgument);
  // Heads not a multiple of the kv heads.
  auto k3 = tensor_of(ScalarType::Float, {1, 6, 3, 4}, std::vector<double>(72, 0.5));
  EXPECT_EQ(custom_sdpa(*q, *k3, *k3, 0, none(), true, none(), *out), Error::InvalidArgument);
  // Head dims, batches, k/v shapes that differ.
  auto kd = tensor_of(ScalarType::Float, {1, 6, 2, 5}, std::vector<double>(60, 0.5));
  EXPECT_EQ(custom_sdpa(*q, *kd, *kd, 0, none(), true, none(), *out), Error::InvalidArgument);
  auto kb = tensor_of(ScalarType::Float, {2, 6, 2, 4}, std::vector<double>(96, 0.5));
  EXPECT_EQ(custom_sdpa(*q, *kb, *kb, 0, none(), true, none(), *out), Error::InvalidArgument);
  auto vshort = tensor_of(ScalarType::Float, {1, 5, 2, 4}, std::vector<double>(40, 0.5));
  EXPECT_EQ(custom_sdpa(*q, *k, *vshort, 0, none(), true, none(), *out), Error::InvalidArgument);
  // Dtypes: mixed, integer, out not query's.
  auto kh = tensor_of(ScalarType::Half, ks, std::vector<double>(numel(ks), 0.5));
  EXPECT_EQ(custom_sdpa(*q, *kh, *v, 0, none(), true, none(), *out), Error::InvalidArgument);
  auto qi = tensor_of(ScalarType::Char, qs, std::vector<double>(numel(qs), 1));
  auto ki = tensor_of(ScalarType::Char, ks, std::vector<double>(numel(ks), 1));
  EXPECT_EQ(custom_sdpa(*qi, *ki, *ki, 0, none(), true, none(), *out), Error::InvalidArgument);
  auto out_h = out_of(ScalarType::Half, qs);
  EXPECT_EQ(custom_sdpa(*q, *k, *v, 0, none(), true, none(), *out_h), Error::InvalidArgument);
  // Rank, dim order, an output that cannot hold the result.
  auto q3 = tensor_of(ScalarType::Float, {2, 4, 4}, std::vector<double>(32, 0.5));
  EXPECT_EQ(custom_sdpa(*q3, *k, *v, 0, none(), true, none(), *out), Error::InvalidArgument);
  auto qcl = tensor_of(ScalarType::Float, qs, std::vector<double>(numel(qs), 0.5), {0, 2, 3, 1});
  EXPECT_EQ(custom_sdpa(*qcl, *k, *v, 0, none(), true, none(), *out), Error::InvalidArgument);
  auto small = std::make_unique<TT>(ScalarType::Float, std::vector<int32_t>{1, 1, 4, 4}, 0,
                                    TensorShapeDynamism::STATIC);
  EXPECT_EQ(custom_sdpa(*q, *k, *v, 0, none(), true, none(), *small), Error::InvalidArgument);
  // Masks: with is_causal, wrong shape, wrong dtype.
  auto m = tensor_of(ScalarType::Float, {2, 6}, std::vector<double>(12, 0.0));
  ASSERT_EQ(custom_sdpa(*q, *k, *v, 0, m->tensor(), false, none(), *out), Error::Ok);
  EXPECT_EQ(custom_sdpa(*q, *k, *v, 0, m->tensor(), true, none(), *out), Error::InvalidArgument);
  auto m_short = tensor_of(ScalarType::Float, {2, 4}, std::vector<double>(8, 0.0));
  EXPECT_EQ(custom_sdpa(*q, *k, *v, 2, m_short->tensor(), false, none(), *out),
            Error::InvalidArgument);
  auto m_bool = tensor_of(ScalarType::Bool, {2, 6}, std::vector<double>(12, 1.0));
  EXPECT_EQ(custom_sdpa(*q, *k, *v, 0, m_bool->tensor(), false, none(), *out),
            Error::InvalidArgument);
  // Wrong argument kinds.
  std::vector<EValue> bad = {q->tensor(), k->tensor(), v->tensor(), i64(0),        none(),
                             EValue(0.0), i64(1),      none(),      out->tensor(), out->tensor()};
  EXPECT_EQ(call(kSdpa, bad), Error::InvalidArgument); // is_causal given as Int
}

// ---- sdpa_with_kv_cache -----------------------------------------------------------

TEST(LlmSdpaWithKvCache, UpdatesCachesThenAttends) {
  uint32_t st = 4242;
  const std::vector<int32_t> cs = {2, 9, 2, 6};
  std::vector<double> kall = randoms(&st, numel(cs)), vall = randoms(&st, numel(cs));
  for (auto* a : {&kall, &vall}) {
    for (auto& x : *a) x = as_dtype(ScalarType::Float, x);
  }
  auto kc = tensor_of(ScalarType::Float, cs, kall);
  auto vc = tensor_of(ScalarType::Float, cs, vall);
  int64_t pos = 0;
  for (int32_t len : {4, 1, 2}) {
    const std::vector<int32_t> vs = {2, len, 2, 6}, qs = {2, len, 6, 6};
    auto kv = randoms(&st, numel(vs)), vv = randoms(&st, numel(vs)), qv = randoms(&st, numel(qs));
    for (auto* a : {&kv, &vv, &qv}) {
      for (auto& x : *a) x = as_dtype(ScalarType::Float, x);
    }
    for (int64_t b = 0; b < 2; ++b)
      for (int64_t s = 0; s < len; ++s)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t d = 0; d < 6; ++d) {
            kall[at4(cs, b, pos + s, h, d)] = kv[at4(vs, b, s, h, d)];
            vall[at4(cs, b, pos + s, h, d)] = vv[at4(vs, b, s, h, d)];
          }
    auto q = tensor_of(ScalarType::Float, qs, qv);
    auto k = tensor_of(ScalarType::Float, vs, kv);
    auto v = tensor_of(ScalarType::Float, vs, vv);
    auto out = out_of(ScalarType::Float, qs);
    ASSERT_EQ(call_out(kSdpaKv,
                       {q->tensor(), k->tensor(), v->tensor(), kc->tensor(), vc->tensor(), i64(pos),
                        i64(len), none(), EValue(0.0), EValue(true), none(), out->tensor()},
                       *out),
              Error::Ok);
    EXPECT_EQ(logical(*kc), kall);
    EXPECT_EQ(logical(*vc), vall);
    expect_close(logical(*out),
                 ref_attention(qs, qv, cs, kall, vall, pos, true, nullptr, 1.0 / std::sqrt(6.0)),
                 1e-5, 2e-6);
    pos += len;
  }
}

TEST(LlmSdpaWithKvCache, BadArgumentsFailWithoutWriting) {
  const std::vector<int32_t> cs = {1, 4, 1, 2};
  auto kc = tensor_of(ScalarType::Float, cs, std::vector<double>(8, 3.0));
  auto vc = tensor_of(ScalarType::Float, cs, std::vector<double>(8, 3.0));
  auto q = tensor_of(ScalarType::Float, {1, 2, 1, 2}, std::vector<double>(4, 1.0));
  auto k = tensor_of(ScalarType::Float, {1, 2, 1, 2}, std::vector<double>(4, 1.0));
  auto out = out_of(ScalarType::Float, {1, 2, 1, 2});
  auto run = [&](const TT& kk, const TT& kcache, int64_t pos, int64_t len, bool causal,
                 EValue mask) {
    return call_out(kSdpaKv,
                    {q->tensor(), kk.tensor(), k->tensor(), kcache.tensor(), vc->tensor(), i64(pos),
                     i64(len), mask, EValue(0.0), EValue(causal), none(), out->tensor()},
                    *out);
  };
  EXPECT_EQ(run(*k, *kc, 3, 2, true, none()), Error::InvalidArgument); // past the cache end
  EXPECT_EQ(run(*k, *kc, 0, 1, true, none()), Error::InvalidArgument); // seq_len mismatch
  auto m = tensor_of(ScalarType::Float, {2, 4}, std::vector<double>(8, 0.0));
  EXPECT_EQ(run(*k, *kc, 0, 2, true, m->tensor()), Error::InvalidArgument); // mask + causal
  auto kc_other = tensor_of(ScalarType::Float, {1, 5, 1, 2}, std::vector<double>(10, 3.0));
  EXPECT_EQ(run(*k, *kc_other, 0, 2, true, none()), Error::InvalidArgument); // cache shapes
  auto kh = tensor_of(ScalarType::Half, {1, 2, 1, 2}, std::vector<double>(4, 1.0));
  EXPECT_EQ(run(*kh, *kc, 0, 2, true, none()), Error::InvalidArgument); // dtype
  EXPECT_EQ(logical(*kc), std::vector<double>(8, 3.0));
  EXPECT_EQ(logical(*vc), std::vector<double>(8, 3.0));
  EXPECT_EQ(run(*k, *kc, 2, 2, true, none()), Error::Ok);
  EXPECT_EQ(logical(*kc), (std::vector<double>{3, 3, 3, 3, 1, 1, 1, 1}));
}

// ---- custom_quantized_sdpa ---------------------------------------------------------

// Per-token int8 quantization of a [d0, d1, d2, D] array: values, int8
// zero points and float scales ([d0, d1, d2, 1]).
struct QTensor {
  std::vector<double> q, zp, sc, deq;
};
QTensor quantize_tokens(uint32_t* st, size_t tokens, size_t dim) {
  QTensor r;
  for (size_t t = 0; t < tokens; ++t) {
    const double scale = as_dtype(ScalarType::Float, pseudo(st, 0.005, 0.03));
    const double zp = std::floor(pseudo(st, -20, 20));
    r.sc.push_back(scale);
    r.zp.push_back(zp);
    for (size_t d = 0; d < dim; ++d) {
      const double q = std::floor(pseudo(st, -128, 128));
      r.q.push_back(q);
      r.deq.push_back(static_cast<float>(q - zp) * static_cast<float>(scale));
    }
  }
  return r;
}

// [B, H, S, D] -> [B, S, H, D].
std::vector<double> bhsd_to_bshd(const std::vector<double>& x, int32_t B, int32_t H, int32_t S,
                                 int32_t D) {
  std::vector<double> r(x.size());
  for (int32_t b = 0; b < B; ++b)
    for (int32_t h = 0; h < H; ++h)
      for (int32_t s = 0; s < S; ++s)
        for (int32_t d = 0; d < D; ++d)
          r[static_cast<size_t>(((b * S + s) * H + h) * D + d)] =
              x[static_cast<size_t>(((b * H + h) * S + s) * D + d)];
  return r;
}

TEST(LlmCustomQuantizedSdpa, MatchesDequantizedReference) {
  uint32_t st = 31337;
  for (bool seq_at_dim_2 : {false, true}) {
    const int32_t B = 1, S = 3, H = 4, Hkv = 2, D = 8, L = 10;
    const int64_t start_pos = 5;
    auto shape = [&](int32_t seq, int32_t heads, int32_t last) {
      return seq_at_dim_2 ? std::vector<int32_t>{B, heads, seq, last}
                          : std::vector<int32_t>{B, seq, heads, last};
    };
    QTensor qq = quantize_tokens(&st, size_t(B) * S * H, D);
    QTensor kq = quantize_tokens(&st, size_t(B) * L * Hkv, D);
    QTensor vq = quantize_tokens(&st, size_t(B) * L * Hkv, D);
    auto q = tensor_of(ScalarType::Char, shape(S, H, D), qq.q);
    auto k = tensor_of(ScalarType::Char, shape(L, Hkv, D), kq.q);
    auto v = tensor_of(ScalarType::Char, shape(L, Hkv, D), vq.q);
    auto qz = tensor_of(ScalarType::Char, shape(S, H, 1), qq.zp);
    auto qs_ = tensor_of(ScalarType::Float, shape(S, H, 1), qq.sc);
    auto kz = tensor_of(ScalarType::Char, shape(L, Hkv, 1), kq.zp);
    auto ks_ = tensor_of(ScalarType::Float, shape(L, Hkv, 1), kq.sc);
    auto vz = tensor_of(ScalarType::Char, shape(L, Hkv, 1), vq.zp);
    auto vs_ = tensor_of(ScalarType::Float, shape(L, Hkv, 1), vq.sc);
    auto out = out_of(ScalarType::Float, shape(S, H, D));
    ASSERT_EQ(
        call_out(kQSdpa,
                 {q->tensor(), k->tensor(), v->tensor(), i64(start_pos), none(), EValue(0.0),
                  EValue(true), none(), qz->tensor(), qs_->tensor(), kz->tensor(), ks_->tensor(),
                  vz->tensor(), vs_->tensor(), EValue(seq_at_dim_2), out->tensor()},
                 *out),
        Error::Ok)
        << seq_at_dim_2;
    std::vector<double> qd = qq.deq, kd = kq.deq, vd = vq.deq;
    if (seq_at_dim_2) {
      qd = bhsd_to_bshd(qd, B, H, S, D);
      kd = bhsd_to_bshd(kd, B, Hkv, L, D);
      vd = bhsd_to_bshd(vd, B, Hkv, L, D);
    }
    std::vector<double> want = ref_attention({B, S, H, D}, qd, {B, L, Hkv, D}, kd, vd, start_pos,
                                             true, nullptr, 1.0 / std::sqrt(double(D)));
    std::vector<double> got = logical(*out);
    if (seq_at_dim_2) got = bhsd_to_bshd(got, B, H, S, D);
    expect_close(got, want, 1e-5, 2e-6);

    // Missing or mis-shaped parameters fail.
    EXPECT_EQ(call_out(kQSdpa,
                       {q->tensor(), k->tensor(), v->tensor(), i64(start_pos), none(), EValue(0.0),
                        EValue(true), none(), qz->tensor(), qs_->tensor(), kz->tensor(),
                        ks_->tensor(), none(), none(), EValue(seq_at_dim_2), out->tensor()},
                       *out),
              Error::InvalidArgument);
    EXPECT_EQ(
        call_out(kQSdpa,
                 {q->tensor(), k->tensor(), v->tensor(), i64(start_pos), none(), EValue(0.0),
                  EValue(true), none(), qs_->tensor(), qz->tensor(), kz->tensor(), ks_->tensor(),
                  vz->tensor(), vs_->tensor(), EValue(seq_at_dim_2), out->tensor()},
                 *out),
        Error::InvalidArgument);
    EXPECT_EQ(
        call_out(kQSdpa,
                 {q->tensor(), k->tensor(), v->tensor(), i64(start_pos), none(), EValue(0.0),
                  EValue(true), none(), kz->tensor(), ks_->tensor(), kz->tensor(), ks_->tensor(),
                  vz->tensor(), vs_->tensor(), EValue(seq_at_dim_2), out->tensor()},
                 *out),
        Error::InvalidArgument);
    // start_pos + S beyond the cache.
    EXPECT_EQ(
        call_out(kQSdpa,
                 {q->tensor(), k->tensor(), v->tensor(), i64(8), none(), EValue(0.0), EValue(true),
                  none(), qz->tensor(), qs_->tensor(), kz->tensor(), ks_->tensor(), vz->tensor(),
                  vs_->tensor(), EValue(seq_at_dim_2), out->tensor()},
                 *out),
        Error::InvalidArgument);
  }
}

TEST(LlmCustomQuantizedSdpa, FloatInputsActAsCustomSdpa) {
  uint32_t st = 8;
  const std::vector<int32_t> qs = {1, 2, 2, 4}, ks = {1, 5, 1, 4};
  auto qv = randoms(&st, numel(qs)), kv = randoms(&st, numel(ks)), vv = randoms(&st, numel(ks));
  for (auto* a : {&qv, &kv, &vv}) {
    for (auto& x : *a) x = as_dtype(ScalarType::Float, x);
  }
  auto q = tensor_of(ScalarType::Float, qs, qv);
  auto k = tensor_of(ScalarType::Float, ks, kv);
  auto v = tensor_of(ScalarType::Float, ks, vv);
  auto out = out_of(ScalarType::Float, qs);
  ASSERT_EQ(call_out(kQSdpa,
                     {q->tensor(), k->tensor(), v->tensor(), i64(1), none(), EValue(0.0),
                      EValue(true), EValue(0.7), none(), none(), none(), none(), none(), none(),
                      EValue(false), out->tensor()},
                     *out),
            Error::Ok);
  expect_close(logical(*out), ref_attention(qs, qv, ks, kv, vv, 1, true, nullptr, 0.7), 1e-5, 2e-6);
}

} // namespace
