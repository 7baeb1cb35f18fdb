// A toy decoder LLM written with tools/pte-writer, in the export conventions
// TokenRunner drives, plus the same model computed here in plain C++ (the
// reference the tests compare with).
//
// Vocabulary V, context C. Per call with tokens t_i at positions p_i:
//   logits_i = W[t_i] + Q[p_i] + S          (S: the state, [1, V])
//   S += kPenalty * sum_i W[t_i]    (a repetition penalty)
// S lives in planned buffer mem_id 2 (as a KV cache exported with
// share_mutable_buffers=True), so a call continues the sequence of the
// previous ones, in whichever method. Unlike a KV cache, S only grows: a
// new sequence needs a new Module. W and Q hold multiples of 1/16, so
// every sum is exact in float and the order of additions does not matter.
// The state is read before a call's tokens are added, so how a prompt is
// cut into prefill calls changes the logits: the reference cuts it as
// TokenRunner does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace toy {

constexpr int32_t kVocab = 8;
constexpr int32_t kContext = 24;
constexpr int32_t kPrefillBound = 6; // dynamic prefill: up to 6 tokens a call
constexpr float kPenalty = -0.25f;

enum class Layout {
  PrefillDecode,  // prefill [1, <=6] dynamic + decode [1, 1]; input_pos [T]
  ForwardDynamic, // one forward [1, <=6] dynamic; input_pos [1] (start)
  ForwardStatic,  // one forward [1, 1] static; input_pos [1]
};

enum class Logits {
  AllPositions, // [1, T, V]
  LastOnly,     // [1, V]
};

enum class LogitsType { Float, Half, BFloat16 };

struct Options {
  Layout layout = Layout::PrefillDecode;
  Logits logits = Logits::AllPositions;
  LogitsType type = LogitsType::Float;
  bool int32_inputs = false;
  // Constant methods as upstream's LLM export writes them.
  bool metadata = false;        // get_max_context_len, enable_dynamic_shape
  std::vector<int64_t> eos_ids; // get_eos_ids when not empty
};

// The .pte bytes.
std::vector<uint8_t> make_program(const Options& options);

// The reference model: feed() returns the last position's logits (after
// the conversion the program applies) and advances the state.
class Reference {
 public:
  explicit Reference(LogitsType type = LogitsType::Float) : type_(type) {}
  // positions: each token's position, or (start convention) all the same.
  std::vector<float> feed(const std::vector<uint64_t>& tokens,
                          const std::vector<int64_t>& positions);
  void reset() { state_.assign(kVocab, 0.f); }

 private:
  LogitsType type_;
  std::vector<float> state_ = std::vector<float>(kVocab, 0.f);
};

// Greedy generation with the reference: prompt, then n tokens (the first
// from the prompt's logits), stopping after a stop token.
std::vector<uint64_t> reference_greedy(const Options& options, const std::vector<uint64_t>& prompt,
                                       int n, const std::vector<uint64_t>& stop = {});

float weight(int32_t row, int32_t col);   // W[row][col]
float position(int32_t row, int32_t col); // Q[row][col]

} // namespace toy
