// Time: pal_current_ticks() (platform.h) and tick -> nanosecond conversion.
#pragma once

#include <executorch/runtime/platform/platform.h>

namespace executorch {
namespace runtime {

// The same types under the runtime namespace, for older callers.
using ::et_tick_ratio_t;
using ::et_timestamp_t;

// An interval in system ticks converted to nanoseconds with the active
// PAL's ratio.
inline uint64_t ticks_to_ns(et_timestamp_t ticks) {
  const et_tick_ratio_t ratio = pal_ticks_to_ns_multiplier();
  return static_cast<uint64_t>(ticks) * ratio.numerator / ratio.denominator;
}

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::ticks_to_ns;
} // namespace executor
} // namespace torch
