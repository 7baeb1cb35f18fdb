// The shim's one-line error report on stderr: "[CudaBackend shim] fn: msg".
#pragma once

#include <cstdarg>
#include <cstdio>

// One stderr line naming the shim function and the problem.
static inline void log_err(const char* fn, const char* msg) {
  std::fprintf(stderr, "[CudaBackend shim] %s: %s\n", fn, msg);
}

// log_err with a printf-style message (cut at 511 bytes).
__attribute__((format(printf, 2, 3))) static inline void log_errf(const char* fn, const char* fmt,
                                                                  ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  log_err(fn, buf);
}
