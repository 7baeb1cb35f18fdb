// The default (POSIX) platform hooks. Weak, so a strong definition linked
// into an application statically wins; in the shared library they are
// exported and reached through the PLT, so an executable's own definition
// interposes them too.
#define ET_INTERNAL_PLATFORM_WEAKNESS __attribute__((weak))
#include <executorch/runtime/platform/platform.h>

#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

void et_pal_init(void) {}

void et_pal_abort(void) { std::abort(); }

et_timestamp_t et_pal_current_ticks(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<et_timestamp_t>(ts.tv_sec) * 1000000000ull +
         static_cast<et_timestamp_t>(ts.tv_nsec);
}

// One tick is one nanosecond.
et_tick_ratio_t et_pal_ticks_to_ns_multiplier(void) { return {1, 1}; }

// "executorch E file.cpp:42] message" on stderr, one line per message.
void et_pal_emit_log_message(et_timestamp_t timestamp, et_pal_log_level_t level,
                             const char* filename, const char* function, size_t line,
                             const char* message, size_t length) {
  (void)timestamp;
  (void)function;
  const char* base = filename != nullptr ? std::strrchr(filename, '/') : nullptr;
  const char* shown = base != nullptr ? base + 1 : (filename != nullptr ? filename : "?");
  std::fprintf(stderr, "executorch %c %s:%zu] %.*s\n", static_cast<char>(level), shown, line,
               static_cast<int>(length), message);
}

void* et_pal_allocate(size_t size) { return std::malloc(size); }

void et_pal_free(void* ptr) { std::free(ptr); }
