// Half for code written against PyTorch's header-only API: the same type as
// executorch::aten::Half, so values pass between the two unconverted.
#pragma once

#include <executorch/runtime/core/portable_type/half.h>

namespace c10 {
using ::executorch::runtime::etensor::Half;
namespace detail {
using ::executorch::runtime::etensor::internal::fp16_ieee_from_fp32_value;
using ::executorch::runtime::etensor::internal::fp16_ieee_to_fp32_bits;
using ::executorch::runtime::etensor::internal::fp16_ieee_to_fp32_value;
} // namespace detail
} // namespace c10

namespace torch {
namespace headeronly {
using ::executorch::runtime::etensor::Half;
} // namespace headeronly
} // namespace torch
