// Ops that walk the lanes of one dim: any.out (reduce to whether any
// element is non-zero) and cumsum.out (running sum). Any dim order: lanes
// are read and written through the tensors' strides.
#include "elementwise_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// A dim's lanes: f(in_base, out_base) per lane; a lane has `length`
// elements `in_step` (and, in out, `out_step`) apart.
struct Lanes {
  Shape outer; // in's shape with 1 along dim
  int64_t strides[2][kMaxDim] = {};
  int64_t length = 1, in_step = 0, out_step = 0;
};

// out_strides: out's strides laid out on in's dims (0 for a dropped dim).
void lanes_of(const Tensor& in, int64_t dim, const int64_t* out_strides, Lanes* l) {
  l->outer = shape_of(in);
  tensor_strides(in, l->strides[0]);
  for (int d = 0; d < l->outer.n; ++d) l->strides[1][d] = out_strides[d];
  if (in.dim() == 0) return;
  l->length = in.size(dim);
  l->in_step = l->strides[0][dim];
  l->out_step = out_strides[dim];
  l->outer.s[dim] = 1;
}

// any.out(self, int dim, bool keepdim=False, *, out) -> out (bool or uint8)
void any_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::any.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  int64_t dim = 0;
  bool keepdim = false;
  if (self == nullptr || !get_int(ctx, args, 1, name, &dim) ||
      !norm_dim(ctx, dim, self->dim(), name, &dim) || !get_bool(ctx, args, 2, name, &keepdim)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  const ScalarType ot = out->scalar_type();
  if (ot != ScalarType::Bool && ot != ScalarType::Byte) {
    PK_FAIL(ctx, name, "the output must be bool or uint8, got %s", toString(ot));
    return;
  }
  Shape os = shape_of(*self);
  if (self->dim() > 0) {
    os.s[dim] = 1;
    if (!keepdim) {
      for (int d = static_cast<int>(dim); d + 1 < os.n; ++d) os.s[d] = os.s[d + 1];
      --os.n;
    }
  }
  if (!resize_out(ctx, *out, os, name)) return;
  // out's strides on self's dims: the reduced dim (if dropped) steps by 0.
  int64_t ostr[kMaxDim] = {};
  for (int d = 0, k = 0; d < static_cast<int>(self->dim()); ++d) {
    if (d == dim && !keepdim) continue;
    ostr[d] = out->strides()[k++];
  }
  Lanes l;
  lanes_of(*self, dim, ostr, &l);
  const ScalarType it = self->scalar_type();
  const void* ip = self->const_data_ptr();
  void* op = out->mutable_data_ptr();
  const bool fp = isFloatingType(it);
  for_each_broadcast<2>(l.outer, l.strides, [&](size_t, const int64_t* o) {
    bool any = false;
    for (int64_t k = 0; k < l.length && !any; ++k) {
      const size_t at = static_cast<size_t>(o[0] + k * l.in_step);
      any = fp ? load_d(it, ip, at) != 0.0 : load_i(it, ip, at) != 0;
    }
    store_i(ot, op, static_cast<size_t>(o[1]), any ? 1 : 0);
  });
}

// cumsum.out(self, int dim, *, ScalarType? dtype=None, out) -> out: summed in
// double (floating) or int64 (wrapping), in the result dtype: dtype if
// given, else int64 for integer/bool self, else self's.
void cumsum_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::cumsum.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  int64_t dim = 0, dtype = 0;
  bool has_dtype = false;
  if (self == nullptr || !get_int(ctx, args, 1, name, &dim) ||
      !norm_dim(ctx, dim, self->dim(), name, &dim) ||
      !get_opt_int(ctx, args, 2, name, &dtype, &has_dtype)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  if (has_dtype && (dtype < 0 || dtype >= static_cast<int64_t>(ScalarType::Undefined) ||
                    !is_computable(static_cast<ScalarType>(dtype)))) {
    PK_FAIL(ctx, name, "unsupported dtype %lld", static_cast<long long>(dtype));
    return;
  }
  const ScalarType it = self->scalar_type(), ot = out->scalar_type();
  const ScalarType want = has_dtype            ? static_cast<ScalarType>(dtype)
                          : isFloatingType(it) ? it
                                               : ScalarType::Long;
  if (ot != want) {
    PK_FAIL(ctx, name, "the output dtype %s is not the result dtype %s", toString(ot),
            toString(want));
    return;
  }
  if (!resize_out(ctx, *out, self->sizes(), name)) return;
  int64_t ostr[kMaxDim];
  tensor_strides(*out, ostr);
  Lanes l;
  lanes_of(*self, dim, ostr, &l);
  const void* ip = self->const_data_ptr();
  void* op = out->mutable_data_ptr();
  const bool fp = isFloatingType(ot);
  for_each_broadcast<2>(l.outer, l.strides, [&](size_t, const int64_t* o) {
    double sd = 0;
    int64_t si = 0;
    for (int64_t k = 0; k < l.length; ++k) {
      const size_t at = static_cast<size_t>(o[0] + k * l.in_step);
      const size_t to = static_cast<size_t>(o[1] + k * l.out_step);
      if (fp) {
        sd += load_d(it, ip, at);
        store_d(ot, op, to, sd);
      } else {
        si = wrap_add(si, load_i(it, ip, at));
        store_i(ot, op, to, si);
      }
    }
  });
}

const Kernel kLaneKernels[] = {
    Kernel("aten::any.out", any_out),
    Kernel("aten::cumsum.out", cumsum_out),
};

} // namespace

Span<const Kernel> lane_kernels() {
  return Span<const Kernel>(kLaneKernels, sizeof(kLaneKernels) / sizeof(kLaneKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
