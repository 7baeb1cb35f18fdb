// EventTracer: the interface a profiler or debugger (e.g. devtools' ETDump
// writer) implements to receive events: profiling spans, allocations and
// logged values. This runtime itself emits no events; a tracer passed to it
// is kept and handed to kernels and backends, which may use it through
// event_tracer_hooks.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/array_ref.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/result.h>

namespace executorch {
namespace runtime {

typedef uint32_t AllocatorID;
typedef int32_t ChainID;
typedef uint32_t DebugHandle;
typedef int32_t DelegateDebugIntId;

constexpr ChainID kUnsetChainId = -1;
constexpr DebugHandle kUnsetDebugHandle = 0;
constexpr DelegateDebugIntId kUnsetDelegateDebugIntId = -1;
constexpr int kUnsetBundledInputIndex = -1;

// How a delegate names its events: not at all, by integer or by string.
enum class DelegateDebugIdType { kNone, kInt, kStr };

enum class LoggedEValueType { kIntermediateOutput = 0, kProgramOutput = 1 };

// What a tracer wants logged, least to most.
enum class EventTracerDebugLogLevel { kNoLogging, kProgramOutputs, kIntermediateOutputs };

// Whether operators are profiled, or the method as a whole only.
enum class EventTracerProfilingLevel { kProfileMethodOnly, kProfileAllEvents };

// Decides which delegate intermediate outputs are logged.
class EventTracerFilterBase {
 public:
  virtual Result<bool> filter(const char* name, DelegateDebugIntId delegate_debug_index) = 0;
  virtual ~EventTracerFilterBase() = default;
};

// A started profiling event, handed back to end it.
struct EventTracerEntry {
  int64_t event_id;
  ChainID chain_id;
  DebugHandle debug_handle;
  uint64_t start_time; // et_timestamp_t
  DelegateDebugIdType delegate_event_id_type;
};

class EventTracer {
 public:
  virtual ~EventTracer() {}

  // Starts a new block of events (e.g. one per execute()).
  virtual void create_event_block(const char* name) = 0;
  virtual EventTracerEntry start_profiling(const char* name, ChainID chain_id = kUnsetChainId,
                                           DebugHandle debug_handle = kUnsetDebugHandle) = 0;
  virtual void end_profiling(EventTracerEntry prof_entry) = 0;

  // Events inside a delegate, named by string (delegate_debug_index unset)
  // or by integer.
  virtual EventTracerEntry start_profiling_delegate(const char* name,
                                                    DelegateDebugIntId delegate_debug_index) = 0;
  virtual void end_profiling_delegate(EventTracerEntry event_tracer_entry,
                                      const void* metadata = nullptr, size_t metadata_len = 0) = 0;
  // An event the delegate timed itself.
  virtual void log_profiling_delegate(const char* name, DelegateDebugIntId delegate_debug_index,
                                      uint64_t start_time, uint64_t end_time,
                                      const void* metadata = nullptr, size_t metadata_len = 0) = 0;

  virtual void track_allocation(AllocatorID id, size_t size) = 0;
  virtual AllocatorID track_allocator(const char* name) = 0;

  virtual Result<bool> log_evalue(const EValue& evalue, LoggedEValueType evalue_type) = 0;
  virtual Result<bool> log_intermediate_output_delegate(
      const char* name, DelegateDebugIntId delegate_debug_index,
      const ::executorch::aten::Tensor& output) = 0;
  virtual Result<bool> log_intermediate_output_delegate(
      const char* name, DelegateDebugIntId delegate_debug_index,
      const ArrayRef<::executorch::aten::Tensor> output) = 0;
  virtual Result<bool> log_intermediate_output_delegate(const char* name,
                                                        DelegateDebugIntId delegate_debug_index,
                                                        const int& output) = 0;
  virtual Result<bool> log_intermediate_output_delegate(const char* name,
                                                        DelegateDebugIntId delegate_debug_index,
                                                        const bool& output) = 0;
  virtual Result<bool> log_intermediate_output_delegate(const char* name,
                                                        DelegateDebugIntId delegate_debug_index,
                                                        const double& output) = 0;
  virtual void set_delegation_intermediate_output_filter(
      EventTracerFilterBase* event_tracer_filter) = 0;

  // The instruction being run (kUnset* outside one).
  void set_chain_debug_handle(ChainID chain_id, DebugHandle debug_handle) {
    chain_id_ = chain_id;
    debug_handle_ = debug_handle;
  }
  ChainID current_chain_id() { return chain_id_; }
  DebugHandle current_debug_handle() { return debug_handle_; }

  void set_bundled_input_index(int bundled_input_index) {
    bundled_input_index_ = bundled_input_index;
  }
  int bundled_input_index() { return bundled_input_index_; }

  void set_event_tracer_debug_level(EventTracerDebugLogLevel log_level) {
    event_tracer_debug_level_ = log_level;
  }
  EventTracerDebugLogLevel event_tracer_debug_level() { return event_tracer_debug_level_; }

  void set_event_tracer_profiling_level(EventTracerProfilingLevel profiling_level) {
    event_tracer_profiling_level_ = profiling_level;
  }
  EventTracerProfilingLevel event_tracer_profiling_level() { return event_tracer_profiling_level_; }

  bool intermediate_outputs_logging_status() { return log_intermediate_tensors_; }

 protected:
  ChainID chain_id_ = kUnsetChainId;
  DebugHandle debug_handle_ = kUnsetDebugHandle;
  bool event_tracer_enable_debugging_ = false;
  bool log_intermediate_tensors_ = false;
  int bundled_input_index_ = kUnsetBundledInputIndex;
  EventTracerDebugLogLevel event_tracer_debug_level_ = EventTracerDebugLogLevel::kNoLogging;
  EventTracerProfilingLevel event_tracer_profiling_level_ =
      EventTracerProfilingLevel::kProfileAllEvents;
};

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::AllocatorID;
using ::executorch::runtime::ChainID;
using ::executorch::runtime::DebugHandle;
using ::executorch::runtime::DelegateDebugIdType;
using ::executorch::runtime::DelegateDebugIntId;
using ::executorch::runtime::EventTracer;
using ::executorch::runtime::EventTracerDebugLogLevel;
using ::executorch::runtime::EventTracerEntry;
using ::executorch::runtime::kUnsetBundledInputIndex;
using ::executorch::runtime::kUnsetChainId;
using ::executorch::runtime::kUnsetDebugHandle;
using ::executorch::runtime::kUnsetDelegateDebugIntId;
using ::executorch::runtime::LoggedEValueType;
} // namespace executor
} // namespace torch
