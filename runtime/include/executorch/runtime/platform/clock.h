// Monotonic ticks for timing. One tick is one nanosecond on this platform;
// the multiplier stays part of the API so callers do not assume it.
#pragma once

#include <cstdint>

#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

using et_timestamp_t = uint64_t;

struct et_tick_ratio_t {
  uint64_t numerator;
  uint64_t denominator;
};

EXECUTORCH_API et_timestamp_t pal_current_ticks();
EXECUTORCH_API et_tick_ratio_t pal_ticks_to_ns_multiplier();

} // namespace runtime
} // namespace executorch

extern "C" EXECUTORCH_API executorch::runtime::et_tick_ratio_t
et_pal_ticks_to_ns_multiplier();
