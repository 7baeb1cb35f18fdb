// Declarations of the portable kernels (internal; registered by
// register_kernels.cpp under their upstream operator names).
#pragma once

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>

namespace executorch {
namespace runtime {
namespace portable {

#define PK_DECLARE(fn) void fn(KernelRuntimeContext& ctx, Span<EValue*> args);

// binary_ops.cpp
PK_DECLARE(add_out)
PK_DECLARE(add_scalar_out)
PK_DECLARE(sub_out)
PK_DECLARE(sub_scalar_out)
PK_DECLARE(mul_out)
PK_DECLARE(mul_scalar_out)
PK_DECLARE(div_out)
PK_DECLARE(div_scalar_out)

// other families
PK_DECLARE(relu_out)
PK_DECLARE(gelu_out)
PK_DECLARE(sigmoid_out)
PK_DECLARE(tanh_out)
PK_DECLARE(silu_out)
PK_DECLARE(clone_out)
PK_DECLARE(to_copy_out)
PK_DECLARE(to_dim_order_copy_out)
PK_DECLARE(clone_dim_order_out)
PK_DECLARE(full_out)
PK_DECLARE(mm_out)
PK_DECLARE(bmm_out)
PK_DECLARE(addmm_out)
PK_DECLARE(linear_out)
PK_DECLARE(softmax_out)
PK_DECLARE(log_softmax_out)
PK_DECLARE(mean_dim_out)
PK_DECLARE(sum_intlist_out)
PK_DECLARE(amax_out)
PK_DECLARE(argmax_out)
PK_DECLARE(cat_out)
PK_DECLARE(view_copy_out)
PK_DECLARE(permute_copy_out)
PK_DECLARE(transpose_copy_out)
PK_DECLARE(t_copy_out)
PK_DECLARE(slice_copy_out)
PK_DECLARE(select_copy_out)
PK_DECLARE(unsqueeze_copy_out)
PK_DECLARE(squeeze_copy_dims_out)
PK_DECLARE(squeeze_copy_dim_out)
PK_DECLARE(expand_copy_out)
PK_DECLARE(embedding_out)
PK_DECLARE(constant_pad_nd_out)
PK_DECLARE(convolution_out)
PK_DECLARE(max_pool2d_with_indices_out)
PK_DECLARE(avg_pool2d_out)
PK_DECLARE(native_layer_norm_out)
PK_DECLARE(batch_norm_no_training_out)

#undef PK_DECLARE

} // namespace portable
} // namespace runtime
} // namespace executorch
