// Leveled logging: ET_LOG(Info, "fmt", ...). Messages below the runtime
// level (set_log_level, or EXECUTORCH_LOG_LEVEL=debug|info|error|fatal) are
// dropped; ET_MIN_LOG_LEVEL compiles lower levels out. A message goes to the
// sink set with set_log_sink(), or else to the PAL's
// et_pal_emit_log_message() (platform.h), stamped with et_pal_current_ticks().
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdint>

#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>
#include <executorch/runtime/platform/platform.h>

#ifndef ET_LOG_ENABLED
#define ET_LOG_ENABLED 1
#endif
#ifndef ET_MIN_LOG_LEVEL
#define ET_MIN_LOG_LEVEL Info
#endif

namespace executorch {
namespace runtime {

enum class LogLevel : uint8_t { Debug, Info, Error, Fatal, NumLevels };

// An in-process destination for log lines, ahead of the PAL.
using LogSink = void (*)(LogLevel level, const char* filename, const char* function, size_t line,
                         const char* message, size_t length);

EXECUTORCH_API void set_log_level(LogLevel level);
EXECUTORCH_API LogLevel get_log_level();
// Returns the previous sink; nullptr goes back to the PAL.
EXECUTORCH_API LogSink set_log_sink(LogSink sink);

namespace internal {
EXECUTORCH_API void vlogf(LogLevel level, const char* filename, const char* function, size_t line,
                          const char* format, va_list args);
ET_PRINTFLIKE(5, 6)
inline void logf(LogLevel level, const char* filename, const char* function, size_t line,
                 const char* format, ...) {
  va_list args;
  va_start(args, format);
  vlogf(level, filename, function, line, format, args);
  va_end(args);
}
} // namespace internal

} // namespace runtime
} // namespace executorch

#if ET_LOG_ENABLED
#define ET_LOG(_level, _format, ...)                                                             \
  do {                                                                                           \
    const auto _et_level = ::executorch::runtime::LogLevel::_level;                              \
    if (static_cast<uint32_t>(_et_level) >=                                                      \
        static_cast<uint32_t>(::executorch::runtime::LogLevel::ET_MIN_LOG_LEVEL)) {              \
      ::executorch::runtime::internal::logf(_et_level, __FILE__, ET_FUNCTION, __LINE__, _format, \
                                            ##__VA_ARGS__);                                      \
    }                                                                                            \
  } while (0)
#else
#define ET_LOG(_level, _format, ...) \
  do {                               \
  } while (0)
#endif
