// Everything a loaded Method owns. It lives in the caller's method
// allocator; ~MethodState releases delegates and loaded external data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <executorch/extension/named_data_map/merged_data_map.h>
#include <executorch/runtime/backend/backend_options_map.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/executor/memory_manager.h>
#include <executorch/runtime/kernel/operator_registry.h>

#include "executor/platform_temp_allocator.h"
#include "program_generated.h"

namespace executorch {
namespace runtime {
namespace internal {

struct ProgramState;

struct DelegateSlot {
  BackendInterface* backend = nullptr;
  DelegateHandle* handle = nullptr;
  FreeableBuffer processed;
  CompileSpec* specs = nullptr;
};

// A KernelCall or DelegateCall with its arguments resolved to EValue*.
struct InstructionSlot {
  OpFunction op = nullptr;
  Span<EValue*> args;
};

// What one run has done so far, against the instruction and work caps.
struct RunCounters {
  size_t executed = 0;
  uint64_t work = 0;
};

struct StepState {
  size_t chain = 0;
  size_t pc = 0;
  RunCounters counters;
};

struct MethodState {
  MethodState(const ProgramState* p, const executorch_flatbuffer::ExecutionPlan* pl,
              MemoryManager* m, EventTracer* t)
      : program(p),
        plan(pl),
        memory(m),
        tracer(t),
        temp(m->temp_allocator() != nullptr ? m->temp_allocator() : &platform_temp) {}
  ~MethodState();
  MethodState(const MethodState&) = delete;
  MethodState& operator=(const MethodState&) = delete;

  const ProgramState* program;
  const executorch_flatbuffer::ExecutionPlan* plan;
  MemoryManager* memory;
  EventTracer* tracer;
  // Kernel scratch memory: the MemoryManager's temp allocator, or (without
  // one) platform_temp, from et_pal_allocate (as upstream).
  PlatformTempAllocator platform_temp;
  MemoryAllocator* temp;
  // The caller's named data beside the program's own (nullptr: neither).
  const NamedDataMap* named_data = nullptr;
  std::optional<::executorch::extension::merged_data_map::MergedDataMap> merged_data;

  EValue* values = nullptr;
  size_t n_values = 0;
  // Each method input's value as loaded. A MoveCall may rebind an input slot
  // to another value while running; set_input rebinds it to its own value
  // first, so that it never writes into whatever was moved there.
  EValue* loaded_inputs = nullptr;
  size_t n_inputs = 0;
  // Whether each input was given (set_input, set_inputs) or handed out for
  // the caller to fill (get_input, mutable_input, get_inputs), as upstream
  // tracks it: execute() refuses to run while one is not. Once set, stays set.
  bool* input_set = nullptr;
  // Instructions of all chains back to back; chain c starts at chain_start[c].
  InstructionSlot* instructions = nullptr;
  size_t n_instructions = 0;
  size_t* chain_start = nullptr;
  size_t n_chains = 0;
  // Element work one execute() may do (method_execute.cpp): a multiple of
  // what running every kernel and delegate call once costs.
  uint64_t work_budget = 0;
  DelegateSlot* delegates = nullptr;
  size_t n_delegates_initialized = 0;
  // External tensor data kept alive while the method lives.
  FreeableBuffer* external_data = nullptr;
  size_t n_external_data = 0;
  // Where Method::step() is: chain, instruction, what it has run so far.
  StepState step;
};

// Builds a MethodState in memory->method_allocator(). On failure everything
// acquired so far is released.
Result<MethodState*> load_method_state(const ProgramState* program,
                                       const executorch_flatbuffer::ExecutionPlan* plan,
                                       MemoryManager* memory, EventTracer* tracer,
                                       const NamedDataMap* named_data_map,
                                       const LoadBackendOptionsMap* backend_options,
                                       Span<const Kernel> kernel_registry);

// Fills values[]; tensors get their data (planned, constant, external).
Error parse_values(MethodState* ms);

// Element work of one kernel or delegate call: the elements of its tensor
// arguments, and 1 for the call itself.
uint64_t call_work(Span<EValue*> args);

// Runs the layout kernels whose input is a constant (permute_copy of
// weights) once, now, and makes their slots no-ops (method_fold.cpp).
// Returns how many it folded; a call it cannot fold is left to run.
size_t fold_constant_layouts(MethodState* ms);

// Folds each inference batch norm into the convolution that feeds it:
// scaled weights and bias of the method's own, the convolution writes the
// batch norm's output, the batch norm's slot a no-op (method_fold_bn.cpp).
// Only in a straight-line method, and only where that cannot overwrite a
// tensor still in use. Returns how many it folded.
size_t fold_conv_batch_norms(MethodState* ms);

// Points calls whose unread outputs a built-in variant kernel can skip at
// that variant (method_rewrite.cpp). Returns how many it changed.
size_t use_variants_for_unread_outputs(MethodState* ms);

// Runs every chain. Bounded by kMaxInstructionsPerRun executed instructions
// and by ms->work_budget, so a jump loop cannot run for hours.
Error execute_method(MethodState* ms);
// Runs the next instruction (Method::step); EndOfMethod when all have run.
Error step_method(MethodState* ms);

} // namespace internal
} // namespace runtime
} // namespace executorch
