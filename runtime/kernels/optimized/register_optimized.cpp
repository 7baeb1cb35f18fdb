// The optimized kernels under upstream's operator names: the families' tables
// joined into one.
#include <vector>

#include "kernel/internal_ops.h"
#include "optimized_kernels.h"
#include "optimized_ops.h"
#include "optimized_tables.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

Span<const Kernel> own_kernels() {
  static const Kernel kKernels[] = {
      Kernel("aten::mm.out", mm_out),
      Kernel("aten::bmm.out", bmm_out),
      Kernel("aten::addmm.out", addmm_out),
      Kernel("aten::linear.out", linear_out),
      Kernel("aten::convolution.out", convolution_out),
      Kernel("aten::max_pool2d_with_indices.out", max_pool2d_with_indices_out),
      Kernel(internal::kMaxPool2dValuesOp, max_pool2d_values_out),
      Kernel("aten::native_layer_norm.out", native_layer_norm_out),
      Kernel("aten::_native_batch_norm_legit_no_training.out", batch_norm_no_training_out),
      Kernel("aten::_softmax.out", softmax_out),
      Kernel("aten::_log_softmax.out", log_softmax_out),
  };
  return Span<const Kernel>(kKernels, sizeof(kKernels) / sizeof(kKernels[0]));
}

} // namespace

Span<const Kernel> optimized_kernels() {
  static const std::vector<Kernel> all = [] {
    std::vector<Kernel> v;
    for (Span<const Kernel> t :
         {own_kernels(), elementwise_kernels(), mask_kernels(), reduce_kernels()}) {
      v.insert(v.end(), t.begin(), t.end());
    }
    return v;
  }();
  return Span<const Kernel>(all.data(), all.size());
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
