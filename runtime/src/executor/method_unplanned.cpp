#include "executor/method_unplanned.h"

#include <cstring>
#include <vector>

#include <executorch/runtime/platform/log.h>

#include "executor/program_validation.h"

namespace executorch {
namespace runtime {
namespace internal {

namespace fb = executorch_flatbuffer;

namespace {

template <typename V>
uint32_t vsize(const V* v) {
  return v == nullptr ? 0 : v->size();
}

// A tensor whose data comes from nowhere in the file: not planned, not a
// constant, not external, and with bytes to hold.
bool is_dataless(const fb::EValue* ev) {
  if (ev->val_type() != fb::KernelTypes::Tensor) {
    return false;
  }
  const fb::Tensor* t = ev->val_as_Tensor();
  if (t->allocation_info() != nullptr || t->data_buffer_idx() != 0 || is_external(t)) {
    return false;
  }
  auto nbytes = tensor_nbytes(t);
  return nbytes.ok() && *nbytes > 0;
}

// Whether the kernel points its result at existing data rather than writing
// into it (executorch_prim::et_view).
bool is_view_kernel(const fb::ExecutionPlan* plan, int32_t op_index) {
  const auto* op = plan->operators()->Get(uint32_t(op_index));
  const char* name = op->name()->c_str();
  const size_t n = std::strlen(name);
  return n >= 7 && std::strcmp(name + n - 7, "et_view") == 0;
}

void mark(std::vector<bool>* given, int32_t vi) {
  if (vi >= 0 && size_t(vi) < given->size()) {
    (*given)[size_t(vi)] = true;
  }
}

// Values that receive data at run time (see the header).
std::vector<bool> values_given_data(const fb::ExecutionPlan* plan) {
  std::vector<bool> given(vsize(plan->values()), false);
  for (uint32_t i = 0; i < vsize(plan->inputs()); ++i) mark(&given, plan->inputs()->Get(i));
  for (uint32_t i = 0; i < vsize(plan->outputs()); ++i) mark(&given, plan->outputs()->Get(i));
  for (uint32_t c = 0; c < vsize(plan->chains()); ++c) {
    const auto* instrs = plan->chains()->Get(c)->instructions();
    for (uint32_t k = 0; k < vsize(instrs); ++k) {
      const fb::Instruction* in = instrs->Get(k);
      if (const auto* mv = in->instr_args_as_MoveCall()) {
        mark(&given, mv->move_to());
      } else if (const auto* dc = in->instr_args_as_DelegateCall()) {
        for (uint32_t a = 0; a < vsize(dc->args()); ++a) mark(&given, dc->args()->Get(a));
      } else if (const auto* kc = in->instr_args_as_KernelCall()) {
        if (vsize(kc->args()) > 0 && is_view_kernel(plan, kc->op_index())) {
          mark(&given, kc->args()->Get(vsize(kc->args()) - 1));
        }
      }
    }
  }
  return given;
}

// The value of a kernel argument, or of an entry of a tensor list argument,
// that can never have data; -1 when there is none.
int32_t dataless_in(const fb::ExecutionPlan* plan, const std::vector<bool>& given, int32_t vi) {
  const auto* values = plan->values();
  const fb::EValue* ev = values->Get(uint32_t(vi));
  const flatbuffers::Vector<int32_t>* items = nullptr;
  if (ev->val_type() == fb::KernelTypes::TensorList) {
    items = ev->val_as_TensorList()->items();
  } else if (ev->val_type() == fb::KernelTypes::OptionalTensorList) {
    items = ev->val_as_OptionalTensorList()->items();
  } else {
    return !given[size_t(vi)] && is_dataless(ev) ? vi : -1;
  }
  for (uint32_t i = 0; i < vsize(items); ++i) {
    const int32_t item = items->Get(i);
    if (item >= 0 && !given[size_t(item)] && is_dataless(values->Get(uint32_t(item)))) {
      return item;
    }
  }
  return -1;
}

} // namespace

Error check_unplanned_tensors(const fb::ExecutionPlan* plan) {
  if (vsize(plan->values()) == 0) {
    return Error::Ok;
  }
  const std::vector<bool> given = values_given_data(plan);
  for (uint32_t c = 0; c < vsize(plan->chains()); ++c) {
    const auto* instrs = plan->chains()->Get(c)->instructions();
    for (uint32_t k = 0; k < vsize(instrs); ++k) {
      const auto* kc = instrs->Get(k)->instr_args_as_KernelCall();
      if (kc == nullptr) {
        continue;
      }
      for (uint32_t a = 0; a < vsize(kc->args()); ++a) {
        const int32_t bad = dataless_in(plan, given, kc->args()->Get(a));
        if (bad < 0) {
          continue;
        }
        const auto* op = plan->operators()->Get(uint32_t(kc->op_index()));
        const char* overload = op->overload() == nullptr ? "" : op->overload()->c_str();
        ET_LOG(Error,
               "Method '%s': value %d (argument %u of %s%s%s, instruction %u of chain %u) is a "
               "tensor that is not memory-planned, constant or external, nor a method input or "
               "output, so it never has data",
               plan->name()->c_str(), bad, a, op->name()->c_str(), *overload ? "." : "", overload,
               k, c);
        return Error::InvalidProgram;
      }
    }
  }
  return Error::Ok;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
