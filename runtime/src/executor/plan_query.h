// Questions the load-time passes ask of a method's plan: which operator an
// instruction calls, and what a value is in the file.
#pragma once

#include <cstdint>

#include "executor/method_state.h"

namespace executorch {
namespace runtime {
namespace internal {

// Whether op is name.overload ("aten::convolution", "out").
bool is_op(const executorch_flatbuffer::Operator* op, const char* name, const char* overload);

// The KernelCall at instruction i of chain 0 when it calls name.overload
// with an argument list; null otherwise.
const executorch_flatbuffer::KernelCall* call_of(const MethodState* ms, uint32_t i,
                                                 const char* name, const char* overload);

// Value vi as the file describes it, when it is a tensor; null otherwise.
const executorch_flatbuffer::Tensor* fb_tensor(const MethodState* ms, int32_t vi);

// Whether any operator of the plan is name.overload.
bool plan_names_op(const executorch_flatbuffer::ExecutionPlan* plan, const char* name,
                   const char* overload);

} // namespace internal
} // namespace runtime
} // namespace executorch
