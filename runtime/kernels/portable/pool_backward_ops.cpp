// max_pool2d_with_indices_backward.grad_input: the gradient of a max pool
// goes to the input element each output took its maximum from (its flat
// position in the H x W plane, as max_pool2d_with_indices gives it);
// elements several windows chose accumulate. Floating dtypes, any dim order.
#include <algorithm>

#include "kernel_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// kernel_size, stride, padding and dilation: 1 or 2 values (stride may be
// empty), as the schema's int[2] allows.
bool check_pool_lists(KernelRuntimeContext& ctx, Args args, const char* name) {
  for (size_t i = 2; i <= 5; ++i) {
    IntList l;
    if (!get_int_list(ctx, args, i, name, &l)) return false;
    if (l.n > 2 || (l.n == 0 && i != 3)) {
      PK_FAIL(ctx, name, "argument %zu must have 1 or 2 values, got %zu", i, l.n);
      return false;
    }
  }
  bool ceil_mode = false;
  return get_bool(ctx, args, 6, name, &ceil_mode);
}

// (grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
//  indices, *, grad_input) -> grad_input
void max_pool2d_backward(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::max_pool2d_with_indices_backward.grad_input";
  if (!check_nargs(ctx, args, 10, name)) return;
  Tensor* grad = get_tensor(ctx, args, 0, name);
  Tensor* self = grad != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  if (self == nullptr || !check_pool_lists(ctx, args, name)) return;
  Tensor* indices = get_tensor(ctx, args, 7, name);
  Tensor* gin = indices != nullptr ? get_tensor(ctx, args, 8, name) : nullptr;
  if (gin == nullptr || !require_floating(ctx, *grad, name) ||
      !require_same_dtype(ctx, *grad, *self, name) || !require_same_dtype(ctx, *grad, *gin, name)) {
    return;
  }
  const int rank = static_cast<int>(self->dim());
  bool shapes_ok = (rank == 3 || rank == 4) && grad->dim() == rank && indices->dim() == rank &&
                   indices->scalar_type() == ScalarType::Long;
  for (int d = 0; shapes_ok && d < rank; ++d) {
    shapes_ok =
        indices->size(d) == grad->size(d) && (d >= rank - 2 || grad->size(d) == self->size(d));
  }
  if (!shapes_ok) {
    PK_FAIL(ctx, name, "grad_output, self and int64 indices must be [N,] C, H, W alike");
    return;
  }
  if (!resize_out(ctx, *gin, self->sizes(), name)) return;
  int64_t st[3][kMaxDim] = {}, gs[kMaxDim];
  tensor_strides(*grad, st[0]);
  tensor_strides(*indices, st[1]);
  tensor_strides(*gin, gs);
  const ScalarType t = gin->scalar_type();
  void* gp = gin->mutable_data_ptr();
  // Zero grad_input (any dim order: every element, through its strides).
  Shape all = shape_of(*gin);
  int64_t zs[1][kMaxDim];
  std::copy(gs, gs + rank, zs[0]);
  for_each_broadcast<1>(
      all, zs, [&](size_t, const int64_t* o) { store_d(t, gp, static_cast<size_t>(o[0]), 0.0); });
  for (int d = 0; d < rank - 2; ++d) st[2][d] = gs[d]; // plane base; H, W from the index
  const int64_t h = self->size(rank - 2), w = self->size(rank - 1);
  const int64_t sh = gs[rank - 2], sw = gs[rank - 1];
  const void* ip = indices->const_data_ptr();
  const void* op = grad->const_data_ptr();
  bool bad = false;
  int64_t bad_value = 0;
  for_each_broadcast<3>(shape_of(*grad), st, [&](size_t, const int64_t* o) {
    const int64_t ix = load_i(ScalarType::Long, ip, static_cast<size_t>(o[1]));
    if (bad || ix < 0 || ix >= h * w) {
      if (!bad) bad_value = ix;
      bad = true;
      return;
    }
    const size_t at = static_cast<size_t>(o[2] + (ix / w) * sh + (ix % w) * sw);
    store_d(t, gp, at, load_d(t, gp, at) + load_d(t, op, static_cast<size_t>(o[0])));
  });
  if (bad) {
    PK_FAIL(ctx, name, "index %lld is outside the %lld x %lld input plane",
            static_cast<long long>(bad_value), static_cast<long long>(h),
            static_cast<long long>(w));
  }
}

const Kernel kPoolBackwardKernels[] = {
    Kernel("aten::max_pool2d_with_indices_backward.grad_input", max_pool2d_backward),
};

} // namespace

Span<const Kernel> pool_backward_kernels() {
  return Span<const Kernel>(kPoolBackwardKernels,
                            sizeof(kPoolBackwardKernels) / sizeof(kPoolBackwardKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
