#include <executorch/extension/llm/sampler/sampler.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace executorch {
namespace extension {
namespace llm {

namespace {

// Most likely first; equal probabilities by token id, so the order (and so
// every draw) does not depend on the sort implementation.
bool more_likely(const std::pair<float, int32_t>& a, const std::pair<float, int32_t>& b) {
  return a.first > b.first || (a.first == b.first && a.second < b.second);
}

} // namespace

Sampler::Sampler(int32_t vocab_size, float temperature, float topp, unsigned long long rng_seed,
                 int32_t topk)
    : vocab_size_(vocab_size),
      inv_temperature_(temperature > 0 && std::isfinite(temperature) ? 1.0f / temperature : 0.0f),
      topp_(topp),
      topk_(topk),
      rng_state_(static_cast<uint64_t>(rng_seed)) {}

double Sampler::next_uniform() {
  // splitmix64: a fixed, portable sequence for a given seed.
  rng_state_ += 0x9E3779B97F4A7C15ull;
  uint64_t z = rng_state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * (1.0 / 9007199254740992.0); // 2^-53
}

template <typename T>
int32_t Sampler::sample_argmax(const T* logits) const {
  int32_t best = -1;
  float best_value = 0;
  for (int32_t i = 0; i < vocab_size_; ++i) {
    const float v = static_cast<float>(logits[i]);
    if (std::isnan(v)) {
      continue;
    }
    if (best < 0 || v > best_value) {
      best = i;
      best_value = v;
    }
  }
  return best;
}

template <typename T>
int32_t Sampler::sample_any(const T* logits) {
  if (vocab_size_ <= 0 || logits == nullptr) {
    return -1;
  }
  if (inv_temperature_ == 0.0f) {
    return sample_argmax(logits);
  }
  scaled_.resize(static_cast<size_t>(vocab_size_));
  float max_logit = -std::numeric_limits<float>::infinity();
  bool any = false;
  for (int32_t i = 0; i < vocab_size_; ++i) {
    const float v = static_cast<float>(logits[i]) * inv_temperature_;
    scaled_[static_cast<size_t>(i)] = v;
    if (!std::isnan(v)) {
      any = true;
      max_logit = std::max(max_logit, v);
    }
  }
  if (!any) {
    return -1;
  }
  if (!std::isfinite(max_logit)) {
    // An infinite logit (or all -inf): the distribution is a point mass.
    return sample_argmax(logits);
  }
  return sample_distribution(max_logit);
}

int32_t Sampler::sample_distribution(float max_logit) {
  candidates_.clear();
  for (int32_t i = 0; i < vocab_size_; ++i) {
    const float v = scaled_[static_cast<size_t>(i)];
    if (std::isnan(v)) {
      continue;
    }
    const float p = std::exp(v - max_logit);
    if (p > 0) {
      candidates_.emplace_back(p, i);
    }
  }
  bool sorted = false;
  if (topk_ > 0 && static_cast<size_t>(topk_) < candidates_.size()) {
    std::partial_sort(candidates_.begin(), candidates_.begin() + topk_, candidates_.end(),
                      more_likely);
    candidates_.resize(static_cast<size_t>(topk_));
    sorted = true;
  }
  if (topp_ > 0 && topp_ < 1) {
    if (!sorted) {
      std::sort(candidates_.begin(), candidates_.end(), more_likely);
    }
    double total = 0;
    for (const auto& c : candidates_) {
      total += c.first;
    }
    const double cut = total * topp_;
    double cumulative = 0;
    size_t keep = 0;
    while (keep < candidates_.size() && cumulative < cut) {
      cumulative += candidates_[keep++].first;
    }
    candidates_.resize(std::max<size_t>(keep, 1));
  }
  double total = 0;
  for (const auto& c : candidates_) {
    total += c.first;
  }
  const double coin = next_uniform() * total;
  double cumulative = 0;
  for (const auto& c : candidates_) {
    cumulative += c.first;
    if (coin < cumulative) {
      return c.second;
    }
  }
  return candidates_.back().second; // rounding left the coin past the end
}

int32_t Sampler::sample(const float* logits) { return sample_any(logits); }
int32_t Sampler::sample(const double* logits) { return sample_any(logits); }
int32_t Sampler::sample(const ::executorch::aten::Half* logits) { return sample_any(logits); }
int32_t Sampler::sample(const ::executorch::aten::BFloat16* logits) { return sample_any(logits); }

} // namespace llm
} // namespace extension
} // namespace executorch
