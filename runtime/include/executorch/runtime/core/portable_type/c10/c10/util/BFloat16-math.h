// <cmath> functions (std::exp, std::nextafter, ...) for BFloat16 and Half,
// c10::rsqrt and c10::is_reduced_floating_point(_v).
#pragma once

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <type_traits>
#include <executorch/runtime/core/portable_type/bfloat16_math.h>

namespace c10 {
using ::executorch::runtime::etensor::rsqrt;

// Half and BFloat16: the 16-bit floating types computed through float.
template <typename T>
struct is_reduced_floating_point
    : std::bool_constant<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>> {};
template <typename T>
constexpr bool is_reduced_floating_point_v = is_reduced_floating_point<T>::value;
} // namespace c10

// Upstream also names the trait in std (unless C10_NODEPRECATED).
#ifndef C10_NODEPRECATED
namespace std {
using c10::is_reduced_floating_point;
using c10::is_reduced_floating_point_v;
} // namespace std
#endif
