// A platform (PAL) override written as upstream's docs describe it: the
// application defines et_pal_init and et_pal_emit_log_message itself, and
// the shared library's weak defaults give way to them, for the application's
// own ET_LOG calls and for the library's. Then register_pal() takes over
// logging at run time. Exits non-zero on the first check that fails.
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/platform.h>
#include <executorch/runtime/platform/runtime.h>

#include <cstdio>
#include <string>

namespace {

int init_calls = 0;
std::string strong_log;  // what the strong et_pal_emit_log_message saw
std::string runtime_log; // what the register_pal() emitter saw

void append(std::string& log, et_pal_log_level_t level, const char* message, size_t length) {
  log += static_cast<char>(level);
  log += ' ';
  log.append(message, length);
  log += '\n';
}

void registered_emit(et_timestamp_t, et_pal_log_level_t level, const char*, const char*, size_t,
                     const char* message, size_t length) {
  append(runtime_log, level, message, length);
}

bool contains(const std::string& log, const char* text) {
  return log.find(text) != std::string::npos;
}

int fail(const char* what, const std::string& log) {
  std::fprintf(stderr, "FAIL: %s; log so far:\n%s", what, log.c_str());
  return 1;
}

} // namespace

extern "C" {

void et_pal_init(void) { ++init_calls; }

void et_pal_emit_log_message(et_timestamp_t, et_pal_log_level_t level, const char*, const char*,
                             size_t, const char* message, size_t length) {
  append(strong_log, level, message, length);
}

} // extern "C"

int main() {
  executorch::runtime::runtime_init();
  if (init_calls != 1) return fail("runtime_init() did not call the application's et_pal_init", "");

  ET_LOG(Info, "from the application: %d", 42);
  if (!contains(strong_log, "I from the application: 42")) {
    return fail("the application's ET_LOG did not reach its et_pal_emit_log_message", strong_log);
  }

  // A message logged inside libexecutorch reaches the override too.
  auto loader = executorch::extension::FileDataLoader::from("custom_pal.pte", 3);
  if (loader.ok()) return fail("an alignment of 3 was accepted", strong_log);
  if (!contains(strong_log, "not a power of two")) {
    return fail("the library's log did not reach the application's override", strong_log);
  }

  const auto table = executorch::runtime::PalImpl::create(registered_emit, __FILE__);
  if (!executorch::runtime::register_pal(table)) return fail("register_pal() refused", "");
  const size_t strong_before = strong_log.size();
  ET_LOG(Error, "after register_pal");
  if (!contains(runtime_log, "E after register_pal") || strong_log.size() != strong_before) {
    return fail("register_pal() did not take logging over", strong_log + runtime_log);
  }
  std::printf("custom_pal: et_pal_init and et_pal_emit_log_message overridden, register_pal OK\n");
  return 0;
}
