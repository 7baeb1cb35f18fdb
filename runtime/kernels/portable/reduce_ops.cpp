// Reductions over dims, in any dim order: any (all and dims forms), prod
// (all and one dim), var (unbiased flag and correction forms), mean.dtype,
// amin. Floating results accumulate in double; integer products wrap in
// int64 as ATen's do.
#include <cmath>

#include "op_tables.h"
#include "reduce_util.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// Reads (self, <dims>, keepdim) into a plan and resizes out to its shape.
bool reduce_into(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, const IntList& dims,
                 bool has_dims, bool keepdim, const char* name, ReducePlan* p) {
  if (!plan_reduction(ctx, in, dims, has_dims, keepdim, name, p) ||
      !resize_out(ctx, out, p->out_shape, name)) {
    return false;
  }
  set_reduction_out(out, p);
  return true;
}

// any over the planned dims into a bool (or uint8) output.
void any_reduce(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, const ReducePlan& p,
                const char* name) {
  if (out.scalar_type() != ScalarType::Bool && out.scalar_type() != ScalarType::Byte) {
    PK_FAIL(ctx, name, "output must be bool or uint8, got %s", toString(out.scalar_type()));
    return;
  }
  const ScalarType t = in.scalar_type();
  const bool fp = isFloatingType(t);
  for_each_output(p, [&](int64_t o, int64_t base) {
    bool any = false;
    for_each_reduced(p, base, [&](int64_t i) {
      const size_t k = static_cast<size_t>(i);
      any = any || (fp ? load_d(t, in.const_data_ptr(), k) != 0.0
                       : load_i(t, in.const_data_ptr(), k) != 0);
    });
    store_i(out.scalar_type(), out.mutable_data_ptr(), static_cast<size_t>(o), any ? 1 : 0);
  });
}

// any.all_out(self, *, out) -> out
void any_all_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::any.all_out";
  if (!check_nargs(ctx, args, 3, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  Tensor* out = in == nullptr ? nullptr : get_tensor(ctx, args, 1, name);
  ReducePlan p;
  if (out != nullptr && reduce_into(ctx, *in, *out, IntList(), false, false, name, &p)) {
    any_reduce(ctx, *in, *out, p, name);
  }
}

// any.dims_out(self, dim=None, keepdim=False, *, out) -> out
void any_dims_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::any.dims_out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  IntList dims;
  bool has_dims = false, keepdim = false;
  if (in == nullptr || !get_opt_int_list(ctx, args, 1, name, &dims, &has_dims) ||
      !get_bool(ctx, args, 2, name, &keepdim)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 3, name);
  ReducePlan p;
  if (out != nullptr && reduce_into(ctx, *in, *out, dims, has_dims, keepdim, name, &p)) {
    any_reduce(ctx, *in, *out, p, name);
  }
}

// The dtype argument (None or out's dtype) and a castable input.
bool check_result_dtype(KernelRuntimeContext& ctx, Args args, size_t i, const Tensor& in,
                        const Tensor& out, const char* name) {
  int64_t dtype = 0;
  bool has_dtype = false;
  if (!get_opt_int(ctx, args, i, name, &dtype, &has_dtype)) return false;
  if (has_dtype && dtype != static_cast<int64_t>(out.scalar_type())) {
    PK_FAIL(ctx, name, "dtype argument %lld differs from the output's %s",
            static_cast<long long>(dtype), toString(out.scalar_type()));
    return false;
  }
  if (!has_dtype && !canCast(in.scalar_type(), out.scalar_type())) {
    PK_FAIL(ctx, name, "cannot write %s into %s", toString(in.scalar_type()),
            toString(out.scalar_type()));
    return false;
  }
  return true;
}

void prod_reduce(const Tensor& in, Tensor& out, const ReducePlan& p) {
  const ScalarType it = in.scalar_type(), ot = out.scalar_type();
  const bool fp = isFloatingType(it) || isFloatingType(ot);
  for_each_output(p, [&](int64_t o, int64_t base) {
    double d = 1;
    int64_t n = 1;
    for_each_reduced(p, base, [&](int64_t i) {
      const size_t k = static_cast<size_t>(i);
      if (fp) {
        d *= load_d(it, in.const_data_ptr(), k);
      } else {
        n = wrap_mul(n, load_i(it, in.const_data_ptr(), k));
      }
    });
    if (fp) {
      store_d(ot, out.mutable_data_ptr(), static_cast<size_t>(o), d);
    } else {
      store_i(ot, out.mutable_data_ptr(), static_cast<size_t>(o), n);
    }
  });
}

// prod.out(self, *, dtype=None, out) -> out
void prod_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::prod.out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  Tensor* out = in == nullptr ? nullptr : get_tensor(ctx, args, 2, name);
  ReducePlan p;
  if (out != nullptr && check_result_dtype(ctx, args, 1, *in, *out, name) &&
      reduce_into(ctx, *in, *out, IntList(), false, false, name, &p)) {
    prod_reduce(*in, *out, p);
  }
}

// prod.int_out(self, dim, keepdim=False, *, dtype=None, out) -> out
void prod_int_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::prod.int_out";
  if (!check_nargs(ctx, args, 6, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  IntList dims;
  dims.n = 1;
  bool keepdim = false;
  if (in == nullptr || !get_int(ctx, args, 1, name, &dims.v[0]) ||
      !get_bool(ctx, args, 2, name, &keepdim)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 4, name);
  ReducePlan p;
  if (out != nullptr && check_result_dtype(ctx, args, 3, *in, *out, name) &&
      reduce_into(ctx, *in, *out, dims, true, keepdim, name, &p)) {
    prod_reduce(*in, *out, p);
  }
}

// Variance with divisor max(count - correction, 0), two passes.
void var_reduce(const Tensor& in, Tensor& out, const ReducePlan& p, double correction) {
  const ScalarType t = in.scalar_type();
  const double count = static_cast<double>(p.count());
  const double divisor = count - correction > 0 ? count - correction : 0.0;
  for_each_output(p, [&](int64_t o, int64_t base) {
    double sum = 0;
    for_each_reduced(
        p, base, [&](int64_t i) { sum += load_d(t, in.const_data_ptr(), static_cast<size_t>(i)); });
    const double mean = sum / count;
    double sq = 0;
    for_each_reduced(p, base, [&](int64_t i) {
      const double d = load_d(t, in.const_data_ptr(), static_cast<size_t>(i)) - mean;
      sq += d * d;
    });
    store_d(out.scalar_type(), out.mutable_data_ptr(), static_cast<size_t>(o), sq / divisor);
  });
}

// var.out / var.correction_out: self, dim?, <correction>, keepdim, out.
void var_impl(KernelRuntimeContext& ctx, Args args, const char* name, bool correction_form) {
  if (!check_nargs(ctx, args, 6, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  IntList dims;
  bool has_dims = false, keepdim = false;
  if (in == nullptr || !get_opt_int_list(ctx, args, 1, name, &dims, &has_dims) ||
      !get_bool(ctx, args, 3, name, &keepdim)) {
    return;
  }
  double correction = 1;
  if (correction_form) {
    ScalarArg c;
    if (!args[2]->isNone()) {
      if (!get_scalar(ctx, args, 2, name, &c)) return;
      correction = c.d;
    }
  } else {
    bool unbiased;
    if (!get_bool(ctx, args, 2, name, &unbiased)) return;
    correction = unbiased ? 1 : 0;
  }
  Tensor* out = get_tensor(ctx, args, 4, name);
  ReducePlan p;
  if (out == nullptr || !require_floating(ctx, *in, name) ||
      !require_same_dtype(ctx, *in, *out, name) ||
      !reduce_into(ctx, *in, *out, dims, has_dims, keepdim, name, &p)) {
    return;
  }
  var_reduce(*in, *out, p, correction);
}

// var.out(self, dim?, unbiased=True, keepdim=False, *, out) -> out
void var_out(KernelRuntimeContext& ctx, Args args) { var_impl(ctx, args, "aten::var.out", false); }
// var.correction_out(self, dim=None, *, correction=None, keepdim=False, out)
void var_correction_out(KernelRuntimeContext& ctx, Args args) {
  var_impl(ctx, args, "aten::var.correction_out", true);
}

// mean.dtype_out(self, *, dtype=None, out) -> out: the mean of every element.
void mean_dtype_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::mean.dtype_out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  Tensor* out = in == nullptr ? nullptr : get_tensor(ctx, args, 2, name);
  if (out == nullptr || !require_floating(ctx, *out, name)) return;
  if (args[1]->isNone() && !isFloatingType(in->scalar_type())) {
    PK_FAIL(ctx, name, "an integer input needs a dtype");
    return;
  }
  ReducePlan p;
  if (!check_result_dtype(ctx, args, 1, *in, *out, name) ||
      !reduce_into(ctx, *in, *out, IntList(), false, false, name, &p)) {
    return;
  }
  double sum = 0;
  for_each_reduced(p, 0, [&](int64_t i) {
    sum += load_d(in->scalar_type(), in->const_data_ptr(), static_cast<size_t>(i));
  });
  store_d(out->scalar_type(), out->mutable_data_ptr(), 0, sum / static_cast<double>(p.count()));
}

// amin.out(self, dim=[], keepdim=False, *, out) -> out; NaN wins.
void amin_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::amin.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  IntList dims;
  bool keepdim = false;
  if (in == nullptr || !get_int_list(ctx, args, 1, name, &dims) ||
      !get_bool(ctx, args, 2, name, &keepdim)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 3, name);
  ReducePlan p;
  if (out == nullptr || !require_same_dtype(ctx, *in, *out, name) ||
      !reduce_into(ctx, *in, *out, dims, true, keepdim, name, &p)) {
    return;
  }
  if (p.count() == 0 && out->numel() > 0) {
    PK_FAIL(ctx, name, "cannot reduce over an empty dimension");
    return;
  }
  const ScalarType t = in->scalar_type();
  const bool fp = isFloatingType(t);
  for_each_output(p, [&](int64_t o, int64_t base) {
    bool first = true;
    double dm = 0;
    int64_t im = 0;
    for_each_reduced(p, base, [&](int64_t i) {
      const size_t k = static_cast<size_t>(i);
      if (fp) {
        const double v = load_d(t, in->const_data_ptr(), k);
        if (first || std::isnan(v) || (!std::isnan(dm) && v < dm)) dm = v;
      } else {
        const int64_t v = load_i(t, in->const_data_ptr(), k);
        if (first || v < im) im = v;
      }
      first = false;
    });
    if (fp) {
      store_d(t, out->mutable_data_ptr(), static_cast<size_t>(o), dm);
    } else {
      store_i(t, out->mutable_data_ptr(), static_cast<size_t>(o), im);
    }
  });
}

const Kernel kReduceKernels[] = {
    Kernel("aten::any.all_out", any_all_out),
    Kernel("aten::any.dims_out", any_dims_out),
    Kernel("aten::prod.out", prod_out),
    Kernel("aten::prod.int_out", prod_int_out),
    Kernel("aten::var.out", var_out),
    Kernel("aten::var.correction_out", var_correction_out),
    Kernel("aten::mean.dtype_out", mean_dtype_out),
    Kernel("aten::amin.out", amin_out),
};

} // namespace

Span<const Kernel> reduce_kernels() {
  return Span<const Kernel>(kReduceKernels, sizeof(kReduceKernels) / sizeof(Kernel));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
