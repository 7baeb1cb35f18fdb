// The optimized reduce family's kernels (reduce_table.cpp registers them).
#pragma once

#include "../optimized_ops.h"

namespace executorch {
namespace runtime {
namespace optimized {

#define RK_DECLARE(fn) void fn(KernelRuntimeContext& ctx, Span<EValue*> args);

// sum_mean_opt.cpp
RK_DECLARE(mean_dim_out)
RK_DECLARE(sum_intlist_out)

// group_norm_opt.cpp
RK_DECLARE(native_group_norm_out)

// resample_opt.cpp
RK_DECLARE(upsample_nearest2d_out)
RK_DECLARE(upsample_bilinear2d_out)

#undef RK_DECLARE

} // namespace optimized
} // namespace runtime
} // namespace executorch
