// Logical ops: logical_not, logical_and, logical_or, logical_xor. Inputs of
// any dtype are read as truth values (non-zero, NaN included, is true); the
// result (0 or 1) is written to an out of any dtype.
#include "mask.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

bool truth(ScalarType t, const void* p, int64_t off) {
  if (isFloatingType(t)) return load_d(t, p, static_cast<size_t>(off)) != 0.0;
  return load_i(t, p, static_cast<size_t>(off)) != 0;
}

void logical_not_out(KernelRuntimeContext& ctx, Args args) {
  LogicalNotCall call;
  if (prepare_logical_not(ctx, args, &call)) run_logical_not(call);
}

enum class Logic { And, Or, Xor };

// logical_<op>.out(self, other, *, out) -> out
void logical_binary(KernelRuntimeContext& ctx, Args args, const char* name, Logic l) {
  Tensor *self, *out;
  BinaryOperand other;
  if (!get_binary_args(ctx, args, name, false, &self, &other, &out)) return;
  const ScalarType at = self->scalar_type(), bt = other.t->scalar_type(), ot = out->scalar_type();
  const void* ap = self->const_data_ptr();
  const void* bp = other.t->const_data_ptr();
  void* op = out->mutable_data_ptr();
  for_each_binary(ctx, name, *self, other, *out, [&](int64_t x, int64_t y, int64_t o) {
    const bool a = truth(at, ap, x), b = truth(bt, bp, y);
    const bool r = l == Logic::And ? (a && b) : l == Logic::Or ? (a || b) : (a != b);
    store_i(ot, op, static_cast<size_t>(o), r ? 1 : 0);
  });
}

void logical_and_out(KernelRuntimeContext& ctx, Args args) {
  logical_binary(ctx, args, "aten::logical_and.out", Logic::And);
}
void logical_or_out(KernelRuntimeContext& ctx, Args args) {
  logical_binary(ctx, args, "aten::logical_or.out", Logic::Or);
}
void logical_xor_out(KernelRuntimeContext& ctx, Args args) {
  logical_binary(ctx, args, "aten::logical_xor.out", Logic::Xor);
}

const Kernel kLogicalKernels[] = {
    Kernel("aten::logical_not.out", logical_not_out),
    Kernel("aten::logical_and.out", logical_and_out),
    Kernel("aten::logical_or.out", logical_or_out),
    Kernel("aten::logical_xor.out", logical_xor_out),
};

} // namespace

// logical_not.out(self, *, out) -> out
bool prepare_logical_not(KernelRuntimeContext& ctx, Args args, LogicalNotCall* call) {
  const char* name = "aten::logical_not.out";
  if (!check_nargs(ctx, args, 3, name)) return false;
  call->self = get_tensor(ctx, args, 0, name);
  if (call->self == nullptr) return false;
  call->out = get_tensor(ctx, args, 1, name);
  if (call->out == nullptr) return false;
  const Tensor* ins[1] = {call->self};
  return plan_elementwise(ctx, name, ins, *call->out, &call->plan);
}

void run_logical_not(const LogicalNotCall& c) {
  const ScalarType it = c.self->scalar_type(), ot = c.out->scalar_type();
  const void* ip = c.self->const_data_ptr();
  void* op = c.out->mutable_data_ptr();
  for_each_broadcast<2>(c.plan.shape, c.plan.strides, [&](size_t, const int64_t* o) {
    store_i(ot, op, static_cast<size_t>(o[1]), truth(it, ip, o[0]) ? 0 : 1);
  });
}

Span<const Kernel> logical_kernels() {
  return Span<const Kernel>(kLogicalKernels, sizeof(kLogicalKernels) / sizeof(kLogicalKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
