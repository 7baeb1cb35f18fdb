// Tables of the optimized kernel families that keep their own list
// (register_optimized.cpp joins them).
#pragma once

#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/operator_registry.h>

namespace executorch {
namespace runtime {
namespace optimized {

Span<const Kernel> elementwise_kernels(); // elementwise/*.cpp: binary ops, activations
Span<const Kernel> layout_kernels();      // layout_opt.cpp: copies, permutes, norms, pooling

} // namespace optimized
} // namespace runtime
} // namespace executorch
