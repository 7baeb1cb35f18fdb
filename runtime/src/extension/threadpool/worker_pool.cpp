#include "extension/threadpool/worker_pool.h"

#include <chrono>

namespace executorch {
namespace extension {
namespace threadpool {
namespace {

// How long an idle worker keeps polling for the next job before it sleeps:
// long enough to catch the next operator's region without a wake-up call,
// short enough not to hold a CPU the rest of the process could use.
constexpr auto kSpin = std::chrono::microseconds(50);

} // namespace

WorkerPool::WorkerPool(size_t threads) {
  for (size_t i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void WorkerPool::work_on(Job& job) {
  for (;;) {
    const size_t i = job.next.fetch_add(1, std::memory_order_relaxed);
    if (i >= job.n) return;
    (*job.fn)(i);
    if (job.done.fetch_add(1, std::memory_order_acq_rel) + 1 == job.n) {
      std::lock_guard<std::mutex> lock(mutex_); // the caller checks under it
      finished_.notify_all();
    }
  }
}

void WorkerPool::worker_loop() {
  uint64_t seen = 0;
  for (;;) {
    const auto until = std::chrono::steady_clock::now() + kSpin;
    while (published_.load(std::memory_order_acquire) == seen &&
           std::chrono::steady_clock::now() < until) {
      std::this_thread::yield();
    }
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
    }
    work_on(*job);
  }
}

void WorkerPool::run(runtime::FunctionRef<void(size_t)> fn, size_t n) {
  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->n = n;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = job;
    published_.store(++generation_, std::memory_order_release);
  }
  wake_.notify_all();
  work_on(*job);
  if (job->done.load(std::memory_order_acquire) == n) return;
  std::unique_lock<std::mutex> lock(mutex_);
  finished_.wait(lock, [&] { return job->done.load(std::memory_order_acquire) == n; });
}

} // namespace threadpool
} // namespace extension
} // namespace executorch
