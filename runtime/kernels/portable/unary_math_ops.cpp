// Elementwise unary math, all op.out(self, *, out) -> out:
// - to a floating out (inputs of any dtype): acos, acosh, asin, asinh, atan,
//   atanh, cos, cosh, erf, exp, expm1, log, log10, log1p, log2, reciprocal,
//   rsqrt, sin, sinh, sqrt, tan;
// - same dtype in and out: abs, neg, ceil, floor, round (half to even),
//   trunc (no bool), sign (bool too);
// - to a bool out: isinf, isnan.
// Values are computed in double and rounded to the out's dtype.
#include <cmath>

#include "op_tables.h"
#include "unary.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

using DoubleFn = double (*)(double);

bool unary_args(KernelRuntimeContext& ctx, Args args, const char* name, Tensor** self,
                Tensor** out) {
  if (!check_nargs(ctx, args, 3, name)) return false;
  *self = get_tensor(ctx, args, 0, name);
  if (*self == nullptr) return false;
  *out = get_tensor(ctx, args, 1, name);
  return *out != nullptr;
}

// Any input dtype, a floating out.
void run_to_float(const UnaryCall& c, DoubleFn f) {
  const ScalarType it = c.in->scalar_type(), ot = c.out->scalar_type();
  const void* ip = c.in->const_data_ptr();
  void* op = c.out->mutable_data_ptr();
  for_each_resized_unary(*c.in, *c.out, [&](int64_t x, int64_t o) {
    store_d(ot, op, static_cast<size_t>(o), f(load_d(it, ip, static_cast<size_t>(x))));
  });
}

// Same dtype in and out; integers map through fi (wrapping), floats
// through fd.
void run_same_dtype(const UnaryCall& c, DoubleFn fd, int64_t (*fi)(int64_t)) {
  const ScalarType t = c.in->scalar_type();
  const void* ip = c.in->const_data_ptr();
  void* op = c.out->mutable_data_ptr();
  if (isFloatingType(t)) {
    for_each_resized_unary(*c.in, *c.out, [&](int64_t x, int64_t o) {
      store_d(t, op, static_cast<size_t>(o), fd(load_d(t, ip, static_cast<size_t>(x))));
    });
  } else {
    for_each_resized_unary(*c.in, *c.out, [&](int64_t x, int64_t o) {
      store_i(t, op, static_cast<size_t>(o), fi(load_i(t, ip, static_cast<size_t>(x))));
    });
  }
}

// Any input dtype, a bool out.
void to_bool_op(KernelRuntimeContext& ctx, Args args, const char* name, bool (*f)(double)) {
  Tensor *self, *out;
  if (!unary_args(ctx, args, name, &self, &out)) return;
  if (out->scalar_type() != ScalarType::Bool) {
    PK_FAIL(ctx, name, "the output must be bool, got %s", toString(out->scalar_type()));
    return;
  }
  const ScalarType it = self->scalar_type();
  const void* ip = self->const_data_ptr();
  void* op = out->mutable_data_ptr();
  for_each_unary(ctx, name, *self, *out, [&](int64_t x, int64_t o) {
    const bool r = isFloatingType(it) && f(load_d(it, ip, static_cast<size_t>(x)));
    store_i(ScalarType::Bool, op, static_cast<size_t>(o), r ? 1 : 0);
  });
}

} // namespace

bool prepare_to_float_unary(KernelRuntimeContext& ctx, Args args, const char* name, UnaryCall* c) {
  Tensor *self, *out;
  if (!unary_args(ctx, args, name, &self, &out) || !require_floating(ctx, *out, name)) {
    return false;
  }
  c->name = name;
  c->in = self;
  c->out = out;
  return resize_unary(ctx, name, *self, *out);
}

bool prepare_same_dtype_unary(KernelRuntimeContext& ctx, Args args, const char* name,
                              bool allow_bool, UnaryCall* c) {
  Tensor *self, *out;
  if (!unary_args(ctx, args, name, &self, &out) || !require_same_dtype(ctx, *self, *out, name)) {
    return false;
  }
  if (self->scalar_type() == ScalarType::Bool && !allow_bool) {
    PK_FAIL(ctx, name, "bool is not supported");
    return false;
  }
  c->name = name;
  c->in = self;
  c->out = out;
  return resize_unary(ctx, name, *self, *out);
}

namespace {

int64_t identity_i(int64_t v) { return v; }
int64_t abs_i(int64_t v) { return v < 0 ? wrap_sub(0, v) : v; }
int64_t neg_i(int64_t v) { return wrap_sub(0, v); }
int64_t sign_i(int64_t v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }
double sign_d(double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : v; } // keeps NaN, -0

} // namespace

// Defines run_<op> (external: unary.h declares those the optimized kernels
// fall back to) and the kernel <op>_out.
#define PK_TO_FLOAT(op, expr)                                                    \
  void run_##op(const UnaryCall& c) {                                            \
    run_to_float(c, [](double x) { return expr; });                              \
  }                                                                              \
  static void op##_out(KernelRuntimeContext& ctx, Args args) {                   \
    UnaryCall c;                                                                 \
    if (prepare_to_float_unary(ctx, args, "aten::" #op ".out", &c)) run_##op(c); \
  }
PK_TO_FLOAT(acos, std::acos(x))
PK_TO_FLOAT(acosh, std::acosh(x))
PK_TO_FLOAT(asin, std::asin(x))
PK_TO_FLOAT(asinh, std::asinh(x))
PK_TO_FLOAT(atan, std::atan(x))
PK_TO_FLOAT(atanh, std::atanh(x))
PK_TO_FLOAT(cos, std::cos(x))
PK_TO_FLOAT(cosh, std::cosh(x))
PK_TO_FLOAT(erf, std::erf(x))
PK_TO_FLOAT(exp, std::exp(x))
PK_TO_FLOAT(expm1, std::expm1(x))
PK_TO_FLOAT(log, std::log(x))
PK_TO_FLOAT(log10, std::log10(x))
PK_TO_FLOAT(log1p, std::log1p(x))
PK_TO_FLOAT(log2, std::log2(x))
PK_TO_FLOAT(reciprocal, 1.0 / x)
PK_TO_FLOAT(rsqrt, 1.0 / std::sqrt(x))
PK_TO_FLOAT(sin, std::sin(x))
PK_TO_FLOAT(sinh, std::sinh(x))
PK_TO_FLOAT(sqrt, std::sqrt(x))
PK_TO_FLOAT(tan, std::tan(x))
#undef PK_TO_FLOAT

#define PK_SAME_DTYPE(op, fd, fi, allow_bool)                                                  \
  void run_##op(const UnaryCall& c) { run_same_dtype(c, fd, fi); }                             \
  static void op##_out(KernelRuntimeContext& ctx, Args args) {                                 \
    UnaryCall c;                                                                               \
    if (prepare_same_dtype_unary(ctx, args, "aten::" #op ".out", allow_bool, &c)) run_##op(c); \
  }
PK_SAME_DTYPE(
    abs, [](double x) { return std::fabs(x); }, abs_i, false)
PK_SAME_DTYPE(
    neg, [](double x) { return -x; }, neg_i, false)
PK_SAME_DTYPE(
    ceil, [](double x) { return std::ceil(x); }, identity_i, false)
PK_SAME_DTYPE(
    floor, [](double x) { return std::floor(x); }, identity_i, false)
PK_SAME_DTYPE(
    round, [](double x) { return std::nearbyint(x); }, identity_i, false)
PK_SAME_DTYPE(
    trunc, [](double x) { return std::trunc(x); }, identity_i, false)
PK_SAME_DTYPE(sign, sign_d, sign_i, true)
#undef PK_SAME_DTYPE

namespace {

void isinf_out(KernelRuntimeContext& ctx, Args args) {
  to_bool_op(ctx, args, "aten::isinf.out", [](double x) { return std::isinf(x); });
}
void isnan_out(KernelRuntimeContext& ctx, Args args) {
  to_bool_op(ctx, args, "aten::isnan.out", [](double x) { return std::isnan(x); });
}

const Kernel kUnaryMathKernels[] = {
    Kernel("aten::acos.out", acos_out),   Kernel("aten::acosh.out", acosh_out),
    Kernel("aten::asin.out", asin_out),   Kernel("aten::asinh.out", asinh_out),
    Kernel("aten::atan.out", atan_out),   Kernel("aten::atanh.out", atanh_out),
    Kernel("aten::cos.out", cos_out),     Kernel("aten::cosh.out", cosh_out),
    Kernel("aten::erf.out", erf_out),     Kernel("aten::exp.out", exp_out),
    Kernel("aten::expm1.out", expm1_out), Kernel("aten::log.out", log_out),
    Kernel("aten::log10.out", log10_out), Kernel("aten::log1p.out", log1p_out),
    Kernel("aten::log2.out", log2_out),   Kernel("aten::reciprocal.out", reciprocal_out),
    Kernel("aten::rsqrt.out", rsqrt_out), Kernel("aten::sin.out", sin_out),
    Kernel("aten::sinh.out", sinh_out),   Kernel("aten::sqrt.out", sqrt_out),
    Kernel("aten::tan.out", tan_out),     Kernel("aten::abs.out", abs_out),
    Kernel("aten::neg.out", neg_out),     Kernel("aten::ceil.out", ceil_out),
    Kernel("aten::floor.out", floor_out), Kernel("aten::round.out", round_out),
    Kernel("aten::trunc.out", trunc_out), Kernel("aten::sign.out", sign_out),
    Kernel("aten::isinf.out", isinf_out), Kernel("aten::isnan.out", isnan_out),
};

} // namespace

Span<const Kernel> unary_math_kernels() {
  return Span<const Kernel>(kUnaryMathKernels,
                            sizeof(kUnaryMathKernels) / sizeof(kUnaryMathKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
