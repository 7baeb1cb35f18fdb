// Tables of the optimized kernel families that keep their own list
// (register_optimized.cpp joins them).
#pragma once

#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/operator_registry.h>

namespace executorch {
namespace runtime {
namespace optimized {

Span<const Kernel> elementwise_kernels(); // elementwise/*.cpp: binary ops, activations
Span<const Kernel> mask_kernels();        // elementwise/mask_opt.cpp: where, comparisons, pow
Span<const Kernel> reduce_kernels();      // reduce/*.cpp: reductions, pooling, resampling

} // namespace optimized
} // namespace runtime
} // namespace executorch
