// The lines the runtime logs at Error level while a test runs, for tests
// that check what an error says (one sink, set with set_log_sink()).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <executorch/runtime/platform/log.h>

namespace et_test {

// What was logged at Error level or above since the last ErrorLog began.
inline std::vector<std::string>& error_lines() {
  static std::vector<std::string> lines;
  return lines;
}

inline void capture_error(executorch::runtime::LogLevel level, const char*, const char*, size_t,
                          const char* message, size_t length) {
  if (level >= executorch::runtime::LogLevel::Error) error_lines().emplace_back(message, length);
}

// Captures the error lines logged during its life; they stay readable after.
class ErrorLog {
 public:
  ErrorLog() : previous_(executorch::runtime::set_log_sink(&capture_error)) {
    error_lines().clear();
  }
  ~ErrorLog() { executorch::runtime::set_log_sink(previous_); }
  ErrorLog(const ErrorLog&) = delete;
  ErrorLog& operator=(const ErrorLog&) = delete;

  // Whether some line contains `text`.
  static bool any_names(const char* text) {
    for (const auto& line : error_lines()) {
      if (line.find(text) != std::string::npos) return true;
    }
    return false;
  }
  // The one line logged ("" when none or several).
  static std::string only_line() {
    return error_lines().size() == 1 ? error_lines()[0] : std::string();
  }

 private:
  executorch::runtime::LogSink previous_;
};

} // namespace et_test
