// The portable kernels under upstream's operator names, as the tables that
// builtin_sets.cpp registers.
#include <executorch/runtime/kernel/operator_registry.h>

#include "kernels.h"
#include "op_tables.h"
#include "../quantized/quantized_tables.h"
#include "../llm/llm_tables.h"

namespace executorch {
namespace runtime {
namespace portable {

// Long but flat: a table of (operator name, kernel) rows, one per kernel.
Span<const Span<const Kernel>> portable_kernel_tables() {
  static const Kernel kKernels[] = {
      Kernel("aten::add.out", add_out),
      Kernel("aten::add.Scalar_out", add_scalar_out),
      Kernel("aten::sub.out", sub_out),
      Kernel("aten::sub.Scalar_out", sub_scalar_out),
      Kernel("aten::mul.out", mul_out),
      Kernel("aten::mul.Scalar_out", mul_scalar_out),
      Kernel("aten::div.out", div_out),
      Kernel("aten::div.Scalar_out", div_scalar_out),
      Kernel("aten::relu.out", relu_out),
      Kernel("aten::gelu.out", gelu_out),
      Kernel("aten::sigmoid.out", sigmoid_out),
      Kernel("aten::tanh.out", tanh_out),
      Kernel("aten::silu.out", silu_out),
      Kernel("aten::clone.out", clone_out),
      Kernel("aten::_to_copy.out", to_copy_out),
      Kernel("dim_order_ops::_to_dim_order_copy.out", to_dim_order_copy_out),
      Kernel("dim_order_ops::_clone_dim_order.out", clone_dim_order_out),
      Kernel("aten::full.out", full_out),
      Kernel("aten::mm.out", mm_out),
      Kernel("aten::bmm.out", bmm_out),
      Kernel("aten::addmm.out", addmm_out),
      Kernel("aten::linear.out", linear_out),
      Kernel("aten::_softmax.out", softmax_out),
      Kernel("aten::_log_softmax.out", log_softmax_out),
      Kernel("aten::mean.out", mean_dim_out),
      Kernel("aten::sum.IntList_out", sum_intlist_out),
      Kernel("aten::amax.out", amax_out),
      Kernel("aten::argmax.out", argmax_out),
      Kernel("aten::cat.out", cat_out),
      Kernel("aten::view_copy.out", view_copy_out),
      Kernel("aten::permute_copy.out", permute_copy_out),
      Kernel("aten::transpose_copy.int_out", transpose_copy_out),
      Kernel("aten::t_copy.out", t_copy_out),
      Kernel("aten::slice_copy.Tensor_out", slice_copy_out),
      Kernel("aten::select_copy.int_out", select_copy_out),
      Kernel("aten::unsqueeze_copy.out", unsqueeze_copy_out),
      Kernel("aten::squeeze_copy.dims_out", squeeze_copy_dims_out),
      Kernel("aten::squeeze_copy.dim_out", squeeze_copy_dim_out),
      Kernel("aten::expand_copy.out", expand_copy_out),
      Kernel("aten::embedding.out", embedding_out),
      Kernel("aten::constant_pad_nd.out", constant_pad_nd_out),
      Kernel("aten::convolution.out", convolution_out),
      Kernel("aten::max_pool2d_with_indices.out", max_pool2d_with_indices_out),
      Kernel("aten::avg_pool2d.out", avg_pool2d_out),
      Kernel("aten::native_layer_norm.out", native_layer_norm_out),
      Kernel("aten::_native_batch_norm_legit_no_training.out", batch_norm_no_training_out),
  };
  // The families that keep their own tables (op_tables.h).
  static const Span<const Kernel> tables[] = {
      Span<const Kernel>(kKernels, sizeof(kKernels) / sizeof(kKernels[0])),
      unary_math_kernels(),
      binary_math_kernels(),
      comparison_kernels(),
      logical_kernels(),
      bitwise_kernels(),
      clamp_kernels(),
      activation_kernels(),
      scalar_creation_kernels(),
      index_kernels(),
      lane_kernels(),
      copy_kernels(),
      creation_kernels(),
      view_kernels(),
      split_stack_kernels(),
      repeat_kernels(),
      upsample_kernels(),
      norm_stats_kernels(),
      reduce_kernels(),
      minmax_kernels(),
      select_kernels(),
      prim_kernels(),
      prim_scalar_kernels(),
      pad_kernels(),
      scatter_kernels(),
      mask_kernels(),
      sort_kernels(),
      distance_kernels(),
      dropout_kernels(),
      pool_backward_kernels(),
      quantized::quantize_kernels(),
      quantized::dequantize_kernels(),
      quantized::embedding_kernels(),
      quantized::choose_qparams_kernels(),
      quantized::mixed_kernels(),
      quantized::add_kernels(),
      llm::update_cache_kernels(),
      llm::sdpa_kernels(),
  };
  return Span<const Span<const Kernel>>(tables, sizeof(tables) / sizeof(tables[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
