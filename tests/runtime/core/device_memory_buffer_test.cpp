// executorch/runtime/core/device_memory_buffer.h: an owned device
// allocation from the registered allocator.
#include <executorch/runtime/core/device_memory_buffer.h>

#include <utility>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

#include "fake_device_allocator.h"

using executorch::runtime::DeviceMemoryBuffer;
using executorch::runtime::Error;
using executorch::runtime::Span;
using executorch::runtime::etensor::DeviceType;

class DeviceMemoryBufferTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

TEST_F(DeviceMemoryBufferTest, NoAllocatorIsNotFound) {
  auto buf = DeviceMemoryBuffer::create(64, DeviceType::CUDA);
  EXPECT_EQ(buf.error(), Error::NotFound);
  EXPECT_EQ(DeviceMemoryBuffer::create(64, DeviceType::CPU).error(), Error::NotFound);
}

TEST_F(DeviceMemoryBufferTest, CreatesAndFreesOnce) {
  et_test::FakeCudaAllocator fake;
  et_test::ScopedRegistration reg(&fake);
  ASSERT_TRUE(reg.ok());
  {
    auto buf = DeviceMemoryBuffer::create(256, DeviceType::CUDA, 0, 128);
    ASSERT_TRUE(buf.ok());
    EXPECT_NE(buf->data(), nullptr);
    EXPECT_EQ(buf->size(), 256u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buf->data()) % 128, 0u);
    EXPECT_EQ(fake.last_alignment, 128u);
    Span<uint8_t> span = buf->as_span();
    EXPECT_EQ(span.data(), buf->data());
    EXPECT_EQ(span.size(), 256u);
    EXPECT_EQ(fake.allocations, 1);
    EXPECT_EQ(fake.deallocations, 0);
  }
  EXPECT_EQ(fake.deallocations, 1);
}

TEST_F(DeviceMemoryBufferTest, AllocatorErrorsPassThrough) {
  et_test::FakeCudaAllocator fake;
  et_test::ScopedRegistration reg(&fake);
  ASSERT_TRUE(reg.ok());
  EXPECT_EQ(DeviceMemoryBuffer::create(16, DeviceType::CUDA, 3).error(), Error::InvalidArgument);
  EXPECT_EQ(fake.allocations, 0);
}

TEST_F(DeviceMemoryBufferTest, MovesTransferOwnership) {
  et_test::FakeCudaAllocator fake;
  et_test::ScopedRegistration reg(&fake);
  ASSERT_TRUE(reg.ok());
  auto a = DeviceMemoryBuffer::create(32, DeviceType::CUDA);
  auto b = DeviceMemoryBuffer::create(32, DeviceType::CUDA);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  void* pa = a->data();

  DeviceMemoryBuffer moved(std::move(*a));
  EXPECT_EQ(moved.data(), pa);
  EXPECT_EQ(a->data(), nullptr);
  EXPECT_EQ(a->size(), 0u);

  *b = std::move(moved); // frees b's old block, takes a's
  EXPECT_EQ(fake.deallocations, 1);
  EXPECT_EQ(b->data(), pa);
  EXPECT_EQ(moved.data(), nullptr);

  DeviceMemoryBuffer empty;
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_EQ(empty.size(), 0u);
}
