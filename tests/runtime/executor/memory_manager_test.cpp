// executorch/runtime/executor/memory_manager.h: the allocators a Method
// is loaded with, and whether its planned memory is on a device.
#include <executorch/runtime/executor/memory_manager.h>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

using executorch::runtime::HierarchicalAllocator;
using executorch::runtime::MemoryAllocator;
using executorch::runtime::MemoryManager;
using executorch::runtime::Span;
using executorch::runtime::etensor::Device;
using executorch::runtime::etensor::DeviceType;

class MemoryManagerTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

TEST_F(MemoryManagerTest, HoldsTheGivenAllocators) {
  uint8_t a[8];
  uint8_t t[8];
  MemoryAllocator method_allocator(8, a);
  MemoryAllocator temp_allocator(8, t);
  Span<uint8_t> buffers[1] = {{a, 8}};
  HierarchicalAllocator planned({buffers, 1});
  MemoryManager mm(&method_allocator, &planned, &temp_allocator);
  EXPECT_EQ(mm.method_allocator(), &method_allocator);
  EXPECT_EQ(mm.planned_memory(), &planned);
  EXPECT_EQ(mm.temp_allocator(), &temp_allocator);

  MemoryManager minimal(&method_allocator);
  EXPECT_EQ(minimal.planned_memory(), nullptr);
  EXPECT_EQ(minimal.temp_allocator(), nullptr);
}

TEST_F(MemoryManagerTest, NoPlannedMemoryHasNoDeviceMemory) {
  uint8_t a[8];
  MemoryAllocator method_allocator(8, a);
  MemoryManager mm(&method_allocator);
  EXPECT_EQ(mm.planned_buffer_devices().size(), 0u);
  EXPECT_FALSE(mm.has_device_memory());
}

TEST_F(MemoryManagerTest, CpuOnlyPlannedMemoryHasNoDeviceMemory) {
  uint8_t a[8];
  uint8_t b[8];
  MemoryAllocator method_allocator(8, a);
  Span<uint8_t> buffers[1] = {{b, 8}};
  HierarchicalAllocator planned({buffers, 1});
  MemoryManager mm(&method_allocator, &planned);
  EXPECT_FALSE(mm.has_device_memory());
}

TEST_F(MemoryManagerTest, ForwardsThePlannedBufferDevices) {
  uint8_t a[8];
  uint8_t b0[8];
  uint8_t b1[8];
  MemoryAllocator method_allocator(8, a);
  Span<uint8_t> buffers[2] = {{b0, 8}, {b1, 8}};
  const Device devices[2] = {Device(DeviceType::CPU), Device(DeviceType::CUDA, 0)};
  HierarchicalAllocator planned({buffers, 2}, {devices, 2});
  MemoryManager mm(&method_allocator, &planned);
  ASSERT_TRUE(mm.has_device_memory());
  ASSERT_EQ(mm.planned_buffer_devices().size(), 2u);
  EXPECT_EQ(mm.planned_buffer_devices()[1].type(), DeviceType::CUDA);
}
