// An EventTracer for tests that records what it was told.
#pragma once

#include <string>
#include <vector>

#include <executorch/runtime/core/event_tracer.h>

namespace et_test {

class RecordingTracer final : public executorch::runtime::EventTracer {
 public:
  using AllocatorID = executorch::runtime::AllocatorID;
  using DelegateDebugIntId = executorch::runtime::DelegateDebugIntId;
  using EventTracerEntry = executorch::runtime::EventTracerEntry;
  template <typename T>
  using Result = executorch::runtime::Result<T>;

  void create_event_block(const char* name) override {
    log.push_back(std::string("block ") + name);
  }
  EventTracerEntry start_profiling(const char* name, executorch::runtime::ChainID chain_id,
                                   executorch::runtime::DebugHandle debug_handle) override {
    log.push_back(std::string("start ") + name);
    EventTracerEntry e{};
    e.event_id = next_id++;
    e.chain_id = chain_id;
    e.debug_handle = debug_handle;
    return e;
  }
  void end_profiling(EventTracerEntry entry) override {
    log.push_back("end " + std::to_string(entry.event_id));
  }
  EventTracerEntry start_profiling_delegate(const char* name, DelegateDebugIntId) override {
    log.push_back(std::string("start delegate ") + name);
    return EventTracerEntry{};
  }
  void end_profiling_delegate(EventTracerEntry, const void*, size_t) override {
    log.push_back("end delegate");
  }
  void log_profiling_delegate(const char* name, DelegateDebugIntId, uint64_t, uint64_t, const void*,
                              size_t) override {
    log.push_back(std::string("delegate event ") + name);
  }
  void track_allocation(AllocatorID id, size_t size) override {
    log.push_back("alloc " + std::to_string(id) + " " + std::to_string(size));
  }
  AllocatorID track_allocator(const char* name) override {
    log.push_back(std::string("allocator ") + name);
    return 7;
  }
  Result<bool> log_evalue(const executorch::runtime::EValue& value,
                          executorch::runtime::LoggedEValueType type) override {
    log.push_back(std::string(type == executorch::runtime::LoggedEValueType::kProgramOutput
                                  ? "output "
                                  : "intermediate ") +
                  executorch::runtime::tag_to_string(value.tag));
    return true;
  }
  Result<bool> log_intermediate_output_delegate(const char*, DelegateDebugIntId,
                                                const executorch::aten::Tensor&) override {
    return true;
  }
  Result<bool> log_intermediate_output_delegate(
      const char*, DelegateDebugIntId,
      const executorch::runtime::ArrayRef<executorch::aten::Tensor>) override {
    return true;
  }
  Result<bool> log_intermediate_output_delegate(const char*, DelegateDebugIntId,
                                                const int&) override {
    return true;
  }
  Result<bool> log_intermediate_output_delegate(const char*, DelegateDebugIntId,
                                                const bool&) override {
    return true;
  }
  Result<bool> log_intermediate_output_delegate(const char*, DelegateDebugIntId,
                                                const double&) override {
    return true;
  }
  void set_delegation_intermediate_output_filter(
      executorch::runtime::EventTracerFilterBase*) override {}

  std::vector<std::string> log;
  int64_t next_id = 1;
};

} // namespace et_test
