// TokenRunner: the generation loop of a decoder LLM program, on token ids.
// It prefills a prompt, then decodes one token at a time, picking each
// token with a Sampler, until max_new_tokens, the context is full, a stop
// token or stop(). A tokenizer, if any, stays with the caller.
//
// The program may follow any of the common export conventions:
// - methods `prefill` and `decode` (sharing their KV cache: give the
//   Module share_memory_arenas=true), or one method `forward` for both;
// - inputs (tokens [1, T], input_pos), int64 or int32, where input_pos is
//   either the T positions ([T]) or the start position ([1]); a prefill
//   method with a dynamic T takes the prompt in chunks of up to its bound,
//   a static [1, 1] one token by token;
// - logits [1, T, V], [T, V] or [1, V] (the last position is used), in
//   float32, float16, bfloat16 or float64;
// - optional constant methods upstream's LLM export adds:
//   get_max_context_len / get_max_seq_len, get_eos_ids / get_eos_id,
//   enable_dynamic_shape.
//
// Backend options (e.g. CudaBackend:weight_sharing_across_methods=true)
// reach the delegates through the Module: call module->load(options)
// before handing it over.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <executorch/extension/llm/runner/generation_config.h>
#include <executorch/extension/llm/runner/stats.h>
#include <executorch/extension/llm/sampler/sampler.h>
#include <executorch/extension/module/module.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {
namespace llm {

// How one method is called (filled by TokenRunner::load()).
struct MethodSignature {
  std::string name;
  ::executorch::aten::ScalarType token_type = ::executorch::aten::ScalarType::Long;
  ::executorch::aten::ScalarType position_type = ::executorch::aten::ScalarType::Long;
  // Tokens per call: the exact count when static, the bound when dynamic.
  int64_t max_tokens = 1;
  bool dynamic_tokens = false;
  // input_pos holds every position ([T]) rather than the start ([1]).
  bool positions_per_token = false;
};

// What load() found out about the program.
struct ModelInfo {
  MethodSignature prefill;
  MethodSignature decode;
  int64_t vocab_size = 0;
  ::executorch::aten::ScalarType logits_type = ::executorch::aten::ScalarType::Float;
  // -1 when neither the options nor the program say.
  int64_t max_context_len = -1;
  std::vector<uint64_t> eos_ids;
};

class EXECUTORCH_API TokenRunner {
 public:
  struct Options {
    // Empty: `prefill` / `decode` when the program has them, else `forward`.
    std::string prefill_method;
    std::string decode_method;
    // Positive: overrides the program's get_max_context_len.
    int64_t max_context_len = -1;
  };

  explicit TokenRunner(std::unique_ptr<Module> module);
  TokenRunner(std::unique_ptr<Module> module, Options options);
  // The module is borrowed and must outlive the runner.
  explicit TokenRunner(Module* module);
  TokenRunner(Module* module, Options options);
  ~TokenRunner();
  TokenRunner(const TokenRunner&) = delete;
  TokenRunner& operator=(const TokenRunner&) = delete;

  // Loads the program and both methods and reads their signatures; a
  // program it cannot drive fails with one log line saying why.
  ET_NODISCARD ::executorch::runtime::Error load();
  bool is_loaded() const { return loaded_; }

  // Prefills `prompt` from position 0 and generates; each produced token
  // goes to token_callback as it comes, the stats to stats_callback at the
  // end.
  ET_NODISCARD ::executorch::runtime::Error generate(
      const std::vector<uint64_t>& prompt, const GenerationConfig& config,
      std::function<void(uint64_t)> token_callback = {},
      std::function<void(const Stats&)> stats_callback = {});
  // Same from start_pos: the cache below start_pos is kept, so a caller
  // can continue a conversation (the last generated token is not in the
  // cache yet: put it first in the next prompt).
  ET_NODISCARD ::executorch::runtime::Error generate_from_pos(
      const std::vector<uint64_t>& prompt, int64_t start_pos, const GenerationConfig& config,
      std::function<void(uint64_t)> token_callback = {},
      std::function<void(const Stats&)> stats_callback = {});

  // Ends the current generation after the token being produced (safe from a
  // callback or another thread).
  void stop() { stop_requested_ = true; }
  // Forgets the sequence: the next generate_from_pos(…, position(), …)
  // starts at 0.
  void reset() { position_ = 0; }
  // Tokens in the cache after the last generation.
  int64_t position() const { return position_; }

  const Stats& stats() const { return stats_; }
  // Valid after a successful load().
  const ModelInfo& model_info() const { return info_; }
  Module& module() { return *module_; }

 private:
  ::executorch::runtime::Result<uint64_t> prefill(const std::vector<uint64_t>& prompt,
                                                  int64_t start_pos, Sampler& sampler);
  ::executorch::runtime::Result<uint64_t> step(const MethodSignature& method,
                                               const uint64_t* tokens, int64_t count,
                                               int64_t start_pos, Sampler& sampler);
  ::executorch::runtime::Error check_prompt(const std::vector<uint64_t>& prompt,
                                            int64_t start_pos) const;

  std::unique_ptr<Module> owned_module_;
  Module* module_;
  Options options_;
  ModelInfo info_;
  Stats stats_;
  bool loaded_ = false;
  int64_t position_ = 0;
  std::atomic<bool> stop_requested_{false};
  // Input buffers reused by every call (int64 or int32 as the method takes).
  std::vector<int64_t> token_buffer_;
  std::vector<int64_t> position_buffer_;
};

} // namespace llm
} // namespace extension
} // namespace executorch
