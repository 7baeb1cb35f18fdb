// Operator tables of the kernel families that register themselves as a
// group (register_kernels.cpp adds each table to the registry).
#pragma once

#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/operator_registry.h>

namespace executorch {
namespace runtime {
namespace portable {

// Every portable table (register_kernels.cpp).
Span<const Span<const Kernel>> portable_kernel_tables();

Span<const Kernel> unary_math_kernels();      // unary_math_ops.cpp
Span<const Kernel> binary_math_kernels();     // binary_math_ops.cpp
Span<const Kernel> comparison_kernels();      // comparison_ops.cpp
Span<const Kernel> logical_kernels();         // logical_ops.cpp
Span<const Kernel> bitwise_kernels();         // bitwise_ops.cpp
Span<const Kernel> clamp_kernels();           // clamp_ops.cpp
Span<const Kernel> activation_kernels();      // activation_ops.cpp
Span<const Kernel> scalar_creation_kernels(); // scalar_creation_ops.cpp
Span<const Kernel> index_kernels();           // index_ops.cpp
Span<const Kernel> lane_kernels();            // lane_ops.cpp
Span<const Kernel> copy_kernels();            // copy_ops.cpp
Span<const Kernel> creation_kernels();        // creation_ops.cpp
Span<const Kernel> view_kernels();            // view_ops.cpp
Span<const Kernel> split_stack_kernels();     // split_stack_ops.cpp
Span<const Kernel> repeat_kernels();          // repeat_ops.cpp
Span<const Kernel> upsample_kernels();        // upsample_ops.cpp
Span<const Kernel> norm_stats_kernels();      // norm_stats_ops.cpp
Span<const Kernel> reduce_kernels();          // reduce_ops.cpp
Span<const Kernel> minmax_kernels();          // minmax_ops.cpp
Span<const Kernel> select_kernels();          // select_ops.cpp
Span<const Kernel> prim_kernels();            // prim_ops.cpp
Span<const Kernel> prim_scalar_kernels();     // prim_scalar_ops.cpp
Span<const Kernel> pad_kernels();             // pad_ops.cpp
Span<const Kernel> scatter_kernels();         // scatter_ops.cpp
Span<const Kernel> mask_kernels();            // mask_ops.cpp
Span<const Kernel> sort_kernels();            // sort_ops.cpp
Span<const Kernel> distance_kernels();        // distance_ops.cpp
Span<const Kernel> dropout_kernels();         // dropout_ops.cpp
Span<const Kernel> pool_backward_kernels();   // pool_backward_ops.cpp

} // namespace portable
} // namespace runtime
} // namespace executorch
