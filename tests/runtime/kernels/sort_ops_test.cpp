// topk.values: largest/smallest along any dim, NaN ranked above numbers,
// ties in position order, dtypes, channels-last, and the errors. Called as
// upstream emits it: 5 inputs, values, indices, then the returned tuple.
#include <cmath>

#include "dtype_test_util.h"

namespace {

using namespace kt;

// Calls topk with a temp allocator (the kernel sorts positions in temp
// memory, as a Method provides it).
Error topk(const TT& self, int64_t k, int64_t dim, bool largest, const TT& values,
           const TT& indices, bool with_temp = true) {
  TensorListArg ret({const_cast<TT*>(&values), const_cast<TT*>(&indices)});
  std::vector<EValue> v{self.tensor(), EValue(k),       EValue(dim),      EValue(largest),
                        EValue(true),  values.tensor(), indices.tensor(), ret.ev()};
  auto fn = ::executorch::runtime::get_op_function_from_registry("aten::topk.values");
  EXPECT_TRUE(fn.ok());
  if (!fn.ok()) return Error::OperatorMissing;
  alignas(16) uint8_t pool[1024];
  ::executorch::runtime::MemoryAllocator temp(sizeof(pool), pool);
  KernelRuntimeContext ctx(nullptr, with_temp ? &temp : nullptr);
  std::vector<EValue*> ptrs;
  for (auto& e : v) ptrs.push_back(&e);
  (*fn)(ctx, Span<EValue*>(ptrs.data(), ptrs.size()));
  return ctx.failure_state();
}

TEST(Topk, LargestAndSmallestAlongTheLastDim) {
  auto self = tensor_of(ScalarType::Float, {2, 5}, {1, 5, 3, 5, 2, NAN, 0, -1, 4, 4});
  auto values = out_of(ScalarType::Float, {2, 3});
  auto indices = out_of(ScalarType::Long, {2, 3});
  ASSERT_EQ(topk(*self, 3, -1, true, *values, *indices), Error::Ok);
  const std::vector<double> got = logical(*values);
  EXPECT_EQ(std::vector<double>(got.begin(), got.begin() + 3), (std::vector<double>{5, 5, 3}));
  EXPECT_TRUE(std::isnan(got[3]));
  EXPECT_EQ(got[4], 4);
  EXPECT_EQ(got[5], 4);
  EXPECT_EQ(logical(*indices), (std::vector<double>{1, 3, 2, 0, 3, 4}));
  auto v2 = out_of(ScalarType::Float, {2, 2});
  auto i2 = out_of(ScalarType::Long, {2, 2});
  ASSERT_EQ(topk(*self, 2, 1, false, *v2, *i2), Error::Ok);
  EXPECT_EQ(logical(*v2), (std::vector<double>{1, 2, -1, 0}));
  EXPECT_EQ(logical(*i2), (std::vector<double>{0, 4, 2, 1}));
}

TEST(Topk, DimZeroInSeveralDtypes) {
  for (ScalarType t : {ScalarType::Int, ScalarType::Long, ScalarType::Char, ScalarType::Half,
                       ScalarType::BFloat16, ScalarType::Double}) {
    auto self = tensor_of(t, {3, 2}, {1, 6, 3, 2, 2, 9});
    auto values = out_of(t, {2, 2});
    auto indices = out_of(ScalarType::Long, {2, 2});
    ASSERT_EQ(topk(*self, 2, 0, true, *values, *indices), Error::Ok) << dtype_name(t);
    EXPECT_EQ(logical(*values), (std::vector<double>{3, 9, 2, 6})) << dtype_name(t);
    EXPECT_EQ(logical(*indices), (std::vector<double>{1, 2, 2, 0})) << dtype_name(t);
  }
}

TEST(Topk, ChannelsLastAndEdgeSizes) {
  const std::vector<uint8_t> cl{0, 2, 3, 1};
  auto self = tensor_of(ScalarType::Float, {1, 3, 1, 2}, {1, 2, 3, 4, 5, 6}, cl);
  auto values = out_of(ScalarType::Float, {1, 1, 1, 2}, cl);
  auto indices = out_of(ScalarType::Long, {1, 1, 1, 2});
  ASSERT_EQ(topk(*self, 1, 1, true, *values, *indices), Error::Ok);
  EXPECT_EQ(logical(*values), (std::vector<double>{5, 6}));
  EXPECT_EQ(logical(*indices), (std::vector<double>{2, 2}));
  // k = 0 empties the outs; a 0-dim self gives itself at position 0.
  auto v0 = out_of(ScalarType::Float, {1, 3, 1, 2});
  auto i0 = out_of(ScalarType::Long, {1, 3, 1, 2});
  ASSERT_EQ(topk(*self, 0, 1, true, *v0, *i0), Error::Ok);
  EXPECT_EQ(v0->shape(), (std::vector<int32_t>{1, 0, 1, 2}));
  auto s = tensor_of(ScalarType::Float, {}, {2.5});
  auto sv = out_of(ScalarType::Float, {});
  auto si = out_of(ScalarType::Long, {});
  ASSERT_EQ(topk(*s, 1, 0, true, *sv, *si), Error::Ok);
  EXPECT_EQ(logical(*sv), (std::vector<double>{2.5}));
  EXPECT_EQ(logical(*si), (std::vector<double>{0}));
}

TEST(Topk, Errors) {
  auto self = tensor_of(ScalarType::Float, {4}, {1, 2, 3, 4});
  auto values = out_of(ScalarType::Float, {2});
  auto indices = out_of(ScalarType::Long, {2});
  EXPECT_EQ(topk(*self, 5, 0, true, *values, *indices), Error::InvalidArgument);
  EXPECT_EQ(topk(*self, -1, 0, true, *values, *indices), Error::InvalidArgument);
  EXPECT_EQ(topk(*self, 2, 1, true, *values, *indices), Error::InvalidArgument);
  EXPECT_EQ(topk(*self, 2, 0, true, *values, *indices, false), Error::InvalidArgument);
  auto i32 = out_of(ScalarType::Int, {2});
  EXPECT_EQ(topk(*self, 2, 0, true, *values, *i32), Error::InvalidArgument);
  auto b = tensor_of(ScalarType::Bool, {2}, {1, 0});
  auto bv = out_of(ScalarType::Bool, {1});
  EXPECT_EQ(topk(*b, 1, 0, true, *bv, *indices), Error::InvalidArgument);
  // The layout without the returned tuple fails.
  std::vector<EValue> v{self->tensor(), EValue(int64_t(1)), EValue(int64_t(0)), EValue(true),
                        EValue(true),   values->tensor(),   indices->tensor()};
  EXPECT_EQ(call("aten::topk.values", v), Error::InvalidArgument);
}

} // namespace
