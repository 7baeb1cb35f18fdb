// NoThreadPoolGuard: while one lives, ThreadPool::run() on this thread runs
// its work on the calling thread alone (a thread-local switch, restored when
// the guard ends).
#pragma once

#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {
namespace threadpool {

struct EXECUTORCH_API NoThreadPoolGuard {
  static bool is_enabled();
  static void set_enabled(bool enabled);

  NoThreadPoolGuard() : prev_mode_(is_enabled()) { set_enabled(true); }
  ~NoThreadPoolGuard() { set_enabled(prev_mode_); }

 private:
  const bool prev_mode_;
};

} // namespace threadpool
} // namespace extension
} // namespace executorch

namespace torch {
namespace executorch {
namespace threadpool { // upstream's deprecated alias
using ::executorch::extension::threadpool::NoThreadPoolGuard;
} // namespace threadpool
} // namespace executorch
} // namespace torch
