// Sampler: greedy picks, temperature 0, seeded determinism, top-k and top-p
// cuts, and draws that follow the softmax distribution.
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/llm/sampler/sampler.h>
#include <executorch/runtime/core/portable_type/bfloat16.h>
#include <executorch/runtime/core/portable_type/half.h>

namespace {

using executorch::aten::BFloat16;
using executorch::aten::Half;
using executorch::extension::llm::Sampler;

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

std::vector<int32_t> draws(Sampler& s, const std::vector<float>& logits, int n) {
  std::vector<int32_t> out;
  for (int i = 0; i < n; ++i) out.push_back(s.sample(logits.data()));
  return out;
}

TEST(SamplerTest, GreedyTakesTheFirstLargest) {
  Sampler s(5, 0.f, 0.9f, 1);
  EXPECT_EQ(s.sample(std::vector<float>{0.1f, 3.f, -2.f, 3.f, 1.f}.data()), 1);
  EXPECT_EQ(s.sample(std::vector<float>{-5.f, -4.f, -3.f, -2.f, -1.f}.data()), 4);
  // NaN is never picked; all NaN gives -1.
  EXPECT_EQ(s.sample(std::vector<float>{kNaN, 1.f, kNaN, 0.f, 2.f}.data()), 4);
  EXPECT_EQ(s.sample(std::vector<float>(5, kNaN).data()), -1);
}

TEST(SamplerTest, TemperatureZeroIsGreedyWhateverTheSeed) {
  const std::vector<float> logits = {0.5f, 0.25f, 0.75f, 0.7f};
  for (unsigned long long seed : {0ull, 1ull, 12345ull}) {
    Sampler s(4, 0.f, 1.f, seed, 0);
    for (int32_t t : draws(s, logits, 20)) EXPECT_EQ(t, 2);
  }
  Sampler negative(4, -1.f, 1.f, 3); // negative temperature: greedy too
  EXPECT_EQ(negative.sample(logits.data()), 2);
}

TEST(SamplerTest, SameSeedSameTokensOtherSeedOthers) {
  const std::vector<float> logits = {1.f, 1.2f, 0.8f, 1.1f, 0.9f, 1.05f};
  Sampler a(6, 1.f, 0.95f, 42), b(6, 1.f, 0.95f, 42), c(6, 1.f, 0.95f, 43);
  const auto da = draws(a, logits, 64);
  EXPECT_EQ(da, draws(b, logits, 64));
  EXPECT_NE(da, draws(c, logits, 64));
  EXPECT_GT(std::set<int32_t>(da.begin(), da.end()).size(), 2u);
}

TEST(SamplerTest, TopKOneAndTinyTopPAreGreedy) {
  const std::vector<float> logits = {0.f, 2.f, 1.9f, -1.f};
  Sampler k1(4, 5.f, 1.f, 9, /*topk=*/1);
  Sampler p0(4, 5.f, 1e-6f, 9, 0);
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(k1.sample(logits.data()), 1);
    EXPECT_EQ(p0.sample(logits.data()), 1);
  }
}

TEST(SamplerTest, TopKAndTopPKeepOnlyTheirSets) {
  // Probabilities 0.4, 0.3, 0.2, 0.1 at temperature 1.
  const std::vector<float> logits = {std::log(0.4f), std::log(0.3f), std::log(0.2f),
                                     std::log(0.1f)};
  Sampler k2(4, 1.f, 1.f, 5, 2);
  const auto dk = draws(k2, logits, 400);
  EXPECT_EQ(std::set<int32_t>(dk.begin(), dk.end()), (std::set<int32_t>{0, 1}));
  // top-p 0.65: 0.4 + 0.3 reaches it, so token 2 and 3 are cut.
  Sampler p(4, 1.f, 0.65f, 5, 0);
  const auto dp = draws(p, logits, 400);
  EXPECT_EQ(std::set<int32_t>(dp.begin(), dp.end()), (std::set<int32_t>{0, 1}));
}

TEST(SamplerTest, DrawsFollowSoftmaxOfScaledLogits) {
  // At temperature 2 the logits 2 ln p become ln p: frequencies ~ p.
  const std::vector<double> p = {0.5, 0.3, 0.2};
  std::vector<float> logits;
  for (double v : p) logits.push_back(float(2 * std::log(v)));
  Sampler s(3, 2.f, 1.f, 2024, 0);
  const int n = 20000;
  std::map<int32_t, int> count;
  for (int32_t t : draws(s, logits, n)) ++count[t];
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(count[i] / double(n), p[size_t(i)], 0.015) << "token " << i;
  }
}

TEST(SamplerTest, HalfAndBFloat16LogitsSampleLikeFloat) {
  const std::vector<float> f = {0.5f, -1.25f, 2.f, 1.75f, 0.f};
  std::vector<Half> h;
  std::vector<BFloat16> b;
  for (float v : f) {
    h.emplace_back(v);
    b.emplace_back(v);
  }
  Sampler sf(5, 0.7f, 0.9f, 11), sh(5, 0.7f, 0.9f, 11), sb(5, 0.7f, 0.9f, 11);
  for (int i = 0; i < 100; ++i) {
    const int32_t want = sf.sample(f.data());
    EXPECT_EQ(sh.sample(h.data()), want);
    EXPECT_EQ(sb.sample(b.data()), want);
  }
  Sampler greedy(5, 0.f, 1.f, 0);
  EXPECT_EQ(greedy.sample(h.data()), 2);
  EXPECT_EQ(greedy.sample(b.data()), 2);
}

TEST(SamplerTest, InfiniteLogitsAndBadVocab) {
  Sampler s(4, 1.f, 0.9f, 3);
  EXPECT_EQ(s.sample(std::vector<float>{0.f, kInf, 1.f, kInf}.data()), 1);
  EXPECT_EQ(s.sample(std::vector<float>(4, -kInf).data()), 0);
  EXPECT_EQ(s.sample(std::vector<float>{kNaN, kNaN, 0.f, kNaN}.data()), 2);
  EXPECT_EQ(s.sample(std::vector<float>(4, kNaN).data()), -1);
  Sampler empty(0, 1.f, 0.9f, 3);
  const float one = 1.f;
  EXPECT_EQ(empty.sample(&one), -1);
}

} // namespace
