// kTensorDimensionLimit: the most dimensions kernels keep fixed-size,
// stack-allocated arrays of sizes, strides or coordinates for (a broadcast
// output's computed shape, say). Equal to TensorImpl::kMaxDim.
#pragma once

#include <cstddef>

namespace executorch {
namespace runtime {

constexpr size_t kTensorDimensionLimit = 16;

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::kTensorDimensionLimit;
} // namespace executor
} // namespace torch
