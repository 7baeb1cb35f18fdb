// Layout kernels on constants, run once at load. The exporter leaves
// permute_copy of constant weights in front of linear layers (and of
// recurrent cells, once per step); recomputing those transposes on every
// execute cost up to a fifth of a small model's time. Such a call's output
// gets memory of its own from the method allocator, the call runs now, and
// its slot becomes a no-op. Only a call whose output nothing else can touch
// is folded: a planned, static tensor that is no method input or output and
// no MoveCall or FreeCall target. Anything else, or no memory, or a kernel
// error, leaves the call as it was.
#include <executorch/runtime/platform/log.h>

#include "executor/method_state.h"
#include "executor/plan_query.h"
#include "executor/program_validation.h"

namespace executorch {
namespace runtime {
namespace internal {

namespace fb = executorch_flatbuffer;

namespace {

void already_folded(KernelRuntimeContext&, Span<EValue*>) {}

bool is_constant(const fb::Tensor* t) {
  return t != nullptr && t->allocation_info() == nullptr && t->data_buffer_idx() > 0 &&
         !is_external(t);
}

bool listed(const flatbuffers::Vector<int32_t>* list, int32_t vi) {
  for (uint32_t i = 0; list != nullptr && i < list->size(); ++i) {
    if (list->Get(i) == vi) return true;
  }
  return false;
}

// No instruction but the producer rebinds or frees value vi.
bool only_kernels_touch(const MethodState* ms, int32_t vi) {
  const auto* chains = ms->plan->chains();
  for (uint32_t c = 0; c < chains->size(); ++c) {
    const auto* instrs = chains->Get(c)->instructions();
    for (uint32_t i = 0; instrs != nullptr && i < instrs->size(); ++i) {
      const fb::Instruction* in = instrs->Get(i);
      if (in->instr_args_type() == fb::InstructionArguments::MoveCall &&
          in->instr_args_as_MoveCall()->move_to() == vi) {
        return false;
      }
      if (in->instr_args_type() == fb::InstructionArguments::FreeCall &&
          int32_t(in->instr_args_as_FreeCall()->value_index()) == vi) {
        return false;
      }
    }
  }
  return true;
}

// The output value index of a foldable call, or -1: (constant, dims, out,
// out...) with a private planned static output.
int32_t foldable_output(const MethodState* ms, const fb::KernelCall* call) {
  const auto* args = call->args();
  if (args == nullptr || args->size() < 3 || !is_constant(fb_tensor(ms, args->Get(0)))) return -1;
  const int32_t out = args->Get(2);
  for (uint32_t k = 3; k < args->size(); ++k) {
    if (args->Get(k) != out) return -1;
  }
  const fb::Tensor* t = fb_tensor(ms, out);
  if (t == nullptr || t->allocation_info() == nullptr || t->data_buffer_idx() > 0 ||
      t->shape_dynamism() != fb::TensorShapeDynamism::STATIC || listed(ms->plan->inputs(), out) ||
      listed(ms->plan->outputs(), out) || !only_kernels_touch(ms, out)) {
    return -1;
  }
  return out;
}

// Gives the call's output its own memory and runs the call; true if folded.
bool fold_call(MethodState* ms, InstructionSlot* slot, int32_t out) {
  ::executorch::aten::TensorImpl* impl = ms->values[out].toTensor().unsafeGetTensorImpl();
  const size_t nbytes = impl->nbytes();
  void* own = ms->memory->method_allocator()->allocate(nbytes == 0 ? 1 : nbytes, 64);
  if (own == nullptr) return false;
  void* planned = impl->mutable_data();
  impl->set_data(own);
  KernelRuntimeContext ctx(ms->tracer, ms->temp);
  slot->op(ctx, slot->args);
  if (ms->temp != nullptr) ms->temp->reset();
  if (ctx.failure_state() != Error::Ok) {
    impl->set_data(planned); // it fails again, and is reported, when run
    return false;
  }
  slot->op = already_folded;
  return true;
}

} // namespace

size_t fold_constant_layouts(MethodState* ms) {
  size_t folded = 0;
  const auto* chains = ms->plan->chains();
  for (uint32_t c = 0; c < ms->n_chains; ++c) {
    const auto* instrs = chains->Get(c)->instructions();
    for (uint32_t i = 0; instrs != nullptr && i < instrs->size(); ++i) {
      const fb::Instruction* in = instrs->Get(i);
      if (in->instr_args_type() != fb::InstructionArguments::KernelCall) continue;
      const auto* call = in->instr_args_as_KernelCall();
      if (!is_op(ms->plan->operators()->Get(uint32_t(call->op_index())), "aten::permute_copy",
                 "out")) {
        continue;
      }
      const int32_t out = foldable_output(ms, call);
      InstructionSlot* slot = &ms->instructions[ms->chain_start[c] + i];
      if (out >= 0 && slot->op != nullptr && fold_call(ms, slot, out)) ++folded;
    }
  }
  if (folded > 0) {
    ET_LOG(Debug, "Method '%s': %zu layout call(s) on constants folded at load",
           ms->plan->name()->c_str(), folded);
  }
  return folded;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
