// executorch/runtime/core/event_tracer.h: the tracer interface's own state,
// and event_tracer_hooks.h compiled without ET_EVENT_TRACER_ENABLED (the
// hooks then report nothing).
#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/core/event_tracer_hooks.h>

#include <gtest/gtest.h>

#include "recording_tracer.h"

using namespace executorch::runtime;
namespace hooks = executorch::runtime::internal;

TEST(EventTracerTest, StateDefaultsAndSetters) {
  et_test::RecordingTracer tracer;
  EXPECT_EQ(tracer.current_chain_id(), kUnsetChainId);
  EXPECT_EQ(tracer.current_debug_handle(), kUnsetDebugHandle);
  EXPECT_EQ(tracer.bundled_input_index(), kUnsetBundledInputIndex);
  EXPECT_EQ(tracer.event_tracer_debug_level(), EventTracerDebugLogLevel::kNoLogging);
  EXPECT_EQ(tracer.event_tracer_profiling_level(), EventTracerProfilingLevel::kProfileAllEvents);
  EXPECT_FALSE(tracer.intermediate_outputs_logging_status());
  tracer.set_chain_debug_handle(2, 9);
  EXPECT_EQ(tracer.current_chain_id(), 2);
  EXPECT_EQ(tracer.current_debug_handle(), 9u);
  tracer.set_bundled_input_index(3);
  EXPECT_EQ(tracer.bundled_input_index(), 3);
  tracer.set_event_tracer_debug_level(EventTracerDebugLogLevel::kProgramOutputs);
  EXPECT_EQ(tracer.event_tracer_debug_level(), EventTracerDebugLogLevel::kProgramOutputs);
}

TEST(EventTracerTest, HooksCompiledOutReportNothing) {
  EXPECT_FALSE(hooks::event_tracer_enabled());
  et_test::RecordingTracer tracer;
  tracer.set_event_tracer_debug_level(EventTracerDebugLogLevel::kIntermediateOutputs);
  {
    hooks::EventTracerProfileMethodScope method(&tracer, "method");
    hooks::EventTracerProfileOpScope op(&tracer, "op");
    hooks::EventTracerProfileInstructionScope instruction(&tracer, 1, 2);
    hooks::event_tracer_create_event_block(&tracer, "block");
    EValue v(int64_t(1));
    hooks::event_tracer_log_evalue(&tracer, v);
    hooks::event_tracer_log_evalue_output(&tracer, v);
    EXPECT_EQ(hooks::event_tracer_track_allocator(&tracer, "arena"), 0u);
    hooks::event_tracer_track_allocation(&tracer, 1, 8);
    hooks::event_tracer_end_profiling_event(
        &tracer, hooks::event_tracer_begin_profiling_event(&tracer, "x"));
    EXPECT_EQ(tracer.current_chain_id(), kUnsetChainId);
  }
  EXPECT_TRUE(tracer.log.empty());
}
