// An application sizing and using the process's thread pool the way
// upstream's runners and custom ops do: the pool reset to the performant
// cores, a parallel loop through run(), a section kept on the calling
// thread with NoThreadPoolGuard, and the pthreadpool_t handed to libraries
// that take one. Including threadpool.h also proves the installed headers
// find <pthreadpool.h> (libexecutorch-dev depends on libpthreadpool-dev).
// Exits 0 when everything behaved as documented.
#include <atomic>
#include <cstdio>
#include <thread>

#include <executorch/extension/threadpool/cpuinfo_utils.h>
#include <executorch/extension/threadpool/threadpool.h>
#include <executorch/extension/threadpool/threadpool_guard.h>
#include <executorch/runtime/platform/runtime.h>

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: %s\n", what);
    ++failures;
  }
}

} // namespace

int main() {
  executorch::runtime::runtime_init();
  const uint32_t cores = ::executorch::extension::cpuinfo::get_num_performant_cores();
  expect(cores >= 1, "get_num_performant_cores() >= 1");

  auto* pool = ::executorch::extension::threadpool::get_threadpool();
  // Upstream marks the reset experimental; applications silence the warning.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  expect(pool->_unsafe_reset_threadpool(cores < 2 ? 2 : cores), "_unsafe_reset_threadpool");
#pragma GCC diagnostic pop
  expect(pool->get_thread_count() >= 2, "get_thread_count() after the reset");

  std::atomic<long> sum{0};
  pool->run([&](size_t i) { sum += static_cast<long>(i); }, 1000);
  expect(sum == 999L * 1000 / 2, "run() over 1000 indexes");

  {
    ::torch::executorch::threadpool::NoThreadPoolGuard guard;
    const std::thread::id self = std::this_thread::get_id();
    bool all_here = true;
    pool->run([&](size_t) { all_here = all_here && std::this_thread::get_id() == self; }, 64);
    expect(all_here, "NoThreadPoolGuard keeps run() on the calling thread");
  }

  expect(::executorch::extension::threadpool::get_pthreadpool() != nullptr, "get_pthreadpool()");
  if (failures == 0) {
    std::printf("threadpool_app: %zu threads, %u performant cores: ok\n", pool->get_thread_count(),
                cores);
  }
  return failures == 0 ? 0 : 1;
}
