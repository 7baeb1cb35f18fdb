// NoThreadPoolGuard (extension/threadpool/threadpool_guard.h): run() on the
// guarded thread uses that thread alone, even with a pool of several threads.
#include <executorch/extension/threadpool/threadpool.h>
#include <executorch/extension/threadpool/threadpool_guard.h>

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using executorch::extension::threadpool::get_pthreadpool;
using executorch::extension::threadpool::get_threadpool;
using executorch::extension::threadpool::NoThreadPoolGuard;

namespace {

class NoThreadPoolGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ASSERT_TRUE(get_threadpool()->_unsafe_reset_threadpool(4));
#pragma GCC diagnostic pop
  }
};

TEST_F(NoThreadPoolGuardTest, GuardRunsOnCallingThread) {
  EXPECT_FALSE(NoThreadPoolGuard::is_enabled());
  const std::thread::id self = std::this_thread::get_id();
  {
    NoThreadPoolGuard guard;
    EXPECT_TRUE(NoThreadPoolGuard::is_enabled());
    {
      NoThreadPoolGuard inner; // nesting keeps it on after the inner one ends
    }
    EXPECT_TRUE(NoThreadPoolGuard::is_enabled());
    std::vector<size_t> order; // no lock: only this thread may touch it
    get_threadpool()->run(
        [&](size_t i) {
          EXPECT_EQ(std::this_thread::get_id(), self);
          order.push_back(i);
        },
        100);
    ASSERT_EQ(order.size(), 100u);
    for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], i);
  }
  EXPECT_FALSE(NoThreadPoolGuard::is_enabled());
}

TEST_F(NoThreadPoolGuardTest, GuardIsPerThread) {
  NoThreadPoolGuard guard;
  bool other_sees = true;
  std::thread([&] { other_sees = NoThreadPoolGuard::is_enabled(); }).join();
  EXPECT_FALSE(other_sees);
}

// As upstream: under the guard a library that drives pthreadpool itself gets
// no pool (nullptr: run inline); the pool comes back when the guard ends, and
// other threads keep it meanwhile.
TEST_F(NoThreadPoolGuardTest, GuardHidesPthreadpool) {
  ASSERT_NE(get_pthreadpool(), nullptr);
  {
    NoThreadPoolGuard guard;
    EXPECT_EQ(get_pthreadpool(), nullptr);
    bool other_has_pool = false;
    std::thread([&] { other_has_pool = get_pthreadpool() != nullptr; }).join();
    EXPECT_TRUE(other_has_pool);
  }
  EXPECT_NE(get_pthreadpool(), nullptr);
}

TEST_F(NoThreadPoolGuardTest, UpstreamAlias) {
  ::torch::executorch::threadpool::NoThreadPoolGuard guard;
  EXPECT_TRUE(NoThreadPoolGuard::is_enabled());
}

} // namespace
