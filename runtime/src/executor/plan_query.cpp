#include "executor/plan_query.h"

#include <cstring>

namespace executorch {
namespace runtime {
namespace internal {

namespace fb = executorch_flatbuffer;

bool is_op(const fb::Operator* op, const char* name, const char* overload) {
  const char* ov = op->overload() != nullptr ? op->overload()->c_str() : "";
  return std::strcmp(op->name()->c_str(), name) == 0 && std::strcmp(ov, overload) == 0;
}

const fb::KernelCall* call_of(const MethodState* ms, uint32_t i, const char* name,
                              const char* overload) {
  const fb::Instruction* in = ms->plan->chains()->Get(0)->instructions()->Get(i);
  const auto* call = in->instr_args_as_KernelCall();
  if (call == nullptr || call->args() == nullptr) return nullptr;
  return is_op(ms->plan->operators()->Get(uint32_t(call->op_index())), name, overload) ? call
                                                                                       : nullptr;
}

const fb::Tensor* fb_tensor(const MethodState* ms, int32_t vi) {
  const auto* v = ms->plan->values()->Get(uint32_t(vi));
  return v->val_type() == fb::KernelTypes::Tensor ? v->val_as_Tensor() : nullptr;
}

bool plan_names_op(const fb::ExecutionPlan* plan, const char* name, const char* overload) {
  const auto* ops = plan->operators();
  for (uint32_t i = 0; ops != nullptr && i < ops->size(); ++i) {
    if (is_op(ops->Get(i), name, overload)) return true;
  }
  return false;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
