// executorch/runtime/core/device_allocator.h: the allocator interface and
// the one-per-device-type registry.
#include <executorch/runtime/core/device_allocator.h>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

#include "fake_device_allocator.h"

using executorch::runtime::DeviceAllocator;
using executorch::runtime::DeviceAllocatorRegistry;
using executorch::runtime::Error;
using executorch::runtime::get_device_allocator;
using executorch::runtime::register_device_allocator;
using executorch::runtime::unregister_device_allocator;
using executorch::runtime::etensor::DeviceType;
using executorch::runtime::etensor::kNumDeviceTypes;

class DeviceAllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

TEST_F(DeviceAllocatorTest, InterfaceDefaults) {
  static_assert(DeviceAllocator::kDefaultAlignment == alignof(void*), "default alignment");
  static_assert(kNumDeviceTypes == 2, "CPU and CUDA");
  et_test::FakeCudaAllocator fake;
  DeviceAllocator& a = fake;
  auto p = a.allocate(100, 0);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(fake.last_alignment, DeviceAllocator::kDefaultAlignment);
  auto q = a.allocate(100, 0, 64);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(*q) % 64, 0u);
  EXPECT_EQ(a.copy_device_to_device(*q, *p, 8, 0), Error::NotSupported);
  a.deallocate(*p, 0);
  a.deallocate(*q, 0);
  EXPECT_EQ(fake.deallocations, 2);
}

TEST_F(DeviceAllocatorTest, RegistryHoldsOnePerTypeAndKeepsTheFirst) {
  EXPECT_EQ(get_device_allocator(DeviceType::CUDA), nullptr);
  et_test::FakeCudaAllocator first;
  et_test::FakeCudaAllocator second;
  EXPECT_EQ(register_device_allocator(&first), Error::Ok);
  EXPECT_EQ(get_device_allocator(DeviceType::CUDA), &first);
  EXPECT_EQ(DeviceAllocatorRegistry::instance().get_allocator(DeviceType::CUDA), &first);
  EXPECT_EQ(register_device_allocator(&second), Error::InvalidArgument);
  EXPECT_EQ(get_device_allocator(DeviceType::CUDA), &first);
  EXPECT_EQ(get_device_allocator(DeviceType::CPU), nullptr);

  EXPECT_EQ(unregister_device_allocator(&second), Error::NotFound);
  EXPECT_EQ(unregister_device_allocator(&first), Error::Ok);
  EXPECT_EQ(get_device_allocator(DeviceType::CUDA), nullptr);
}

TEST_F(DeviceAllocatorTest, RegistryRejectsNullAndUnknownTypes) {
  EXPECT_EQ(register_device_allocator(nullptr), Error::InvalidArgument);
  EXPECT_EQ(unregister_device_allocator(nullptr), Error::InvalidArgument);
  EXPECT_EQ(get_device_allocator(static_cast<DeviceType>(7)), nullptr);
  EXPECT_EQ(get_device_allocator(static_cast<DeviceType>(-1)), nullptr);
}

TEST_F(DeviceAllocatorTest, RegistryThroughTheSingleton) {
  DeviceAllocatorRegistry& registry = DeviceAllocatorRegistry::instance();
  EXPECT_EQ(&registry, &DeviceAllocatorRegistry::instance());
  et_test::FakeCudaAllocator fake;
  EXPECT_EQ(registry.register_allocator(&fake), Error::Ok);
  EXPECT_EQ(get_device_allocator(DeviceType::CUDA), &fake);
  EXPECT_EQ(registry.unregister_allocator(&fake), Error::Ok);
}
