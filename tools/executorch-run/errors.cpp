#include "errors.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

#include <executorch/runtime/platform/abort.h>
#include <executorch/runtime/platform/log.h>

namespace et_run {

namespace {

bool g_verbose = false;
// Error lines the runtime logged since the last clear; the first is usually
// the most specific (the caller's summary line comes after it).
std::vector<std::string> g_log_errors;
// The last error line, in a fixed buffer for the abort path.
char g_last_log[512];

void log_sink(rt::LogLevel level, const char* filename, const char* /*function*/, size_t line,
              const char* message, size_t length) {
  if (level >= rt::LogLevel::Error) {
    std::string msg(message, length);
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r')) {
      msg.pop_back();
    }
    if (g_log_errors.size() < 64) {
      g_log_errors.push_back(msg);
    }
    std::snprintf(g_last_log, sizeof(g_last_log), "%s", msg.c_str());
  }
  if (g_verbose) {
    const char* base = std::strrchr(filename, '/');
    static const char* const kLevels = "DIEF";
    const auto li = static_cast<size_t>(level);
    std::fprintf(stderr, "%s: runtime %c %s:%zu] %.*s\n", kProg, li < 4 ? kLevels[li] : '?',
                 base != nullptr ? base + 1 : filename, line, static_cast<int>(length), message);
  }
}

// Writes the one error line without touching the heap (abort/signal path).
[[noreturn]] void crash_exit(const char* what) {
  char buf[768];
  const int n =
      g_last_log[0] != '\0'
          ? std::snprintf(buf, sizeof(buf), "%s: error: Error::Internal: %s: %s\n", kProg, what,
                          g_last_log)
          : std::snprintf(buf, sizeof(buf), "%s: error: Error::Internal: %s\n", kProg, what);
  if (n > 0) {
    const size_t len = std::min(static_cast<size_t>(n), sizeof(buf) - 1);
    ssize_t w = ::write(STDERR_FILENO, buf, len);
    (void)w;
  }
  ::_exit(kExitCrash);
}

void abort_handler() { crash_exit("the runtime aborted"); }

void signal_handler(int sig) {
  switch (sig) {
    case SIGSEGV:
      crash_exit("crashed (SIGSEGV)");
    case SIGBUS:
      crash_exit("crashed (SIGBUS)");
    case SIGFPE:
      crash_exit("crashed (SIGFPE)");
    case SIGABRT:
      crash_exit("aborted (SIGABRT)");
    case SIGILL:
      crash_exit("crashed (SIGILL)");
    default:
      crash_exit("crashed");
  }
}

std::string vformat(const char* fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  const int n = std::vsnprintf(nullptr, 0, fmt, ap2);
  va_end(ap2);
  if (n <= 0) {
    return std::string();
  }
  std::string s(static_cast<size_t>(n) + 1, '\0');
  std::vsnprintf(&s[0], s.size(), fmt, ap);
  s.resize(static_cast<size_t>(n));
  return s;
}

} // namespace

void fail(rt::Error code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Failure f{code, vformat(fmt, ap)};
  va_end(ap);
  throw f;
}

void fail_rt(rt::Error code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Failure f{code, vformat(fmt, ap)};
  va_end(ap);
  if (!g_log_errors.empty()) {
    f.message += ": " + g_log_errors.front();
  }
  throw f;
}

void clear_runtime_errors() { g_log_errors.clear(); }

void install_log_sink(bool verbose) {
  g_verbose = verbose;
  rt::set_log_sink(log_sink);
  // Errors are always captured for the final line; the rest only with -v.
  rt::set_log_level(verbose ? rt::LogLevel::Debug : rt::LogLevel::Error);
}

void install_crash_handlers() {
  rt::set_abort_handler(abort_handler);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof(sa));
  sa.sa_handler = signal_handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL}) {
    sigaction(sig, &sa, nullptr);
  }
}

bool verbose() { return g_verbose; }

void note(const char* fmt, ...) {
  if (!g_verbose) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  const std::string msg = vformat(fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "%s: note: %s\n", kProg, msg.c_str());
}

int print_error(const Failure& f) {
  std::string msg = f.message;
  std::replace(msg.begin(), msg.end(), '\n', ' ');
  std::replace(msg.begin(), msg.end(), '\r', ' ');
  std::fprintf(stderr, "%s: error: %s: %s\n", kProg, rt::to_string(f.code), msg.c_str());
  return f.exit_code;
}

} // namespace et_run
