// parallel_for over the process's CPU thread pool
// (runtime/kernel/thread_parallel_interface.h).
#include <executorch/runtime/kernel/thread_parallel_interface.h>

#include <algorithm>
#include <cinttypes>

#include <executorch/extension/threadpool/threadpool.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {

namespace {
thread_local int64_t tls_thread_num = 0;

// Restores the caller's get_thread_num() when a chunk run on the calling
// thread ends.
class ThreadNumScope {
 public:
  explicit ThreadNumScope(int64_t n) : saved_(tls_thread_num) { tls_thread_num = n; }
  ~ThreadNumScope() { tls_thread_num = saved_; }
  ThreadNumScope(const ThreadNumScope&) = delete;
  ThreadNumScope& operator=(const ThreadNumScope&) = delete;

 private:
  int64_t saved_;
};
} // namespace

int64_t get_thread_num() { return tls_thread_num; }

void set_thread_num(int64_t thread_num) { tls_thread_num = thread_num; }

bool parallel_for(const int64_t begin, const int64_t end, const int64_t grain_size,
                  ::executorch::runtime::FunctionRef<void(int64_t, int64_t)> f) {
  ET_CHECK_OR_RETURN_FALSE(begin >= 0 && end >= begin, "begin = %" PRId64 ", end = %" PRId64, begin,
                           end);
  ET_CHECK_OR_RETURN_FALSE(grain_size > 0, "grain_size = %" PRId64, grain_size);
  const int64_t n = end - begin;
  if (n == 0) {
    return true;
  }
  threadpool::ThreadPool* pool = threadpool::get_threadpool();
  const int64_t threads =
      pool == nullptr ? 1 : std::max<int64_t>(1, static_cast<int64_t>(pool->get_thread_count()));
  // One chunk per thread, but none shorter than grain_size.
  int64_t chunk = (n + threads - 1) / threads;
  chunk = std::max(chunk, grain_size);
  const int64_t tasks = (n + chunk - 1) / chunk;
  auto task = [&](size_t task_id) {
    ThreadNumScope scope(static_cast<int64_t>(task_id));
    const int64_t lo = begin + static_cast<int64_t>(task_id) * chunk;
    const int64_t hi = std::min(end, lo + chunk);
    if (lo < hi) {
      f(lo, hi);
    }
  };
  if (tasks == 1 || pool == nullptr) {
    for (int64_t t = 0; t < tasks; ++t) {
      task(static_cast<size_t>(t));
    }
    return true;
  }
  pool->run(task, static_cast<size_t>(tasks));
  return true;
}

} // namespace extension
} // namespace executorch
