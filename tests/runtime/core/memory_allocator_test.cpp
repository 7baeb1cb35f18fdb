// executorch/runtime/core/memory_allocator.h: the bump allocator.
#include <executorch/runtime/core/memory_allocator.h>

#include <cstdint>
#include <type_traits>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

using executorch::runtime::MemoryAllocator;

class MemoryAllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

TEST_F(MemoryAllocatorTest, SizesAreSizeT) {
  static_assert(std::is_same<decltype(std::declval<MemoryAllocator>().used_size()), size_t>::value,
                "used_size() is size_t");
  static_assert(std::is_same<decltype(std::declval<MemoryAllocator>().free_size()), size_t>::value,
                "free_size() is size_t");
}

TEST_F(MemoryAllocatorTest, UsedAndFreeTrackAllocationsAndPadding) {
  alignas(64) uint8_t pool[128];
  MemoryAllocator allocator(sizeof(pool), pool);
  EXPECT_EQ(allocator.size(), 128u);
  EXPECT_EQ(allocator.base_address(), pool);
  EXPECT_EQ(allocator.used_size(), 0u);
  EXPECT_EQ(allocator.free_size(), 128u);

  ASSERT_EQ(allocator.allocate(3, 1), pool);
  EXPECT_EQ(allocator.used_size(), 3u);
  EXPECT_EQ(allocator.free_size(), 125u);

  // 16-byte alignment pads from 3 to 16 first.
  void* p = allocator.allocate(10, 16);
  ASSERT_EQ(p, pool + 16);
  EXPECT_EQ(allocator.used_size(), 26u);
  EXPECT_EQ(allocator.free_size(), 102u);

  allocator.reset();
  EXPECT_EQ(allocator.used_size(), 0u);
  EXPECT_EQ(allocator.free_size(), 128u);
}

TEST_F(MemoryAllocatorTest, FailuresLeaveTheAllocatorUnchanged) {
  alignas(16) uint8_t pool[32];
  MemoryAllocator allocator(sizeof(pool), pool);
  ASSERT_NE(allocator.allocate(8), nullptr);
  EXPECT_EQ(allocator.allocate(64), nullptr);
  EXPECT_EQ(allocator.allocate(1, 6), nullptr); // not a power of two
  EXPECT_EQ(allocator.allocateList<uint64_t>(SIZE_MAX / 4), nullptr);
  EXPECT_EQ(allocator.used_size(), 8u);
  // Exactly what is left still fits.
  EXPECT_NE(allocator.allocate(24, 1), nullptr);
  EXPECT_EQ(allocator.free_size(), 0u);
}

TEST_F(MemoryAllocatorTest, InstanceAndListUseTheTypesAlignment) {
  alignas(64) uint8_t pool[256];
  MemoryAllocator allocator(sizeof(pool), pool);
  ASSERT_NE(allocator.allocate(1, 1), nullptr);
  auto* d = allocator.allocateInstance<double>();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(d) % alignof(double), 0u);
  auto* list = allocator.allocateList<uint32_t>(5);
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(list) % alignof(uint32_t), 0u);
  EXPECT_EQ(reinterpret_cast<uint8_t*>(list) - reinterpret_cast<uint8_t*>(d), 8);
}
