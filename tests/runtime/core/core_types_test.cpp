// Error/Result, EValue, TensorImpl and the allocators.
#include <gtest/gtest.h>

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/hierarchical_allocator.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/core/result.h>

using namespace ::executorch::runtime;
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;

TEST(CoreTypes, ResultHoldsValueOrError) {
  Result<int> ok(42);
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 42);
  EXPECT_EQ(ok.error(), Error::Ok);
  Result<int> bad(Error::NotFound);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), Error::NotFound);
  // Ok as an error is stored as Internal.
  Result<int> weird(Error::Ok);
  EXPECT_EQ(weird.error(), Error::Internal);
  EXPECT_STREQ(to_string(Error::OperatorMissing), "Error::OperatorMissing");
  EXPECT_EQ(uint32_t(Error::DelegateInvalidHandle), 0x32u);
}

TEST(CoreTypes, EValueTagsAndConversions) {
  EValue i(int64_t(5)), d(2.5), b(true), none;
  EXPECT_TRUE(i.isInt());
  EXPECT_EQ(i.toInt(), 5);
  EXPECT_EQ(d.toDouble(), 2.5);
  EXPECT_TRUE(b.toBool());
  EXPECT_TRUE(none.isNone());
  EXPECT_EQ(i.tryToDouble().error(), Error::InvalidType);
  float data[2] = {1, 2};
  int32_t sizes[1] = {2};
  TensorImpl impl(ScalarType::Float, 1, sizes, data);
  EValue t{Tensor(&impl)};
  EXPECT_EQ(t.tag, Tag::Tensor);
  EXPECT_EQ(t.toTensor().numel(), 2);
  EValue copy = t;
  EXPECT_EQ(copy.toTensor().const_data_ptr(), data);
}

TEST(CoreTypes, TensorImplResize) {
  int32_t sizes[2] = {2, 3};
  TensorImpl fixed(ScalarType::Float, 2, sizes);
  EXPECT_EQ(fixed.nbytes(), 24u);
  EXPECT_EQ(fixed.strides()[0], 3);
  int32_t same[2] = {2, 3}, smaller[2] = {1, 3}, bigger[2] = {3, 3};
  EXPECT_EQ(fixed.internal_resize_contiguous({same, 2}), Error::Ok);
  EXPECT_EQ(fixed.internal_resize_contiguous({smaller, 2}), Error::NotSupported);
  int32_t dsizes[2] = {2, 3};
  TensorImpl bound(ScalarType::Float, 2, dsizes, nullptr, nullptr, nullptr,
                   TensorShapeDynamism::DYNAMIC_BOUND);
  EXPECT_EQ(bound.internal_resize_contiguous({smaller, 2}), Error::Ok);
  EXPECT_EQ(bound.numel(), 3);
  EXPECT_EQ(bound.internal_resize_contiguous({bigger, 2}), Error::NotSupported);
  EXPECT_EQ(bound.internal_resize_contiguous({smaller, 1}), Error::NotSupported);
}

TEST(CoreTypes, MemoryAllocatorBumpsAndAligns) {
  alignas(16) uint8_t pool[64];
  MemoryAllocator a(sizeof(pool), pool);
  void* p = a.allocate(3, 1);
  EXPECT_EQ(p, pool);
  void* q = a.allocate(8, 8);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(q) % 8, 0u);
  EXPECT_EQ(a.allocate(1, 3), nullptr);                       // not a power of two
  EXPECT_EQ(a.allocate(1000), nullptr);                       // does not fit
  EXPECT_EQ(a.allocateList<uint64_t>(SIZE_MAX / 4), nullptr); // overflow
  a.reset();
  EXPECT_EQ(a.used_size(), 0u);
}

TEST(CoreTypes, HierarchicalAllocatorBounds) {
  uint8_t b0[16], b1[32];
  Span<uint8_t> spans[2] = {{b0, 16}, {b1, 32}};
  HierarchicalAllocator h({spans, 2});
  EXPECT_EQ(h.get_offset_address(1, 8, 24).get(), b1 + 8);
  EXPECT_EQ(h.get_offset_address(1, 8, 25).error(), Error::InvalidArgument);
  EXPECT_EQ(h.get_offset_address(2, 0, 1).error(), Error::InvalidArgument);
  EXPECT_EQ(h.get_offset_address(0, SIZE_MAX, 2).error(), Error::InvalidArgument);
}
