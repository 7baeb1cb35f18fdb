// executorch/extension/tensor/tensor_accessor.h: indexed access over a
// tensor's strides, and the tensors it refuses.
#include <executorch/extension/tensor/tensor_accessor.h>

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/platform/runtime.h>

using executorch::runtime::Error;
namespace ext = executorch::extension;

class TensorAccessorTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

TEST_F(TensorAccessorTest, ReadsAndWritesByIndex) {
  auto t = ext::make_tensor_ptr({2, 3, 2}, std::vector<int32_t>(12));
  for (int i = 0; i < 12; ++i) t->mutable_data_ptr<int32_t>()[i] = i;
  auto acc = ext::make_tensor_accessor<int32_t, 3>(*t);
  ASSERT_TRUE(acc.ok());
  EXPECT_EQ((*acc)[1][2][1], 11);
  EXPECT_EQ((*acc)[0][1][0], 2);
  EXPECT_EQ(acc->size(1), 3);
  EXPECT_EQ(acc->stride(0), 6);
  (*acc)[1][0][1] = -1;
  EXPECT_EQ(t->const_data_ptr<int32_t>()[7], -1);
}

TEST_F(TensorAccessorTest, ConstElements) {
  auto t = ext::make_tensor_ptr({3}, std::vector<float>{1, 2, 3});
  auto acc = ext::make_tensor_accessor<const float, 1>(*t);
  ASSERT_TRUE(acc.ok());
  EXPECT_EQ((*acc)[2], 3.f);
}

TEST_F(TensorAccessorTest, RejectsWrongRankOrElementSize) {
  auto t = ext::make_tensor_ptr({2, 2}, std::vector<float>(4));
  EXPECT_EQ((ext::make_tensor_accessor<float, 1>(*t).error()), Error::InvalidArgument);
  EXPECT_EQ((ext::make_tensor_accessor<double, 2>(*t).error()), Error::InvalidArgument);
}

TEST_F(TensorAccessorTest, RejectsANonDefaultDimOrder) {
  std::vector<float> d(6);
  auto t = ext::make_tensor_ptr({2, 3}, d.data(), {1, 0}, {});
  EXPECT_EQ((ext::make_tensor_accessor<float, 2>(*t).error()), Error::NotSupported);
}
