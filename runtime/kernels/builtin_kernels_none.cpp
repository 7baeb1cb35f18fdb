// The kernel set of a core-only build (-Dportable_kernels=false).
#include <executorch/runtime/kernel/builtin_kernels.h>

#include "kernel/builtin_kernels.h"

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {
namespace internal {
void register_builtin_kernels() {}
} // namespace internal

OpFunction get_builtin_kernel(const char*, BuiltinKernelSet) { return nullptr; }

const char* kernel_origin(const char* name) {
  if (name == nullptr || !get_op_function_from_registry(name, {}).ok()) return nullptr;
  return "registered";
}

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
