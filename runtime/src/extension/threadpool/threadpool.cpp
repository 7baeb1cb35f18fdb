// The process's one thread pool over pthreadpool (threadpool.h).
#include <executorch/extension/threadpool/threadpool.h>

#include <executorch/extension/threadpool/cpuinfo_utils.h>
#include <executorch/extension/threadpool/threadpool_guard.h>
#include <executorch/runtime/platform/log.h>

#include <cerrno>
#include <cstdlib>

#include "extension/threadpool/worker_pool.h"

// pthreadpool hands work to its threads and waits for them with atomics and
// futexes in a library ThreadSanitizer does not instrument, so TSan cannot
// see that fn's writes on a worker happen before run() returns (nor the
// caller's writes before fn starts) and reports races that are not there.
// Under TSan the hand-over is annotated on the run's context.
#if defined(__SANITIZE_THREAD__)
#define ET_THREADPOOL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ET_THREADPOOL_TSAN 1
#endif
#endif
#ifdef ET_THREADPOOL_TSAN
#include <sanitizer/tsan_interface.h>
#define ET_TSAN_ACQUIRE(addr) __tsan_acquire(addr)
#define ET_TSAN_RELEASE(addr) __tsan_release(addr)
#else
#define ET_TSAN_ACQUIRE(addr) ((void)(addr))
#define ET_TSAN_RELEASE(addr) ((void)(addr))
#endif

namespace executorch {
namespace extension {
namespace threadpool {
namespace {

thread_local bool tls_no_threadpool = false;
// Set on every thread while it runs a piece of some run(): a nested run()
// must not wait for the pool it is running on.
thread_local bool tls_inside_run = false;

// EXECUTORCH_NUM_THREADS when it is a positive integer, else 0.
size_t threads_from_env() {
  const char* v = std::getenv("EXECUTORCH_NUM_THREADS");
  if (v == nullptr || *v == '\0') return 0;
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(v, &end, 10);
  if (errno != 0 || *end != '\0' || n <= 0 || n > 4096) {
    ET_LOG(Error, "EXECUTORCH_NUM_THREADS='%s' is not a thread count (1-4096): ignored", v);
    return 0;
  }
  return static_cast<size_t>(n);
}

size_t default_thread_count() {
  const size_t env = threads_from_env();
  if (env != 0) return env;
  const uint32_t cores = cpuinfo::get_num_performant_cores();
  return cores == 0 ? 1 : cores;
}

struct RunContext {
  runtime::FunctionRef<void(size_t)>* fn;
};

void run_one(void* context, size_t i) {
  ET_TSAN_ACQUIRE(context);
  const bool was_inside = tls_inside_run;
  tls_inside_run = true;
  (*static_cast<RunContext*>(context)->fn)(i);
  tls_inside_run = was_inside;
  ET_TSAN_RELEASE(context);
}

// The process pool's run() goes to a WorkerPool (worker_pool.h) of the same
// size; the pthreadpool stays for get_pthreadpool() (libraries that drive it
// themselves). Kept beside the pool, not in it, because ThreadPool's layout
// is part of the public header. Guarded by the process pool's mutex_.
WorkerPool* g_process_workers = nullptr;

void replace_process_workers(size_t threads) {
  delete g_process_workers;
  g_process_workers = threads > 1 ? new WorkerPool(threads) : nullptr;
}

} // namespace

bool NoThreadPoolGuard::is_enabled() { return tls_no_threadpool; }
void NoThreadPoolGuard::set_enabled(bool enabled) { tls_no_threadpool = enabled; }

ThreadPool::ThreadPool(size_t thread_count)
    : threadpool_(pthreadpool_create(thread_count == 0 ? default_thread_count() : thread_count),
                  pthreadpool_destroy) {}

size_t ThreadPool::get_thread_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return threadpool_ ? pthreadpool_get_threads_count(threadpool_.get()) : 1;
}

bool ThreadPool::_unsafe_reset_threadpool(uint32_t num_threads) {
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t n = num_threads == 0 ? default_thread_count() : num_threads;
  threadpool_.reset(pthreadpool_create(n));
  if (this == get_threadpool()) replace_process_workers(threadpool_ ? n : 0);
  return threadpool_ != nullptr;
}

void ThreadPool::_unsafe_destroy_threadpool() {
  std::lock_guard<std::mutex> lock(mutex_);
  threadpool_.reset();
  if (this == get_threadpool()) replace_process_workers(0);
}

void ThreadPool::run(runtime::FunctionRef<void(size_t)> fn, size_t range) {
  if (tls_no_threadpool || tls_inside_run || range <= 1) {
    for (size_t i = 0; i < range; ++i) fn(i);
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!threadpool_) {
    for (size_t i = 0; i < range; ++i) fn(i);
    return;
  }
  if (this == get_threadpool() && g_process_workers != nullptr) {
    auto inside = [&fn](size_t i) {
      const bool was_inside = tls_inside_run;
      tls_inside_run = true;
      fn(i);
      tls_inside_run = was_inside;
    };
    g_process_workers->run(inside, range);
    return;
  }
  RunContext ctx{&fn};
  ET_TSAN_RELEASE(&ctx);
  pthreadpool_parallelize_1d(threadpool_.get(), run_one, &ctx, range, 0);
  ET_TSAN_ACQUIRE(&ctx);
}

ThreadPool* get_threadpool() {
  static ThreadPool pool;
  static const bool workers_started = [] {
    std::lock_guard<std::mutex> lock(pool.mutex_);
    replace_process_workers(pool.threadpool_ ? pthreadpool_get_threads_count(pool.threadpool_.get())
                                             : 0);
    return true;
  }();
  (void)workers_started;
  return &pool;
}

pthreadpool_t get_pthreadpool() {
  // As upstream: a thread under NoThreadPoolGuard gets no pool, so a library
  // that drives pthreadpool itself runs its work inline.
  if (NoThreadPoolGuard::is_enabled()) {
    return nullptr;
  }
  ThreadPool* pool = get_threadpool();
  std::lock_guard<std::mutex> lock(pool->mutex_);
  return pool->threadpool_.get();
}

} // namespace threadpool
} // namespace extension
} // namespace executorch
