// Shared helpers of the llama:: custom operators: the KV-cache write both
// update_cache and sdpa_with_kv_cache perform, and argument access the
// portable helpers lack. Like those helpers they never abort: a bad
// argument fails the context.
#pragma once

#include "../portable/kernel_util.h"

namespace executorch {
namespace runtime {
namespace llm {

using namespace ::executorch::runtime::portable; // NOLINT: the sibling family's helpers

// A float? argument (Double or Int): None -> has=false.
bool get_opt_double(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, double* out,
                    bool* has);

// Checks that `value` ([B, S, H, D]) may be written into `cache`
// ([B, L, H, D]) at positions [start_pos, start_pos + S) of dim 1: both 4-D,
// contiguous, the same dtype, equal B, H and D, 0 <= start_pos < L and
// start_pos + S <= L. `what` names the cache in messages.
bool check_cache_write(KernelRuntimeContext& ctx, const char* op, const Tensor& value,
                       const Tensor& cache, int64_t start_pos, const char* what);

// Copies value[b, s] to cache[b, start_pos + s] for every b and s (after
// check_cache_write passed).
void write_cache(const Tensor& value, Tensor& cache, int64_t start_pos);

} // namespace llm
} // namespace runtime
} // namespace executorch
