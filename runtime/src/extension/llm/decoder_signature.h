// Reads how a decoder LLM program is called: the (tokens, input_pos)
// signature of a method, its logits, and the constant metadata methods
// upstream's LLM export adds. Used by TokenRunner::load().
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include <executorch/extension/llm/runner/token_runner.h>
#include <executorch/extension/module/module.h>
#include <executorch/runtime/core/result.h>

namespace executorch {
namespace extension {
namespace llm {
namespace internal {

// The method's inputs as (tokens [1, T], input_pos [T] or [1]). Whether a T
// above 1 is dynamic is asked of the program (enable_dynamic_shape) or, if
// it does not say, tried with a one-token input.
::executorch::runtime::Result<MethodSignature> read_signature(Module& module,
                                                              const std::string& method,
                                                              int enable_dynamic_shape);

// Output 0 of `method`: logits whose last dimension is the vocabulary.
::executorch::runtime::Error read_logits(Module& module, const std::string& method,
                                         int64_t* vocab_size, ::executorch::aten::ScalarType* type);

// The Int outputs of a constant method (no inputs), e.g. get_eos_ids.
::executorch::runtime::Result<std::vector<int64_t>> read_int_metadata(Module& module,
                                                                      const std::string& method);

// The first of `names` the program has, as one Int; `fallback` when none.
::executorch::runtime::Result<int64_t> read_int_metadata_or(
    Module& module, const std::unordered_set<std::string>& methods,
    std::initializer_list<const char*> names, int64_t fallback);

} // namespace internal
} // namespace llm
} // namespace extension
} // namespace executorch
