// Operator tables of upstream's LLM custom operators (the `llama::` ops of
// extension/llm/custom_ops); portable/register_kernels.cpp adds them to the
// portable set's tables.
#pragma once

#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/operator_registry.h>

namespace executorch {
namespace runtime {
namespace llm {

Span<const Kernel> update_cache_kernels(); // update_cache_ops.cpp
Span<const Kernel> sdpa_kernels();         // sdpa_ops.cpp

} // namespace llm
} // namespace runtime
} // namespace executorch
