// Declarations of the optimized kernels (registered by register_optimized.cpp).
#pragma once

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>

namespace executorch {
namespace runtime {
namespace optimized {

using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;

#define OK_DECLARE(fn) void fn(KernelRuntimeContext& ctx, Span<EValue*> args);

// matmul_opt.cpp
OK_DECLARE(mm_out)
OK_DECLARE(bmm_out)
OK_DECLARE(addmm_out)
OK_DECLARE(linear_out)

// conv_opt.cpp, pool_opt.cpp
OK_DECLARE(convolution_out)
OK_DECLARE(max_pool2d_with_indices_out)
OK_DECLARE(max_pool2d_values_out) // internal_ops.h kMaxPool2dValuesOp

// norm_opt.cpp
OK_DECLARE(native_layer_norm_out)
OK_DECLARE(batch_norm_no_training_out)
OK_DECLARE(softmax_out)
OK_DECLARE(log_softmax_out)

#undef OK_DECLARE

} // namespace optimized
} // namespace runtime
} // namespace executorch
