// The kernel sets built into libexecutorch (this project's extension; upstream
// links one kernel library per program instead).
//
// libexecutorch carries the portable kernels (the reference) and, unless built
// with -Doptimized_kernels=false, optimized kernels for the operators real
// models spend their time in. The registry serves the optimized kernel of an
// operator when there is one, else the portable one; EXECUTORCH_KERNELS=portable
// in the environment (read when the registry is first used) makes it serve the
// portable set alone.
#pragma once

#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

enum class BuiltinKernelSet {
  Portable,
  Optimized,
};

// The built-in kernel of `set` for an operator ("aten::mm.out"), or nullptr
// when that set has none. Whatever the registry serves, both stay callable:
// tests use the portable kernel as the oracle of the optimized one.
EXECUTORCH_API OpFunction get_builtin_kernel(const char* name, BuiltinKernelSet set);

// Which kernel the registry serves for an operator's fallback (untyped) entry:
// "optimized", "portable", "registered" (by the application or a library), or
// nullptr when the operator has no kernel.
EXECUTORCH_API const char* kernel_origin(const char* name);

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
