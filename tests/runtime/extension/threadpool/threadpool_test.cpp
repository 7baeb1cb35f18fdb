// ThreadPool (extension/threadpool/threadpool.h) on the process's pool. Also run under
// ThreadSanitizer: the concurrent-callers test is what TSan is there for.
#include <executorch/extension/threadpool/cpuinfo_utils.h>
#include <executorch/extension/threadpool/threadpool.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using executorch::extension::threadpool::get_pthreadpool;
using executorch::extension::threadpool::get_threadpool;
using executorch::extension::threadpool::ThreadPool;

namespace {

// _unsafe_reset_threadpool is deprecated upstream (it swaps the pool under
// running work); the tests call it while nothing runs.
bool reset_pool(uint32_t threads) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  return get_threadpool()->_unsafe_reset_threadpool(threads);
#pragma GCC diagnostic pop
}

// How often run() called fn with each index of [0, range).
std::vector<int> hits_of_run(size_t range) {
  std::unique_ptr<std::atomic<int>[]> hits(new std::atomic<int>[range == 0 ? 1 : range]);
  for (size_t i = 0; i < range; ++i) hits[i] = 0;
  get_threadpool()->run([&](size_t i) { hits[i].fetch_add(1); }, range);
  std::vector<int> out(range);
  for (size_t i = 0; i < range; ++i) out[i] = hits[i].load();
  return out;
}

class ThreadPoolTest : public ::testing::Test {
 protected:
  // Every test starts from a pool of kThreads, whatever the machine has, so
  // that the multi-thread paths run even on a one-core builder.
  static constexpr uint32_t kThreads = 4;
  void SetUp() override { ASSERT_TRUE(reset_pool(kThreads)); }
};

TEST_F(ThreadPoolTest, RunCoversEveryIndexOnce) {
  for (uint32_t threads : {1u, kThreads}) {
    ASSERT_TRUE(reset_pool(threads));
    ASSERT_EQ(get_threadpool()->get_thread_count(), threads);
    for (size_t range : {0, 1, 2, 1000}) {
      const std::vector<int> hits = hits_of_run(range);
      ASSERT_EQ(hits.size(), range);
      for (size_t i = 0; i < range; ++i) {
        EXPECT_EQ(hits[i], 1) << "index " << i << " of " << range << ", " << threads << " threads";
      }
    }
  }
}

TEST_F(ThreadPoolTest, WorkIsSpreadOverThreads) {
  // Indexes that block until several threads have arrived: if run() used
  // the calling thread alone this would never finish, so cap the wait.
  std::mutex m;
  std::set<std::thread::id> ids;
  std::atomic<int> arrived{0};
  get_threadpool()->run(
      [&](size_t) {
        {
          std::lock_guard<std::mutex> lock(m);
          ids.insert(std::this_thread::get_id());
        }
        arrived.fetch_add(1);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (arrived.load() < 2 && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::yield();
        }
      },
      64);
  EXPECT_GE(ids.size(), 2u);
}

TEST_F(ThreadPoolTest, ResetSetsThreadCount) {
  ASSERT_TRUE(reset_pool(1));
  EXPECT_EQ(get_threadpool()->get_thread_count(), 1u);
  ASSERT_TRUE(reset_pool(3));
  EXPECT_EQ(get_threadpool()->get_thread_count(), 3u);
  // 0: the default size, the physical cores when EXECUTORCH_NUM_THREADS is
  // unset (the variable's own tests are in threadpool_env_test.cpp).
  ASSERT_EQ(unsetenv("EXECUTORCH_NUM_THREADS"), 0);
  ASSERT_TRUE(reset_pool(0));
  EXPECT_EQ(get_threadpool()->get_thread_count(),
            executorch::extension::cpuinfo::get_num_performant_cores());
}

TEST_F(ThreadPoolTest, DestroyedPoolRunsOnCaller) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  get_threadpool()->_unsafe_destroy_threadpool();
#pragma GCC diagnostic pop
  EXPECT_EQ(get_threadpool()->get_thread_count(), 1u);
  EXPECT_EQ(get_pthreadpool(), nullptr);
  const std::thread::id self = std::this_thread::get_id();
  int count = 0;
  get_threadpool()->run(
      [&](size_t) {
        EXPECT_EQ(std::this_thread::get_id(), self);
        ++count;
      },
      10);
  EXPECT_EQ(count, 10);
}

TEST_F(ThreadPoolTest, NestedRunDoesNotDeadlock) {
  // A run() from inside fn must not wait for the pool it is running on; a
  // deadlock here ends in meson's timeout.
  std::atomic<int> inner{0};
  get_threadpool()->run(
      [&](size_t) { get_threadpool()->run([&](size_t) { inner.fetch_add(1); }, 16); }, 8);
  EXPECT_EQ(inner.load(), 8 * 16);
}

TEST_F(ThreadPoolTest, ConcurrentCallersOnSingleton) {
  // Several threads share the one pool; each run must see all of its own
  // indexes, plain (non-atomic) writes included, once run() returns.
  constexpr int kCallers = 4;
  constexpr int kRuns = 10;
  constexpr size_t kRange = 257;
  std::vector<std::thread> callers;
  std::vector<int> failures(kCallers, 0);
  for (int c = 0; c < kCallers; ++c) {
    callers.emplace_back([c, &failures] {
      for (int r = 0; r < kRuns; ++r) {
        std::vector<size_t> values(kRange, 0);
        get_threadpool()->run([&](size_t i) { values[i] = i * 3 + c; }, kRange);
        for (size_t i = 0; i < kRange; ++i) {
          if (values[i] != i * 3 + c) ++failures[c];
        }
      }
    });
  }
  for (std::thread& t : callers) t.join();
  for (int c = 0; c < kCallers; ++c) EXPECT_EQ(failures[c], 0) << "caller " << c;
}

TEST_F(ThreadPoolTest, PthreadpoolIsThePool) {
  pthreadpool_t p = get_pthreadpool();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(pthreadpool_get_threads_count(p), get_threadpool()->get_thread_count());
}

TEST(ThreadPoolOwn, OwnPoolOfGivenSize) {
  ThreadPool pool(2);
  EXPECT_EQ(pool.get_thread_count(), 2u);
  std::atomic<int> sum{0};
  pool.run([&](size_t i) { sum.fetch_add(static_cast<int>(i)); }, 100);
  EXPECT_EQ(sum.load(), 99 * 100 / 2);
}

TEST(ThreadPoolOwn, UpstreamAliases) {
  EXPECT_EQ(::torch::executorch::threadpool::get_threadpool(), get_threadpool());
}

} // namespace
