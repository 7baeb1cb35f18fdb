// The inputs executorch-run gives a method: a tensor per tensor input, in
// memory charged to the run's MemoryBudget and filled, once and in place,
// from its --input spec; the traced value for Int/Double/Bool inputs. Also
// the memory of outputs that are not memory-planned.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <executorch/extension/memory_allocator/planned_memory.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/executor/method.h>

namespace et_run {

struct InputTensor {
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  ::executorch::extension::HostBuffer data;
  std::unique_ptr<::executorch::runtime::etensor::TensorImpl> impl;
};

struct Inputs {
  std::vector<InputTensor> tensors; // owns what values point at
  std::vector<::executorch::runtime::EValue> values;
};

// specs: none (ones everywhere), one for every input, or one per input.
// Inputs that name the same value share one tensor when they share a spec,
// so a file listing one tensor a million times costs one buffer.
void build_inputs(const std::vector<std::string>& specs, const std::string& method_name,
                  ::executorch::runtime::Method& method,
                  ::executorch::extension::MemoryBudget* budget, Inputs* out);

// Gives each tensor output that has no memory of its own (not planned, not
// constant, not a method input) a zeroed buffer charged to budget, through
// Method::set_output_data_ptr. Call before build_inputs, so that a method
// whose outputs do not fit is refused before any input is filled.
void provide_output_buffers(const std::string& method_name, ::executorch::runtime::Method& method,
                            ::executorch::extension::MemoryBudget* budget,
                            std::vector<::executorch::extension::HostBuffer>* out);

} // namespace et_run
