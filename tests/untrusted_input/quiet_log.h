// Fuzz harnesses drop the runtime's log lines (they still get formatted, so
// the formatting of untrusted strings is exercised); FUZZ_VERBOSE=1 keeps them.
#pragma once

#include <cstdlib>

#include <executorch/runtime/platform/log.h>

namespace et_fuzz {

inline void quiet_sink(::executorch::runtime::LogLevel, const char*, const char*, size_t,
                       const char*, size_t) {}

inline void quiet_logs_once() {
  static const bool done = [] {
    if (std::getenv("FUZZ_VERBOSE") == nullptr) {
      ::executorch::runtime::set_log_sink(&quiet_sink);
    }
    return true;
  }();
  (void)done;
}

} // namespace et_fuzz
