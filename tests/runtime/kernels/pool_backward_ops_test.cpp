// max_pool2d_with_indices_backward.grad_input: gradients routed to the
// recorded positions and accumulated, batched and unbatched, channels-last,
// and the errors. Expected values are hand-derived.
#include "dtype_test_util.h"

namespace {

using namespace kt;

Error backward(const TT& grad, const TT& self, const TT& indices, const TT& gin,
               std::vector<int64_t> kernel = {2, 2}) {
  IntListArg k(std::move(kernel)), s({}), p({0, 0}), d({1, 1});
  return call_out("aten::max_pool2d_with_indices_backward.grad_input",
                  {grad.tensor(), self.tensor(), k.ev(), s.ev(), p.ev(), d.ev(), EValue(false),
                   indices.tensor(), gin.tensor()},
                  gin);
}

TEST(MaxPoolBackward, RoutesAndAccumulates) {
  for (ScalarType t : float_dtypes()) {
    auto self = tensor_of(t, {1, 1, 2, 3}, std::vector<double>(6, 7));
    auto grad = tensor_of(t, {1, 1, 1, 2}, {10, 20});
    auto same = tensor_of(ScalarType::Long, {1, 1, 1, 2}, {4, 4});
    auto gin = out_of(t, {1, 1, 2, 3});
    ASSERT_EQ(backward(*grad, *self, *same, *gin), Error::Ok) << dtype_name(t);
    EXPECT_EQ(logical(*gin), (std::vector<double>{0, 0, 0, 0, 30, 0})) << dtype_name(t);
    auto apart = tensor_of(ScalarType::Long, {1, 1, 1, 2}, {0, 5});
    ASSERT_EQ(backward(*grad, *self, *apart, *gin), Error::Ok);
    EXPECT_EQ(logical(*gin), (std::vector<double>{10, 0, 0, 0, 0, 20})) << dtype_name(t);
  }
  // Unbatched [C, H, W].
  auto self = tensor_of(ScalarType::Float, {2, 2, 2}, std::vector<double>(8, 0));
  auto grad = tensor_of(ScalarType::Float, {2, 1, 1}, {1, 2});
  auto indices = tensor_of(ScalarType::Long, {2, 1, 1}, {3, 0});
  auto gin = out_of(ScalarType::Float, {2, 2, 2});
  ASSERT_EQ(backward(*grad, *self, *indices, *gin, {2}), Error::Ok);
  EXPECT_EQ(logical(*gin), (std::vector<double>{0, 0, 0, 1, 2, 0, 0, 0}));
}

TEST(MaxPoolBackward, ChannelsLast) {
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  auto self = tensor_of(ScalarType::Float, {1, 2, 2, 2}, std::vector<double>(8, 0), cl);
  auto grad = tensor_of(ScalarType::Float, {1, 2, 1, 1}, {5, 6}, cl);
  auto indices = tensor_of(ScalarType::Long, {1, 2, 1, 1}, {1, 2}, cl);
  auto gin = out_of(ScalarType::Float, {1, 2, 2, 2}, cl);
  ASSERT_EQ(backward(*grad, *self, *indices, *gin), Error::Ok);
  EXPECT_EQ(logical(*gin), (std::vector<double>{0, 5, 0, 0, 0, 0, 6, 0}));
}

TEST(MaxPoolBackward, Errors) {
  auto self = tensor_of(ScalarType::Float, {1, 1, 2, 3}, std::vector<double>(6, 0));
  auto grad = tensor_of(ScalarType::Float, {1, 1, 1, 2}, {1, 2});
  auto gin = out_of(ScalarType::Float, {1, 1, 2, 3});
  auto far = tensor_of(ScalarType::Long, {1, 1, 1, 2}, {0, 6});
  EXPECT_EQ(backward(*grad, *self, *far, *gin), Error::InvalidArgument);
  auto neg = tensor_of(ScalarType::Long, {1, 1, 1, 2}, {-1, 0});
  EXPECT_EQ(backward(*grad, *self, *neg, *gin), Error::InvalidArgument);
  auto i32 = tensor_of(ScalarType::Int, {1, 1, 1, 2}, {0, 1});
  EXPECT_EQ(backward(*grad, *self, *i32, *gin), Error::InvalidArgument);
  auto ok = tensor_of(ScalarType::Long, {1, 1, 1, 2}, {0, 1});
  auto wide = tensor_of(ScalarType::Float, {1, 1, 1, 3}, {1, 2, 3});
  EXPECT_EQ(backward(*wide, *self, *ok, *gin), Error::InvalidArgument);
  EXPECT_EQ(backward(*grad, *self, *ok, *gin, {2, 2, 2}), Error::InvalidArgument);
  auto iself = tensor_of(ScalarType::Int, {1, 1, 2, 3}, std::vector<double>(6, 0));
  auto igrad = tensor_of(ScalarType::Int, {1, 1, 1, 2}, {1, 2});
  auto igin = out_of(ScalarType::Int, {1, 1, 2, 3});
  EXPECT_EQ(backward(*igrad, *iself, *ok, *igin), Error::InvalidArgument);
}

} // namespace
