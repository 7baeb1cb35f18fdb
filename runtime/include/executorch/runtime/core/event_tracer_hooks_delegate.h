// Helpers for backends to report their own events (profiling spans, events
// they timed themselves, intermediate outputs) to the EventTracer of the
// method running them. Like event_tracer_hooks.h they report only where
// ET_EVENT_TRACER_ENABLED is defined, and accept a null tracer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/core/event_tracer_hooks.h>

namespace executorch {
namespace runtime {

// The returned entry is ignored when there is no tracer. A string name and
// an unset id (kUnsetDelegateDebugIntId), or a null name and an id.
inline EventTracerEntry event_tracer_start_profiling_delegate(EventTracer* event_tracer,
                                                              const char* name,
                                                              DebugHandle delegate_debug_id) {
  if (EventTracer* t = internal::active_tracer(event_tracer)) {
    return t->start_profiling_delegate(name, static_cast<DelegateDebugIntId>(delegate_debug_id));
  }
  return EventTracerEntry();
}

inline void event_tracer_end_profiling_delegate(EventTracer* event_tracer,
                                                EventTracerEntry event_tracer_entry,
                                                const void* metadata = nullptr,
                                                size_t metadata_len = 0) {
  if (EventTracer* t = internal::active_tracer(event_tracer)) {
    t->end_profiling_delegate(event_tracer_entry, metadata, metadata_len);
  }
}

// An event the backend timed itself (start/end in the platform's ticks).
inline void event_tracer_log_profiling_delegate(EventTracer* event_tracer, const char* name,
                                                DebugHandle delegate_debug_id, uint64_t start_time,
                                                uint64_t end_time, const void* metadata = nullptr,
                                                size_t metadata_len = 0) {
  if (EventTracer* t = internal::active_tracer(event_tracer)) {
    t->log_profiling_delegate(name, static_cast<DelegateDebugIntId>(delegate_debug_id), start_time,
                              end_time, metadata, metadata_len);
  }
}

// T: int, bool, double, Tensor or ArrayRef<Tensor>.
template <typename T>
inline void event_tracer_log_output_delegate(EventTracer* event_tracer, const char* name,
                                             DebugHandle delegate_debug_id, const T& output) {
  static_assert(std::is_same<T, int>::value || std::is_same<T, bool>::value ||
                    std::is_same<T, double>::value ||
                    std::is_same<T, ::executorch::aten::Tensor>::value ||
                    std::is_same<T, ArrayRef<::executorch::aten::Tensor>>::value,
                "Unsupported type for intermediate output");
  if (EventTracer* t = internal::active_tracer(event_tracer)) {
    (void)t->log_intermediate_output_delegate(
        name, static_cast<DelegateDebugIntId>(delegate_debug_id), output);
  }
}

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::event_tracer_end_profiling_delegate;
using ::executorch::runtime::event_tracer_log_output_delegate;
using ::executorch::runtime::event_tracer_log_profiling_delegate;
using ::executorch::runtime::event_tracer_start_profiling_delegate;
} // namespace executor
} // namespace torch
