// The executorch_prim scalar ops that to_executorch() emits for symbolic
// shape arithmetic (Python's operators on SymInt/SymFloat): add, sub, mul,
// floordiv, truediv, mod, the comparisons, neg, ceil/round/trunc,
// sym_float, sym_max/sym_min. Results follow Python: floor division and a
// modulo with the divisor's sign, round half to even, and a zero divisor
// fails the call (Python raises ZeroDivisionError).
#include <cmath>

#include "kernel_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// One operand: an Int (a Bool counts as 0/1) or a Double.
struct Num {
  bool is_double = false;
  int64_t i = 0;
  double d = 0;
  double as_double() const { return is_double ? d : static_cast<double>(i); }
};

bool get_num(KernelRuntimeContext& ctx, Args args, size_t idx, const char* name, Num* n) {
  const EValue& v = *args[idx];
  if (v.isInt()) {
    n->i = v.toInt();
  } else if (v.isBool()) {
    n->i = v.toBool() ? 1 : 0;
  } else if (v.isDouble()) {
    n->is_double = true;
    n->d = v.toDouble();
  } else {
    PK_FAIL(ctx, name, "argument %zu must be an Int, Double or Bool, got tag %s", idx,
            tag_to_string(v.tag));
    return false;
  }
  return true;
}

// Reads (a, b, result) or (a, result): nargs is 3 or 2.
bool get_operands(KernelRuntimeContext& ctx, Args args, size_t nargs, const char* name, Num* a,
                  Num* b) {
  if (!check_nargs(ctx, args, nargs, name) || !get_num(ctx, args, 0, name, a)) return false;
  return nargs == 2 || get_num(ctx, args, 1, name, b);
}

bool require_ints(KernelRuntimeContext& ctx, const Num& a, const Num& b, const char* name) {
  if (a.is_double || b.is_double) {
    PK_FAIL(ctx, name, "operands must be Ints");
    return false;
  }
  return true;
}

bool require_nonzero(KernelRuntimeContext& ctx, const Num& b, const char* name) {
  if (b.as_double() == 0.0) {
    PK_FAIL(ctx, name, "division by zero");
    return false;
  }
  return true;
}

// Python's a // b on ints (floor); b != 0. INT64_MIN // -1 wraps.
int64_t floor_div(int64_t a, int64_t b) {
  if (a == INT64_MIN && b == -1) return INT64_MIN;
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Python's a // b on doubles: from fmod, so that a == (a // b) * b + a % b
// holds as closely as it can; b != 0.
double floor_div(double a, double b) {
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0.0 && ((b < 0) != (mod < 0))) div -= 1.0;
  if (div == 0.0) return std::copysign(0.0, a / b);
  const double f = std::floor(div);
  return div - f > 0.5 ? f + 1.0 : f;
}

// Python's a % b on ints (the sign of b); b != 0.
int64_t floor_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

enum class Arith { Add, Sub, Mul, FloorDiv, TrueDiv, Mod, Max, Min };

// Int op Int stays Int (wrapping, as the exported int64 sizes would);
// otherwise Double. TrueDiv is always Double.
void arith(KernelRuntimeContext& ctx, Args args, Arith op, const char* name) {
  Num a, b;
  if (!get_operands(ctx, args, 3, name, &a, &b)) return;
  const bool div = op == Arith::FloorDiv || op == Arith::TrueDiv || op == Arith::Mod;
  if ((div && !require_nonzero(ctx, b, name)) ||
      (op == Arith::Mod && !require_ints(ctx, a, b, name))) {
    return;
  }
  if (!a.is_double && !b.is_double && op != Arith::TrueDiv) {
    int64_t r = 0;
    switch (op) {
      case Arith::Add:
        r = wrap_add(a.i, b.i);
        break;
      case Arith::Sub:
        r = wrap_sub(a.i, b.i);
        break;
      case Arith::Mul:
        r = wrap_mul(a.i, b.i);
        break;
      case Arith::FloorDiv:
        r = floor_div(a.i, b.i);
        break;
      case Arith::Mod:
        r = floor_mod(a.i, b.i);
        break;
      case Arith::Max:
        r = a.i > b.i ? a.i : b.i;
        break;
      case Arith::Min:
        r = a.i < b.i ? a.i : b.i;
        break;
      case Arith::TrueDiv:
        break;
    }
    *args[2] = EValue(r);
    return;
  }
  const double x = a.as_double(), y = b.as_double();
  double r = 0;
  switch (op) {
    case Arith::Add:
      r = x + y;
      break;
    case Arith::Sub:
      r = x - y;
      break;
    case Arith::Mul:
      r = x * y;
      break;
    case Arith::FloorDiv:
      r = floor_div(x, y);
      break;
    case Arith::TrueDiv:
      r = x / y;
      break;
    case Arith::Max:
      r = std::fmax(x, y);
      break;
    case Arith::Min:
      r = std::fmin(x, y);
      break;
    case Arith::Mod:
      break; // ints only
  }
  *args[2] = EValue(r);
}

enum class Cmp { Eq, Gt, Lt, Ge, Le };

template <typename T>
bool compare(Cmp op, T x, T y) {
  switch (op) {
    case Cmp::Eq:
      return x == y;
    case Cmp::Gt:
      return x > y;
    case Cmp::Lt:
      return x < y;
    case Cmp::Ge:
      return x >= y;
    case Cmp::Le:
      return x <= y;
  }
  return false;
}

// -> Bool; two Ints compare exactly, otherwise as Doubles.
void cmp(KernelRuntimeContext& ctx, Args args, Cmp op, const char* name) {
  Num a, b;
  if (!get_operands(ctx, args, 3, name, &a, &b)) return;
  const bool r = !a.is_double && !b.is_double ? compare(op, a.i, b.i)
                                              : compare(op, a.as_double(), b.as_double());
  *args[2] = EValue(r);
}

enum class ToInt { Ceil, Round, Trunc };

// Python's round(): half to even, whatever the FPU rounding mode.
double round_half_even(double v) {
  const double f = std::floor(v);
  const double diff = v - f;
  if (diff < 0.5) return f;
  if (diff > 0.5) return f + 1;
  return std::fmod(f, 2.0) == 0.0 ? f : f + 1;
}

// A Double rounded to an Int (an Int passes through); fails outside int64.
void to_int(KernelRuntimeContext& ctx, Args args, ToInt op, const char* name) {
  Num a, unused;
  if (!get_operands(ctx, args, 2, name, &a, &unused)) return;
  if (!a.is_double) {
    *args[1] = EValue(a.i);
    return;
  }
  const double r = op == ToInt::Ceil    ? std::ceil(a.d)
                   : op == ToInt::Round ? round_half_even(a.d)
                                        : std::trunc(a.d);
  // 2^63 is the first double past INT64_MAX; NaN fails both tests.
  if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0)) {
    PK_FAIL(ctx, name, "%g does not fit an Int", a.d);
    return;
  }
  *args[1] = EValue(static_cast<int64_t>(r));
}

// executorch_prim::neg.Scalar(Scalar a) -> Scalar
void neg_scalar(KernelRuntimeContext& ctx, Args args) {
  const char* name = "executorch_prim::neg.Scalar";
  Num a, unused;
  if (!get_operands(ctx, args, 2, name, &a, &unused)) return;
  *args[1] = a.is_double ? EValue(-a.d) : EValue(wrap_sub(0, a.i));
}

// executorch_prim::sym_float.Scalar(Scalar a) -> Scalar (a Double)
void sym_float_scalar(KernelRuntimeContext& ctx, Args args) {
  const char* name = "executorch_prim::sym_float.Scalar";
  Num a, unused;
  if (!get_operands(ctx, args, 2, name, &a, &unused)) return;
  *args[1] = EValue(a.as_double());
}

#define PK_PRIM(fn, kind, op, opname) \
  void fn(KernelRuntimeContext& ctx, Args args) { kind(ctx, args, op, "executorch_prim::" opname); }
PK_PRIM(add_scalar, arith, Arith::Add, "add.Scalar")
PK_PRIM(sub_scalar, arith, Arith::Sub, "sub.Scalar")
PK_PRIM(mul_scalar, arith, Arith::Mul, "mul.Scalar")
PK_PRIM(floordiv_scalar, arith, Arith::FloorDiv, "floordiv.Scalar")
PK_PRIM(truediv_scalar, arith, Arith::TrueDiv, "truediv.Scalar")
PK_PRIM(mod_scalar, arith, Arith::Mod, "mod.Scalar")
PK_PRIM(sym_max_scalar, arith, Arith::Max, "sym_max.Scalar")
PK_PRIM(sym_min_scalar, arith, Arith::Min, "sym_min.Scalar")
PK_PRIM(eq_scalar, cmp, Cmp::Eq, "eq.Scalar")
PK_PRIM(gt_scalar, cmp, Cmp::Gt, "gt.Scalar")
PK_PRIM(lt_scalar, cmp, Cmp::Lt, "lt.Scalar")
PK_PRIM(ge_scalar, cmp, Cmp::Ge, "ge.Scalar")
PK_PRIM(le_scalar, cmp, Cmp::Le, "le.Scalar")
PK_PRIM(ceil_scalar, to_int, ToInt::Ceil, "ceil.Scalar")
PK_PRIM(round_scalar, to_int, ToInt::Round, "round.Scalar")
PK_PRIM(trunc_scalar, to_int, ToInt::Trunc, "trunc.Scalar")
#undef PK_PRIM

// floordiv.int / mod.int(int a, int b) -> int: Ints only.
void floordiv_int(KernelRuntimeContext& ctx, Args args) {
  const char* name = "executorch_prim::floordiv.int";
  Num a, b;
  if (!get_operands(ctx, args, 3, name, &a, &b) || !require_ints(ctx, a, b, name)) return;
  arith(ctx, args, Arith::FloorDiv, name);
}
void mod_int(KernelRuntimeContext& ctx, Args args) {
  arith(ctx, args, Arith::Mod, "executorch_prim::mod.int");
}

const Kernel kPrimScalarKernels[] = {
    Kernel("executorch_prim::add.Scalar", add_scalar),
    Kernel("executorch_prim::sub.Scalar", sub_scalar),
    Kernel("executorch_prim::mul.Scalar", mul_scalar),
    Kernel("executorch_prim::floordiv.Scalar", floordiv_scalar),
    Kernel("executorch_prim::truediv.Scalar", truediv_scalar),
    Kernel("executorch_prim::mod.Scalar", mod_scalar),
    Kernel("executorch_prim::floordiv.int", floordiv_int),
    Kernel("executorch_prim::mod.int", mod_int),
    Kernel("executorch_prim::eq.Scalar", eq_scalar),
    Kernel("executorch_prim::gt.Scalar", gt_scalar),
    Kernel("executorch_prim::lt.Scalar", lt_scalar),
    Kernel("executorch_prim::ge.Scalar", ge_scalar),
    Kernel("executorch_prim::le.Scalar", le_scalar),
    Kernel("executorch_prim::neg.Scalar", neg_scalar),
    Kernel("executorch_prim::ceil.Scalar", ceil_scalar),
    Kernel("executorch_prim::round.Scalar", round_scalar),
    Kernel("executorch_prim::trunc.Scalar", trunc_scalar),
    Kernel("executorch_prim::sym_float.Scalar", sym_float_scalar),
    Kernel("executorch_prim::sym_max.Scalar", sym_max_scalar),
    Kernel("executorch_prim::sym_min.Scalar", sym_min_scalar),
};

} // namespace

Span<const Kernel> prim_scalar_kernels() {
  return Span<const Kernel>(kPrimScalarKernels,
                            sizeof(kPrimScalarKernels) / sizeof(kPrimScalarKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
