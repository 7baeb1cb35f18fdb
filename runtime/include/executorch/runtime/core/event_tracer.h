// EventTracer: the profiling/debug hook interface. This runtime calls no
// tracer methods yet; the type exists so upstream signatures match.
#pragma once

namespace executorch {
namespace runtime {

class EventTracer {
 public:
  virtual ~EventTracer() = default;
};

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::EventTracer;
} // namespace executor
} // namespace torch
