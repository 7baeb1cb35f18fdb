#include <executorch/runtime/platform/log.h>

#include <atomic>
#include <cstdio>
#include <cstring>

namespace executorch {
namespace runtime {
namespace {

std::atomic<LogLevel> g_level{LogLevel::Info};
std::atomic<LogSink> g_sink{nullptr};

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::Debug: return "D";
    case LogLevel::Info: return "I";
    case LogLevel::Error: return "E";
    case LogLevel::Fatal: return "F";
    default: return "?";
  }
}

void default_sink(LogLevel level, const char* filename, const char* function,
                  size_t line, const char* message, size_t length) {
  (void)function;
  const char* base = std::strrchr(filename, '/');
  std::fprintf(stderr, "executorch %s %s:%zu] %.*s\n", level_name(level),
               base != nullptr ? base + 1 : filename, line,
               static_cast<int>(length), message);
}

} // namespace

void set_log_level(LogLevel level) { g_level.store(level); }
LogLevel get_log_level() { return g_level.load(); }

LogSink set_log_sink(LogSink sink) { return g_sink.exchange(sink); }

namespace internal {
void vlogf(LogLevel level, const char* filename, const char* function,
           size_t line, const char* format, va_list args) {
  if (static_cast<uint32_t>(level) < static_cast<uint32_t>(g_level.load())) {
    return;
  }
  char buf[512];
  int n = std::vsnprintf(buf, sizeof(buf), format, args);
  if (n < 0) {
    return;
  }
  const size_t length = static_cast<size_t>(n) < sizeof(buf)
      ? static_cast<size_t>(n) : sizeof(buf) - 1;
  LogSink sink = g_sink.load();
  (sink != nullptr ? sink : default_sink)(level, filename, function, line, buf, length);
}
} // namespace internal

} // namespace runtime
} // namespace executorch
