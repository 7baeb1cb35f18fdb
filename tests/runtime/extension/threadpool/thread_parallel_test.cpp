// runtime/kernel/thread_parallel_interface.h: parallel_for over the process's
// thread pool, its serial form, and get_thread_num().
#include <executorch/extension/threadpool/thread_parallel.h>
#include <executorch/extension/threadpool/threadpool.h>
#include <executorch/extension/threadpool/threadpool_guard.h>

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

using executorch::extension::get_thread_num;
using executorch::extension::parallel_for;
using executorch::extension::set_thread_num;
using executorch::extension::internal::parallel_for_no_threadpool;
using executorch::extension::threadpool::get_threadpool;
using executorch::extension::threadpool::NoThreadPoolGuard;

namespace {

class ParallelForTest : public ::testing::Test {
 protected:
  void SetUp() override {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ASSERT_TRUE(get_threadpool()->_unsafe_reset_threadpool(4));
#pragma GCC diagnostic pop
  }
};

// Runs parallel_for and returns the chunks it made, sorted.
std::vector<std::pair<int64_t, int64_t>> chunks(int64_t begin, int64_t end, int64_t grain) {
  std::mutex m;
  std::set<std::pair<int64_t, int64_t>> seen;
  EXPECT_TRUE(parallel_for(begin, end, grain, [&](int64_t lo, int64_t hi) {
    std::lock_guard<std::mutex> lock(m);
    seen.emplace(lo, hi);
  }));
  return {seen.begin(), seen.end()};
}

TEST_F(ParallelForTest, CoversTheRangeOnceInChunksOfAtLeastTheGrain) {
  std::vector<std::atomic<int>> hits(1000);
  ASSERT_TRUE(parallel_for(0, 1000, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) hits[size_t(i)]++;
  }));
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  // Four threads: four chunks of 250.
  EXPECT_EQ(chunks(0, 1000, 1), (std::vector<std::pair<int64_t, int64_t>>{
                                    {0, 250}, {250, 500}, {500, 750}, {750, 1000}}));
  // The grain wins over the thread count; the last chunk is what is left.
  EXPECT_EQ(chunks(3, 10, 3), (std::vector<std::pair<int64_t, int64_t>>{{3, 6}, {6, 9}, {9, 10}}));
  // A grain larger than the range: one chunk.
  EXPECT_EQ(chunks(0, 10, 100), (std::vector<std::pair<int64_t, int64_t>>{{0, 10}}));
  // An empty range calls nothing.
  EXPECT_TRUE(chunks(5, 5, 1).empty());
}

TEST_F(ParallelForTest, RefusesABadRangeOrGrain) {
  int calls = 0;
  auto f = [&](int64_t, int64_t) { ++calls; };
  EXPECT_FALSE(parallel_for(-1, 10, 1, f));
  EXPECT_FALSE(parallel_for(10, 5, 1, f));
  EXPECT_FALSE(parallel_for(0, 10, 0, f));
  EXPECT_FALSE(parallel_for_no_threadpool(10, 5, 1, f));
  EXPECT_FALSE(parallel_for_no_threadpool(0, 10, -1, f));
  EXPECT_EQ(calls, 0);
}

TEST_F(ParallelForTest, ThreadNumIsTheChunkIndex) {
  std::vector<int64_t> nums(4, -1);
  ASSERT_TRUE(
      parallel_for(0, 4, 1, [&](int64_t lo, int64_t) { nums[size_t(lo)] = get_thread_num(); }));
  EXPECT_EQ(nums, (std::vector<int64_t>{0, 1, 2, 3}));
  set_thread_num(7);
  EXPECT_EQ(get_thread_num(), 7);
  set_thread_num(0);
}

TEST_F(ParallelForTest, UnderTheGuardEverythingRunsOnTheCaller) {
  NoThreadPoolGuard guard;
  const std::thread::id self = std::this_thread::get_id();
  bool all_here = true;
  ASSERT_TRUE(parallel_for(0, 100, 1, [&](int64_t, int64_t) {
    all_here = all_here && std::this_thread::get_id() == self;
  }));
  EXPECT_TRUE(all_here);
}

TEST_F(ParallelForTest, SerialFormCoversTheRange) {
  std::vector<int> hits(10, 0);
  ASSERT_TRUE(parallel_for_no_threadpool(2, 8, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) hits[size_t(i)]++;
  }));
  EXPECT_EQ(hits, (std::vector<int>{0, 0, 1, 1, 1, 1, 1, 1, 0, 0}));
}

TEST_F(ParallelForTest, LegacyTorchExecutorNames) {
  int calls = 0;
  EXPECT_TRUE(torch::executor::parallel_for(0, 3, 5, [&](int64_t, int64_t) { ++calls; }));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(torch::executor::get_thread_num(), 0);
}

} // namespace
