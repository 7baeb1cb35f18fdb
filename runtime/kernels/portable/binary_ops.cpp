// Elementwise arithmetic with broadcasting (any dim order) and type
// promotion: add, sub, mul, div (Tensor and Scalar forms).
#include "binary.h"
#include "kernels.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

const char* op_name(BinOp op, bool scalar) {
  switch (op) {
    case BinOp::Add:
      return scalar ? "aten::add.Scalar_out" : "aten::add.out";
    case BinOp::Sub:
      return scalar ? "aten::sub.Scalar_out" : "aten::sub.out";
    case BinOp::Mul:
      return scalar ? "aten::mul.Scalar_out" : "aten::mul.out";
    case BinOp::Div:
      return scalar ? "aten::div.Scalar_out" : "aten::div.out";
  }
  return "?";
}

using Operand = BinaryOperand;

// The dtype add/sub/mul/div compute in; Undefined (context failed) when
// the operands cannot be combined.
ScalarType compute_type(KernelRuntimeContext& ctx, BinOp op, const Tensor& a, const Operand& b,
                        const ScalarArg& alpha, const char* name) {
  ScalarType common = binary_result_type(a, b);
  if (common == ScalarType::Undefined) {
    PK_FAIL(ctx, name, "cannot promote the operand dtypes");
    return common;
  }
  if (op == BinOp::Div && !isFloatingType(common)) common = ScalarType::Float;
  if (op == BinOp::Sub && common == ScalarType::Bool) {
    PK_FAIL(ctx, name, "subtraction of bool tensors is not supported");
    return ScalarType::Undefined;
  }
  if (!isFloatingType(common) && alpha.is_float) {
    PK_FAIL(ctx, name, "a floating alpha needs a floating result dtype");
    return ScalarType::Undefined;
  }
  if (common == ScalarType::Bool && !alpha.is_bool && alpha.i != 1) {
    PK_FAIL(ctx, name, "alpha must be a bool for bool tensors");
    return ScalarType::Undefined;
  }
  return common;
}

// Fast path: contiguous float32 tensors of one shape. False when it does
// not apply.
bool float_same_shape(BinOp op, const Tensor& a, const Operand& b, double al, Tensor& out) {
  if (b.t == nullptr || a.scalar_type() != ScalarType::Float ||
      b.t->scalar_type() != ScalarType::Float || out.scalar_type() != ScalarType::Float ||
      a.dim() != b.t->dim() || !is_default_dim_order(a) || !is_default_dim_order(*b.t) ||
      !is_default_dim_order(out)) {
    return false;
  }
  for (ssize_t d = 0; d < a.dim(); ++d) {
    if (a.size(d) != b.t->size(d)) return false;
  }
  const float* x = a.const_data_ptr<float>();
  const float* y = b.t->const_data_ptr<float>();
  float* z = out.mutable_data_ptr<float>();
  const size_t n = static_cast<size_t>(out.numel());
  switch (op) {
    case BinOp::Add:
      for (size_t i = 0; i < n; ++i)
        z[i] = al == 1.0 ? x[i] + y[i] : static_cast<float>(x[i] + al * y[i]);
      break;
    case BinOp::Sub:
      for (size_t i = 0; i < n; ++i)
        z[i] = al == 1.0 ? x[i] - y[i] : static_cast<float>(x[i] - al * y[i]);
      break;
    case BinOp::Mul:
      for (size_t i = 0; i < n; ++i) z[i] = x[i] * y[i];
      break;
    case BinOp::Div:
      for (size_t i = 0; i < n; ++i) z[i] = x[i] / y[i];
      break;
  }
  return true;
}

double apply_d(BinOp op, double x, double y, double al) {
  switch (op) {
    case BinOp::Add:
      return x + al * y;
    case BinOp::Sub:
      return x - al * y;
    case BinOp::Mul:
      return x * y;
    case BinOp::Div:
      return x / y;
  }
  return 0;
}

int64_t apply_i(BinOp op, int64_t x, int64_t y, int64_t al, bool is_bool) {
  switch (op) {
    case BinOp::Add:
      return is_bool ? ((x != 0) || (al != 0 && y != 0)) : wrap_add(x, wrap_mul(al, y));
    case BinOp::Sub:
      return wrap_sub(x, wrap_mul(al, y));
    case BinOp::Mul:
      return is_bool ? ((x != 0) && (y != 0)) : wrap_mul(x, y);
    case BinOp::Div:
      break; // always floating
  }
  return 0;
}

// add/sub.out(self, other, *, alpha, out) -> out, and with scalar_other
// add/sub.Scalar_out(self, other, alpha, *, out) -> out
bool read_alpha_args(KernelRuntimeContext& ctx, Args args, bool scalar_other, BinaryCall* c) {
  if (!check_nargs(ctx, args, 5, c->name)) return false;
  Tensor* a = get_tensor(ctx, args, 0, c->name);
  if (a == nullptr) return false;
  c->a = a;
  if (scalar_other) {
    if (!get_scalar(ctx, args, 1, c->name, &c->b.s)) return false;
  } else {
    c->b.t = get_tensor(ctx, args, 1, c->name);
    if (c->b.t == nullptr) return false;
  }
  if (!get_scalar(ctx, args, 2, c->name, &c->alpha)) return false;
  c->out = get_tensor(ctx, args, 3, c->name);
  return c->out != nullptr;
}

// mul/div.out(self, other, *, out) -> out, and with scalar_other
// mul/div.Scalar_out(self, other, *, out) -> out
bool read_plain_args(KernelRuntimeContext& ctx, Args args, bool scalar_other, BinaryCall* c) {
  Tensor* a;
  if (!get_binary_args(ctx, args, c->name, scalar_other, &a, &c->b, &c->out)) return false;
  c->a = a;
  c->alpha.i = 1;
  c->alpha.d = 1.0;
  return true;
}

// Plans a (op) b into out: a scalar b gets zero strides.
bool plan_binary(KernelRuntimeContext& ctx, BinaryCall* c) {
  if (c->b.t != nullptr) {
    const Tensor* ins[2] = {c->a, c->b.t};
    return plan_elementwise(ctx, c->name, ins, *c->out, &c->plan);
  }
  ElemPlan<2> p;
  const Tensor* ins[1] = {c->a};
  if (!plan_elementwise(ctx, c->name, ins, *c->out, &p)) return false;
  c->plan.shape = p.shape;
  for (int d = 0; d < kMaxDim; ++d) {
    c->plan.strides[0][d] = p.strides[0][d];
    c->plan.strides[1][d] = 0;
    c->plan.strides[2][d] = p.strides[1][d];
  }
  return true;
}

void binary_op(KernelRuntimeContext& ctx, Args args, BinOp op, bool scalar_other) {
  BinaryCall call;
  if (prepare_binary(ctx, args, op, scalar_other, &call)) run_binary(call);
}

} // namespace

bool prepare_binary(KernelRuntimeContext& ctx, Args args, BinOp op, bool scalar_other,
                    BinaryCall* call) {
  call->op = op;
  call->name = op_name(op, scalar_other);
  const bool has_alpha = op == BinOp::Add || op == BinOp::Sub;
  if (!(has_alpha ? read_alpha_args : read_plain_args)(ctx, args, scalar_other, call)) return false;
  call->common = compute_type(ctx, op, *call->a, call->b, call->alpha, call->name);
  return call->common != ScalarType::Undefined &&
         require_can_cast(ctx, call->common, call->out->scalar_type(), call->name) &&
         plan_binary(ctx, call);
}

// out = a (op) alpha * b with broadcasting, in any dim order; values are
// computed in the promoted dtype (float results rounded to it first).
void run_binary(const BinaryCall& c) {
  const BinOp op = c.op;
  const ScalarType common = c.common;
  const ScalarArg& alpha = c.alpha;
  if (float_same_shape(op, *c.a, c.b, alpha.d, *c.out)) return;
  const ValueReader ra(*c.a, common);
  const ValueReader rb = operand_reader(c.b, common);
  const ScalarType ot = c.out->scalar_type();
  void* op_ = c.out->mutable_data_ptr();
  if (isFloatingType(common)) {
    for_each_broadcast<3>(c.plan.shape, c.plan.strides, [&](size_t, const int64_t* o) {
      const double r = apply_d(op, ra.d(o[0]), rb.d(o[1]), alpha.d);
      store_d(ot, op_, static_cast<size_t>(o[2]), round_to(common, r));
    });
    return;
  }
  const bool is_bool = common == ScalarType::Bool;
  for_each_broadcast<3>(c.plan.shape, c.plan.strides, [&](size_t, const int64_t* o) {
    const int64_t r = apply_i(op, ra.i(o[0]), rb.i(o[1]), alpha.i, is_bool);
    store_i(ot, op_, static_cast<size_t>(o[2]), wrap_to(common, r));
  });
}

void add_out(KernelRuntimeContext& ctx, Args args) { binary_op(ctx, args, BinOp::Add, false); }
void add_scalar_out(KernelRuntimeContext& ctx, Args args) {
  binary_op(ctx, args, BinOp::Add, true);
}
void sub_out(KernelRuntimeContext& ctx, Args args) { binary_op(ctx, args, BinOp::Sub, false); }
void sub_scalar_out(KernelRuntimeContext& ctx, Args args) {
  binary_op(ctx, args, BinOp::Sub, true);
}
void mul_out(KernelRuntimeContext& ctx, Args args) { binary_op(ctx, args, BinOp::Mul, false); }
void mul_scalar_out(KernelRuntimeContext& ctx, Args args) {
  binary_op(ctx, args, BinOp::Mul, true);
}
void div_out(KernelRuntimeContext& ctx, Args args) { binary_op(ctx, args, BinOp::Div, false); }
void div_scalar_out(KernelRuntimeContext& ctx, Args args) {
  binary_op(ctx, args, BinOp::Div, true);
}

} // namespace portable
} // namespace runtime
} // namespace executorch
