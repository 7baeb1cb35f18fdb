// executorch/runtime/core/event_tracer_hooks.h compiled with tracing on, as
// a kernel or backend library built with ET_EVENT_TRACER_ENABLED sees it.
#define ET_EVENT_TRACER_ENABLED
#include <executorch/runtime/core/event_tracer_hooks.h>
#include <executorch/runtime/core/event_tracer_hooks_delegate.h>

#include <gtest/gtest.h>

#include "recording_tracer.h"

using namespace executorch::runtime;
namespace hooks = executorch::runtime::internal;

TEST(EventTracerHooksTest, ScopesReportStartAndEnd) {
  EXPECT_TRUE(hooks::event_tracer_enabled());
  et_test::RecordingTracer tracer;
  {
    hooks::EventTracerProfileMethodScope method(&tracer, "forward");
    {
      hooks::EventTracerProfileInstructionScope instruction(&tracer, 0, 4);
      EXPECT_EQ(tracer.current_chain_id(), 0);
      EXPECT_EQ(tracer.current_debug_handle(), 4u);
      hooks::EventTracerProfileOpScope op(&tracer, "aten::add.out");
    }
    EXPECT_EQ(tracer.current_chain_id(), kUnsetChainId);
  }
  const std::vector<std::string> expected = {"start forward", "start aten::add.out", "end 2",
                                             "end 1"};
  EXPECT_EQ(tracer.log, expected);
}

TEST(EventTracerHooksTest, MethodOnlyProfilingSkipsOperators) {
  et_test::RecordingTracer tracer;
  tracer.set_event_tracer_profiling_level(EventTracerProfilingLevel::kProfileMethodOnly);
  { hooks::EventTracerProfileOpScope op(&tracer, "aten::add.out"); }
  EXPECT_TRUE(tracer.log.empty());
}

TEST(EventTracerHooksTest, ValuesAreLoggedAtTheRequestedLevel) {
  et_test::RecordingTracer tracer;
  EValue v(int64_t(1));
  hooks::event_tracer_log_evalue(&tracer, v);
  hooks::event_tracer_log_evalue_output(&tracer, v);
  EXPECT_TRUE(tracer.log.empty());
  tracer.set_event_tracer_debug_level(EventTracerDebugLogLevel::kProgramOutputs);
  hooks::event_tracer_log_evalue(&tracer, v);
  hooks::event_tracer_log_evalue_output(&tracer, v);
  tracer.set_event_tracer_debug_level(EventTracerDebugLogLevel::kIntermediateOutputs);
  hooks::event_tracer_log_evalue(&tracer, v);
  const std::vector<std::string> expected = {"output Int", "intermediate Int"};
  EXPECT_EQ(tracer.log, expected);
}

TEST(EventTracerHooksTest, BlocksAllocationsAndNullTracers) {
  et_test::RecordingTracer tracer;
  hooks::event_tracer_create_event_block(&tracer, "Execute");
  EXPECT_EQ(hooks::event_tracer_track_allocator(&tracer, "arena"), 7u);
  hooks::event_tracer_track_allocation(&tracer, 7, 64);
  hooks::event_tracer_set_bundled_input_index(&tracer, 2);
  EXPECT_EQ(tracer.bundled_input_index(), 2);
  const std::vector<std::string> expected = {"block Execute", "allocator arena", "alloc 7 64"};
  EXPECT_EQ(tracer.log, expected);

  // A null tracer is allowed everywhere.
  hooks::event_tracer_create_event_block(nullptr, "x");
  EXPECT_EQ(hooks::event_tracer_track_allocator(nullptr, "x"), 0u);
  { hooks::EventTracerProfileMethodScope method(nullptr, "x"); }
}

TEST(EventTracerHooksTest, DelegateHelpers) {
  et_test::RecordingTracer tracer;
  EventTracerEntry e = event_tracer_start_profiling_delegate(&tracer, "conv", kUnsetDebugHandle);
  event_tracer_end_profiling_delegate(&tracer, e);
  event_tracer_log_profiling_delegate(&tracer, "kernel", kUnsetDebugHandle, 10, 20);
  event_tracer_log_output_delegate(&tracer, "out", kUnsetDebugHandle, 1.5);
  const std::vector<std::string> expected = {"start delegate conv", "end delegate",
                                             "delegate event kernel"};
  EXPECT_EQ(tracer.log, expected);
  event_tracer_end_profiling_delegate(nullptr, e);
}
