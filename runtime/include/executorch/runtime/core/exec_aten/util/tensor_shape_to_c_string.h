// tensor_shape_to_c_string: a tensor shape as a NUL-terminated string such
// as "(2, 3, 4)", in a fixed-size array, for log messages that must not
// allocate. A size that is negative or above INT32_MAX prints as "ERR"; a
// shape of more than kTensorDimensionLimit dimensions prints as
// "(ERR: tensor ndim exceeds limit)".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <executorch/runtime/core/exec_aten/util/tensor_dimension_limit.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

// Room for "(" + kTensorDimensionLimit sizes of up to 10 digits, each
// followed by ", " (the last one becomes ")" and the NUL), plus one byte.
constexpr size_t kTensorShapeStringSizeLimit =
    1 + 10 * kTensorDimensionLimit + 2 * kTensorDimensionLimit + 1;

namespace internal {
// The largest size printed as a number; larger ones print as "ERR".
constexpr size_t kMaximumPrintableTensorShapeElement = std::numeric_limits<int32_t>::max();
} // namespace internal

EXECUTORCH_API std::array<char, kTensorShapeStringSizeLimit> tensor_shape_to_c_string(
    Span<const std::int32_t> shape);

EXECUTORCH_API std::array<char, kTensorShapeStringSizeLimit> tensor_shape_to_c_string(
    Span<const std::int64_t> shape);

} // namespace runtime
} // namespace executorch
