// get_num_performant_cores() (extension/threadpool/cpuinfo_utils.h).
#include <executorch/extension/threadpool/cpuinfo_utils.h>

#include <gtest/gtest.h>
#include <sched.h>

#include <thread>

using executorch::extension::cpuinfo::get_num_performant_cores;

namespace {

int affinity_count() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0) return -1;
  return CPU_COUNT(&mask);
}

TEST(CpuinfoUtils, WithinAffinity) {
  const uint32_t cores = get_num_performant_cores();
  EXPECT_GE(cores, 1u);
  const int allowed = affinity_count();
  ASSERT_GT(allowed, 0);
  EXPECT_LE(cores, static_cast<uint32_t>(allowed));
}

TEST(CpuinfoUtils, FollowsNarrowedAffinity) {
  // Pinned to one CPU, the process has one core to offer. Measured on a
  // thread of its own, so the test process keeps its mask.
  uint32_t pinned = 0;
  std::thread([&pinned] {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    ASSERT_EQ(sched_getaffinity(0, sizeof(mask), &mask), 0);
    int first = 0;
    while (first < CPU_SETSIZE && !CPU_ISSET(first, &mask)) ++first;
    ASSERT_LT(first, CPU_SETSIZE);
    CPU_ZERO(&mask);
    CPU_SET(first, &mask);
    ASSERT_EQ(sched_setaffinity(0, sizeof(mask), &mask), 0);
    pinned = get_num_performant_cores();
  }).join();
  EXPECT_EQ(pinned, 1u);
}

TEST(CpuinfoUtils, UpstreamAlias) {
  EXPECT_EQ(::torch::executorch::cpuinfo::get_num_performant_cores(), get_num_performant_cores());
}

} // namespace
