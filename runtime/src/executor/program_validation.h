// Semantic checks of a verified Program: every index in range, every size
// bounded, every byte range inside the file. After this passes, the rest of
// the executor reads the FlatBuffer without re-checking.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/result.h>

#include "program_generated.h"

namespace executorch {
namespace runtime {
namespace internal {

struct ProgramState;

// Resource limits for untrusted programs.
constexpr size_t kMaxMethods = 4096;
constexpr size_t kMaxValuesPerMethod = 1u << 24;
constexpr size_t kMaxInstructionsPerMethod = 1u << 24;
constexpr size_t kMaxOperatorNameLength = 256;
constexpr int64_t kMaxTensorBytes = int64_t(1) << 62;
// What this host can address: a 32-bit one holds no object over PTRDIFF_MAX
// bytes, and TensorImpl keeps numel (<= bytes) in a 32-bit ssize_t there.
constexpr uint64_t kMaxHostTensorBytes = uint64_t(PTRDIFF_MAX) < uint64_t(kMaxTensorBytes)
                                             ? uint64_t(PTRDIFF_MAX)
                                             : uint64_t(kMaxTensorBytes);

Error validate_program(const ProgramState& state);

// Byte size of a tensor (numel * element size); InvalidProgram on a bad
// dtype, rank, negative size or a size over kMaxHostTensorBytes.
Result<size_t> tensor_nbytes(const executorch_flatbuffer::Tensor* t);

// A tensor's 64-bit byte count as size_t; InvalidProgram, naming it, when
// negative or over kMaxHostTensorBytes.
Result<size_t> host_tensor_bytes(int64_t nbytes);

// InvalidProgram, naming the value, when a dense stride of the tensor does
// not fit the 32-bit stride type (call after its dim order is checked).
Error check_tensor_strides(const executorch_flatbuffer::Tensor* t, uint32_t vi);

// Planned byte offset of a tensor with allocation_info.
inline uint64_t planned_offset(const executorch_flatbuffer::AllocationDetails* a) {
  return uint64_t(a->memory_offset_high()) << 32 | a->memory_offset_low();
}

inline bool is_external(const executorch_flatbuffer::Tensor* t) {
  const auto* info = t->extra_tensor_info();
  return info != nullptr && info->location() == executorch_flatbuffer::TensorDataLocation::EXTERNAL;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
