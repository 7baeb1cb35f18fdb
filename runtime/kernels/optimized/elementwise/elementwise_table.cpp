// The optimized elementwise kernels (binary ops, activations).
#include "../optimized_tables.h"
#include "ew_kernels.h"

namespace executorch {
namespace runtime {
namespace optimized {

Span<const Kernel> elementwise_kernels() {
  static const Kernel kKernels[] = {
      Kernel("aten::add.out", add_out),           Kernel("aten::add.Scalar_out", add_scalar_out),
      Kernel("aten::sub.out", sub_out),           Kernel("aten::sub.Scalar_out", sub_scalar_out),
      Kernel("aten::mul.out", mul_out),           Kernel("aten::mul.Scalar_out", mul_scalar_out),
      Kernel("aten::div.out", div_out),           Kernel("aten::div.Scalar_out", div_scalar_out),
      Kernel("aten::relu.out", relu_out),         Kernel("aten::clamp.out", clamp_out),
      Kernel("aten::hardtanh.out", hardtanh_out), Kernel("aten::sigmoid.out", sigmoid_out),
      Kernel("aten::tanh.out", tanh_out),         Kernel("aten::gelu.out", gelu_out),
      Kernel("aten::silu.out", silu_out),         Kernel("aten::exp.out", exp_out),
      Kernel("aten::sqrt.out", sqrt_out),         Kernel("aten::rsqrt.out", rsqrt_out),
      Kernel("aten::neg.out", neg_out),
  };
  return Span<const Kernel>(kKernels, sizeof(kKernels) / sizeof(kKernels[0]));
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
