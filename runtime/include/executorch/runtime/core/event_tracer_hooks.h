// Helpers that report to an EventTracer when one is given and tracing is
// compiled in (ET_EVENT_TRACER_ENABLED defined where this header is
// compiled), and do nothing otherwise: kernels and backends call them
// unconditionally. This runtime does not define ET_EVENT_TRACER_ENABLED for
// itself, so it emits no events of its own.
#pragma once

#include <cstddef>

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/platform/compiler.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {
namespace internal {

inline constexpr bool event_tracer_compiled_in() {
#ifdef ET_EVENT_TRACER_ENABLED
  return true;
#else
  return false;
#endif
}

// The tracer to report to: null when tracing is compiled out.
inline EventTracer* active_tracer(EventTracer* event_tracer) {
  return event_tracer_compiled_in() ? event_tracer : nullptr;
}

inline bool event_tracer_enabled() { return event_tracer_compiled_in(); }

// Profiles an operator for the scope's lifetime, unless the tracer profiles
// methods only.
class EventTracerProfileOpScope final {
 public:
  EventTracerProfileOpScope(EventTracer* event_tracer, const char* name)
      : tracer_(active_tracer(event_tracer)) {
    if (tracer_ != nullptr && per_op()) {
      entry_ = tracer_->start_profiling(name);
    }
  }
  ~EventTracerProfileOpScope() {
    if (tracer_ != nullptr && per_op()) {
      tracer_->end_profiling(entry_);
    }
  }
  EventTracerProfileOpScope(const EventTracerProfileOpScope&) = delete;
  EventTracerProfileOpScope& operator=(const EventTracerProfileOpScope&) = delete;

 private:
  bool per_op() {
    return tracer_->event_tracer_profiling_level() > EventTracerProfilingLevel::kProfileMethodOnly;
  }
  EventTracer* tracer_;
  EventTracerEntry entry_{};
};

using EventTracerProfileScope = EventTracerProfileOpScope;

// Profiles a whole method (or any span) for the scope's lifetime.
class EventTracerProfileMethodScope final {
 public:
  EventTracerProfileMethodScope(EventTracer* event_tracer, const char* name)
      : tracer_(active_tracer(event_tracer)) {
    if (tracer_ != nullptr) {
      entry_ = tracer_->start_profiling(name);
    }
  }
  ~EventTracerProfileMethodScope() {
    if (tracer_ != nullptr) {
      tracer_->end_profiling(entry_);
    }
  }
  EventTracerProfileMethodScope(const EventTracerProfileMethodScope&) = delete;
  EventTracerProfileMethodScope& operator=(const EventTracerProfileMethodScope&) = delete;

 private:
  EventTracer* tracer_;
  EventTracerEntry entry_{};
};

// Marks the instruction being run for the scope's lifetime.
class EventTracerProfileInstructionScope final {
 public:
  EventTracerProfileInstructionScope(EventTracer* event_tracer, ChainID chain_idx,
                                     DebugHandle debug_handle)
      : tracer_(active_tracer(event_tracer)) {
    if (tracer_ != nullptr) {
      tracer_->set_chain_debug_handle(chain_idx, debug_handle);
    }
  }
  ~EventTracerProfileInstructionScope() {
    if (tracer_ != nullptr) {
      tracer_->set_chain_debug_handle(kUnsetChainId, kUnsetDebugHandle);
    }
  }
  EventTracerProfileInstructionScope(const EventTracerProfileInstructionScope&) = delete;
  EventTracerProfileInstructionScope& operator=(const EventTracerProfileInstructionScope&) = delete;

 private:
  EventTracer* tracer_;
};

inline void event_tracer_create_event_block(EventTracer* event_tracer, const char* name) {
  if (EventTracer* t = active_tracer(event_tracer)) {
    t->create_event_block(name);
  }
}

// The returned entry is ignored when there is no tracer.
inline EventTracerEntry event_tracer_begin_profiling_event(EventTracer* event_tracer,
                                                           const char* name) {
  if (EventTracer* t = active_tracer(event_tracer)) {
    return t->start_profiling(name);
  }
  return EventTracerEntry();
}

inline void event_tracer_end_profiling_event(EventTracer* event_tracer, EventTracerEntry event) {
  if (EventTracer* t = active_tracer(event_tracer)) {
    t->end_profiling(event);
  }
}

// 0 when there is no tracer.
inline AllocatorID event_tracer_track_allocator(EventTracer* event_tracer, const char* name) {
  if (EventTracer* t = active_tracer(event_tracer)) {
    return t->track_allocator(name);
  }
  return 0;
}

inline void event_tracer_track_allocation(EventTracer* event_tracer, AllocatorID id, size_t size) {
  if (EventTracer* t = active_tracer(event_tracer)) {
    t->track_allocation(id, size);
  }
}

// Logs an intermediate value when the tracer asks for those.
inline void event_tracer_log_evalue(EventTracer* event_tracer, EValue& evalue) {
  EventTracer* t = active_tracer(event_tracer);
  if (t != nullptr &&
      t->event_tracer_debug_level() >= EventTracerDebugLogLevel::kIntermediateOutputs) {
    (void)t->log_evalue(evalue, LoggedEValueType::kIntermediateOutput);
  }
}

// Logs a program output when the tracer asks for those.
inline void event_tracer_log_evalue_output(EventTracer* event_tracer, const EValue& evalue) {
  EventTracer* t = active_tracer(event_tracer);
  if (t != nullptr && t->event_tracer_debug_level() >= EventTracerDebugLogLevel::kProgramOutputs) {
    (void)t->log_evalue(evalue, LoggedEValueType::kProgramOutput);
  }
}

inline void event_tracer_set_bundled_input_index(EventTracer* event_tracer,
                                                 int bundled_input_index) {
  if (EventTracer* t = active_tracer(event_tracer)) {
    t->set_bundled_input_index(bundled_input_index);
  }
}

} // namespace internal
} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch

namespace torch {
namespace executor {
namespace internal {
using ::executorch::ET_RUNTIME_NAMESPACE::internal::event_tracer_begin_profiling_event;
using ::executorch::ET_RUNTIME_NAMESPACE::internal::event_tracer_create_event_block;
using ::executorch::ET_RUNTIME_NAMESPACE::internal::event_tracer_end_profiling_event;
using ::executorch::ET_RUNTIME_NAMESPACE::internal::event_tracer_log_evalue;
using ::executorch::ET_RUNTIME_NAMESPACE::internal::event_tracer_log_evalue_output;
using ::executorch::ET_RUNTIME_NAMESPACE::internal::event_tracer_set_bundled_input_index;
using ::executorch::ET_RUNTIME_NAMESPACE::internal::event_tracer_track_allocation;
using ::executorch::ET_RUNTIME_NAMESPACE::internal::event_tracer_track_allocator;
using ::executorch::ET_RUNTIME_NAMESPACE::internal::EventTracerProfileInstructionScope;
using ::executorch::ET_RUNTIME_NAMESPACE::internal::EventTracerProfileMethodScope;
using ::executorch::ET_RUNTIME_NAMESPACE::internal::EventTracerProfileOpScope;
using ::executorch::ET_RUNTIME_NAMESPACE::internal::EventTracerProfileScope;
} // namespace internal
} // namespace executor
} // namespace torch
