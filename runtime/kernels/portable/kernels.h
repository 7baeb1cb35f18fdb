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
PK_DECLARE(where_self_out)

#undef PK_DECLARE

} // namespace portable
} // namespace runtime
} // namespace executorch
