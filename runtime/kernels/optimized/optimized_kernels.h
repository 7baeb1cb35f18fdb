// The optimized CPU kernels: the same operators and semantics as their
// portable twins (which check the arguments for them and serve every case a
// fast path does not take), registered in their place by builtin_sets.cpp.
#pragma once

#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/operator_registry.h>

namespace executorch {
namespace runtime {
namespace optimized {

// Every optimized kernel under its upstream operator name; empty in a build
// with -Doptimized_kernels=false.
Span<const Kernel> optimized_kernels();

} // namespace optimized
} // namespace runtime
} // namespace executorch
