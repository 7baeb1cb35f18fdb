// The kernel set of a core-only build (-Dportable_kernels=false).
#include "kernel/builtin_kernels.h"

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {
namespace internal {
void register_builtin_kernels() {}
} // namespace internal
} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
