// runtime/src/executor/platform_temp_allocator.h: the temp allocator a Method
// uses when its MemoryManager has none; blocks from et_pal_allocate, all
// given back at reset().
#include "executor/platform_temp_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include <executorch/runtime/platform/runtime.h>

using executorch::runtime::internal::PlatformTempAllocator;

namespace {

TEST(PlatformTempAllocator, AlignedWritableBlocksUntilReset) {
  executorch::runtime::runtime_init();
  PlatformTempAllocator a;
  for (size_t alignment : {1u, 8u, 16u, 64u, 256u}) {
    void* p = a.allocate(100, alignment);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % alignment, 0u);
    std::memset(p, 0xab, 100);
  }
  a.reset();
  void* again = a.allocate(4096);
  ASSERT_NE(again, nullptr);
  std::memset(again, 0, 4096);
  // The destructor gives back what reset() did not.
}

TEST(PlatformTempAllocator, RefusesBadAlignmentAndOverflowingSizes) {
  PlatformTempAllocator a;
  EXPECT_EQ(a.allocate(8, 0), nullptr);
  EXPECT_EQ(a.allocate(8, 3), nullptr);
  EXPECT_EQ(a.allocate(SIZE_MAX, 8), nullptr);
  EXPECT_EQ(a.allocate(SIZE_MAX - 8, 16), nullptr);
}

} // namespace
