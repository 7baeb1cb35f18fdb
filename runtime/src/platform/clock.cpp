#include <executorch/runtime/platform/clock.h>

#include <time.h>

namespace executorch {
namespace runtime {

et_timestamp_t pal_current_ticks() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<et_timestamp_t>(ts.tv_sec) * 1000000000ull +
      static_cast<et_timestamp_t>(ts.tv_nsec);
}

et_tick_ratio_t pal_ticks_to_ns_multiplier() { return {1, 1}; }

} // namespace runtime
} // namespace executorch

executorch::runtime::et_tick_ratio_t et_pal_ticks_to_ns_multiplier() {
  return executorch::runtime::pal_ticks_to_ns_multiplier();
}
