// executorch/runtime/core/hierarchical_allocator.h: planned buffers by id,
// and the devices they live on.
#include <executorch/runtime/core/hierarchical_allocator.h>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

using executorch::runtime::Error;
using executorch::runtime::HierarchicalAllocator;
using executorch::runtime::MemoryAllocator;
using executorch::runtime::Span;
using executorch::runtime::etensor::Device;
using executorch::runtime::etensor::DeviceType;

class HierarchicalAllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

TEST_F(HierarchicalAllocatorTest, OffsetsWithinEachBuffer) {
  uint8_t b0[16];
  uint8_t b1[32];
  Span<uint8_t> buffers[2] = {{b0, 16}, {b1, 32}};
  HierarchicalAllocator allocator({buffers, 2});
  EXPECT_EQ(allocator.get_offset_address(0, 0, 16).get(), b0);
  EXPECT_EQ(allocator.get_offset_address(1, 8, 24).get(), b1 + 8);
  EXPECT_EQ(allocator.get_offset_address(1, 32, 0).get(), b1 + 32);
  EXPECT_NE(allocator.get_offset_address(1, 8, 25).error(), Error::Ok);
  EXPECT_NE(allocator.get_offset_address(2, 0, 1).error(), Error::Ok);
  EXPECT_NE(allocator.get_offset_address(0, SIZE_MAX, 2).error(), Error::Ok);
  EXPECT_NE(allocator.get_offset_address(0, 2, SIZE_MAX).error(), Error::Ok);
}

TEST_F(HierarchicalAllocatorTest, NoDevicesMeansCpuOnly) {
  uint8_t b0[8];
  Span<uint8_t> buffers[1] = {{b0, 8}};
  HierarchicalAllocator allocator({buffers, 1});
  EXPECT_EQ(allocator.planned_buffer_devices().size(), 0u);
  EXPECT_TRUE(allocator.buffer_device(0).is_cpu());
}

TEST_F(HierarchicalAllocatorTest, KeepsThePlannedBufferDevices) {
  uint8_t b0[8];
  uint8_t b1[8];
  Span<uint8_t> buffers[2] = {{b0, 8}, {b1, 8}};
  const Device devices[2] = {Device(DeviceType::CPU), Device(DeviceType::CUDA, 0)};
  HierarchicalAllocator allocator({buffers, 2}, {devices, 2});
  Span<const Device> got = allocator.planned_buffer_devices();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(got[0].is_cpu());
  EXPECT_EQ(got[1].type(), DeviceType::CUDA);
  EXPECT_EQ(allocator.buffer_device(1), Device(DeviceType::CUDA, 0));
}

TEST_F(HierarchicalAllocatorTest, DeprecatedAllocatorListConstructor) {
  uint8_t b0[16];
  uint8_t b1[16];
  MemoryAllocator allocators[2] = {MemoryAllocator(16, b0), MemoryAllocator(16, b1)};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  HierarchicalAllocator allocator(2, allocators);
#pragma GCC diagnostic pop
  EXPECT_EQ(allocator.get_offset_address(1, 4, 4).get(), b1 + 4);
  EXPECT_NE(allocator.get_offset_address(2, 0, 1).error(), Error::Ok);
}
