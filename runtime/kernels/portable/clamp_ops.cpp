// Clamping: clamp.out (Scalar bounds), clamp.Tensor_out (broadcast tensor
// bounds) and hardtanh.out. The lower bound applies first, so min > max
// gives max; NaN inputs stay NaN.
#include <cmath>
#include <limits>

#include "op_tables.h"
#include "unary.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

double clamp_d(double v, bool has_lo, double lo, bool has_hi, double hi) {
  if (std::isnan(v)) return v;
  if (has_lo && (std::isnan(lo) || v < lo)) v = lo;
  if (has_hi && (std::isnan(hi) || v > hi)) v = hi;
  return v;
}
int64_t clamp_i(int64_t v, bool has_lo, int64_t lo, bool has_hi, int64_t hi) {
  if (has_lo && v < lo) v = lo;
  if (has_hi && v > hi) v = hi;
  return v;
}

// Whether a scalar bound fits dtype t (ATen rejects bounds out of range;
// infinities are fine for floating types).
bool bound_fits(ScalarType t, const ScalarArg& s) {
  const double v = s.is_float ? s.d : static_cast<double>(s.i);
  if (isFloatingType(t)) {
    if (!std::isfinite(v)) return true;
    const double hi = t == ScalarType::Half     ? 65504.0
                      : t == ScalarType::Double ? std::numeric_limits<double>::max()
                                                : std::numeric_limits<float>::max();
    return v >= -hi && v <= hi;
  }
  // An integer (or bool) bound: it must survive narrowing to t unchanged.
  return t == ScalarType::Bool || s.i == wrap_to(t, s.i);
}

// Checks clamp's bounds against the result dtype, then resizes out.
bool check_bounds(KernelRuntimeContext& ctx, UnaryCall* c) {
  ScalarType common = c->in->scalar_type();
  if (c->has_lo) common = promote_with_scalar(common, c->lo);
  if (c->has_hi) common = promote_with_scalar(common, c->hi);
  if (common != c->out->scalar_type()) {
    PK_FAIL(ctx, c->name, "the output dtype %s is not the result dtype %s",
            toString(c->out->scalar_type()), toString(common));
    return false;
  }
  if ((c->has_lo && !bound_fits(common, c->lo)) || (c->has_hi && !bound_fits(common, c->hi))) {
    PK_FAIL(ctx, c->name, "a bound is out of the range of %s", toString(common));
    return false;
  }
  c->common = common;
  return resize_unary(ctx, c->name, *c->in, *c->out);
}

} // namespace

// clamp.out(self, Scalar? min=None, Scalar? max=None, *, out) -> out
bool prepare_clamp(KernelRuntimeContext& ctx, Args args, UnaryCall* c) {
  const char* name = "aten::clamp.out";
  c->name = name;
  if (!check_nargs(ctx, args, 5, name)) return false;
  c->in = get_tensor(ctx, args, 0, name);
  if (c->in == nullptr) return false;
  c->has_lo = !args[1]->isNone();
  c->has_hi = !args[2]->isNone();
  if ((c->has_lo && !get_scalar(ctx, args, 1, name, &c->lo)) ||
      (c->has_hi && !get_scalar(ctx, args, 2, name, &c->hi))) {
    return false;
  }
  c->out = get_tensor(ctx, args, 3, name);
  if (c->out == nullptr) return false;
  if (!c->has_lo && !c->has_hi) {
    PK_FAIL(ctx, name, "at least one of min and max must be given");
    return false;
  }
  return check_bounds(ctx, c);
}

// hardtanh.out(self, Scalar min_val=-1, Scalar max_val=1, *, out) -> out
bool prepare_hardtanh(KernelRuntimeContext& ctx, Args args, UnaryCall* c) {
  const char* name = "aten::hardtanh.out";
  c->name = name;
  if (!check_nargs(ctx, args, 5, name)) return false;
  c->in = get_tensor(ctx, args, 0, name);
  if (c->in == nullptr) return false;
  if (!get_scalar(ctx, args, 1, name, &c->lo) || !get_scalar(ctx, args, 2, name, &c->hi)) {
    return false;
  }
  c->out = get_tensor(ctx, args, 3, name);
  if (c->out == nullptr || !require_same_dtype(ctx, *c->in, *c->out, name)) return false;
  if (c->in->scalar_type() == ScalarType::Bool) {
    PK_FAIL(ctx, name, "bool is not supported");
    return false;
  }
  c->has_lo = c->has_hi = true;
  c->common = c->in->scalar_type();
  return resize_unary(ctx, name, *c->in, *c->out);
}

// Clamps self into out with the call's scalar bounds, compared in common.
void run_clamp(const UnaryCall& c) {
  const ScalarType common = c.common;
  const ValueReader in(*c.in, common), rlo(c.lo, common), rhi(c.hi, common);
  const ScalarType ot = c.out->scalar_type();
  void* op = c.out->mutable_data_ptr();
  const bool has_lo = c.has_lo, has_hi = c.has_hi;
  if (isFloatingType(common)) {
    const double l = rlo.d(0), h = rhi.d(0);
    for_each_resized_unary(*c.in, *c.out, [&](int64_t x, int64_t o) {
      store_d(ot, op, static_cast<size_t>(o), clamp_d(in.d(x), has_lo, l, has_hi, h));
    });
  } else {
    const int64_t l = rlo.i(0), h = rhi.i(0);
    for_each_resized_unary(*c.in, *c.out, [&](int64_t x, int64_t o) {
      store_i(ot, op, static_cast<size_t>(o), clamp_i(in.i(x), has_lo, l, has_hi, h));
    });
  }
}

namespace {

void clamp_out(KernelRuntimeContext& ctx, Args args) {
  UnaryCall c;
  if (prepare_clamp(ctx, args, &c)) run_clamp(c);
}

void hardtanh_out(KernelRuntimeContext& ctx, Args args) {
  UnaryCall c;
  if (prepare_hardtanh(ctx, args, &c)) run_clamp(c);
}

// clamp.Tensor_out(self, Tensor? min=None, Tensor? max=None, *, out) -> out
void clamp_tensor_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::clamp.Tensor_out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor *self = get_tensor(ctx, args, 0, name), *lo = nullptr, *hi = nullptr;
  if (self == nullptr || !get_opt_tensor(ctx, args, 1, name, &lo) ||
      !get_opt_tensor(ctx, args, 2, name, &hi)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  if (lo == nullptr && hi == nullptr) {
    PK_FAIL(ctx, name, "at least one of min and max must be given");
    return;
  }
  const Tensor& l = lo != nullptr ? *lo : *self;
  const Tensor& h = hi != nullptr ? *hi : *self;
  const ScalarType common =
      promoteTypes(promoteTypes(self->scalar_type(), l.scalar_type()), h.scalar_type());
  if (!require_can_cast(ctx, common, out->scalar_type(), name)) return;
  ElemPlan<4> p;
  const Tensor* ins[3] = {self, &l, &h};
  if (!plan_elementwise(ctx, name, ins, *out, &p)) return;
  const ValueReader rin(*self, common), rlo(l, common), rhi(h, common);
  const ScalarType ot = out->scalar_type();
  void* op = out->mutable_data_ptr();
  const bool fp = isFloatingType(common), has_lo = lo != nullptr, has_hi = hi != nullptr;
  for_each_broadcast<4>(p.shape, p.strides, [&](size_t, const int64_t* o) {
    if (fp) {
      store_d(ot, op, static_cast<size_t>(o[3]),
              clamp_d(rin.d(o[0]), has_lo, rlo.d(o[1]), has_hi, rhi.d(o[2])));
    } else {
      store_i(ot, op, static_cast<size_t>(o[3]),
              clamp_i(rin.i(o[0]), has_lo, rlo.i(o[1]), has_hi, rhi.i(o[2])));
    }
  });
}

const Kernel kClampKernels[] = {
    Kernel("aten::clamp.out", clamp_out),
    Kernel("aten::clamp.Tensor_out", clamp_tensor_out),
    Kernel("aten::hardtanh.out", hardtanh_out),
};

} // namespace

Span<const Kernel> clamp_kernels() {
  return Span<const Kernel>(kClampKernels, sizeof(kClampKernels) / sizeof(kClampKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
