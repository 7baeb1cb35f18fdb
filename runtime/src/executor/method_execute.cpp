// Runs a method's instructions: kernels, delegates, moves, conditional
// jumps and frees, under a cap on instructions and one on element work.
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/platform/log.h>

#include "core/checked_math.h"
#include "executor/method_state.h"

namespace executorch {
namespace runtime {
namespace internal {

namespace fb = executorch_flatbuffer;
using ::executorch::aten::ScalarType;

namespace {

// Upstream's cap on instructions per run; a jump loop stops here.
constexpr size_t kMaxInstructionsPerRun = 10000000;

// A Bool value, or a Bool tensor whose elements are all true.
Result<bool> condition_value(const EValue& v) {
  if (v.isBool()) {
    return v.toBool();
  }
  if (v.isTensor()) {
    const auto& t = v.toTensor();
    ET_CHECK_OR_RETURN_ERROR(t.scalar_type() == ScalarType::Bool, InvalidProgram,
                             "JumpFalse condition tensor has dtype %d, not Bool",
                             int(t.scalar_type()));
    // Bytes, not bool: the data may come from a file and hold any value.
    const uint8_t* data = static_cast<const uint8_t*>(t.const_data_ptr());
    ET_CHECK_OR_RETURN_ERROR(data != nullptr || t.numel() == 0, InvalidState,
                             "JumpFalse condition tensor has no data");
    for (ssize_t i = 0; i < t.numel(); ++i) {
      if (data[i] == 0) return false;
    }
    return true;
  }
  ET_LOG(Error, "JumpFalse condition is neither a Bool nor a Bool tensor (tag %u)",
         unsigned(v.tag));
  return Error::InvalidProgram;
}

// Counts a call's work against the run's budget: a jump loop around big
// kernels stops after a bounded amount of computation, not 10M calls.
Error charge_work(MethodState* ms, Span<EValue*> args, uint64_t* work, size_t pc) {
  *work = saturating_add(*work, call_work(args));
  if (*work > ms->work_budget) {
    ET_LOG(Error,
           "Method '%s' did more than %llu element operations at instruction %zu, "
           "over its budget (a jump loop?)",
           ms->plan->name()->c_str(), (unsigned long long)ms->work_budget, pc);
    return Error::InvalidState;
  }
  return Error::Ok;
}

// Runs instruction pc of chain c; *next is the instruction to run after it.
Error run_instruction(MethodState* ms, size_t c, size_t pc, RunCounters* counters, size_t* next) {
  const auto* instrs = ms->plan->chains()->Get(uint32_t(c))->instructions();
  const char* method_name = ms->plan->name()->c_str();
  const fb::Instruction* in = instrs->Get(uint32_t(pc));
  InstructionSlot& slot = ms->instructions[ms->chain_start[c] + pc];
  *next = pc + 1;
  switch (in->instr_args_type()) {
    case fb::InstructionArguments::KernelCall: {
      ET_CHECK_OK_OR_RETURN_ERROR(charge_work(ms, slot.args, &counters->work, pc));
      KernelRuntimeContext ctx(ms->tracer, ms->temp);
      slot.op(ctx, slot.args);
      if (ctx.failure_state() != Error::Ok) {
        ET_LOG(Error, "Kernel at instruction %zu of '%s' failed: error 0x%x", pc, method_name,
               unsigned(ctx.failure_state()));
        return ctx.failure_state();
      }
      break;
    }
    case fb::InstructionArguments::DelegateCall: {
      ET_CHECK_OK_OR_RETURN_ERROR(charge_work(ms, slot.args, &counters->work, pc));
      const auto idx = in->instr_args_as_DelegateCall()->delegate_index();
      DelegateSlot& d = ms->delegates[idx];
      BackendExecutionContext ctx(ms->tracer, ms->temp, method_name);
      const Error e = d.backend->execute(ctx, d.handle, slot.args);
      if (e != Error::Ok) {
        ET_LOG(Error, "Delegate %d at instruction %zu of '%s' failed: error 0x%x", int(idx), pc,
               method_name, unsigned(e));
        return e;
      }
      break;
    }
    case fb::InstructionArguments::MoveCall: {
      const auto* m = in->instr_args_as_MoveCall();
      ms->values[m->move_to()] = ms->values[m->move_from()];
      break;
    }
    case fb::InstructionArguments::JumpFalseCall: {
      const auto* j = in->instr_args_as_JumpFalseCall();
      auto cond = condition_value(ms->values[j->cond_value_index()]);
      ET_CHECK_OK_OR_RETURN_ERROR(cond.error());
      if (!*cond) {
        *next = size_t(j->destination_instruction());
      }
      break;
    }
    case fb::InstructionArguments::FreeCall: {
      EValue& v = ms->values[in->instr_args_as_FreeCall()->value_index()];
      ET_CHECK_OR_RETURN_ERROR(v.isTensor(), InvalidProgram,
                               "FreeCall at instruction %zu on a non-tensor", pc);
      v.toTensor().unsafeGetTensorImpl()->set_data(nullptr);
      break;
    }
    default:
      ET_LOG(Error, "Unknown instruction type %d", int(in->instr_args_type()));
      return Error::InvalidProgram;
  }
  return Error::Ok;
}

size_t chain_length(const MethodState* ms, size_t c) {
  const auto* instrs = ms->plan->chains()->Get(uint32_t(c))->instructions();
  return instrs == nullptr ? 0 : instrs->size();
}

// Counts one more instruction against the per-run cap.
Error count_instruction(const MethodState* ms, RunCounters* counters) {
  if (++counters->executed > kMaxInstructionsPerRun) {
    ET_LOG(Error, "Method '%s' hit the instruction limit of %zu", ms->plan->name()->c_str(),
           kMaxInstructionsPerRun);
    return Error::InvalidState;
  }
  return Error::Ok;
}

void reset_temp_memory(MethodState* ms) {
  if (ms->temp != nullptr) {
    ms->temp->reset();
  }
}

// One instruction; as upstream, kernel scratch memory lives for that
// instruction alone: the temp allocator is reset after it, failed or not.
Error run_one_instruction(MethodState* ms, size_t c, size_t pc, RunCounters* counters,
                          size_t* next) {
  const Error err = run_instruction(ms, c, pc, counters, next);
  reset_temp_memory(ms);
  return err;
}

Error run_chain(MethodState* ms, size_t c, RunCounters* counters) {
  const size_t n = chain_length(ms, c);
  size_t pc = 0;
  while (pc < n) {
    ET_CHECK_OK_OR_RETURN_ERROR(count_instruction(ms, counters));
    size_t next = pc;
    ET_CHECK_OK_OR_RETURN_ERROR(run_one_instruction(ms, c, pc, counters, &next));
    pc = next;
  }
  return Error::Ok;
}

} // namespace

uint64_t call_work(Span<EValue*> args) {
  uint64_t work = 1;
  for (EValue* a : args) {
    if (a->isTensor()) {
      work = saturating_add(work, uint64_t(a->toTensor().numel()));
    }
  }
  return work;
}

Error execute_method(MethodState* ms) {
  RunCounters counters;
  Error err = Error::Ok;
  // As upstream: reset before the run, and after each instruction.
  reset_temp_memory(ms);
  for (size_t c = 0; c < ms->n_chains && err == Error::Ok; ++c) {
    err = run_chain(ms, c, &counters);
  }
  return err;
}

Error step_method(MethodState* ms) {
  StepState& st = ms->step;
  if (st.chain >= ms->n_chains) {
    return Error::EndOfMethod;
  }
  const size_t n = chain_length(ms, st.chain);
  if (st.pc < n) {
    ET_CHECK_OK_OR_RETURN_ERROR(count_instruction(ms, &st.counters));
    size_t next = st.pc;
    ET_CHECK_OK_OR_RETURN_ERROR(run_one_instruction(ms, st.chain, st.pc, &st.counters, &next));
    st.pc = next;
  }
  if (st.pc >= n) {
    st.chain += 1;
    st.pc = 0;
  }
  return Error::Ok;
}

} // namespace internal
} // namespace runtime
} // namespace executorch
