// Method: one loaded, executable entry point of a Program.
#pragma once

#include <cstddef>
#include <string_view>

#include <executorch/runtime/core/array_ref.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/executor/memory_manager.h>
#include <executorch/runtime/executor/method_meta.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

class Program;

namespace internal {
struct MethodState;
} // namespace internal

class EXECUTORCH_API Method final {
 public:
  Method(Method&& rhs) noexcept;
  Method(const Method&) = delete;
  Method& operator=(const Method&) = delete;
  Method& operator=(Method&&) = delete;
  ~Method();

  // Copies a tensor input into its planned buffer, or aliases the caller's
  // data when the input is not planned. Tag, dtype, rank and sizes must match
  // (bounded dynamic inputs may shrink). Int/Bool/Double inputs must equal
  // the traced value.
  ET_NODISCARD Error set_input(const EValue& input_evalue, size_t input_idx);
  ET_NODISCARD Error set_inputs(const ::executorch::aten::ArrayRef<EValue>& input_evalues);
  // Storage for an output that is not memory-planned.
  ET_NODISCARD Error set_output_data_ptr(void* buffer, size_t size, size_t output_idx);
  // Runs every instruction. On error the method is reset to its start.
  // InvalidState while a step()-driven run is in progress.
  ET_NODISCARD Error execute();

  // Runs the next instruction. EndOfMethod once every instruction has run;
  // then reset_execution() rewinds to the start. An instruction's error is
  // returned and the position stays on it.
  ET_EXPERIMENTAL ET_NODISCARD Error step();
  ET_DEPRECATED ET_NODISCARD Error experimental_step();
  // True between the first step() and the end of the method.
  ET_EXPERIMENTAL ET_NODISCARD bool in_progress() const;
  // Rewinds a step()-driven run that reached the end; InvalidState before.
  ET_EXPERIMENTAL ET_NODISCARD Error reset_execution();
  ET_DEPRECATED ET_NODISCARD Error experimental_reset_execution();
  // Shallow copies of the outputs; length must be >= outputs_size().
  ET_NODISCARD Error get_outputs(EValue* output_evalues, size_t length);
  const EValue& get_output(size_t i) const;

  size_t inputs_size() const;
  size_t outputs_size() const;
  MethodMeta method_meta() const;

  ET_DEPRECATED const EValue& get_input(size_t i) const;
  ET_DEPRECATED EValue& mutable_input(size_t i);
  ET_DEPRECATED EValue& mutable_output(size_t i);
  ET_DEPRECATED ET_NODISCARD Error get_inputs(EValue* input_evalues, size_t length);

  ET_NODISCARD Result<::executorch::aten::Tensor> get_attribute(std::string_view name);
  EventTracer* get_event_tracer();

  // Internal state; opaque to users.
  internal::MethodState* internal_state() const { return state_; }

 private:
  friend class Program;
  explicit Method(internal::MethodState* state) : state_(state) {}
  internal::MethodState* state_;
};

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::ET_RUNTIME_NAMESPACE::Method;
} // namespace executor
} // namespace torch
