// The threads behind the process pool's run(): workers claim items one at
// a time from a shared counter and the caller claims too, so run() waits
// only for items some thread has started. pthreadpool's fork-join instead
// waits for every worker to check in: one worker that the OS has not
// scheduled (a busy host, a VM's preempted vCPU, more threads than cores)
// held each parallel region for a scheduler tick, 4-8 ms, which made models
// of a fraction of a millisecond 20-50x slower at 16 threads on a 16-vCPU
// guest and at 4 threads on a 2-core one.
//
// Internal to libexecutorch.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <executorch/runtime/core/function_ref.h>

namespace executorch {
namespace extension {
namespace threadpool {

class WorkerPool {
 public:
  // `threads` counts the caller: threads - 1 workers are started.
  explicit WorkerPool(size_t threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  size_t threads() const { return workers_.size() + 1; }

  // fn(i) for every i in [0, n), on the caller and the workers; returns when
  // all have returned. One call at a time (the caller serializes).
  void run(runtime::FunctionRef<void(size_t)> fn, size_t n);

 private:
  struct Job {
    runtime::FunctionRef<void(size_t)>* fn = nullptr;
    size_t n = 0;
    std::atomic<size_t> next{0}, done{0};
  };

  void worker_loop();
  void work_on(Job& job);

  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::shared_ptr<Job> job_; // the newest job; a late worker keeps its own
  uint64_t generation_ = 0;
  std::atomic<uint64_t> published_{0}; // generation_, for spinning workers
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

} // namespace threadpool
} // namespace extension
} // namespace executorch
