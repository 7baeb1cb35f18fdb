// The optimized reductions, pooling and resampling kernels.
#include "../optimized_tables.h"
#include "reduce_opt.h"

namespace executorch {
namespace runtime {
namespace optimized {

Span<const Kernel> reduce_kernels() {
  static const Kernel kKernels[] = {
      Kernel("aten::mean.out", mean_dim_out),
      Kernel("aten::sum.IntList_out", sum_intlist_out),
      Kernel("aten::native_group_norm.out", native_group_norm_out),
      Kernel("aten::upsample_nearest2d.vec_out", upsample_nearest2d_out),
      Kernel("aten::upsample_bilinear2d.vec_out", upsample_bilinear2d_out),
  };
  return Span<const Kernel>(kKernels, sizeof(kKernels) / sizeof(kKernels[0]));
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
