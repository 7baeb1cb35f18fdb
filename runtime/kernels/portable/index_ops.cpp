// Indexing: index.Tensor_out and index_put (out and in place) with ATen's
// advanced indexing (index_util.h), index_select.out and gather.out. Every
// position is bounds-checked; a bad one fails the call.
#include <cstring>

#include "elementwise_util.h"
#include "index_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

int64_t dot(const int64_t* coords, const int64_t* strides, int n) {
  int64_t r = 0;
  for (int d = 0; d < n; ++d) r += coords[d] * strides[d];
  return r;
}

// index.Tensor_out(self, Tensor?[] indices, *, out) -> out
void index_tensor_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::index.Tensor_out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  if (self == nullptr) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr || !require_same_dtype(ctx, *self, *out, name)) return;
  AdvancedIndex ix;
  if (!prepare_advanced_index(ctx, args, 1, name, *self, &ix) ||
      !resize_out(ctx, *out, ix.result, name)) {
    return;
  }
  int64_t ostr[kMaxDim];
  tensor_strides(*out, ostr);
  const size_t es = elementSizeOrZero(self->scalar_type());
  const char* ip = static_cast<const char*>(self->const_data_ptr());
  char* op = static_cast<char*>(out->mutable_data_ptr());
  if (rows_are_runs(ix, *self) && ostr[ix.result.n - 1] == 1) {
    for_each_indexed_row(ctx, name, ix, *self, [&](const int64_t* rc, int64_t off, int64_t n) {
      std::memcpy(op + dot(rc, ostr, ix.result.n) * static_cast<int64_t>(es),
                  ip + off * static_cast<int64_t>(es), static_cast<size_t>(n) * es);
    });
    return;
  }
  for_each_indexed(ctx, name, ix, *self, [&](const int64_t* rc, int64_t off) {
    std::memcpy(op + dot(rc, ostr, ix.result.n) * static_cast<int64_t>(es),
                ip + off * static_cast<int64_t>(es), es);
  });
}

// Writes (or adds) values, broadcast to the indexed result, into target at
// the positions the index list selects.
void put_values(KernelRuntimeContext& ctx, const char* name, Args args, size_t list_i,
                Tensor& target, const Tensor& values, bool accumulate) {
  AdvancedIndex ix;
  if (!prepare_advanced_index(ctx, args, list_i, name, target, &ix)) return;
  Shape check;
  if (!broadcast_shape(values.sizes(), ix.result.ref(), &check) || check.n != ix.result.n ||
      check.numel() != ix.result.numel()) {
    PK_FAIL(ctx, name, "values do not broadcast to the indexed shape");
    return;
  }
  int64_t vstr[kMaxDim];
  broadcast_tensor_strides(values, ix.result, vstr);
  const ScalarType t = target.scalar_type();
  const size_t es = elementSizeOrZero(t);
  const void* vp = values.const_data_ptr();
  void* tp = target.mutable_data_ptr();
  const bool fp = isFloatingType(t);
  if (!accumulate && rows_are_runs(ix, target) && vstr[ix.result.n - 1] == 1) {
    // Whole rows at a time (a KV cache written at some positions).
    for_each_indexed_row(ctx, name, ix, target, [&](const int64_t* rc, int64_t off, int64_t n) {
      std::memcpy(
          static_cast<char*>(tp) + off * static_cast<int64_t>(es),
          static_cast<const char*>(vp) + dot(rc, vstr, ix.result.n) * static_cast<int64_t>(es),
          static_cast<size_t>(n) * es);
    });
    return;
  }
  for_each_indexed(ctx, name, ix, target, [&](const int64_t* rc, int64_t off) {
    const size_t vo = static_cast<size_t>(dot(rc, vstr, ix.result.n));
    const size_t to = static_cast<size_t>(off);
    if (!accumulate) {
      std::memcpy(static_cast<char*>(tp) + to * es, static_cast<const char*>(vp) + vo * es, es);
    } else if (fp) {
      store_d(t, tp, to, load_d(t, tp, to) + load_d(t, vp, vo));
    } else if (t == ScalarType::Bool) {
      store_i(t, tp, to, load_i(t, tp, to) | load_i(t, vp, vo));
    } else {
      store_i(t, tp, to, wrap_add(load_i(t, tp, to), load_i(t, vp, vo)));
    }
  });
}

// index_put.out(self, Tensor?[] indices, values, bool accumulate=False, *, out)
void index_put_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::index_put.out";
  if (!check_nargs(ctx, args, 6, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  Tensor* values = self != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  bool accumulate = false;
  if (values == nullptr || !get_bool(ctx, args, 3, name, &accumulate)) return;
  Tensor* out = get_tensor(ctx, args, 4, name);
  if (out == nullptr || !require_same_dtype(ctx, *self, *out, name) ||
      !require_same_dtype(ctx, *self, *values, name) ||
      !resize_out(ctx, *out, self->sizes(), name)) {
    return;
  }
  copy_convert(*self, *out);
  put_values(ctx, name, args, 1, *out, *values, accumulate);
}

// index_put_(self, Tensor?[] indices, values, bool accumulate=False) -> self
void index_put_inplace(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::index_put_";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  Tensor* values = self != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  bool accumulate = false;
  if (values == nullptr || !get_bool(ctx, args, 3, name, &accumulate) ||
      !require_same_dtype(ctx, *self, *values, name)) {
    return;
  }
  put_values(ctx, name, args, 1, *self, *values, accumulate);
  if (ctx.failure_state() == Error::Ok && args[4] != args[0]) *args[4] = *args[0];
}

// index_select.out(self, int dim, Tensor index, *, out) -> out
void index_select_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::index_select.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  int64_t dim = 0;
  if (self == nullptr || !get_int(ctx, args, 1, name, &dim) ||
      !norm_dim(ctx, dim, self->dim(), name, &dim)) {
    return;
  }
  Tensor* index = get_tensor(ctx, args, 2, name);
  Tensor* out = index != nullptr ? get_tensor(ctx, args, 3, name) : nullptr;
  if (out == nullptr || !require_same_dtype(ctx, *self, *out, name)) return;
  const ScalarType it = index->scalar_type();
  if ((it != ScalarType::Long && it != ScalarType::Int) || index->dim() > 1) {
    PK_FAIL(ctx, name, "index must be a 0-D or 1-D int64/int32 tensor");
    return;
  }
  const bool scalar_self = self->dim() == 0;
  if (scalar_self && index->numel() != 1) {
    PK_FAIL(ctx, name, "a 0-dim self takes one index, got %zd",
            static_cast<ssize_t>(index->numel()));
    return;
  }
  Shape os = shape_of(*self);
  if (!scalar_self) os.s[dim] = static_cast<SizesType>(index->numel());
  if (!resize_out(ctx, *out, os, name)) return;
  // One slice (self's shape, 1 along dim) per index.
  Shape slice = shape_of(*self);
  if (!scalar_self) slice.s[dim] = 1;
  int64_t istr[kMaxDim], ostr[kMaxDim];
  tensor_strides(*self, istr);
  tensor_strides(*out, ostr);
  const int64_t size = scalar_self ? 1 : self->size(dim);
  const int64_t es = static_cast<int64_t>(elementSizeOrZero(self->scalar_type()));
  for (ssize_t i = 0; i < index->numel(); ++i) {
    const int64_t v = load_i(it, index->const_data_ptr(), static_cast<size_t>(i));
    if (v < 0 || v >= size) {
      PK_FAIL(ctx, name, "index %lld is out of range for size %lld", static_cast<long long>(v),
              static_cast<long long>(size));
      return;
    }
    const int64_t src_off = scalar_self ? 0 : v * istr[dim];
    char* dst =
        static_cast<char*>(out->mutable_data_ptr()) + (scalar_self ? 0 : i * ostr[dim] * es);
    strided_copy(self->scalar_type(), self->const_data_ptr(), src_off, istr, out->scalar_type(),
                 dst, ostr, slice);
  }
}

// gather.out(self, int dim, Tensor index, *, bool sparse_grad=False, out)
void gather_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::gather.out";
  if (!check_nargs(ctx, args, 6, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  int64_t dim = 0;
  bool sparse = false;
  if (self == nullptr || !get_int(ctx, args, 1, name, &dim) ||
      !norm_dim(ctx, dim, self->dim(), name, &dim) || !get_bool(ctx, args, 3, name, &sparse)) {
    return;
  }
  Tensor* index = get_tensor(ctx, args, 2, name);
  Tensor* out = index != nullptr ? get_tensor(ctx, args, 4, name) : nullptr;
  if (out == nullptr || !require_same_dtype(ctx, *self, *out, name)) return;
  if (index->scalar_type() != ScalarType::Long) {
    PK_FAIL(ctx, name, "index must be int64, got %s", toString(index->scalar_type()));
    return;
  }
  const int rank = static_cast<int>(self->dim());
  if (index->dim() != self->dim() && !(rank <= 1 && index->dim() <= 1)) {
    PK_FAIL(ctx, name, "index has rank %zd, self %d", static_cast<ssize_t>(index->dim()), rank);
    return;
  }
  for (int d = 0; d < rank && index->dim() == rank; ++d) {
    if (d != dim && index->size(d) > self->size(d)) {
      PK_FAIL(ctx, name, "index dim %d (%d) exceeds self's (%d)", d,
              static_cast<int>(index->size(d)), static_cast<int>(self->size(d)));
      return;
    }
  }
  if (!resize_out(ctx, *out, index->sizes(), name)) return;
  const Shape is = shape_of(*index);
  int64_t st[3][kMaxDim] = {};
  if (index->dim() == rank) tensor_strides(*self, st[0]);
  const int64_t dim_stride = rank == 0 ? 0 : self->strides()[dim];
  const int64_t dim_size = rank == 0 ? 1 : self->size(dim);
  if (index->dim() == rank && rank > 0) st[0][dim] = 0;
  tensor_strides(*index, st[1]);
  tensor_strides(*out, st[2]);
  bool bad = false;
  int64_t bad_value = 0;
  const size_t es = elementSizeOrZero(self->scalar_type());
  const char* ip = static_cast<const char*>(self->const_data_ptr());
  char* op = static_cast<char*>(out->mutable_data_ptr());
  for_each_broadcast<3>(is, st, [&](size_t, const int64_t* o) {
    const int64_t v = index->const_data_ptr<int64_t>()[o[1]];
    if (bad || v < 0 || v >= dim_size) {
      if (!bad) bad_value = v;
      bad = true;
      return;
    }
    std::memcpy(op + o[2] * static_cast<int64_t>(es),
                ip + (o[0] + v * dim_stride) * static_cast<int64_t>(es), es);
  });
  if (bad) {
    PK_FAIL(ctx, name, "index %lld is out of range for size %lld",
            static_cast<long long>(bad_value), static_cast<long long>(dim_size));
  }
}

const Kernel kIndexKernels[] = {
    Kernel("aten::index.Tensor_out", index_tensor_out),
    Kernel("aten::index_put.out", index_put_out),
    Kernel("aten::index_put_", index_put_inplace),
    Kernel("aten::index_select.out", index_select_out),
    Kernel("aten::gather.out", gather_out),
};

} // namespace

Span<const Kernel> index_kernels() {
  return Span<const Kernel>(kIndexKernels, sizeof(kIndexKernels) / sizeof(kIndexKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
