// index.Tensor_out, index_put (out and in place), index_select.out and
// gather.out against ATen's semantics worked out by hand: position and mask
// indices, broadcasting index tensors, adjacent and split indexed dims,
// negative positions, accumulate, and out-of-range positions.
#include "dtype_test_util.h"

namespace {

using namespace kt;

// An Optional-tensor list EValue; nullptr entries are None.
struct OptList {
  std::vector<EValue> vals;
  std::vector<EValue*> ptrs;
  std::vector<std::optional<Tensor>> scratch;
  explicit OptList(const std::vector<TT*>& ts) {
    vals.reserve(ts.size());
    for (TT* t : ts) vals.push_back(t != nullptr ? EValue(t->tensor()) : EValue());
    for (auto& e : vals) ptrs.push_back(&e);
    scratch.resize(ts.size() + 1);
  }
  EValue ev() {
    return EValue(BoxedEvalueList<std::optional<Tensor>>(ptrs.data(), scratch.data(),
                                                         static_cast<int>(ptrs.size())));
  }
};

std::vector<double> iota(int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(i);
  return v;
}

TEST(Index, OneIndexTensorEveryDtypeAndNegative) {
  for (ScalarType t : all_dtypes()) {
    std::vector<double> sv = iota(6);
    if (t == ScalarType::Bool) sv = {0, 1, 1, 0, 1, 0};
    auto self = tensor_of(t, {3, 2}, sv);
    for (ScalarType it : {ScalarType::Long, ScalarType::Int}) {
      auto idx = tensor_of(it, {2}, {2, -3});
      OptList l({idx.get()});
      auto out = out_of(t, {1, 1}, {}, 4);
      std::vector<EValue> v{self->tensor(), l.ev(), out->tensor()};
      ASSERT_EQ(call_out("aten::index.Tensor_out", v, *out), Error::Ok) << dtype_name(t);
      EXPECT_EQ(out->shape(), (std::vector<int32_t>{2, 2}));
      EXPECT_EQ(logical(*out), (std::vector<double>{sv[4], sv[5], sv[0], sv[1]}));
    }
  }
}

TEST(Index, BroadcastIndicesAdjacentAndSplit) {
  auto self = tensor_of(ScalarType::Float, {2, 3, 4}, iota(24));
  // x[:, i, j] with i [2,1], j [3]: adjacent -> shape [2, 2, 3].
  auto i = tensor_of(ScalarType::Long, {2, 1}, {0, 2});
  auto j = tensor_of(ScalarType::Long, {3}, {1, 3, 0});
  OptList l({nullptr, i.get(), j.get()});
  auto out = out_of(ScalarType::Float, {2, 2, 3});
  std::vector<EValue> v{self->tensor(), l.ev(), out->tensor()};
  ASSERT_EQ(call_out("aten::index.Tensor_out", v, *out), Error::Ok);
  std::vector<double> want;
  for (int a = 0; a < 2; ++a)
    for (int b : {0, 2})
      for (int c : {1, 3, 0}) want.push_back(a * 12 + b * 4 + c);
  EXPECT_EQ(logical(*out), want);
  // x[i, :, j] with i [2], j [2]: split -> B leads, shape [2, 3].
  auto i2 = tensor_of(ScalarType::Long, {2}, {1, 0});
  auto j2 = tensor_of(ScalarType::Long, {2}, {2, -1});
  OptList l2({i2.get(), nullptr, j2.get()});
  auto out2 = out_of(ScalarType::Float, {2, 3});
  std::vector<EValue> w{self->tensor(), l2.ev(), out2->tensor()};
  ASSERT_EQ(call_out("aten::index.Tensor_out", w, *out2), Error::Ok);
  EXPECT_EQ(logical(*out2), (std::vector<double>{14, 18, 22, 3, 7, 11}));
}

TEST(Index, BoolMask) {
  auto self = tensor_of(ScalarType::Float, {2, 3}, iota(6));
  auto mask = tensor_of(ScalarType::Bool, {2, 3}, {1, 0, 1, 0, 0, 1});
  OptList l({mask.get()});
  auto out = out_of(ScalarType::Float, {1}, {}, 6);
  std::vector<EValue> v{self->tensor(), l.ev(), out->tensor()};
  // Masks need temp memory: without an allocator the call fails cleanly.
  EXPECT_EQ(call_out("aten::index.Tensor_out", v, *out), Error::InvalidArgument);
  v.push_back(out->tensor());
  auto fn = ::executorch::runtime::get_op_function_from_registry("aten::index.Tensor_out");
  ASSERT_TRUE(fn.ok());
  alignas(16) uint8_t pool[1024];
  ::executorch::runtime::MemoryAllocator temp(sizeof(pool), pool);
  KernelRuntimeContext ctx(nullptr, &temp);
  std::vector<EValue*> ptrs;
  for (auto& e : v) ptrs.push_back(&e);
  (*fn)(ctx, Span<EValue*>(ptrs.data(), ptrs.size()));
  ASSERT_EQ(ctx.failure_state(), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{0, 2, 5}));
}

TEST(IndexPut, OutAndInPlaceWithAccumulate) {
  auto self = tensor_of(ScalarType::Float, {3, 2}, iota(6));
  auto idx = tensor_of(ScalarType::Long, {3}, {2, 0, 2});
  OptList l({idx.get()});
  auto vals = tensor_of(ScalarType::Float, {2}, {10, 20}); // broadcast over [3, 2]
  auto out = out_of(ScalarType::Float, {3, 2});
  std::vector<EValue> v{self->tensor(), l.ev(), vals->tensor(), EValue(false), out->tensor()};
  ASSERT_EQ(call_out("aten::index_put.out", v, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{10, 20, 2, 3, 10, 20}));
  EXPECT_EQ(logical(*self), iota(6)); // self untouched
  std::vector<EValue> a{self->tensor(), l.ev(), vals->tensor(), EValue(true), out->tensor()};
  ASSERT_EQ(call_out("aten::index_put.out", a, *out), Error::Ok);
  EXPECT_EQ(logical(*out), (std::vector<double>{10, 21, 2, 3, 24, 45})); // row 2 twice
  // In place, the KV-cache pattern: cache[:, :, pos] = new.
  auto cache = tensor_of(ScalarType::Float, {1, 2, 4, 2}, std::vector<double>(16, 0));
  auto pos = tensor_of(ScalarType::Long, {1}, {3});
  OptList l2({nullptr, nullptr, pos.get()});
  auto upd = tensor_of(ScalarType::Float, {1, 2, 1, 2}, {1, 2, 3, 4});
  std::vector<EValue> p{cache->tensor(), l2.ev(), upd->tensor(), EValue(false), cache->tensor()};
  ASSERT_EQ(call("aten::index_put_", p), Error::Ok);
  std::vector<double> want(16, 0);
  want[6] = 1;
  want[7] = 2;
  want[14] = 3;
  want[15] = 4;
  EXPECT_EQ(logical(*cache), want);
}

TEST(IndexSelectAndGather, Values) {
  for (ScalarType t : {ScalarType::Float, ScalarType::Half, ScalarType::Long, ScalarType::Char}) {
    auto self = tensor_of(t, {2, 3}, iota(6));
    auto idx = tensor_of(ScalarType::Long, {4}, {2, 0, 2, 1});
    auto out = out_of(t, {2, 4});
    std::vector<EValue> v{self->tensor(), EValue(int64_t(1)), idx->tensor(), out->tensor()};
    ASSERT_EQ(call_out("aten::index_select.out", v, *out), Error::Ok);
    EXPECT_EQ(logical(*out), (std::vector<double>{2, 0, 2, 1, 5, 3, 5, 4})) << dtype_name(t);
    auto gi = tensor_of(ScalarType::Long, {2, 2}, {1, 0, 2, 2});
    auto go = out_of(t, {2, 2});
    std::vector<EValue> g{self->tensor(), EValue(int64_t(1)), gi->tensor(), EValue(false),
                          go->tensor()};
    ASSERT_EQ(call_out("aten::gather.out", g, *go), Error::Ok);
    EXPECT_EQ(logical(*go), (std::vector<double>{1, 0, 5, 5})) << dtype_name(t);
    auto g0 = tensor_of(ScalarType::Long, {1, 3}, {1, 0, 1});
    auto go0 = out_of(t, {1, 3});
    std::vector<EValue> h{self->tensor(), EValue(int64_t(0)), g0->tensor(), EValue(false),
                          go0->tensor()};
    ASSERT_EQ(call_out("aten::gather.out", h, *go0), Error::Ok);
    EXPECT_EQ(logical(*go0), (std::vector<double>{3, 1, 5})) << dtype_name(t);
  }
}

TEST(Index, Errors) {
  auto self = tensor_of(ScalarType::Float, {3, 2}, iota(6));
  auto far = tensor_of(ScalarType::Long, {1}, {3});
  OptList l({far.get()});
  auto out = out_of(ScalarType::Float, {1, 2});
  std::vector<EValue> a{self->tensor(), l.ev(), out->tensor()};
  EXPECT_EQ(call_out("aten::index.Tensor_out", a, *out), Error::InvalidArgument);
  auto fidx = tensor_of(ScalarType::Float, {1}, {0});
  OptList lf({fidx.get()});
  std::vector<EValue> b{self->tensor(), lf.ev(), out->tensor()};
  EXPECT_EQ(call_out("aten::index.Tensor_out", b, *out), Error::InvalidArgument);
  auto i0 = tensor_of(ScalarType::Long, {1}, {0});
  OptList many({i0.get(), i0.get(), i0.get()});
  std::vector<EValue> c{self->tensor(), many.ev(), out->tensor()};
  EXPECT_EQ(call_out("aten::index.Tensor_out", c, *out), Error::InvalidArgument);
  auto neg = tensor_of(ScalarType::Long, {1}, {-1});
  auto so = out_of(ScalarType::Float, {1, 2});
  std::vector<EValue> d{self->tensor(), EValue(int64_t(0)), neg->tensor(), so->tensor()};
  EXPECT_EQ(call_out("aten::index_select.out", d, *so), Error::InvalidArgument);
  auto gi = tensor_of(ScalarType::Long, {1, 1}, {2});
  auto go = out_of(ScalarType::Float, {1, 1});
  std::vector<EValue> e{self->tensor(), EValue(int64_t(1)), gi->tensor(), EValue(false),
                        go->tensor()};
  EXPECT_EQ(call_out("aten::gather.out", e, *go), Error::InvalidArgument);
  auto vals = tensor_of(ScalarType::Float, {3}, {1, 2, 3}); // does not broadcast to [1, 2]
  std::vector<EValue> f{self->tensor(), l.ev(), vals->tensor(), EValue(false), self->tensor()};
  OptList ok({i0.get()});
  f[1] = ok.ev();
  EXPECT_EQ(call("aten::index_put_", f), Error::InvalidArgument);
  auto row = tensor_of(ScalarType::Float, {1, 2}, {7, 8}); // whole rows, one out of range
  std::vector<EValue> g{self->tensor(), l.ev(), row->tensor(), EValue(false), self->tensor()};
  EXPECT_EQ(call("aten::index_put_", g), Error::InvalidArgument);
  EXPECT_EQ(logical(*self), iota(6));
}

} // namespace
