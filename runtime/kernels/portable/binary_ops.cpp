// Elementwise binary ops with broadcasting and type promotion: add, sub, mul,
// div (Tensor and Scalar forms) and where.
#include "kernel_util.h"
#include "kernels.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

enum class BinOp { Add, Sub, Mul, Div };

const char* op_name(BinOp op, bool scalar) {
  switch (op) {
    case BinOp::Add: return scalar ? "aten::add.Scalar_out" : "aten::add.out";
    case BinOp::Sub: return scalar ? "aten::sub.Scalar_out" : "aten::sub.out";
    case BinOp::Mul: return scalar ? "aten::mul.Scalar_out" : "aten::mul.out";
    case BinOp::Div: return scalar ? "aten::div.Scalar_out" : "aten::div.out";
  }
  return "?";
}

// The operand "b" of a binary op: a tensor, or a scalar.
struct Operand {
  const Tensor* t = nullptr;
  ScalarArg s;
};

void run_binary(KernelRuntimeContext& ctx, BinOp op, const Tensor& a, const Operand& b,
                const ScalarArg& alpha, Tensor& out, const char* name) {
  ScalarType common;
  if (b.t != nullptr) {
    common = promoteTypes(a.scalar_type(), b.t->scalar_type());
  } else {
    // A scalar only raises the category (bool < integral < floating).
    const ScalarType at = a.scalar_type();
    common = at;
    if (b.s.is_float && !isFloatingType(at)) {
      common = ScalarType::Float;
    } else if (!b.s.is_bool && !b.s.is_float && at == ScalarType::Bool) {
      common = ScalarType::Long;
    }
  }
  if (common == ScalarType::Undefined) {
    PK_FAIL(ctx, name, "cannot promote the operand dtypes");
    return;
  }
  if (op == BinOp::Div && !isFloatingType(common)) {
    common = ScalarType::Float;
  }
  if (op == BinOp::Sub && common == ScalarType::Bool) {
    PK_FAIL(ctx, name, "subtraction of bool tensors is not supported");
    return;
  }
  const ScalarType ot = out.scalar_type();
  if (!canCast(common, ot)) {
    PK_FAIL(ctx, name, "result dtype %s cannot be written to an output of dtype %s",
            toString(common), toString(ot));
    return;
  }
  const bool fp = isFloatingType(common);
  if (!fp && alpha.is_float) {
    PK_FAIL(ctx, name, "a floating alpha needs a floating result dtype");
    return;
  }
  if (common == ScalarType::Bool && !alpha.is_bool && alpha.i != 1) {
    PK_FAIL(ctx, name, "alpha must be a bool for bool tensors");
    return;
  }
  if (!require_contiguous(ctx, a, name) || !require_contiguous(ctx, out, name) ||
      (b.t != nullptr && !require_contiguous(ctx, *b.t, name))) {
    return;
  }

  Shape oshape;
  if (b.t != nullptr) {
    if (!broadcast_shape(a.sizes(), b.t->sizes(), &oshape)) {
      PK_FAIL(ctx, name, "operand shapes do not broadcast");
      return;
    }
  } else {
    oshape = shape_of(a);
  }
  if (!resize_out(ctx, out, oshape, name)) return;

  const ScalarType at = a.scalar_type();
  const void* ap = a.const_data_ptr();
  void* op_ = out.mutable_data_ptr();

  // Fast path: float tensors of one shape.
  if (b.t != nullptr && at == ScalarType::Float && b.t->scalar_type() == ScalarType::Float &&
      ot == ScalarType::Float && a.numel() == out.numel() && b.t->numel() == out.numel() &&
      a.dim() == out.dim() && b.t->dim() == out.dim()) {
    const float* x = static_cast<const float*>(ap);
    const float* y = b.t->const_data_ptr<float>();
    float* z = static_cast<float*>(op_);
    const size_t n = static_cast<size_t>(out.numel());
    const double al = alpha.d;
    switch (op) {
      case BinOp::Add:
        for (size_t i = 0; i < n; ++i)
          z[i] = al == 1.0 ? x[i] + y[i] : static_cast<float>(x[i] + al * y[i]);
        return;
      case BinOp::Sub:
        for (size_t i = 0; i < n; ++i)
          z[i] = al == 1.0 ? x[i] - y[i] : static_cast<float>(x[i] - al * y[i]);
        return;
      case BinOp::Mul:
        for (size_t i = 0; i < n; ++i) z[i] = x[i] * y[i];
        return;
      case BinOp::Div:
        for (size_t i = 0; i < n; ++i) z[i] = x[i] / y[i];
        return;
    }
  }

  int64_t strides[2][kMaxDim] = {};
  broadcast_strides(a.sizes(), oshape, strides[0]);
  const ScalarType bt = b.t != nullptr ? b.t->scalar_type() : ScalarType::Undefined;
  const void* bp = nullptr;
  if (b.t != nullptr) {
    broadcast_strides(b.t->sizes(), oshape, strides[1]);
    bp = b.t->const_data_ptr();
  }

  if (fp) {
    // Values of the common dtype: float results are rounded to it first.
    auto round_common = [common](double v) -> double {
      switch (common) {
        case ScalarType::Float: return static_cast<float>(v);
        case ScalarType::Half: return float(Half(static_cast<float>(v)));
        case ScalarType::BFloat16: return float(BFloat16(static_cast<float>(v)));
        default: return v;
      }
    };
    const double bs = round_common(b.s.d);
    const double al = alpha.d;
    for_each_broadcast<2>(oshape, strides, [&](size_t i, const int64_t* off) {
      const double x = load_d(at, ap, static_cast<size_t>(off[0]));
      const double y = bp != nullptr ? load_d(bt, bp, static_cast<size_t>(off[1])) : bs;
      double r = 0;
      switch (op) {
        case BinOp::Add: r = x + al * y; break;
        case BinOp::Sub: r = x - al * y; break;
        case BinOp::Mul: r = x * y; break;
        case BinOp::Div: r = x / y; break;
      }
      store_d(ot, op_, i, round_common(r));
    });
  } else {
    const int64_t bs = b.s.i;
    const int64_t al = alpha.i;
    const bool is_bool = common == ScalarType::Bool;
    for_each_broadcast<2>(oshape, strides, [&](size_t i, const int64_t* off) {
      const int64_t x = load_i(at, ap, static_cast<size_t>(off[0]));
      const int64_t y = bp != nullptr ? load_i(bt, bp, static_cast<size_t>(off[1])) : bs;
      int64_t r = 0;
      switch (op) {
        case BinOp::Add: r = is_bool ? ((x != 0) || (al != 0 && y != 0)) : wrap_add(x, wrap_mul(al, y)); break;
        case BinOp::Sub: r = wrap_sub(x, wrap_mul(al, y)); break;
        case BinOp::Mul: r = is_bool ? ((x != 0) && (y != 0)) : wrap_mul(x, y); break;
        case BinOp::Div: break;  // always floating
      }
      // Narrow to the common dtype first (wrap like the C type would).
      switch (common) {
        case ScalarType::Byte: r = static_cast<uint8_t>(r); break;
        case ScalarType::Char: r = static_cast<int8_t>(r); break;
        case ScalarType::Short: r = static_cast<int16_t>(r); break;
        case ScalarType::Int: r = static_cast<int32_t>(r); break;
        default: break;
      }
      store_i(ot, op_, i, r);
    });
  }
}

// add/sub.out(self, other, *, alpha, out) -> out
void tensor_op_alpha(KernelRuntimeContext& ctx, Args args, BinOp op) {
  const char* name = op_name(op, false);
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* a = get_tensor(ctx, args, 0, name);
  if (a == nullptr) return;
  Operand b;
  b.t = get_tensor(ctx, args, 1, name);
  if (b.t == nullptr) return;
  ScalarArg alpha;
  if (!get_scalar(ctx, args, 2, name, &alpha)) return;
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  run_binary(ctx, op, *a, b, alpha, *out, name);
}

// add/sub.Scalar_out(self, other, alpha, *, out) -> out
void scalar_op_alpha(KernelRuntimeContext& ctx, Args args, BinOp op) {
  const char* name = op_name(op, true);
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* a = get_tensor(ctx, args, 0, name);
  if (a == nullptr) return;
  Operand b;
  if (!get_scalar(ctx, args, 1, name, &b.s)) return;
  ScalarArg alpha;
  if (!get_scalar(ctx, args, 2, name, &alpha)) return;
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  run_binary(ctx, op, *a, b, alpha, *out, name);
}

// mul/div.out(self, other, *, out) -> out
void tensor_op(KernelRuntimeContext& ctx, Args args, BinOp op) {
  const char* name = op_name(op, false);
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* a = get_tensor(ctx, args, 0, name);
  if (a == nullptr) return;
  Operand b;
  b.t = get_tensor(ctx, args, 1, name);
  if (b.t == nullptr) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr) return;
  ScalarArg one;
  one.i = 1;
  one.d = 1.0;
  run_binary(ctx, op, *a, b, one, *out, name);
}

// mul/div.Scalar_out(self, other, *, out) -> out
void scalar_op(KernelRuntimeContext& ctx, Args args, BinOp op) {
  const char* name = op_name(op, true);
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* a = get_tensor(ctx, args, 0, name);
  if (a == nullptr) return;
  Operand b;
  if (!get_scalar(ctx, args, 1, name, &b.s)) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr) return;
  ScalarArg one;
  one.i = 1;
  one.d = 1.0;
  run_binary(ctx, op, *a, b, one, *out, name);
}

} // namespace

void add_out(KernelRuntimeContext& ctx, Args args) { tensor_op_alpha(ctx, args, BinOp::Add); }
void add_scalar_out(KernelRuntimeContext& ctx, Args args) { scalar_op_alpha(ctx, args, BinOp::Add); }
void sub_out(KernelRuntimeContext& ctx, Args args) { tensor_op_alpha(ctx, args, BinOp::Sub); }
void sub_scalar_out(KernelRuntimeContext& ctx, Args args) { scalar_op_alpha(ctx, args, BinOp::Sub); }
void mul_out(KernelRuntimeContext& ctx, Args args) { tensor_op(ctx, args, BinOp::Mul); }
void mul_scalar_out(KernelRuntimeContext& ctx, Args args) { scalar_op(ctx, args, BinOp::Mul); }
void div_out(KernelRuntimeContext& ctx, Args args) { tensor_op(ctx, args, BinOp::Div); }
void div_scalar_out(KernelRuntimeContext& ctx, Args args) { scalar_op(ctx, args, BinOp::Div); }

// where.self_out(condition, self, other, *, out) -> out
void where_self_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::where.self_out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* c = get_tensor(ctx, args, 0, name);
  if (c == nullptr) return;
  Tensor* a = get_tensor(ctx, args, 1, name);
  if (a == nullptr) return;
  Tensor* b = get_tensor(ctx, args, 2, name);
  if (b == nullptr) return;
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  if (c->scalar_type() != ScalarType::Bool && c->scalar_type() != ScalarType::Byte) {
    PK_FAIL(ctx, name, "condition must be bool or uint8, got %s", toString(c->scalar_type()));
    return;
  }
  const ScalarType common = promoteTypes(a->scalar_type(), b->scalar_type());
  if (common == ScalarType::Undefined || !canCast(common, out->scalar_type())) {
    PK_FAIL(ctx, name, "cannot write the promoted dtype to an output of dtype %s",
            toString(out->scalar_type()));
    return;
  }
  if (!require_contiguous(ctx, *c, name) || !require_contiguous(ctx, *a, name) ||
      !require_contiguous(ctx, *b, name) || !require_contiguous(ctx, *out, name)) {
    return;
  }
  Shape s1, oshape;
  if (!broadcast_shape(c->sizes(), a->sizes(), &s1) ||
      !broadcast_shape(s1.ref(), b->sizes(), &oshape)) {
    PK_FAIL(ctx, name, "operand shapes do not broadcast");
    return;
  }
  if (!resize_out(ctx, *out, oshape, name)) return;
  int64_t strides[3][kMaxDim] = {};
  broadcast_strides(c->sizes(), oshape, strides[0]);
  broadcast_strides(a->sizes(), oshape, strides[1]);
  broadcast_strides(b->sizes(), oshape, strides[2]);
  const ScalarType ct = c->scalar_type(), at = a->scalar_type(), bt = b->scalar_type(),
                   ot = out->scalar_type();
  const void* cp = c->const_data_ptr();
  const void* ap = a->const_data_ptr();
  const void* bp = b->const_data_ptr();
  void* op_ = out->mutable_data_ptr();
  const bool fp = isFloatingType(common);
  for_each_broadcast<3>(oshape, strides, [&](size_t i, const int64_t* off) {
    const bool cond = load_i(ct, cp, static_cast<size_t>(off[0])) != 0;
    if (fp) {
      store_d(ot, op_, i, cond ? load_d(at, ap, static_cast<size_t>(off[1]))
                               : load_d(bt, bp, static_cast<size_t>(off[2])));
    } else {
      store_i(ot, op_, i, cond ? load_i(at, ap, static_cast<size_t>(off[1]))
                               : load_i(bt, bp, static_cast<size_t>(off[2])));
    }
  });
}

} // namespace portable
} // namespace runtime
} // namespace executorch
