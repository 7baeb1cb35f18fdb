// EXECUTORCH_NUM_THREADS: the pool's size when the process first uses it.
// meson runs this program once per value (tests/.../threadpool/meson.build),
// with ET_EXPECT_THREADS naming the size the pool must then have: a number,
// or "cores" for get_num_performant_cores() (a bad value is ignored).
#include <executorch/extension/threadpool/cpuinfo_utils.h>
#include <executorch/extension/threadpool/threadpool.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using executorch::extension::cpuinfo::get_num_performant_cores;
using executorch::extension::threadpool::get_threadpool;

namespace {

size_t expected_threads() {
  const char* e = std::getenv("ET_EXPECT_THREADS");
  if (e == nullptr || std::string(e) == "cores") return get_num_performant_cores();
  return static_cast<size_t>(std::stoul(e));
}

bool reset_pool(uint32_t threads) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  return get_threadpool()->_unsafe_reset_threadpool(threads);
#pragma GCC diagnostic pop
}

// First: the pool is created here, from the environment meson set.
TEST(ThreadPoolEnv, FirstUseHonoursVariable) {
  EXPECT_EQ(get_threadpool()->get_thread_count(), expected_threads())
      << "EXECUTORCH_NUM_THREADS="
      << (std::getenv("EXECUTORCH_NUM_THREADS") ? std::getenv("EXECUTORCH_NUM_THREADS")
                                                : "(unset)");
}

// Reset to 0 reads the variable again.
TEST(ThreadPoolEnv, ResetToDefaultRereadsVariable) {
  ASSERT_EQ(setenv("EXECUTORCH_NUM_THREADS", "2", 1), 0);
  ASSERT_TRUE(reset_pool(0));
  EXPECT_EQ(get_threadpool()->get_thread_count(), 2u);
}

TEST(ThreadPoolEnv, BadValuesIgnored) {
  const size_t cores = get_num_performant_cores();
  for (const char* bad : {"", "0", "-3", "abc", "4x", "1.5", "99999999999999999999", "100000"}) {
    ASSERT_EQ(setenv("EXECUTORCH_NUM_THREADS", bad, 1), 0);
    ASSERT_TRUE(reset_pool(0));
    EXPECT_EQ(get_threadpool()->get_thread_count(), cores)
        << "EXECUTORCH_NUM_THREADS='" << bad << "'";
  }
  ASSERT_EQ(unsetenv("EXECUTORCH_NUM_THREADS"), 0);
  ASSERT_TRUE(reset_pool(0));
  EXPECT_EQ(get_threadpool()->get_thread_count(), cores);
}

} // namespace
