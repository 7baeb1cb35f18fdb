// Extremes with their positions, in any dim order: max.dim_max,
// min.dim_min (values and indices), max.unary_out, min.unary_out,
// argmin.out. As ATen: the first extreme wins, and a NaN beats any number.
#include <cmath>

#include "op_tables.h"
#include "reduce_util.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// The running extreme of one output element.
struct Extreme {
  bool is_max = true;
  bool fp = true;
  bool seen = false;
  double d = 0;
  int64_t i = 0;
  int64_t pos = 0; // position of the extreme among the reduced elements

  void offer(ScalarType t, const void* p, size_t k, int64_t at) {
    if (fp) {
      const double v = load_d(t, p, k);
      const bool better = is_max ? v > d : v < d;
      if (!seen || (!std::isnan(d) && (std::isnan(v) || better))) {
        d = v;
        pos = at;
      }
    } else {
      const int64_t v = load_i(t, p, k);
      if (!seen || (is_max ? v > i : v < i)) {
        i = v;
        pos = at;
      }
    }
    seen = true;
  }
};

// Reduces `in` with the plan into values and/or indices (either may be
// null), each written through its own strides.
void reduce_extreme(const Tensor& in, const ReducePlan& p, bool is_max, Tensor* values,
                    Tensor* indices) {
  const ScalarType t = in.scalar_type();
  int64_t vstr[kMaxDim] = {}, istr[kMaxDim] = {};
  if (values != nullptr) reduction_out_strides(*values, p, vstr);
  if (indices != nullptr) reduction_out_strides(*indices, p, istr);
  for_each_index(p.kept, [&](const int64_t* idx) {
    Extreme e;
    e.is_max = is_max;
    e.fp = isFloatingType(t);
    int64_t at = 0;
    for_each_reduced(p, offset_of(idx, p.kept_str, p.kept.n), [&](int64_t i) {
      e.offer(t, in.const_data_ptr(), static_cast<size_t>(i), at++);
    });
    if (values != nullptr) {
      const size_t o = static_cast<size_t>(offset_of(idx, vstr, p.kept.n));
      if (e.fp) {
        store_d(t, values->mutable_data_ptr(), o, e.d);
      } else {
        store_i(t, values->mutable_data_ptr(), o, e.i);
      }
    }
    if (indices != nullptr) {
      indices->mutable_data_ptr<int64_t>()[offset_of(idx, istr, p.kept.n)] = e.pos;
    }
  });
}

// Plans the reduction and rejects an empty reduced extent.
bool plan_extreme(KernelRuntimeContext& ctx, const Tensor& in, const IntList& dims, bool has_dims,
                  bool keepdim, const char* name, ReducePlan* p) {
  if (!plan_reduction(ctx, in, dims, has_dims, keepdim, name, p)) return false;
  if (p->count() == 0 && p->kept.numel() > 0) {
    PK_FAIL(ctx, name, "cannot reduce over an empty dimension");
    return false;
  }
  return true;
}

bool require_long(KernelRuntimeContext& ctx, const Tensor& t, const char* name) {
  if (t.scalar_type() != ScalarType::Long) {
    PK_FAIL(ctx, name, "indices must be int64, got %s", toString(t.scalar_type()));
    return false;
  }
  return true;
}

// max.dim_max / min.dim_min(self, dim, keepdim=False, *, values, indices)
void extreme_dim(KernelRuntimeContext& ctx, Args args, const char* name, bool is_max) {
  if (!check_nargs_multi_out(ctx, args, 3, 2, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  IntList dims;
  dims.n = 1;
  bool keepdim = false;
  if (in == nullptr || !get_int(ctx, args, 1, name, &dims.v[0]) ||
      !get_bool(ctx, args, 2, name, &keepdim)) {
    return;
  }
  Tensor* values = get_tensor(ctx, args, 3, name);
  Tensor* indices = values == nullptr ? nullptr : get_tensor(ctx, args, 4, name);
  ReducePlan p;
  if (indices == nullptr || !require_same_dtype(ctx, *in, *values, name) ||
      !require_long(ctx, *indices, name) ||
      !plan_extreme(ctx, *in, dims, true, keepdim, name, &p) ||
      !resize_out(ctx, *values, p.out_shape, name) ||
      !resize_out(ctx, *indices, p.out_shape, name)) {
    return;
  }
  reduce_extreme(*in, p, is_max, values, indices);
}

void max_dim_max(KernelRuntimeContext& ctx, Args args) {
  extreme_dim(ctx, args, "aten::max.dim_max", true);
}
void min_dim_min(KernelRuntimeContext& ctx, Args args) {
  extreme_dim(ctx, args, "aten::min.dim_min", false);
}

// max.unary_out / min.unary_out(self, *, out) -> out: over every element.
void extreme_all(KernelRuntimeContext& ctx, Args args, const char* name, bool is_max) {
  if (!check_nargs(ctx, args, 3, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  Tensor* out = in == nullptr ? nullptr : get_tensor(ctx, args, 1, name);
  ReducePlan p;
  if (out == nullptr || !require_same_dtype(ctx, *in, *out, name) ||
      !plan_extreme(ctx, *in, IntList(), false, false, name, &p) ||
      !resize_out(ctx, *out, p.out_shape, name)) {
    return;
  }
  reduce_extreme(*in, p, is_max, out, nullptr);
}

void max_unary_out(KernelRuntimeContext& ctx, Args args) {
  extreme_all(ctx, args, "aten::max.unary_out", true);
}
void min_unary_out(KernelRuntimeContext& ctx, Args args) {
  extreme_all(ctx, args, "aten::min.unary_out", false);
}

// argmin.out(self, dim=None, keepdim=False, *, out) -> out; without a dim,
// the position in the row-major flattened tensor.
void argmin_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::argmin.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  IntList dims;
  bool has_dim = false, keepdim = false;
  if (in == nullptr || !get_opt_int(ctx, args, 1, name, &dims.v[0], &has_dim) ||
      !get_bool(ctx, args, 2, name, &keepdim)) {
    return;
  }
  dims.n = has_dim ? 1 : 0;
  Tensor* out = get_tensor(ctx, args, 3, name);
  ReducePlan p;
  if (out == nullptr || !require_long(ctx, *out, name) ||
      !plan_extreme(ctx, *in, dims, has_dim, keepdim, name, &p) ||
      !resize_out(ctx, *out, p.out_shape, name)) {
    return;
  }
  if (in->numel() == 0) {
    PK_FAIL(ctx, name, "argmin of an empty tensor");
    return;
  }
  reduce_extreme(*in, p, false, nullptr, out);
}

const Kernel kMinMaxKernels[] = {
    Kernel("aten::max.dim_max", max_dim_max),     Kernel("aten::min.dim_min", min_dim_min),
    Kernel("aten::max.unary_out", max_unary_out), Kernel("aten::min.unary_out", min_unary_out),
    Kernel("aten::argmin.out", argmin_out),
};

} // namespace

Span<const Kernel> minmax_kernels() {
  return Span<const Kernel>(kMinMaxKernels, sizeof(kMinMaxKernels) / sizeof(Kernel));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
