// The process's one CPU thread pool (upstream's extension/threadpool API),
// backed by the system pthreadpool. The optimized kernels use it; delegates
// that take a pthreadpool_t (XNNPACK) get the same pool from get_pthreadpool().
//
// Size: EXECUTORCH_NUM_THREADS if set (a positive integer), else the number of
// physical cores. _unsafe_reset_threadpool() changes it later.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>

#include <pthreadpool.h>

#include <executorch/runtime/core/function_ref.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {
namespace threadpool {

class EXECUTORCH_API ThreadPool final {
 public:
  // thread_count 0: the default size (see above).
  explicit ThreadPool(size_t thread_count = 0);
  ~ThreadPool() = default;

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ThreadPool(ThreadPool&&) = delete;
  ThreadPool& operator=(ThreadPool&&) = delete;

  // The number of threads run() spreads work over (the caller included).
  size_t get_thread_count() const;

  // Replaces the pool with one of num_threads threads (0: the default size).
  // Not safe while another thread is inside run() or holds get_pthreadpool().
  [[deprecated("Experimental upstream API; changes the pool under running work")]] bool
  _unsafe_reset_threadpool(uint32_t num_threads);

  // Destroys the pool; run() then works on the calling thread alone.
  [[deprecated("Experimental upstream API; destroys the pool under running work")]] void
  _unsafe_destroy_threadpool();

  // Calls fn(i) for every i in [0, range) across the pool and returns when all
  // are done. Calls from several threads take turns; a call made from inside
  // fn, or under NoThreadPoolGuard, runs on the calling thread.
  void run(runtime::FunctionRef<void(size_t)> fn, size_t range);

 private:
  friend pthreadpool_t get_pthreadpool();
  friend ThreadPool* get_threadpool();

  mutable std::mutex mutex_;
  std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)> threadpool_;
};

// The process's pool, created on first use.
EXECUTORCH_API ThreadPool* get_threadpool();

// The pthreadpool behind get_threadpool(), for libraries that take one.
EXECUTORCH_API pthreadpool_t get_pthreadpool();

} // namespace threadpool
} // namespace extension
} // namespace executorch

namespace torch {
namespace executorch {
namespace threadpool { // upstream's deprecated aliases
using ::executorch::extension::threadpool::get_pthreadpool;
using ::executorch::extension::threadpool::get_threadpool;
using ::executorch::extension::threadpool::ThreadPool;
} // namespace threadpool
} // namespace executorch
} // namespace torch
