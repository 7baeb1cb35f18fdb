// Writing into a copy of self: scatter.src_out / scatter.value_out /
// scatter_add.out (positions along a dim from an int64 index tensor),
// select_scatter.out and slice_scatter.out (src into one index or a slice
// of a dim). Every position is bounds-checked; any dim order.
#include <cstring>

#include "kernel_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// out = self (resized to self's shape, same dtype).
bool copy_self(KernelRuntimeContext& ctx, const Tensor& self, Tensor& out, const char* name) {
  if (!require_same_dtype(ctx, self, out, name) || !resize_out(ctx, out, self.sizes(), name)) {
    return false;
  }
  int64_t ss[kMaxDim], os[kMaxDim];
  tensor_strides(self, ss);
  tensor_strides(out, os);
  strided_copy(self.scalar_type(), self.const_data_ptr(), 0, ss, out.scalar_type(),
               out.mutable_data_ptr(), os, shape_of(self));
  return true;
}

// ATen's shape rules: index has self's rank (a 0-dim tensor counts as 1-D),
// fits in src everywhere and in self except along dim.
bool check_scatter_index(KernelRuntimeContext& ctx, const Tensor& self, int64_t dim,
                         const Tensor& index, const Tensor* src, const char* name) {
  if (index.scalar_type() != ScalarType::Long) {
    PK_FAIL(ctx, name, "index must be int64, got %s", toString(index.scalar_type()));
    return false;
  }
  const ssize_t rank = self.dim() == 0 ? 1 : self.dim();
  const ssize_t irank = index.dim() == 0 ? 1 : index.dim();
  if (irank != rank || (src != nullptr && (src->dim() == 0 ? 1 : src->dim()) != rank)) {
    PK_FAIL(ctx, name, "self, index and src must have the same rank");
    return false;
  }
  for (ssize_t d = 0; d < index.dim(); ++d) {
    const bool over_self = d != dim && self.dim() > 0 && index.size(d) > self.size(d);
    const bool over_src = src != nullptr && src->dim() > 0 && index.size(d) > src->size(d);
    if (over_self || over_src) {
      PK_FAIL(ctx, name, "index size %d along dim %zd exceeds self's or src's",
              static_cast<int>(index.size(d)), static_cast<ssize_t>(d));
      return false;
    }
  }
  return true;
}

enum class Scatter { Src, Value, Add };

// out[..., index[p], ...] (=|+=) src[p] (or value) for every position p of
// index, with the index value in place of coordinate `dim`.
void scatter_into(KernelRuntimeContext& ctx, Scatter mode, const Tensor& index, int64_t dim,
                  const Tensor* src, const ScalarArg& value, Tensor& out, const char* name) {
  if (index.numel() == 0) return;
  const Shape is = shape_of(index);
  int64_t st[3][kMaxDim] = {};
  tensor_strides(index, st[0]);
  if (src != nullptr) tensor_strides(*src, st[1]);
  tensor_strides(out, st[2]);
  const int64_t dim_stride = out.dim() == 0 ? 0 : st[2][dim];
  const int64_t dim_size = out.dim() == 0 ? 1 : out.size(dim);
  if (out.dim() > 0) st[2][dim] = 0;
  const ScalarType t = out.scalar_type();
  const size_t es = elementSizeOrZero(t);
  const int64_t* ip = index.const_data_ptr<int64_t>();
  const void* sp = src != nullptr ? src->const_data_ptr() : nullptr;
  void* op = out.mutable_data_ptr();
  bool bad = false;
  int64_t bad_value = 0;
  for_each_broadcast<3>(is, st, [&](size_t, const int64_t* o) {
    // ATen's scatter takes no negative positions.
    const int64_t v = ip[o[0]];
    if (bad || v < 0 || v >= dim_size) {
      if (!bad) bad_value = v;
      bad = true;
      return;
    }
    const size_t at = static_cast<size_t>(o[2] + v * dim_stride);
    const size_t from = static_cast<size_t>(o[1]);
    if (mode == Scatter::Src) {
      std::memcpy(static_cast<char*>(op) + at * es, static_cast<const char*>(sp) + from * es, es);
    } else if (mode == Scatter::Value) {
      value.is_float ? store_d(t, op, at, value.d) : store_i(t, op, at, value.i);
    } else if (t == ScalarType::Bool) {
      store_i(t, op, at, (load_i(t, op, at) | load_i(t, sp, from)) != 0 ? 1 : 0);
    } else if (isFloatingType(t)) {
      store_d(t, op, at, load_d(t, op, at) + load_d(t, sp, from));
    } else {
      store_i(t, op, at, wrap_add(load_i(t, op, at), load_i(t, sp, from)));
    }
  });
  if (bad) {
    PK_FAIL(ctx, name, "index %lld is out of range for size %lld",
            static_cast<long long>(bad_value), static_cast<long long>(dim_size));
  }
}

// scatter.src_out / scatter_add.out(self, dim, index, src, *, out), and
// scatter.value_out(self, dim, index, Scalar value, *, out).
void scatter_op(KernelRuntimeContext& ctx, Args args, Scatter mode, const char* name) {
  if (!check_nargs(ctx, args, 6, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  int64_t dim = 0;
  if (self == nullptr || !get_int(ctx, args, 1, name, &dim) ||
      !norm_dim(ctx, dim, self->dim() == 0 ? 1 : self->dim(), name, &dim)) {
    return;
  }
  Tensor* index = get_tensor(ctx, args, 2, name);
  Tensor* src = nullptr;
  ScalarArg value;
  if (index == nullptr) return;
  if (mode == Scatter::Value ? !get_scalar(ctx, args, 3, name, &value)
                             : (src = get_tensor(ctx, args, 3, name)) == nullptr) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 4, name);
  if (out == nullptr || (src != nullptr && !require_same_dtype(ctx, *self, *src, name)) ||
      !check_scatter_index(ctx, *self, dim, *index, src, name) ||
      !copy_self(ctx, *self, *out, name)) {
    return;
  }
  scatter_into(ctx, mode, *index, dim, src, value, *out, name);
}

void scatter_src_out(KernelRuntimeContext& ctx, Args args) {
  scatter_op(ctx, args, Scatter::Src, "aten::scatter.src_out");
}
void scatter_value_out(KernelRuntimeContext& ctx, Args args) {
  scatter_op(ctx, args, Scatter::Value, "aten::scatter.value_out");
}
void scatter_add_out(KernelRuntimeContext& ctx, Args args) {
  scatter_op(ctx, args, Scatter::Add, "aten::scatter_add.out");
}

// Copies src over the view of out given by (start, step, len) along dim;
// src must have the view's shape.
bool scatter_view(KernelRuntimeContext& ctx, const Tensor& src, Tensor& out, int64_t dim,
                  int64_t start, int64_t step, int64_t len, bool drop_dim, const char* name) {
  Shape vs = shape_of(out);
  vs.s[dim] = static_cast<SizesType>(len);
  const int expect_rank = drop_dim ? vs.n - 1 : vs.n;
  bool same = src.dim() == expect_rank;
  for (int d = 0, s = 0; same && d < vs.n; ++d) {
    if (drop_dim && d == dim) continue;
    same = src.size(s++) == vs.s[d];
  }
  if (!same) {
    PK_FAIL(ctx, name, "src's shape does not match the slice of self it replaces");
    return false;
  }
  int64_t ss[kMaxDim] = {}, os[kMaxDim];
  tensor_strides(out, os);
  const int64_t off = start * os[dim];
  os[dim] *= step;
  int64_t src_str[kMaxDim];
  tensor_strides(src, src_str);
  for (int d = 0, s = 0; d < vs.n; ++d) ss[d] = drop_dim && d == dim ? 0 : src_str[s++];
  const size_t es = elementSizeOrZero(out.scalar_type());
  strided_copy(src.scalar_type(), src.const_data_ptr(), 0, ss, out.scalar_type(),
               static_cast<char*>(out.mutable_data_ptr()) + off * static_cast<int64_t>(es), os, vs);
  return true;
}

// select_scatter.out(self, src, int dim, SymInt index, *, out) -> out
void select_scatter_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::select_scatter.out";
  if (!check_nargs(ctx, args, 6, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  Tensor* src = self != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  int64_t dim = 0, index = 0;
  if (src == nullptr || !get_int(ctx, args, 2, name, &dim) ||
      !get_int(ctx, args, 3, name, &index)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 4, name);
  if (out == nullptr || !require_same_dtype(ctx, *self, *src, name)) return;
  if (self->dim() == 0) {
    PK_FAIL(ctx, name, "cannot select from a 0-dim tensor");
    return;
  }
  if (!norm_dim(ctx, dim, self->dim(), name, &dim)) return;
  const int64_t n = self->size(dim);
  if (index < -n || index >= n) {
    PK_FAIL(ctx, name, "index %lld is out of range for size %lld", static_cast<long long>(index),
            static_cast<long long>(n));
    return;
  }
  if (index < 0) index += n;
  if (!copy_self(ctx, *self, *out, name)) return;
  scatter_view(ctx, *src, *out, dim, index, 1, 1, true, name);
}

// slice_scatter.out(self, src, dim=0, start=None, end=None, step=1, *, out)
void slice_scatter_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::slice_scatter.out";
  if (!check_nargs(ctx, args, 8, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  Tensor* src = self != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  int64_t dim = 0, start = 0, end = 0, step = 1;
  bool has_start = false, has_end = false;
  if (src == nullptr || !get_int(ctx, args, 2, name, &dim) ||
      !get_opt_int(ctx, args, 3, name, &start, &has_start) ||
      !get_opt_int(ctx, args, 4, name, &end, &has_end) || !get_int(ctx, args, 5, name, &step)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 6, name);
  if (out == nullptr || !require_same_dtype(ctx, *self, *src, name)) return;
  if (self->dim() == 0 || step <= 0) {
    PK_FAIL(ctx, name, "%s",
            self->dim() == 0 ? "cannot slice a 0-dim tensor" : "step must be positive");
    return;
  }
  if (!norm_dim(ctx, dim, self->dim(), name, &dim)) return;
  // Python's slice bounds, clamped to the dim.
  const int64_t n = self->size(dim);
  if (!has_start) start = 0;
  if (!has_end) end = n;
  if (start < 0) start = start < -n ? 0 : start + n;
  if (end < 0) end = end < -n ? 0 : end + n;
  start = start > n ? n : start;
  end = end < start ? start : (end > n ? n : end);
  const int64_t len = end > start ? (end - start - 1) / step + 1 : 0;
  if (!copy_self(ctx, *self, *out, name)) return;
  scatter_view(ctx, *src, *out, dim, start, step, len, false, name);
}

const Kernel kScatterKernels[] = {
    Kernel("aten::scatter.src_out", scatter_src_out),
    Kernel("aten::scatter.value_out", scatter_value_out),
    Kernel("aten::scatter_add.out", scatter_add_out),
    Kernel("aten::select_scatter.out", select_scatter_out),
    Kernel("aten::slice_scatter.out", slice_scatter_out),
};

} // namespace

Span<const Kernel> scatter_kernels() {
  return Span<const Kernel>(kScatterKernels, sizeof(kScatterKernels) / sizeof(kScatterKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
