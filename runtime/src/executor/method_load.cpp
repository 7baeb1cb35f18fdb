// Program::load_method: values, delegates and the kernel table of a method,
// all allocated from the caller's method allocator.
#include <cstdio>
#include <cstring>
#include <new>

#include <executorch/runtime/backend/native_code_policy.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/log.h>

#include "core/checked_math.h"
#include "executor/method_state.h"
#include "executor/program_state.h"
#include "executor/program_validation.h"

namespace executorch {
namespace runtime {
namespace internal {

namespace fb = executorch_flatbuffer;

MethodState::~MethodState() {
  for (size_t i = n_delegates_initialized; i-- > 0;) {
    DelegateSlot& d = delegates[i];
    if (d.backend != nullptr) {
      d.backend->destroy(d.handle);
    }
    d.~DelegateSlot();
  }
  for (size_t i = 0; i < n_external_data; ++i) {
    external_data[i].~FreeableBuffer();
  }
}

namespace {

// Checked before the backend is looked up or sees the payload, so a refused
// program fails the same way whether or not its backend is installed.
Error check_native_code_policy(const char* id, uint32_t index) {
  if (!backend_runs_native_code(id) || !refuses_native_code()) {
    return Error::Ok;
  }
  ET_LOG(Error,
         "Delegate %u for backend '%s' carries native code, which this process refuses "
         "(set_refuse_native_code / EXECUTORCH_REFUSE_NATIVE_CODE)",
         index, id);
  return Error::NotSupported;
}

Error init_delegate(MethodState* ms, uint32_t index, const LoadBackendOptionsMap* backend_options) {
  const ProgramState* ps = ms->program;
  MemoryAllocator* alloc = ms->memory->method_allocator();
  const fb::BackendDelegate* d = ms->plan->delegates()->Get(index);
  const char* id = d->id()->c_str();
  ET_CHECK_OK_OR_RETURN_ERROR(check_native_code_policy(id, index));
  BackendInterface* backend = get_backend_class(id);
  ET_CHECK_OR_RETURN_ERROR(backend != nullptr, NotFound,
                           "Backend '%s' (delegate %u) is not registered", id, index);
  ET_CHECK_OR_RETURN_ERROR(backend->is_available(), DelegateInvalidCompatibility,
                           "Backend '%s' is not available on this system", id);

  FreeableBuffer processed;
  const uint32_t data_index = d->processed()->index();
  if (d->processed()->location() == fb::DataLocation::INLINE) {
    const auto* data = ps->fb->backend_delegate_data()->Get(data_index)->data();
    processed = FreeableBuffer(data->data(), data->size(), nullptr);
  } else {
    const auto* seg = ps->fb->segments()->Get(data_index);
    auto loaded = ps->loader->load(
        ps->segment_base_offset + seg->offset(), seg->size(),
        DataLoader::SegmentInfo(DataLoader::SegmentInfo::Type::Backend, data_index, id));
    ET_CHECK_OK_OR_RETURN_ERROR(loaded.error(), "Cannot load segment %u for '%s'", data_index, id);
    processed = std::move(*loaded);
  }

  const auto* fb_specs = d->compile_specs();
  const size_t n_specs = fb_specs == nullptr ? 0 : fb_specs->size();
  CompileSpec* specs = alloc->allocateList<CompileSpec>(n_specs == 0 ? 1 : n_specs);
  ET_CHECK_OR_RETURN_ERROR(specs != nullptr, MemoryAllocationFailed,
                           "Method allocator is out of memory for compile specs");
  for (uint32_t i = 0; i < n_specs; ++i) {
    const auto* s = fb_specs->Get(i);
    specs[i].key = s->key()->c_str();
    specs[i].value.buffer =
        s->value() == nullptr ? nullptr : const_cast<uint8_t*>(s->value()->data());
    specs[i].value.nbytes = s->value() == nullptr ? 0 : s->value()->size();
  }

  Span<const BackendOption> runtime_specs;
  if (backend_options != nullptr) {
    runtime_specs = backend_options->get_options(id);
  }
  BackendInitContext ctx(alloc, ms->tracer, ms->plan->name()->c_str(), ms->named_data,
                         runtime_specs);
  DelegateSlot* slot = new (&ms->delegates[index]) DelegateSlot();
  slot->processed = std::move(processed);
  slot->specs = specs;
  auto handle = backend->init(ctx, &slot->processed, ArrayRef<CompileSpec>(specs, n_specs));
  if (!handle.ok()) {
    slot->~DelegateSlot();
    ET_LOG(Error, "Backend '%s' failed to initialize delegate %u: error 0x%x", id, index,
           unsigned(handle.error()));
    return handle.error();
  }
  slot->backend = backend;
  slot->handle = *handle;
  ms->n_delegates_initialized = index + 1;
  return Error::Ok;
}

// Operator name and overload as the registry spells them: "aten::add.out".
void operator_name(const fb::Operator* op, char* buf, size_t n) {
  const auto* ov = op->overload();
  if (ov == nullptr || ov->size() == 0) {
    std::snprintf(buf, n, "%s", op->name()->c_str());
  } else {
    std::snprintf(buf, n, "%s.%s", op->name()->c_str(), ov->c_str());
  }
}

Error resolve_args(MethodState* ms, const flatbuffers::Vector<int32_t>* args, Span<EValue*>* out) {
  const size_t n = args == nullptr ? 0 : args->size();
  EValue** ptrs = ms->memory->method_allocator()->allocateList<EValue*>(n == 0 ? 1 : n);
  ET_CHECK_OR_RETURN_ERROR(ptrs != nullptr, MemoryAllocationFailed,
                           "Method allocator is out of memory for arguments");
  for (uint32_t i = 0; i < n; ++i) {
    ptrs[i] = &ms->values[args->Get(i)];
  }
  *out = Span<EValue*>(ptrs, n);
  return Error::Ok;
}

Error resolve_kernel(MethodState* ms, const fb::KernelCall* call, InstructionSlot* slot,
                     Span<const Kernel> kernel_registry) {
  ET_CHECK_OK_OR_RETURN_ERROR(resolve_args(ms, call->args(), &slot->args));
  char name[kMaxOperatorNameLength];
  operator_name(ms->plan->operators()->Get(uint32_t(call->op_index())), name, sizeof(name));
  // The tensor arguments' dtypes and dim orders select a kernel by key.
  constexpr size_t kLocalMetas = 32;
  TensorMeta local[kLocalMetas];
  size_t n_tensors = 0;
  for (EValue* a : slot->args) {
    n_tensors += a->isTensor() ? 1 : 0;
  }
  TensorMeta* metas = local;
  if (n_tensors > kLocalMetas) {
    metas = ms->memory->method_allocator()->allocateList<TensorMeta>(n_tensors);
    ET_CHECK_OR_RETURN_ERROR(metas != nullptr, MemoryAllocationFailed,
                             "Method allocator is out of memory for kernel keys");
  }
  size_t m = 0;
  for (EValue* a : slot->args) {
    if (a->isTensor()) {
      const auto& t = a->toTensor();
      metas[m++] = TensorMeta(t.scalar_type(), t.dim_order());
    }
  }
  auto op = get_op_function(name, Span<const TensorMeta>(metas, m), kernel_registry);
  if (!op.ok()) {
    ET_LOG(Error, "Missing operator: %s (method '%s')", name, ms->plan->name()->c_str());
    return Error::OperatorMissing;
  }
  slot->op = *op;
  return Error::Ok;
}

// A run may repeat the method's calls (a loop over a tensor's slices), but
// not without end: kLoopFactor times the work of running each kernel and
// delegate call once, at least kMinWorkBudget (sums saturate at 2^64 - 1).
constexpr uint64_t kLoopFactor = 1024;
constexpr uint64_t kMinWorkBudget = uint64_t(1) << 26;

uint64_t work_budget(uint64_t straight_line_work) {
  uint64_t budget = 0;
  if (__builtin_mul_overflow(straight_line_work, kLoopFactor, &budget)) {
    return UINT64_MAX;
  }
  return budget < kMinWorkBudget ? kMinWorkBudget : budget;
}

Error build_instructions(MethodState* ms, Span<const Kernel> kernel_registry) {
  MemoryAllocator* alloc = ms->memory->method_allocator();
  const auto* chains = ms->plan->chains();
  ms->n_chains = chains == nullptr ? 0 : chains->size();
  ms->chain_start = alloc->allocateList<size_t>(ms->n_chains + 1);
  ET_CHECK_OR_RETURN_ERROR(ms->chain_start != nullptr, MemoryAllocationFailed,
                           "Method allocator is out of memory for chains");
  size_t total = 0;
  for (size_t c = 0; c < ms->n_chains; ++c) {
    ms->chain_start[c] = total;
    const auto* instrs = chains->Get(uint32_t(c))->instructions();
    total += instrs == nullptr ? 0 : instrs->size();
  }
  ms->chain_start[ms->n_chains] = total;
  ms->instructions = alloc->allocateList<InstructionSlot>(total == 0 ? 1 : total);
  ET_CHECK_OR_RETURN_ERROR(ms->instructions != nullptr, MemoryAllocationFailed,
                           "Method allocator is out of memory for %zu instructions", total);
  for (size_t i = 0; i < total; ++i) {
    new (&ms->instructions[i]) InstructionSlot();
  }
  ms->n_instructions = total;
  uint64_t straight_line_work = 0;
  for (size_t c = 0; c < ms->n_chains; ++c) {
    const auto* instrs = chains->Get(uint32_t(c))->instructions();
    for (uint32_t i = 0; instrs != nullptr && i < instrs->size(); ++i) {
      const fb::Instruction* in = instrs->Get(i);
      InstructionSlot* slot = &ms->instructions[ms->chain_start[c] + i];
      if (in->instr_args_type() == fb::InstructionArguments::KernelCall) {
        ET_CHECK_OK_OR_RETURN_ERROR(
            resolve_kernel(ms, in->instr_args_as_KernelCall(), slot, kernel_registry));
      } else if (in->instr_args_type() == fb::InstructionArguments::DelegateCall) {
        ET_CHECK_OK_OR_RETURN_ERROR(
            resolve_args(ms, in->instr_args_as_DelegateCall()->args(), &slot->args));
      }
      straight_line_work = saturating_add(straight_line_work, call_work(slot->args));
    }
  }
  ms->work_budget = work_budget(straight_line_work);
  return Error::Ok;
}

bool has_keys(const NamedDataMap* m) {
  if (m == nullptr) {
    return false;
  }
  auto n = m->get_num_keys();
  return !n.ok() || *n > 0; // an error is reported by the merge
}

// The caller's map and the program's own named data as one map. A key in
// both is an error, as upstream's merge makes it.
Error set_named_data(MethodState* ms, const NamedDataMap* external,
                     const NamedDataMap* program_named) {
  if (!has_keys(external) || !has_keys(program_named)) {
    ms->named_data = has_keys(external) ? external : program_named;
    return Error::Ok;
  }
  const NamedDataMap* maps[] = {external, program_named};
  auto merged = ::executorch::extension::merged_data_map::MergedDataMap::load(maps);
  ET_CHECK_OK_OR_RETURN_ERROR(merged.error(),
                              "Cannot use the named data map with the program's own");
  ms->merged_data.emplace(std::move(*merged));
  ms->named_data = &*ms->merged_data;
  return Error::Ok;
}

Error fill_state(MethodState* ms, const LoadBackendOptionsMap* backend_options,
                 Span<const Kernel> kernel_registry) {
  ET_CHECK_OK_OR_RETURN_ERROR(parse_values(ms));
  const size_t n_delegates = ms->plan->delegates() == nullptr ? 0 : ms->plan->delegates()->size();
  if (n_delegates > 0) {
    ms->delegates = ms->memory->method_allocator()->allocateList<DelegateSlot>(n_delegates);
    ET_CHECK_OR_RETURN_ERROR(ms->delegates != nullptr, MemoryAllocationFailed,
                             "Method allocator is out of memory for delegates");
    for (uint32_t i = 0; i < n_delegates; ++i) {
      ET_CHECK_OK_OR_RETURN_ERROR(init_delegate(ms, i, backend_options));
    }
  }
  ET_CHECK_OK_OR_RETURN_ERROR(build_instructions(ms, kernel_registry));
  fold_constant_layouts(ms);
  fold_conv_batch_norms(ms);
  use_variants_for_unread_outputs(ms);
  return Error::Ok;
}

} // namespace

Result<MethodState*> load_method_state(const ProgramState* program, const fb::ExecutionPlan* plan,
                                       MemoryManager* memory, EventTracer* tracer,
                                       const NamedDataMap* named_data_map,
                                       const LoadBackendOptionsMap* backend_options,
                                       Span<const Kernel> kernel_registry) {
  auto* ms = memory->method_allocator()->allocateInstance<MethodState>();
  ET_CHECK_OR_RETURN_ERROR(ms != nullptr, MemoryAllocationFailed,
                           "Method allocator is out of memory for the method state");
  const NamedDataMap* program_named =
      program->fb->named_data() != nullptr ? &program->named_data : nullptr;
  new (ms) MethodState(program, plan, memory, tracer);
  Error err = set_named_data(ms, named_data_map, program_named);
  if (err == Error::Ok) {
    err = fill_state(ms, backend_options, kernel_registry);
  }
  if (err != Error::Ok) {
    ms->~MethodState();
    return err;
  }
  return ms;
}

} // namespace internal

Result<Method> Program::load_method(const char* method_name, MemoryManager* memory_manager,
                                    EventTracer* event_tracer, const NamedDataMap* named_data_map,
                                    const LoadBackendOptionsMap* backend_options,
                                    Span<const Kernel> kernel_registry) const {
  ET_CHECK_OR_RETURN_ERROR(state_ != nullptr, InvalidState, "Program used after being moved from");
  ET_CHECK_OR_RETURN_ERROR(method_name != nullptr && memory_manager != nullptr &&
                               memory_manager->method_allocator() != nullptr,
                           InvalidArgument, "load_method needs a name and a method allocator");
  const auto* plans = state_->fb->execution_plan();
  for (uint32_t i = 0; i < plans->size(); ++i) {
    if (std::strcmp(plans->Get(i)->name()->c_str(), method_name) == 0) {
      auto ms = internal::load_method_state(state_, plans->Get(i), memory_manager, event_tracer,
                                            named_data_map, backend_options, kernel_registry);
      if (!ms.ok()) {
        return ms.error();
      }
      return Method(*ms);
    }
  }
  ET_LOG(Error, "No method named '%s' in the program", method_name);
  return Error::InvalidArgument;
}

} // namespace runtime
} // namespace executorch
