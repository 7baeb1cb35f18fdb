// c10::complex for code written against PyTorch's header-only API: the same
// template as executorch::aten::complex.
#pragma once

#include <executorch/runtime/core/portable_type/complex.h>

namespace c10 {
template <typename T>
using complex = ::executorch::runtime::etensor::complex<T>;
} // namespace c10

namespace torch {
namespace headeronly {
template <typename T>
using complex = ::executorch::runtime::etensor::complex<T>;
} // namespace headeronly
} // namespace torch
