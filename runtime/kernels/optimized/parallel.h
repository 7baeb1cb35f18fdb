// Splitting a loop over the process's thread pool (extension/threadpool).
#pragma once

#include <algorithm>
#include <cstdint>

#include <executorch/extension/threadpool/threadpool.h>

namespace executorch {
namespace runtime {
namespace optimized {

// The least work a chunk handed to another thread must carry. Waking a pool
// thread costs microseconds on bare metal and far more in a VM with many
// vCPUs (on a 16-vCPU KVM guest, chunks of ~16K elements made models of
// tens of microseconds per op 10-60x slower at 16 threads than at 1), so a
// chunk is worth it only at tens of microseconds of work.
constexpr int64_t kMinTaskWork = int64_t{1} << 18;  // multiply-adds
constexpr int64_t kMinTaskElems = int64_t{1} << 16; // elementwise elements

// Items per chunk for items of `item_work` each (at least 1).
inline int64_t grain_for(int64_t item_work, int64_t min_work = kMinTaskWork) {
  return min_work / std::max<int64_t>(item_work, 1) + 1;
}

// Calls fn(begin, end) over consecutive chunks that cover [0, n), at most one
// chunk per pool thread and none smaller than `grain` items (so small loops
// stay on the calling thread, where a hand-off would cost more than it saves).
template <typename Fn>
void parallel_for(int64_t n, int64_t grain, const Fn& fn) {
  if (n <= 0) return;
  const int64_t threads = static_cast<int64_t>(
      ::executorch::extension::threadpool::get_threadpool()->get_thread_count());
  const int64_t chunks = std::max<int64_t>(1, std::min(threads, n / std::max<int64_t>(grain, 1)));
  if (chunks == 1) {
    fn(int64_t{0}, n);
    return;
  }
  const int64_t step = (n + chunks - 1) / chunks;
  auto task = [&](size_t i) {
    const int64_t begin = static_cast<int64_t>(i) * step;
    const int64_t end = std::min(n, begin + step);
    if (begin < end) fn(begin, end);
  };
  ::executorch::extension::threadpool::get_threadpool()->run(task, static_cast<size_t>(chunks));
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
