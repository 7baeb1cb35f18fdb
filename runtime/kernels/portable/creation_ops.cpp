// Creation ops: zeros, ones, empty, _empty_dim_order, fill (Scalar and
// Tensor), rand, randn. Each resizes its output to the requested shape.
#include <cmath>

#include "arg_lists.h"
#include "op_tables.h"
#include "random_util.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// (size, ..., out, ret): the output resized to `size`; null on failure.
Tensor* sized_out(KernelRuntimeContext& ctx, Args args, size_t nargs, size_t out_idx,
                  const char* name) {
  if (!check_nargs(ctx, args, nargs, name)) return nullptr;
  IntList sizes;
  Shape shape;
  if (!get_int_list(ctx, args, 0, name, &sizes) || !shape_from_sizes(ctx, sizes, name, &shape)) {
    return nullptr;
  }
  Tensor* out = get_tensor(ctx, args, out_idx, name);
  if (out == nullptr || !resize_out(ctx, *out, shape, name)) return nullptr;
  return out;
}

void fill_all(Tensor& out, const ScalarArg& v) {
  const size_t n = static_cast<size_t>(out.numel());
  for (size_t i = 0; i < n; ++i) store_scalar(out.scalar_type(), out.mutable_data_ptr(), i, v);
}

// zeros.out(size, *, out) -> out
void zeros_out(KernelRuntimeContext& ctx, Args args) {
  Tensor* out = sized_out(ctx, args, 3, 1, "aten::zeros.out");
  if (out != nullptr && out->nbytes() > 0) std::memset(out->mutable_data_ptr(), 0, out->nbytes());
}

// ones.out(size, *, out) -> out
void ones_out(KernelRuntimeContext& ctx, Args args) {
  Tensor* out = sized_out(ctx, args, 3, 1, "aten::ones.out");
  ScalarArg one;
  one.i = 1;
  one.d = 1.0;
  if (out != nullptr) fill_all(*out, one);
}

// empty.out(size, *, memory_format=None, out) -> out: only the shape.
void empty_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::empty.out";
  if (!check_nargs(ctx, args, 4, name)) return;
  if (!args[1]->isNone() && !args[1]->isInt()) {
    PK_FAIL(ctx, name, "memory_format must be None or an Int");
    return;
  }
  sized_out(ctx, args, 4, 2, name);
}

// _empty_dim_order.out(size, *, dim_order=None, out) -> out
void empty_dim_order_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "dim_order_ops::_empty_dim_order.out";
  Tensor* out = sized_out(ctx, args, 4, 2, name);
  if (out == nullptr) return;
  IntList order;
  bool has_order = false;
  if (!get_opt_int_list(ctx, args, 1, name, &order, &has_order)) return;
  if (!has_order) {
    if (!is_default_dim_order(*out)) PK_FAIL(ctx, name, "dim_order None needs a contiguous output");
    return;
  }
  bool same = order.n == static_cast<size_t>(out->dim());
  for (size_t i = 0; same && i < order.n; ++i) same = order.v[i] == out->dim_order()[i];
  if (!same) PK_FAIL(ctx, name, "the output's dim order differs from the requested one");
}

// fill.Scalar_out(self, value, *, out) -> out
void fill_scalar_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::fill.Scalar_out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  ScalarArg v;
  if (in == nullptr || !get_scalar(ctx, args, 1, name, &v)) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr || !require_same_dtype(ctx, *in, *out, name) ||
      !resize_out(ctx, *out, in->sizes(), name)) {
    return;
  }
  fill_all(*out, v);
}

// fill.Tensor_out(self, value, *, out) -> out: value has one element.
void fill_tensor_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::fill.Tensor_out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return;
  Tensor* value = get_tensor(ctx, args, 1, name);
  if (value == nullptr) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr || !require_same_dtype(ctx, *in, *out, name)) return;
  if (value->dim() != 0) {
    PK_FAIL(ctx, name, "value must be a 0-dim tensor, got rank %zd",
            static_cast<ssize_t>(value->dim()));
    return;
  }
  if (!resize_out(ctx, *out, in->sizes(), name)) return;
  const size_t n = static_cast<size_t>(out->numel());
  for (size_t i = 0; i < n; ++i) {
    move_elem(value->scalar_type(), value->const_data_ptr(), 0, out->scalar_type(),
              out->mutable_data_ptr(), i);
  }
}

// rand.out / randn.out(size, *, out) -> out: uniform [0, 1) or normal(0, 1).
void random_fill(KernelRuntimeContext& ctx, Args args, const char* name, bool normal) {
  Tensor* out = sized_out(ctx, args, 3, 1, name);
  if (out == nullptr || !require_floating(ctx, *out, name)) return;
  const ScalarType t = out->scalar_type();
  void* p = out->mutable_data_ptr();
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> gauss(0.0, 1.0);
  const size_t n = static_cast<size_t>(out->numel());
  for (size_t i = 0; i < n; ++i) {
    if (normal) {
      store_d(t, p, i, gauss(thread_rng()));
      continue;
    }
    // Rounding to a narrow dtype may reach 1.0, which rand never returns.
    do {
      store_d(t, p, i, uniform(thread_rng()));
    } while (load_d(t, p, i) >= 1.0);
  }
}

void rand_out(KernelRuntimeContext& ctx, Args args) {
  random_fill(ctx, args, "aten::rand.out", false);
}
void randn_out(KernelRuntimeContext& ctx, Args args) {
  random_fill(ctx, args, "aten::randn.out", true);
}

const Kernel kCreationKernels[] = {
    Kernel("aten::zeros.out", zeros_out),
    Kernel("aten::ones.out", ones_out),
    Kernel("aten::empty.out", empty_out),
    Kernel("dim_order_ops::_empty_dim_order.out", empty_dim_order_out),
    Kernel("aten::fill.Scalar_out", fill_scalar_out),
    Kernel("aten::fill.Tensor_out", fill_tensor_out),
    Kernel("aten::rand.out", rand_out),
    Kernel("aten::randn.out", randn_out),
};

} // namespace

Span<const Kernel> creation_kernels() {
  return Span<const Kernel>(kCreationKernels, sizeof(kCreationKernels) / sizeof(Kernel));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
