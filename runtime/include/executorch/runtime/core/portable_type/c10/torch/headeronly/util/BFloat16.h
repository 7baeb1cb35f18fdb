// BFloat16 for code written against PyTorch's header-only API: the same type
// as executorch::aten::BFloat16.
#pragma once

#include <executorch/runtime/core/portable_type/bfloat16.h>

namespace c10 {
using ::executorch::runtime::etensor::BFloat16;
namespace detail {
using ::executorch::runtime::etensor::internal::bits_from_f32;
using ::executorch::runtime::etensor::internal::f32_from_bits;
using ::executorch::runtime::etensor::internal::round_to_nearest_even;
} // namespace detail
} // namespace c10

namespace torch {
namespace headeronly {
using ::executorch::runtime::etensor::BFloat16;
} // namespace headeronly
} // namespace torch
