// Printing a method's outputs. Text goes through the library's print_evalue
// (`output 0: tensor(sizes=[2], [3., 4.])`), showing the first and last 8
// elements of a longer tensor as torch does; JSON shows every element up to
// kJsonAll and then the first and last 8 with "elided": N. --all-values
// shows every element. Only the elements shown are read, so a huge output
// costs no more than a small one. Outputs left on a device are copied to
// the host first (charged to the run's MemoryBudget).
#pragma once

#include <cstddef>
#include <string>

#include <executorch/extension/memory_allocator/memory_budget.h>
#include <executorch/runtime/executor/method.h>

namespace et_run {

constexpr size_t kEdge = 8;
constexpr size_t kJsonAll = size_t(1) << 20;

struct PrintOptions {
  bool json = false;
  bool all_values = false;
};

// Output i as one text line (ending in a newline) or one JSON object.
std::string format_output(const ::executorch::runtime::EValue& v, size_t index,
                          const PrintOptions& p, ::executorch::extension::MemoryBudget* budget);

} // namespace et_run
