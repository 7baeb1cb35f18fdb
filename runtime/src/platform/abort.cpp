#include <executorch/runtime/platform/abort.h>

#include <atomic>

#include <executorch/runtime/platform/platform.h>

namespace executorch {
namespace runtime {
namespace {
std::atomic<AbortHandler> g_handler{nullptr};
} // namespace

AbortHandler set_abort_handler(AbortHandler handler) { return g_handler.exchange(handler); }

void runtime_abort() {
  AbortHandler handler = g_handler.load();
  if (handler != nullptr) {
    handler();
  }
  // No handler, or one that returned: the platform's abort (which never
  // returns; pal_abort() makes sure).
  pal_abort();
}

} // namespace runtime
} // namespace executorch
