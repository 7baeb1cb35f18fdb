// stack, split_copy, unbind_copy; the list-output ops take the output list
// and then the returned list, as upstream's emitter lays them out.
#include "kernel_test_util.h"

using namespace kt;

TEST(SplitStackOps, StackPromotesIntoTheOutput) {
  auto a = make<int32_t>(ScalarType::Int, {2}, {1, 2});
  auto b = make<float>(ScalarType::Float, {2}, {3.5f, 4});
  TensorListArg list({a.get(), b.get()});
  auto o = out(ScalarType::Float, {4, 4});
  for (auto [dim, want] : std::vector<std::pair<int64_t, std::vector<double>>>{
           {0, {1, 2, 3.5, 4}}, {1, {1, 3.5, 2, 4}}, {-1, {1, 3.5, 2, 4}}}) {
    std::vector<EValue> v{list.ev(), EValue(dim), o->tensor(), o->tensor()};
    ASSERT_EQ(call("aten::stack.out", v), Error::Ok) << dim;
    EXPECT_EQ(o->shape(), (std::vector<int32_t>{2, 2}));
    EXPECT_EQ(o->values(), want) << dim;
  }
  // Float into int is refused; shapes must agree.
  auto io = out(ScalarType::Int, {2, 2});
  std::vector<EValue> bad{list.ev(), EValue(int64_t(0)), io->tensor(), io->tensor()};
  EXPECT_EQ(call("aten::stack.out", bad), Error::InvalidArgument);
  auto c = make<float>(ScalarType::Float, {3}, {1, 2, 3});
  TensorListArg mixed({b.get(), c.get()});
  std::vector<EValue> bad2{mixed.ev(), EValue(int64_t(0)), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::stack.out", bad2), Error::InvalidArgument);
}

TEST(SplitStackOps, SplitCopyShortLastChunk) {
  auto a =
      make<BFloat16>(ScalarType::BFloat16, {5, 2},
                     {BFloat16(0.f), BFloat16(1.f), BFloat16(2.f), BFloat16(3.f), BFloat16(4.f),
                      BFloat16(5.f), BFloat16(6.f), BFloat16(7.f), BFloat16(8.f), BFloat16(9.f)});
  // Bounded outputs resized to (2, 2), (2, 2), (1, 2).
  auto o0 = out(ScalarType::BFloat16, {2, 2}), o1 = out(ScalarType::BFloat16, {2, 2}),
       o2 = out(ScalarType::BFloat16, {2, 2});
  TensorListArg outs({o0.get(), o1.get(), o2.get()});
  std::vector<EValue> v{a->tensor(), EValue(int64_t(2)), EValue(int64_t(0)), outs.ev(), outs.ev()};
  ASSERT_EQ(call("aten::split_copy.Tensor_out", v), Error::Ok);
  EXPECT_EQ(o0->values(), (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(o1->values(), (std::vector<double>{4, 5, 6, 7}));
  EXPECT_EQ(o2->shape(), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(o2->values(), (std::vector<double>{8, 9}));
  // Along dim 1 with split 1 needs two outputs, not three.
  std::vector<EValue> bad{a->tensor(), EValue(int64_t(1)), EValue(int64_t(1)), outs.ev(),
                          outs.ev()};
  EXPECT_EQ(call("aten::split_copy.Tensor_out", bad), Error::InvalidArgument);
  // The schema's count without the returned list is refused.
  std::vector<EValue> short_args{a->tensor(), EValue(int64_t(2)), EValue(int64_t(0)), outs.ev()};
  EXPECT_EQ(call("aten::split_copy.Tensor_out", short_args), Error::InvalidArgument);
}

TEST(SplitStackOps, UnbindCopy) {
  auto a = make<int64_t>(ScalarType::Long, {2, 3}, {0, 1, 2, 3, 4, 5});
  auto o0 = out(ScalarType::Long, {2}), o1 = out(ScalarType::Long, {2}),
       o2 = out(ScalarType::Long, {2});
  TensorListArg outs({o0.get(), o1.get(), o2.get()});
  std::vector<EValue> v{a->tensor(), EValue(int64_t(1)), outs.ev(), outs.ev()};
  ASSERT_EQ(call("aten::unbind_copy.int_out", v), Error::Ok);
  EXPECT_EQ(o0->values(), (std::vector<double>{0, 3}));
  EXPECT_EQ(o1->values(), (std::vector<double>{1, 4}));
  EXPECT_EQ(o2->values(), (std::vector<double>{2, 5}));
  std::vector<EValue> bad{a->tensor(), EValue(int64_t(0)), outs.ev(), outs.ev()};
  EXPECT_EQ(call("aten::unbind_copy.int_out", bad), Error::InvalidArgument);
}
