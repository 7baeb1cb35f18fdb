// executorch/extension/memory_allocator/cpu_caching_malloc_allocator.h.
#include <executorch/extension/memory_allocator/cpu_caching_malloc_allocator.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

using executorch::extension::CPUCachingAllocator;
using executorch::extension::kCachingAllocatorDefaultAlignment;

class CPUCachingAllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

TEST_F(CPUCachingAllocatorTest, AlignsEveryBlock) {
  CPUCachingAllocator allocator(1024);
  void* a = allocator.allocate(10);
  void* b = allocator.allocate(10, 1);
  void* c = allocator.allocate(10, 256);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % kCachingAllocatorDefaultAlignment, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % kCachingAllocatorDefaultAlignment, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(c) % 256, 0u);
  std::memset(c, 0xab, 10);
  EXPECT_EQ(allocator.allocate(10, 3), nullptr);
  EXPECT_EQ(allocator.allocate(SIZE_MAX - 4), nullptr);
}

TEST_F(CPUCachingAllocatorTest, ReuseAfterReset) {
  CPUCachingAllocator allocator(1 << 20);
  std::set<void*> first;
  for (int i = 0; i < 4; ++i) {
    void* p = allocator.allocate(100);
    ASSERT_NE(p, nullptr);
    first.insert(p);
  }
  EXPECT_EQ(first.size(), 4u);
  allocator.reset();
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(first.count(allocator.allocate(100)), 1u) << "block " << i << " not reused";
  }
  // A fifth block of that size is new.
  EXPECT_EQ(first.count(allocator.allocate(100)), 0u);
}

TEST_F(CPUCachingAllocatorTest, OverTheLimitFreesInsteadOfCaching) {
  CPUCachingAllocator allocator(128);
  void* a = allocator.allocate(512);
  ASSERT_NE(a, nullptr); // allocation may exceed the cache limit
  allocator.reset();     // ... but then nothing is kept
  void* b = allocator.allocate(64);
  void* c = allocator.allocate(64);
  ASSERT_NE(b, nullptr);
  ASSERT_NE(c, nullptr);
  EXPECT_NE(b, c);
  allocator.reset(); // 128 bytes: within the limit, kept
  std::set<void*> again = {allocator.allocate(64), allocator.allocate(64)};
  EXPECT_EQ(again.count(b) + again.count(c), 2u);
}

TEST_F(CPUCachingAllocatorTest, ConcurrentUse) {
  CPUCachingAllocator allocator(1 << 20);
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        void* p = allocator.allocate(static_cast<size_t>(16 + (i % 4) * 64));
        if (p == nullptr) {
          ++failures[t];
        } else {
          std::memset(p, t, 16);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int f : failures) EXPECT_EQ(f, 0);
  allocator.reset();
}
