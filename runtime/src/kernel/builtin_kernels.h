// The kernels compiled into libexecutorch.so.1 (the portable set, or none
// when built with -Dportable_kernels=false).
#pragma once

#include <executorch/runtime/platform/compiler.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {
namespace internal {

// Registers every built-in kernel once; called on first registry use.
void register_builtin_kernels();

} // namespace internal
} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
