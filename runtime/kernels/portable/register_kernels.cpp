// Registers the portable kernels under upstream's operator names.
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/log.h>

#include "kernel/builtin_kernels.h"
#include "kernels.h"

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {
namespace internal {

void register_builtin_kernels() {
  using namespace ::executorch::runtime::portable;
  static const Kernel kKernels[] = {
      Kernel("aten::add.out", add_out),
      Kernel("aten::add.Scalar_out", add_scalar_out),
      Kernel("aten::sub.out", sub_out),
      Kernel("aten::sub.Scalar_out", sub_scalar_out),
      Kernel("aten::mul.out", mul_out),
      Kernel("aten::mul.Scalar_out", mul_scalar_out),
      Kernel("aten::div.out", div_out),
      Kernel("aten::div.Scalar_out", div_scalar_out),
      Kernel("aten::where.self_out", where_self_out),
  };
  const Error e = register_kernels(
      Span<const Kernel>(kKernels, sizeof(kKernels) / sizeof(kKernels[0])));
  if (e != Error::Ok) {
    ET_LOG(Error, "Registering the portable kernels failed: 0x%x",
           static_cast<unsigned>(e));
  }
}

} // namespace internal
} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
