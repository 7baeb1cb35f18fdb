#include <executorch/runtime/platform/runtime.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/platform.h>

namespace executorch {
namespace runtime {

void runtime_init() {
  // Every call reaches the platform's init, as upstream's runtime_init()
  // does; a PAL's init must be idempotent.
  pal_init();
  static std::once_flag once;
  std::call_once(once, [] {
    // EXECUTORCH_LOG_LEVEL=debug|info|error|fatal sets the starting level.
    const char* env = std::getenv("EXECUTORCH_LOG_LEVEL");
    if (env == nullptr) {
      return;
    }
    static const struct {
      const char* name;
      LogLevel level;
    } kLevels[] = {{"debug", LogLevel::Debug},
                   {"info", LogLevel::Info},
                   {"error", LogLevel::Error},
                   {"fatal", LogLevel::Fatal}};
    for (const auto& entry : kLevels) {
      if (strcasecmp(env, entry.name) == 0) {
        set_log_level(entry.level);
        return;
      }
    }
    ET_LOG(Error, "EXECUTORCH_LOG_LEVEL=%s is not one of debug, info, error, fatal", env);
  });
}

} // namespace runtime
} // namespace executorch
