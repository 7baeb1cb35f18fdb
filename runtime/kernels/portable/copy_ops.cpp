// Copies: copy.out and copy_ (src broadcast to self's shape, converted to
// the destination's dtype), alias_copy.out, and split_with_sizes_copy.out
// (self cut along a dim into the tensors of a list). Any dim order.
#include "elementwise_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// dst (of self's shape) = src broadcast to that shape, dtype-converted.
bool broadcast_copy(KernelRuntimeContext& ctx, const char* name, const Tensor& src, Tensor& dst) {
  Shape check;
  if (!broadcast_shape(src.sizes(), dst.sizes(), &check) || check.n != dst.dim() ||
      check.numel() != dst.numel()) {
    PK_FAIL(ctx, name, "src does not broadcast to the destination's shape");
    return false;
  }
  const Shape ds = shape_of(dst);
  int64_t sstr[kMaxDim], dstr[kMaxDim];
  broadcast_tensor_strides(src, ds, sstr);
  tensor_strides(dst, dstr);
  strided_copy(src.scalar_type(), src.const_data_ptr(), 0, sstr, dst.scalar_type(),
               dst.mutable_data_ptr(), dstr, ds);
  return true;
}

// copy.out(self, src, bool non_blocking=False, *, out) -> out
void copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::copy.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  Tensor* src = self != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  bool non_blocking = false;
  if (src == nullptr || !get_bool(ctx, args, 2, name, &non_blocking)) return;
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr || !require_same_dtype(ctx, *self, *out, name) ||
      !resize_out(ctx, *out, self->sizes(), name)) {
    return;
  }
  broadcast_copy(ctx, name, *src, *out);
}

// copy_(self, src, bool non_blocking=False) -> self: writes into self; the
// returned value is self (as upstream's generated wrapper stores it).
void copy_inplace(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::copy_";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  Tensor* src = self != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  bool non_blocking = false;
  if (src == nullptr || !get_bool(ctx, args, 2, name, &non_blocking)) return;
  if (self->numel() > 0 && self->mutable_data_ptr() == nullptr) {
    PK_FAIL(ctx, name, "self has no data");
    return;
  }
  if (broadcast_copy(ctx, name, *src, *self) && args[3] != args[0]) *args[3] = *args[0];
}

// alias_copy.out(self, *, out) -> out
void alias_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::alias_copy.out";
  if (!check_nargs(ctx, args, 3, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  Tensor* out = self != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  if (out == nullptr || !require_same_dtype(ctx, *self, *out, name) ||
      !resize_out(ctx, *out, self->sizes(), name)) {
    return;
  }
  copy_convert(*self, *out);
}

// The tensors of a TensorList argument, each checked like get_tensor.
bool tensor_list(KernelRuntimeContext& ctx, Args args, size_t i, const char* name,
                 ArrayRef<EValue*>* entries) {
  if (!args[i]->isTensorList()) {
    PK_FAIL(ctx, name, "argument %zu must be a tensor list, got tag %s", i,
            tag_to_string(args[i]->tag));
    return false;
  }
  *entries = args[i]->payload.copyable_union.as_tensor_list.wrapped();
  for (size_t k = 0; k < entries->size(); ++k) {
    EValue* one[1] = {(*entries)[k]};
    if (one[0] == nullptr || get_tensor(ctx, Args(one, 1), 0, name) == nullptr) {
      if (ctx.failure_state() == Error::Ok) PK_FAIL(ctx, name, "list entry %zu is missing", k);
      return false;
    }
  }
  return true;
}

// split_with_sizes_copy.out(self, SymInt[] split_sizes, int dim=0, *,
//     Tensor(a!)[] out) -> (): out[k] gets split_sizes[k] slices along dim.
void split_with_sizes_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::split_with_sizes_copy.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  IntList sizes;
  int64_t dim = 0;
  ArrayRef<EValue*> outs;
  if (self == nullptr || !get_int_list(ctx, args, 1, name, &sizes) ||
      !get_int(ctx, args, 2, name, &dim) || !norm_dim(ctx, dim, self->dim(), name, &dim) ||
      !tensor_list(ctx, args, 3, name, &outs)) {
    return;
  }
  if (self->dim() == 0 || outs.size() != sizes.n) {
    PK_FAIL(ctx, name, "%zu split sizes for %zu outputs (self of rank %zd)", sizes.n, outs.size(),
            static_cast<ssize_t>(self->dim()));
    return;
  }
  int64_t total = 0;
  for (size_t k = 0; k < sizes.n; ++k) {
    if (sizes.v[k] < 0 || sizes.v[k] > self->size(dim)) {
      PK_FAIL(ctx, name, "split size %lld is invalid", static_cast<long long>(sizes.v[k]));
      return;
    }
    total += sizes.v[k];
  }
  if (total != self->size(dim)) {
    PK_FAIL(ctx, name, "split sizes sum to %lld, dim %lld has %d", static_cast<long long>(total),
            static_cast<long long>(dim), static_cast<int>(self->size(dim)));
    return;
  }
  int64_t sstr[kMaxDim], dstr[kMaxDim];
  tensor_strides(*self, sstr);
  int64_t start = 0;
  for (size_t k = 0; k < sizes.n; ++k) {
    Tensor& out = outs[k]->toTensor();
    Shape piece = shape_of(*self);
    piece.s[dim] = static_cast<SizesType>(sizes.v[k]);
    if (!require_same_dtype(ctx, *self, out, name) || !resize_out(ctx, out, piece, name)) return;
    tensor_strides(out, dstr);
    strided_copy(self->scalar_type(), self->const_data_ptr(), start * sstr[dim], sstr,
                 out.scalar_type(), out.mutable_data_ptr(), dstr, piece);
    start += sizes.v[k];
  }
}

const Kernel kCopyKernels[] = {
    Kernel("aten::copy.out", copy_out),
    Kernel("aten::copy_", copy_inplace),
    Kernel("aten::alias_copy.out", alias_copy_out),
    Kernel("aten::split_with_sizes_copy.out", split_with_sizes_copy_out),
};

} // namespace

Span<const Kernel> copy_kernels() {
  return Span<const Kernel>(kCopyKernels, sizeof(kCopyKernels) / sizeof(kCopyKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
