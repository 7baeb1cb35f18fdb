// topk.values: the k largest (or smallest) elements along a dim with their
// positions, in order. NaN counts as larger than every number (as ATen's
// topk); equal values keep their order along the dim. Any dim order.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "kernel_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// Orders positions of one row: the first of two positions comes first when
// its value ranks higher (largest) or lower (smallest); ties by position.
template <typename Key>
struct RankOrder {
  Key key;
  bool largest;
  bool operator()(int64_t a, int64_t b) const {
    const auto ka = key(a), kb = key(b);
    if (ka.first != kb.first) return ka.first == largest; // NaN ranks above numbers
    if (ka.second != kb.second) return largest ? ka.second > kb.second : ka.second < kb.second;
    return a < b;
  }
};

struct TopkArgs {
  Tensor* self = nullptr;
  Tensor* values = nullptr;
  Tensor* indices = nullptr;
  int64_t k = 0, dim = 0;
  bool largest = true;
};

bool read_topk_args(KernelRuntimeContext& ctx, Args args, const char* name, TopkArgs* a) {
  bool sorted = true;
  if (!check_nargs_multi_out(ctx, args, 5, 2, name)) return false;
  a->self = get_tensor(ctx, args, 0, name);
  if (a->self == nullptr || !get_int(ctx, args, 1, name, &a->k) ||
      !get_int(ctx, args, 2, name, &a->dim) || !get_bool(ctx, args, 3, name, &a->largest) ||
      !get_bool(ctx, args, 4, name, &sorted)) {
    return false;
  }
  a->values = get_tensor(ctx, args, 5, name);
  a->indices = a->values != nullptr ? get_tensor(ctx, args, 6, name) : nullptr;
  if (a->indices == nullptr || !require_same_dtype(ctx, *a->self, *a->values, name)) return false;
  if (a->self->scalar_type() == ScalarType::Bool) {
    PK_FAIL(ctx, name, "bool tensors cannot be ranked");
    return false;
  }
  if (a->indices->scalar_type() != ScalarType::Long) {
    PK_FAIL(ctx, name, "indices must be int64, got %s", toString(a->indices->scalar_type()));
    return false;
  }
  const int64_t rank = a->self->dim() == 0 ? 1 : a->self->dim();
  if (!norm_dim(ctx, a->dim, rank, name, &a->dim)) return false;
  const int64_t n = a->self->dim() == 0 ? 1 : a->self->size(a->dim);
  if (a->k < 0 || a->k > n) {
    PK_FAIL(ctx, name, "k (%lld) must be in [0, %lld]", static_cast<long long>(a->k),
            static_cast<long long>(n));
    return false;
  }
  return true;
}

// topk.values(self, k, dim=-1, largest=True, sorted=True, *, values,
// indices) -> (values, indices)
void topk_values(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::topk.values";
  TopkArgs a;
  if (!read_topk_args(ctx, args, name, &a)) return;
  const Tensor& self = *a.self;
  const bool scalar = self.dim() == 0;
  Shape os = shape_of(self);
  if (!scalar) os.s[a.dim] = static_cast<SizesType>(a.k);
  if (!resize_out(ctx, *a.values, os, name) || !resize_out(ctx, *a.indices, os, name)) return;
  const int64_t n = scalar ? 1 : self.size(a.dim);
  if (a.k == 0 || self.numel() == 0) return;
  Result<void*> mem = ctx.allocate_temp(static_cast<size_t>(n) * sizeof(int64_t));
  if (!mem.ok()) {
    PK_FAIL(ctx, name, "no temp memory for a row of %lld elements", static_cast<long long>(n));
    return;
  }
  int64_t* order = static_cast<int64_t*>(*mem);
  // One row per position of the other dims: iterate a shape with dim at 1.
  Shape rows = shape_of(self);
  if (!scalar) rows.s[a.dim] = 1;
  int64_t st[3][kMaxDim] = {};
  tensor_strides(self, st[0]);
  tensor_strides(*a.values, st[1]);
  tensor_strides(*a.indices, st[2]);
  const int64_t s_step = scalar ? 0 : st[0][a.dim], v_step = scalar ? 0 : st[1][a.dim],
                i_step = scalar ? 0 : st[2][a.dim];
  const ScalarType t = self.scalar_type();
  const char* sp = static_cast<const char*>(self.const_data_ptr());
  char* vp = static_cast<char*>(a.values->mutable_data_ptr());
  int64_t* ip = a.indices->mutable_data_ptr<int64_t>();
  const size_t es = elementSizeOrZero(t);
  for_each_broadcast<3>(rows, st, [&](size_t, const int64_t* o) {
    auto at = [&](int64_t j) { return static_cast<size_t>(o[0] + j * s_step); };
    auto fkey = [&](int64_t j) {
      const double v = load_d(t, sp, at(j));
      return std::make_pair(std::isnan(v), v);
    };
    auto ikey = [&](int64_t j) { return std::make_pair(false, load_i(t, sp, at(j))); };
    for (int64_t j = 0; j < n; ++j) order[j] = j;
    if (isFloatingType(t)) {
      std::partial_sort(order, order + a.k, order + n, RankOrder<decltype(fkey)>{fkey, a.largest});
    } else {
      std::partial_sort(order, order + a.k, order + n, RankOrder<decltype(ikey)>{ikey, a.largest});
    }
    for (int64_t j = 0; j < a.k; ++j) {
      std::memcpy(vp + static_cast<size_t>(o[1] + j * v_step) * es, sp + at(order[j]) * es, es);
      ip[o[2] + j * i_step] = order[j];
    }
  });
}

const Kernel kSortKernels[] = {
    Kernel("aten::topk.values", topk_values),
};

} // namespace

Span<const Kernel> sort_kernels() {
  return Span<const Kernel>(kSortKernels, sizeof(kSortKernels) / sizeof(kSortKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
