// Splitting a loop over the process's thread pool (extension/threadpool).
#pragma once

#include <algorithm>
#include <cstdint>

#include <executorch/extension/threadpool/threadpool.h>

namespace executorch {
namespace runtime {
namespace optimized {

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
