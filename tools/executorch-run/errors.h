// How executorch-run fails: every failure ends in exactly one line on
// stderr,
//   executorch-run: error: Error::<Name>: <what was wrong>
// and a small exit status. Failures travel to main() as a thrown Failure;
// the runtime's most specific error log line is folded into the message,
// and a crash or abort inside the runtime is turned into that line too.
#pragma once

#include <string>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/platform/compiler.h>

namespace et_run {

namespace rt = ::executorch::runtime;

constexpr const char* kProg = "executorch-run";
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;
constexpr int kExitCrash = 70;

struct Failure {
  rt::Error code;
  std::string message;
  int exit_code = kExitError;
};

[[noreturn]] ET_PRINTFLIKE(2, 3) void fail(rt::Error code, const char* fmt, ...);
// Like fail(), with the first runtime error line logged since the last
// clear_runtime_errors() appended.
[[noreturn]] ET_PRINTFLIKE(2, 3) void fail_rt(rt::Error code, const char* fmt, ...);
// Call before each runtime operation whose failure fail_rt() reports.
void clear_runtime_errors();

// Captures the runtime's log (shown on stderr with verbose); turns aborts
// and fatal signals into the one error line and exit status kExitCrash.
void install_log_sink(bool verbose);
void install_crash_handlers();
bool verbose();
// A "note:" line on stderr, with verbose only.
ET_PRINTFLIKE(1, 2) void note(const char* fmt, ...);

// Prints f's line; returns its exit status.
int print_error(const Failure& f);

} // namespace et_run
