#include <executorch/runtime/platform/log.h>

#include <atomic>
#include <cstdio>

#include <executorch/runtime/platform/platform.h>

namespace executorch {
namespace runtime {
namespace {

std::atomic<LogLevel> g_level{LogLevel::Info};
std::atomic<LogSink> g_sink{nullptr};

// LogLevel is ordered by severity; the PAL's levels are printable letters.
et_pal_log_level_t to_pal_level(LogLevel level) {
  switch (level) {
    case LogLevel::Debug:
      return kDebug;
    case LogLevel::Info:
      return kInfo;
    case LogLevel::Error:
      return kError;
    case LogLevel::Fatal:
      return kFatal;
    default:
      return kUnknown;
  }
}

} // namespace

void set_log_level(LogLevel level) { g_level.store(level); }
LogLevel get_log_level() { return g_level.load(); }

LogSink set_log_sink(LogSink sink) { return g_sink.exchange(sink); }

namespace internal {
void vlogf(LogLevel level, const char* filename, const char* function, size_t line,
           const char* format, va_list args) {
  if (static_cast<uint32_t>(level) < static_cast<uint32_t>(g_level.load())) {
    return;
  }
  char buf[512];
  int n = std::vsnprintf(buf, sizeof(buf), format, args);
  if (n < 0) {
    return;
  }
  const size_t length =
      static_cast<size_t>(n) < sizeof(buf) ? static_cast<size_t>(n) : sizeof(buf) - 1;
  LogSink sink = g_sink.load();
  if (sink != nullptr) {
    sink(level, filename, function, line, buf, length);
    return;
  }
  // The platform hook: the library default writes to stderr; applications
  // replace it (see platform.h).
  pal_emit_log_message(pal_current_ticks(), to_pal_level(level), filename, function, line, buf,
                       length);
}
} // namespace internal

} // namespace runtime
} // namespace executorch
