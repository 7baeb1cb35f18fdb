// GenerationConfig: how many tokens to generate and how to pick them. The
// first fields (and resolve_max_new_tokens) are upstream's
// (extension/llm/runner/irunner.h); sampling and stop tokens are ours.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace executorch {
namespace extension {
namespace llm {

struct GenerationConfig {
  // Pass the prompt's tokens to the token callback before the generated ones.
  bool echo = true;
  // Upper bound on generated tokens; -1: as many as the context allows.
  int32_t max_new_tokens = -1;
  // A warm-up run: no token or stats callbacks.
  bool warming = false;
  // Upper bound on prompt + generated tokens; -1: the model's context length.
  int32_t seq_len = -1;
  // 0 (or less): greedy. Otherwise softmax(logits / temperature) is sampled.
  float temperature = 0.8f;
  // Nucleus sampling: keep the most likely tokens up to this probability
  // mass; outside (0, 1): off.
  float topp = 0.9f;
  // Keep only the k most likely tokens; 0: off.
  int32_t topk = 0;
  // Seed of the sampler: the same seed, model and prompt give the same tokens.
  uint64_t seed = 0;
  // Generation ends after producing one of these (it is still reported).
  // Empty: the model's own end-of-sequence ids (its get_eos_ids /
  // get_eos_id method), if it has any.
  std::vector<uint64_t> stop_tokens;

  // Tokens to generate for a prompt of num_prompt_tokens in a context of
  // max_context_len, within seq_len and max_new_tokens; never negative.
  int32_t resolve_max_new_tokens(int32_t max_context_len, int32_t num_prompt_tokens) const {
    int32_t limit = max_context_len;
    if (seq_len >= 0) {
      limit = std::min(seq_len, max_context_len);
    }
    int32_t result = limit - num_prompt_tokens;
    if (max_new_tokens >= 0) {
      result = std::min(result, max_new_tokens);
    }
    return std::max(0, result);
  }
};

} // namespace llm
} // namespace extension
} // namespace executorch
