#include <executorch/runtime/platform/abort.h>

#include <atomic>
#include <cstdlib>

namespace executorch {
namespace runtime {
namespace {
std::atomic<AbortHandler> g_handler{nullptr};
} // namespace

AbortHandler set_abort_handler(AbortHandler handler) {
  return g_handler.exchange(handler);
}

void runtime_abort() {
  AbortHandler handler = g_handler.load();
  if (handler != nullptr) {
    handler();
  }
  // A handler must not return; if it does, abort anyway.
  std::abort();
}

} // namespace runtime
} // namespace executorch
