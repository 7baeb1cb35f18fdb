// The optimized elementwise kernels (fp32 fast paths over the portable
// kernels' argument checking) and the loop helpers they share.
#pragma once

#include <cstdint>

#include <executorch/runtime/kernel/operator_registry.h>

#include "../../portable/kernel_util.h"
#include "../parallel.h"

namespace executorch {
namespace runtime {
namespace optimized {

using portable::Args;

void add_out(KernelRuntimeContext& ctx, Args args);
void add_scalar_out(KernelRuntimeContext& ctx, Args args);
void sub_out(KernelRuntimeContext& ctx, Args args);
void sub_scalar_out(KernelRuntimeContext& ctx, Args args);
void mul_out(KernelRuntimeContext& ctx, Args args);
void mul_scalar_out(KernelRuntimeContext& ctx, Args args);
void div_out(KernelRuntimeContext& ctx, Args args);
void div_scalar_out(KernelRuntimeContext& ctx, Args args);

void relu_out(KernelRuntimeContext& ctx, Args args);
void clamp_out(KernelRuntimeContext& ctx, Args args);
void hardtanh_out(KernelRuntimeContext& ctx, Args args);
void sigmoid_out(KernelRuntimeContext& ctx, Args args);
void tanh_out(KernelRuntimeContext& ctx, Args args);
void gelu_out(KernelRuntimeContext& ctx, Args args);
void silu_out(KernelRuntimeContext& ctx, Args args);
void exp_out(KernelRuntimeContext& ctx, Args args);
void sqrt_out(KernelRuntimeContext& ctx, Args args);
void rsqrt_out(KernelRuntimeContext& ctx, Args args);
void neg_out(KernelRuntimeContext& ctx, Args args);

// Below this many elements a loop stays on the calling thread.
constexpr int64_t kElementwiseGrain = kMinTaskElems;

} // namespace optimized
} // namespace runtime
} // namespace executorch
