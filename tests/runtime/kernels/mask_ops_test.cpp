// masked_select.out, masked_scatter.out and nonzero.out: data-dependent
// output sizes, broadcasting, dtypes, channels-last and the errors.
#include "dtype_test_util.h"

namespace {

using namespace kt;

TEST(MaskOps, MaskedSelectBroadcastsAndResizes) {
  for (ScalarType t : all_dtypes()) {
    auto self = tensor_of(t, {2, 3}, {1, 2, 3, 4, 5, 6});
    auto mask = tensor_of(ScalarType::Bool, {3}, {1, 0, 1});
    auto out = out_of(t, {1}, {}, 8);
    ASSERT_EQ(
        call_out("aten::masked_select.out", {self->tensor(), mask->tensor(), out->tensor()}, *out),
        Error::Ok)
        << dtype_name(t);
    EXPECT_EQ(out->shape(), (std::vector<int32_t>{4}));
    std::vector<double> want{1, 3, 4, 6};
    for (double& v : want) v = as_dtype(t, v);
    EXPECT_EQ(logical(*out), want) << dtype_name(t);
  }
  // A mask wider than self; channels-last self; nothing selected.
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  auto self = tensor_of(ScalarType::Float, {1, 2, 1, 2}, {1, 2, 3, 4}, cl);
  auto mask = tensor_of(ScalarType::Bool, {2, 2, 1, 2}, {0, 1, 1, 0, 1, 0, 0, 1});
  auto out = out_of(ScalarType::Float, {8});
  ASSERT_EQ(
      call_out("aten::masked_select.out", {self->tensor(), mask->tensor(), out->tensor()}, *out),
      Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{2, 3, 1, 4}));
  auto none = tensor_of(ScalarType::Bool, {1}, {0});
  ASSERT_EQ(
      call_out("aten::masked_select.out", {self->tensor(), none->tensor(), out->tensor()}, *out),
      Error::Ok);
  EXPECT_EQ(out->shape(), (std::vector<int32_t>{0}));
}

TEST(MaskOps, MaskedScatterTakesSourceInOrder) {
  for (ScalarType t :
       {ScalarType::Float, ScalarType::BFloat16, ScalarType::Int, ScalarType::Bool}) {
    auto self = tensor_of(t, {2, 3}, {0, 0, 0, 0, 0, 0});
    auto mask = tensor_of(ScalarType::Bool, {2, 3}, {1, 0, 1, 0, 1, 0});
    auto source = tensor_of(t, {2, 2}, {1, 1, 1, 0});
    auto out = out_of(t, {2, 3});
    ASSERT_EQ(call_out("aten::masked_scatter.out",
                       {self->tensor(), mask->tensor(), source->tensor(), out->tensor()}, *out),
              Error::Ok)
        << dtype_name(t);
    EXPECT_EQ(logical(*out), (std::vector<double>{1, 0, 1, 0, 1, 0})) << dtype_name(t);
  }
  // A broadcast mask; a channels-last source read in logical order.
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  auto self = tensor_of(ScalarType::Float, {2, 2}, {-1, -2, -3, -4});
  auto mask = tensor_of(ScalarType::Bool, {2}, {0, 1});
  auto source = tensor_of(ScalarType::Float, {1, 2, 1, 2}, {10, 20, 30, 40}, cl);
  auto out = out_of(ScalarType::Float, {2, 2});
  ASSERT_EQ(call_out("aten::masked_scatter.out",
                     {self->tensor(), mask->tensor(), source->tensor(), out->tensor()}, *out),
            Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{-1, 10, -3, 20}));
  // Too few source elements; a float mask; source of another dtype.
  auto all = tensor_of(ScalarType::Bool, {2, 2}, {1, 1, 1, 1});
  auto three = tensor_of(ScalarType::Float, {3}, {1, 2, 3});
  EXPECT_EQ(call_out("aten::masked_scatter.out",
                     {self->tensor(), all->tensor(), three->tensor(), out->tensor()}, *out),
            Error::InvalidArgument);
  EXPECT_EQ(call_out("aten::masked_scatter.out",
                     {self->tensor(), self->tensor(), source->tensor(), out->tensor()}, *out),
            Error::InvalidArgument);
  auto isrc = tensor_of(ScalarType::Int, {4}, {1, 2, 3, 4});
  EXPECT_EQ(call_out("aten::masked_scatter.out",
                     {self->tensor(), all->tensor(), isrc->tensor(), out->tensor()}, *out),
            Error::InvalidArgument);
}

TEST(MaskOps, Nonzero) {
  for (ScalarType t : all_dtypes()) {
    auto self = tensor_of(t, {2, 3}, {0, 1, 0, 2, 0, 3});
    auto out = out_of(ScalarType::Long, {1, 2}, {}, 12);
    ASSERT_EQ(call_out("aten::nonzero.out", {self->tensor(), out->tensor()}, *out), Error::Ok)
        << dtype_name(t);
    EXPECT_EQ(out->shape(), (std::vector<int32_t>{3, 2}));
    EXPECT_EQ(logical(*out), (std::vector<double>{0, 1, 1, 0, 1, 2})) << dtype_name(t);
  }
  // NaN is non-zero; channels-last input; a 0-dim input gives [n, 0].
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  auto f = tensor_of(ScalarType::Float, {1, 2, 1, 2}, {0, NAN, 5, 0}, cl);
  auto out = out_of(ScalarType::Long, {4, 4});
  ASSERT_EQ(call_out("aten::nonzero.out", {f->tensor(), out->tensor()}, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{0, 0, 0, 1, 0, 1, 0, 0}));
  auto s = tensor_of(ScalarType::Int, {}, {7});
  auto so = out_of(ScalarType::Long, {1, 0});
  ASSERT_EQ(call_out("aten::nonzero.out", {s->tensor(), so->tensor()}, *so), Error::Ok);
  EXPECT_EQ(so->shape(), (std::vector<int32_t>{1, 0}));
  // An int32 out; an out too small.
  auto io = out_of(ScalarType::Int, {3, 2});
  auto self = tensor_of(ScalarType::Int, {2, 3}, {1, 1, 1, 1, 1, 1});
  EXPECT_EQ(call_out("aten::nonzero.out", {self->tensor(), io->tensor()}, *io),
            Error::InvalidArgument);
  auto small = out_of(ScalarType::Long, {3, 2});
  EXPECT_EQ(call_out("aten::nonzero.out", {self->tensor(), small->tensor()}, *small),
            Error::InvalidArgument);
}

} // namespace
