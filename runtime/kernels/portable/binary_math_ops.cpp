// Elementwise binary math with broadcasting and ATen's type promotion:
// pow (Tensor_Tensor, Tensor_Scalar, Scalar), remainder and fmod (Tensor and
// Scalar), floor_divide, maximum, minimum, atan2, div with a rounding mode
// (out_mode, Scalar_mode_out) and rsub.Scalar. Integer division by zero fails
// the call (ATen raises); everything else follows C/ATen semantics.
#include <cmath>
#include <cstring>
#include <string_view>

#include "mask.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// An op's floating and integer forms. fd gets the compute dtype to round
// intermediate steps to (as computing in that dtype would); fi returns false
// for a division by zero; integer results wrap to the compute dtype.
struct ArithFns {
  double (*fd)(double, double, ScalarType);
  bool (*fi)(int64_t, int64_t, int64_t*);
};

// out = f(self, other) in `common` (swapped: f(other, self)) over a plan
// of out; false when an integer op divided by zero.
bool arith_loop(const ElemPlan<3>& p, const Tensor& self, const BinaryOperand& other, Tensor& out,
                ScalarType common, const ArithFns& fns, bool swapped) {
  const ValueReader a(self, common);
  const ValueReader b = operand_reader(other, common);
  const ScalarType ot = out.scalar_type();
  void* op = out.mutable_data_ptr();
  if (isFloatingType(common)) {
    for_each_broadcast<3>(p.shape, p.strides, [&](size_t, const int64_t* o) {
      const double u = a.d(o[0]), v = b.d(o[1]);
      const double r = swapped ? fns.fd(v, u, common) : fns.fd(u, v, common);
      store_d(ot, op, static_cast<size_t>(o[2]), round_to(common, r));
    });
    return true;
  }
  bool div_by_zero = false;
  for_each_broadcast<3>(p.shape, p.strides, [&](size_t, const int64_t* o) {
    const int64_t u = a.i(o[0]), v = b.i(o[1]);
    int64_t r = 0;
    if (!(swapped ? fns.fi(v, u, &r) : fns.fi(u, v, &r))) div_by_zero = true;
    store_i(ot, op, static_cast<size_t>(o[2]), wrap_to(common, r));
  });
  return !div_by_zero;
}

// Computes out = f(self, other) in `common` (swapped: f(other, self)).
void run_arith(KernelRuntimeContext& ctx, const char* name, const Tensor& self,
               const BinaryOperand& other, Tensor& out, ScalarType common, const ArithFns& fns,
               bool swapped = false) {
  ElemPlan<3> p;
  if (!require_can_cast(ctx, common, out.scalar_type(), name) ||
      !plan_with_operand(ctx, name, self, other, out, &p)) {
    return;
  }
  if (!arith_loop(p, self, other, out, common, fns, swapped)) {
    PK_FAIL(ctx, name, "integer division by zero");
  }
}

// Integer power by squaring (wrapping); negative exponents give 1/base
// truncated, as ATen's integer pow does.
bool ipow(int64_t base, int64_t exp, int64_t* r) {
  if (exp < 0) {
    *r = base == 1 ? 1 : base == -1 ? ((exp & 1) ? -1 : 1) : 0;
    return true;
  }
  int64_t acc = 1;
  while (exp > 0) {
    if (exp & 1) acc = wrap_mul(acc, base);
    base = wrap_mul(base, base);
    exp >>= 1;
  }
  *r = acc;
  return true;
}

// Python's modulo: the result takes the divisor's sign.
double mod_d(double a, double b, ScalarType) {
  double m = std::fmod(a, b);
  if (m != 0 && ((b < 0) != (m < 0))) m += b;
  return m;
}
bool mod_i(int64_t a, int64_t b, int64_t* r) {
  if (b == 0) return false;
  int64_t m = b == -1 ? 0 : a % b;
  if (m != 0 && ((b < 0) != (m < 0))) m += b;
  *r = m;
  return true;
}
bool fmod_i(int64_t a, int64_t b, int64_t* r) {
  if (b == 0) return false;
  *r = b == -1 ? 0 : a % b;
  return true;
}
// Floor division as ATen's div_floor (exact quotient rounded down).
double floordiv_d(double a, double b, ScalarType t) {
  if (b == 0) return a / b;
  const double m = std::fmod(a, b);
  double div = round_to(t, round_to(t, a - m) / b);
  if (m != 0 && ((b < 0) != (m < 0))) div -= 1.0;
  if (div == 0) return std::copysign(0.0, a / b);
  double fl = std::floor(div);
  if (div - fl > 0.5) fl += 1.0;
  return fl;
}
bool floordiv_i(int64_t a, int64_t b, int64_t* r) {
  if (b == 0) return false;
  if (b == -1) {
    *r = wrap_sub(0, a);
    return true;
  }
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
  *r = q;
  return true;
}
bool truncdiv_i(int64_t a, int64_t b, int64_t* r) {
  if (b == 0) return false;
  *r = b == -1 ? wrap_sub(0, a) : a / b;
  return true;
}
// NaN wins, as in ATen's maximum/minimum.
double max_d(double a, double b, ScalarType) {
  return std::isnan(a) || std::isnan(b) ? NAN : (a > b ? a : b);
}
double min_d(double a, double b, ScalarType) {
  return std::isnan(a) || std::isnan(b) ? NAN : (a < b ? a : b);
}
bool max_i(int64_t a, int64_t b, int64_t* r) {
  *r = a > b ? a : b;
  return true;
}
bool min_i(int64_t a, int64_t b, int64_t* r) {
  *r = a < b ? a : b;
  return true;
}

const ArithFns kPow{[](double a, double b, ScalarType) { return std::pow(a, b); }, ipow};
const ArithFns kRemainder{mod_d, mod_i};
const ArithFns kFmod{[](double a, double b, ScalarType) { return std::fmod(a, b); }, fmod_i};
const ArithFns kFloorDiv{floordiv_d, floordiv_i};
const ArithFns kTruncDiv{
    [](double a, double b, ScalarType t) { return std::trunc(round_to(t, a / b)); }, truncdiv_i};
const ArithFns kTrueDiv{[](double a, double b, ScalarType) { return a / b; }, nullptr};
const ArithFns kMaximum{max_d, max_i};
const ArithFns kMinimum{min_d, min_i};
const ArithFns kAtan2{[](double a, double b, ScalarType) { return std::atan2(a, b); }, nullptr};

// op(self, other, *, out) -> out for an op computed in the promoted dtype;
// bool is rejected unless allow_bool.
void arith_op(KernelRuntimeContext& ctx, Args args, const char* name, bool scalar_other,
              const ArithFns& fns, bool allow_bool) {
  Tensor *self, *out;
  BinaryOperand other;
  if (!get_binary_args(ctx, args, name, scalar_other, &self, &other, &out)) return;
  const ScalarType common = binary_result_type(*self, other);
  if (common == ScalarType::Bool && !allow_bool) {
    PK_FAIL(ctx, name, "bool operands are not supported");
    return;
  }
  run_arith(ctx, name, *self, other, *out, common, fns);
}

// atan2.out(self, other, *, out): floating result (integers give Float).
void atan2_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::atan2.out";
  Tensor *self, *out;
  BinaryOperand other;
  if (!get_binary_args(ctx, args, name, false, &self, &other, &out)) return;
  ScalarType common = binary_result_type(*self, other);
  if (!isFloatingType(common)) common = ScalarType::Float;
  run_arith(ctx, name, *self, other, *out, common, kAtan2);
}

// pow.Scalar_out(Scalar self, Tensor exponent, *, out) -> out
void pow_scalar_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::pow.Scalar_out";
  if (!check_nargs(ctx, args, 4, name)) return;
  BinaryOperand base;
  if (!get_scalar(ctx, args, 0, name, &base.s)) return;
  Tensor* exponent = get_tensor(ctx, args, 1, name);
  if (exponent == nullptr) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr) return;
  const ScalarType common = promote_with_scalar(exponent->scalar_type(), base.s);
  if (common == ScalarType::Bool) {
    PK_FAIL(ctx, name, "bool operands are not supported");
    return;
  }
  run_arith(ctx, name, *exponent, base, *out, common, kPow, /*swapped=*/true);
}

// div.out_mode / div.Scalar_mode_out(self, other, *, rounding_mode, out)
void div_mode(KernelRuntimeContext& ctx, Args args, const char* name, bool scalar_other) {
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  if (self == nullptr) return;
  BinaryOperand other;
  if (scalar_other ? !get_scalar(ctx, args, 1, name, &other.s)
                   : (other.t = get_tensor(ctx, args, 1, name)) == nullptr) {
    return;
  }
  std::string_view mode;
  if (!args[2]->isNone() && !get_string(ctx, args, 2, name, &mode)) return;
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  ScalarType common = binary_result_type(*self, other);
  if (args[2]->isNone()) {
    if (!isFloatingType(common)) common = ScalarType::Float;
    run_arith(ctx, name, *self, other, *out, common, kTrueDiv);
  } else if (mode == "trunc" || mode == "floor") {
    if (common == ScalarType::Bool) common = ScalarType::Long;
    run_arith(ctx, name, *self, other, *out, common, mode == "trunc" ? kTruncDiv : kFloorDiv);
  } else {
    PK_FAIL(ctx, name, "unknown rounding_mode '%.*s'", static_cast<int>(mode.size()), mode.data());
  }
}

// rsub.Scalar_out(self, Scalar other, Scalar alpha, *, out): other - alpha * self
void rsub_scalar_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::rsub.Scalar_out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  if (self == nullptr) return;
  BinaryOperand other;
  ScalarArg alpha;
  if (!get_scalar(ctx, args, 1, name, &other.s) || !get_scalar(ctx, args, 2, name, &alpha)) return;
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  const ScalarType common = binary_result_type(*self, other);
  if (common == ScalarType::Bool || (alpha.is_float && !isFloatingType(common))) {
    PK_FAIL(ctx, name, "needs a numeric result dtype (and a floating one for a floating alpha)");
    return;
  }
  if (!require_can_cast(ctx, common, out->scalar_type(), name)) return;
  const ValueReader a(*self, common), b(other.s, common);
  const ScalarType ot = out->scalar_type();
  void* op = out->mutable_data_ptr();
  const bool fp = isFloatingType(common);
  for_each_binary(ctx, name, *self, other, *out, [&](int64_t x, int64_t, int64_t o) {
    if (fp) {
      store_d(ot, op, static_cast<size_t>(o), round_to(common, b.d(0) - alpha.d * a.d(x)));
    } else {
      const int64_t r = wrap_sub(b.i(0), wrap_mul(alpha.i, a.i(x)));
      store_i(ot, op, static_cast<size_t>(o), wrap_to(common, r));
    }
  });
}

#define PK_ARITH(fn, opname, fns, allow_bool)                     \
  void fn(KernelRuntimeContext& ctx, Args args) {                 \
    arith_op(ctx, args, "aten::" opname, false, fns, allow_bool); \
  }
#define PK_ARITH_SCALAR(fn, opname, fns, allow_bool)             \
  void fn(KernelRuntimeContext& ctx, Args args) {                \
    arith_op(ctx, args, "aten::" opname, true, fns, allow_bool); \
  }
PK_ARITH(pow_tensor_tensor_out, "pow.Tensor_Tensor_out", kPow, false)
void pow_tensor_scalar_out(KernelRuntimeContext& ctx, Args args) {
  PowScalarCall call;
  if (prepare_pow_tensor_scalar(ctx, args, &call)) run_pow_tensor_scalar(call);
}
PK_ARITH(remainder_tensor_out, "remainder.Tensor_out", kRemainder, false)
PK_ARITH_SCALAR(remainder_scalar_out, "remainder.Scalar_out", kRemainder, false)
PK_ARITH(fmod_tensor_out, "fmod.Tensor_out", kFmod, false)
PK_ARITH_SCALAR(fmod_scalar_out, "fmod.Scalar_out", kFmod, false)
PK_ARITH(floor_divide_out, "floor_divide.out", kFloorDiv, false)
PK_ARITH(maximum_out, "maximum.out", kMaximum, true)
PK_ARITH(minimum_out, "minimum.out", kMinimum, true)
#undef PK_ARITH
#undef PK_ARITH_SCALAR

void div_out_mode(KernelRuntimeContext& ctx, Args args) {
  div_mode(ctx, args, "aten::div.out_mode", false);
}
void div_scalar_mode_out(KernelRuntimeContext& ctx, Args args) {
  div_mode(ctx, args, "aten::div.Scalar_mode_out", true);
}

const Kernel kBinaryMathKernels[] = {
    Kernel("aten::pow.Tensor_Tensor_out", pow_tensor_tensor_out),
    Kernel("aten::pow.Tensor_Scalar_out", pow_tensor_scalar_out),
    Kernel("aten::pow.Scalar_out", pow_scalar_out),
    Kernel("aten::remainder.Tensor_out", remainder_tensor_out),
    Kernel("aten::remainder.Scalar_out", remainder_scalar_out),
    Kernel("aten::fmod.Tensor_out", fmod_tensor_out),
    Kernel("aten::fmod.Scalar_out", fmod_scalar_out),
    Kernel("aten::floor_divide.out", floor_divide_out),
    Kernel("aten::maximum.out", maximum_out),
    Kernel("aten::minimum.out", minimum_out),
    Kernel("aten::atan2.out", atan2_out),
    Kernel("aten::div.out_mode", div_out_mode),
    Kernel("aten::div.Scalar_mode_out", div_scalar_mode_out),
    Kernel("aten::rsub.Scalar_out", rsub_scalar_out),
};

} // namespace

// pow.Tensor_Scalar_out(self, Scalar exponent, *, out) -> out
bool prepare_pow_tensor_scalar(KernelRuntimeContext& ctx, Args args, PowScalarCall* call) {
  const char* name = "aten::pow.Tensor_Scalar_out";
  Tensor *self, *out;
  if (!get_binary_args(ctx, args, name, true, &self, &call->exponent, &out)) return false;
  call->self = self;
  call->out = out;
  call->common = binary_result_type(*self, call->exponent);
  if (call->common == ScalarType::Bool) {
    PK_FAIL(ctx, name, "bool operands are not supported");
    return false;
  }
  return require_can_cast(ctx, call->common, out->scalar_type(), name) &&
         plan_with_operand(ctx, name, *self, call->exponent, *out, &call->plan);
}

void run_pow_tensor_scalar(const PowScalarCall& c) {
  arith_loop(c.plan, *c.self, c.exponent, *c.out, c.common, kPow, false); // ipow never fails
}

Span<const Kernel> binary_math_kernels() {
  return Span<const Kernel>(kBinaryMathKernels,
                            sizeof(kBinaryMathKernels) / sizeof(kBinaryMathKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
