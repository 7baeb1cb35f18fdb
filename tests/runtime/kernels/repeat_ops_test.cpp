// repeat, repeat_interleave.Tensor, roll, tril; references by hand.
#include "kernel_test_util.h"

using namespace kt;

TEST(RepeatOps, Repeat) {
  auto a = make<float>(ScalarType::Float, {2}, {1, 2});
  auto o = out(ScalarType::Float, {2, 4});
  IntListArg reps({2, 2});
  std::vector<EValue> v{a->tensor(), reps.ev(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::repeat.out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{1, 2, 1, 2, 1, 2, 1, 2}));
  auto b = make<bool>(ScalarType::Bool, {2, 1}, {true, false});
  auto bo = out(ScalarType::Bool, {2, 3});
  IntListArg r2({1, 3});
  std::vector<EValue> bv{b->tensor(), r2.ev(), bo->tensor(), bo->tensor()};
  ASSERT_EQ(call("aten::repeat.out", bv), Error::Ok);
  EXPECT_EQ(bo->values(), (std::vector<double>{1, 1, 1, 0, 0, 0}));
  IntListArg few({2});
  std::vector<EValue> bad{b->tensor(), few.ev(), bo->tensor(), bo->tensor()};
  EXPECT_EQ(call("aten::repeat.out", bad), Error::InvalidArgument);
  IntListArg neg({1, -1});
  std::vector<EValue> bad2{b->tensor(), neg.ev(), bo->tensor(), bo->tensor()};
  EXPECT_EQ(call("aten::repeat.out", bad2), Error::InvalidArgument);
}

TEST(RepeatOps, RepeatInterleaveTensor) {
  auto r = make<int64_t>(ScalarType::Long, {3}, {2, 0, 3});
  auto o = out(ScalarType::Long, {8});
  std::vector<EValue> v{r->tensor(), EValue(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::repeat_interleave.Tensor_out", v), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{0, 0, 2, 2, 2}));
  auto ri = make<int32_t>(ScalarType::Int, {2}, {1, 2});
  auto oi = out(ScalarType::Int, {3});
  std::vector<EValue> vi{ri->tensor(), EValue(int64_t(3)), oi->tensor(), oi->tensor()};
  ASSERT_EQ(call("aten::repeat_interleave.Tensor_out", vi), Error::Ok);
  EXPECT_EQ(oi->values(), (std::vector<double>{0, 1, 1}));
  std::vector<EValue> wrong{ri->tensor(), EValue(int64_t(4)), oi->tensor(), oi->tensor()};
  EXPECT_EQ(call("aten::repeat_interleave.Tensor_out", wrong), Error::InvalidArgument);
  auto neg = make<int32_t>(ScalarType::Int, {2}, {1, -2});
  std::vector<EValue> nv{neg->tensor(), EValue(), oi->tensor(), oi->tensor()};
  EXPECT_EQ(call("aten::repeat_interleave.Tensor_out", nv), Error::InvalidArgument);
}

TEST(RepeatOps, Roll) {
  auto a = make<int32_t>(ScalarType::Int, {2, 3}, {0, 1, 2, 3, 4, 5});
  auto o = out(ScalarType::Int, {2, 3});
  IntListArg s1({1}), none({});
  std::vector<EValue> flat{a->tensor(), s1.ev(), none.ev(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::roll.out", flat), Error::Ok);
  EXPECT_EQ(o->values(), (std::vector<double>{5, 0, 1, 2, 3, 4}));
  IntListArg shifts({-1, 4}), dims({1, 0});
  std::vector<EValue> v{a->tensor(), shifts.ev(), dims.ev(), o->tensor(), o->tensor()};
  ASSERT_EQ(call("aten::roll.out", v), Error::Ok);
  // dim 1 by -1, dim 0 by 4 (= 0): rows (1 2 0), (4 5 3)
  EXPECT_EQ(o->values(), (std::vector<double>{1, 2, 0, 4, 5, 3}));
  IntListArg one({0});
  std::vector<EValue> bad{a->tensor(), shifts.ev(), one.ev(), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::roll.out", bad), Error::InvalidArgument);
}

TEST(RepeatOps, Tril) {
  auto a = make<double>(ScalarType::Double, {2, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  auto o = out(ScalarType::Double, {2, 2, 3});
  for (auto [diag, want] : std::vector<std::pair<int64_t, std::vector<double>>>{
           {0, {1, 0, 0, 4, 5, 0, 7, 0, 0, 10, 11, 0}},
           {1, {1, 2, 0, 4, 5, 6, 7, 8, 0, 10, 11, 12}},
           {-1, {0, 0, 0, 4, 0, 0, 0, 0, 0, 10, 0, 0}},
           {INT64_MAX, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
           {INT64_MIN, std::vector<double>(12, 0)}}) {
    std::vector<EValue> v{a->tensor(), EValue(diag), o->tensor(), o->tensor()};
    ASSERT_EQ(call("aten::tril.out", v), Error::Ok) << diag;
    EXPECT_EQ(o->values(), want) << diag;
  }
  auto v1 = make<double>(ScalarType::Double, {3}, {1, 2, 3});
  std::vector<EValue> bad{v1->tensor(), EValue(int64_t(0)), o->tensor(), o->tensor()};
  EXPECT_EQ(call("aten::tril.out", bad), Error::InvalidArgument);
}
