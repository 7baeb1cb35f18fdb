// Operators no program names: variants of upstream's operators that the
// method loader puts in an instruction's place when the program shows that
// the variant computes all that is read (method_rewrite.cpp). A kernel
// library that has none leaves the instructions as they were.
#pragma once

namespace executorch {
namespace runtime {
namespace internal {

// aten::max_pool2d_with_indices.out's arguments; writes the values only,
// for calls whose indices output nothing reads.
constexpr const char* kMaxPool2dValuesOp = "et_internal::max_pool2d_values.out";

} // namespace internal
} // namespace runtime
} // namespace executorch
