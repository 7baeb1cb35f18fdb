// When each value of a straight-line method is in use: the first and last
// instruction that names it. Load-time passes (method_fold_bn.cpp) use it to
// tell whether two planned tensors that share bytes are ever needed at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "program_generated.h"

namespace executorch {
namespace runtime {
namespace internal {

// Instructions first..last name the value (both inclusive). A method input
// is in use from -1, before instruction 0; a method output until n, after
// the last instruction. A value nothing names has used == false.
struct ValueLifetime {
  bool used = false;
  int64_t first = 0;
  int64_t last = 0;

  // Whether the value is in use at some instruction of [lo, hi].
  bool live_in(int64_t lo, int64_t hi) const { return used && first <= hi && last >= lo; }
};

// Whether the plan's instructions run in their order, each once: a single
// chain of kernel and delegate calls (no jumps, moves or frees).
bool is_straight_line(const executorch_flatbuffer::ExecutionPlan* plan);

// Fills (*out)[v] for every value v of a straight-line plan. An argument
// that is a TensorList or OptionalTensorList names each of its tensors too.
// False (and *out left empty) when the plan is not straight-line or names a
// value out of range.
bool compute_value_lifetimes(const executorch_flatbuffer::ExecutionPlan* plan,
                             std::vector<ValueLifetime>* out);

} // namespace internal
} // namespace runtime
} // namespace executorch
