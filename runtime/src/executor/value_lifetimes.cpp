// First and last use of each value of a straight-line method.
#include "executor/value_lifetimes.h"

namespace executorch {
namespace runtime {
namespace internal {

namespace fb = executorch_flatbuffer;

namespace {

void touch(std::vector<ValueLifetime>* lt, size_t v, int64_t at) {
  ValueLifetime& l = (*lt)[v];
  if (!l.used) {
    l.used = true;
    l.first = at;
    l.last = at;
    return;
  }
  if (at < l.first) l.first = at;
  if (at > l.last) l.last = at;
}

// The tensors a list value names, or nullptr when it is no tensor list.
const flatbuffers::Vector<int32_t>* list_items(const fb::EValue* ev) {
  if (ev->val_type() == fb::KernelTypes::TensorList) {
    return ev->val_as_TensorList()->items();
  }
  if (ev->val_type() == fb::KernelTypes::OptionalTensorList) {
    return ev->val_as_OptionalTensorList()->items();
  }
  return nullptr;
}

// Marks value v, and the tensors it lists, in use at instruction `at`.
bool touch_arg(const fb::ExecutionPlan* plan, std::vector<ValueLifetime>* lt, int64_t v,
               int64_t at) {
  const size_t n = lt->size();
  if (v < 0 || size_t(v) >= n) return false;
  touch(lt, size_t(v), at);
  const fb::EValue* ev = plan->values()->Get(uint32_t(v));
  const auto* items = ev == nullptr ? nullptr : list_items(ev);
  for (uint32_t k = 0; items != nullptr && k < items->size(); ++k) {
    const int32_t item = items->Get(k);
    if (item < 0) continue; // an absent optional tensor
    if (size_t(item) >= n) return false;
    touch(lt, size_t(item), at);
  }
  return true;
}

bool touch_all(const fb::ExecutionPlan* plan, std::vector<ValueLifetime>* lt,
               const flatbuffers::Vector<int32_t>* vs, int64_t at) {
  for (uint32_t k = 0; vs != nullptr && k < vs->size(); ++k) {
    if (!touch_arg(plan, lt, vs->Get(k), at)) return false;
  }
  return true;
}

} // namespace

bool is_straight_line(const fb::ExecutionPlan* plan) {
  const auto* chains = plan->chains();
  if (chains == nullptr || chains->size() != 1) return false;
  const auto* instrs = chains->Get(0)->instructions();
  for (uint32_t i = 0; instrs != nullptr && i < instrs->size(); ++i) {
    const auto type = instrs->Get(i)->instr_args_type();
    if (type != fb::InstructionArguments::KernelCall &&
        type != fb::InstructionArguments::DelegateCall) {
      return false;
    }
  }
  return true;
}

bool compute_value_lifetimes(const fb::ExecutionPlan* plan, std::vector<ValueLifetime>* out) {
  out->clear();
  if (plan->values() == nullptr || !is_straight_line(plan)) return false;
  std::vector<ValueLifetime> lt(plan->values()->size());
  const auto* instrs = plan->chains()->Get(0)->instructions();
  const int64_t n = instrs == nullptr ? 0 : int64_t(instrs->size());
  for (int64_t i = 0; i < n; ++i) {
    const fb::Instruction* in = instrs->Get(uint32_t(i));
    const flatbuffers::Vector<int32_t>* args = nullptr;
    if (const auto* call = in->instr_args_as_KernelCall()) {
      args = call->args();
    } else if (const auto* dcall = in->instr_args_as_DelegateCall()) {
      args = dcall->args();
    } else {
      return false;
    }
    if (!touch_all(plan, &lt, args, i)) return false;
  }
  // Inputs are written before the first instruction, outputs read after
  // the last: both ends count as uses.
  if (!touch_all(plan, &lt, plan->inputs(), -1) || !touch_all(plan, &lt, plan->outputs(), n)) {
    return false;
  }
  *out = std::move(lt);
  return true;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
