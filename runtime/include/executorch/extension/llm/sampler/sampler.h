// Sampler: picks the next token from a row of logits, greedily (temperature
// 0) or at random from softmax(logits / temperature), optionally cut to the
// k most likely tokens (top-k) and then to the smallest set whose
// probability reaches p (top-p, nucleus). Same constructor and sample() as
// upstream's llama sampler, plus top-k.
//
// Draws come from a seeded generator of our own (splitmix64), so a seed
// gives the same tokens on every platform and build.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {
namespace llm {

class EXECUTORCH_API Sampler {
 public:
  // temperature <= 0: greedy (the first index of the largest logit, as
  // torch.argmax). topp outside (0, 1): no nucleus cut. topk <= 0 or
  // >= vocab_size: no top-k cut.
  Sampler(int32_t vocab_size, float temperature, float topp, unsigned long long rng_seed,
          int32_t topk = 0);

  // Samples from vocab_size logits; the logits are only read. NaN logits
  // are never picked; returns -1 when every logit is NaN. (Overloads
  // rather than upstream's template: the same calls compile, and the
  // exported symbols stay in the executorch:: namespace.)
  int32_t sample(const float* logits);
  int32_t sample(const double* logits);
  int32_t sample(const ::executorch::aten::Half* logits);
  int32_t sample(const ::executorch::aten::BFloat16* logits);

  int32_t vocab_size() const { return vocab_size_; }

 private:
  template <typename T>
  int32_t sample_any(const T* logits);
  template <typename T>
  int32_t sample_argmax(const T* logits) const;
  int32_t sample_distribution(float max_logit);
  // Uniform in [0, 1).
  double next_uniform();

  int32_t vocab_size_;
  float inv_temperature_; // 0 when greedy
  float topp_;
  int32_t topk_;
  uint64_t rng_state_;
  // Scaled logits, then candidates (probability, token) being cut.
  std::vector<float> scaled_;
  std::vector<std::pair<float, int32_t>> candidates_;
};

} // namespace llm
} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::extension::llm::Sampler;
} // namespace executor
} // namespace torch
