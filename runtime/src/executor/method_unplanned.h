// Load-time check that every tensor a kernel call reads or writes can have
// data when the method runs. A tensor that is neither memory-planned, nor
// constant, nor external has data only when something gives it some: the
// caller (a method input or output), a MoveCall, a delegate, or a view
// kernel (executorch_prim::et_view) pointing its result into its input.
// A kernel argument that none of these reaches would fail every run with
// "argument N has no data"; Program::load_method refuses it up front.
#pragma once

#include <executorch/runtime/core/error.h>

#include "program_generated.h"

namespace executorch {
namespace runtime {
namespace internal {

// InvalidProgram, naming the value and the call, when a kernel argument is a
// tensor with bytes that nothing can give data (see above). The plan must
// have passed validate_program.
Error check_unplanned_tensors(const executorch_flatbuffer::ExecutionPlan* plan);

} // namespace internal
} // namespace runtime
} // namespace executorch
