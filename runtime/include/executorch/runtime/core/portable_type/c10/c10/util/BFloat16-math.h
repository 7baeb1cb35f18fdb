// <cmath> functions (std::exp, std::nextafter, ...) for BFloat16 and Half,
// and c10::rsqrt.
#pragma once

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <executorch/runtime/core/portable_type/bfloat16_math.h>

namespace c10 {
using ::executorch::runtime::etensor::rsqrt;
} // namespace c10
