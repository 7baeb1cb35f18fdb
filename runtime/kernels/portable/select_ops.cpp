// Elementwise selection by a condition: where.self_out (condition ? self :
// other, promoted) and masked_fill.Scalar_out (mask ? value : self). All
// operands broadcast; any dim order.
#include <cstring>

#include "mask.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

bool require_bool_condition(KernelRuntimeContext& ctx, const Tensor& c, const char* name) {
  if (c.scalar_type() != ScalarType::Bool && c.scalar_type() != ScalarType::Byte) {
    PK_FAIL(ctx, name, "the condition must be bool or uint8, got %s", toString(c.scalar_type()));
    return false;
  }
  return true;
}

void where_self_out(KernelRuntimeContext& ctx, Args args) {
  WhereCall call;
  if (prepare_where(ctx, args, &call)) run_where(call);
}

// masked_fill.Scalar_out(self, mask, Scalar value, *, out) -> out
void masked_fill_scalar_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::masked_fill.Scalar_out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  Tensor* mask = self != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  ScalarArg value;
  if (mask == nullptr || !get_scalar(ctx, args, 2, name, &value)) return;
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr || !require_same_dtype(ctx, *self, *out, name)) return;
  if (mask->scalar_type() != ScalarType::Bool) {
    PK_FAIL(ctx, name, "the mask must be bool, got %s", toString(mask->scalar_type()));
    return;
  }
  ElemPlan<3> p;
  const Tensor* ins[2] = {self, mask};
  if (!plan_elementwise(ctx, name, ins, *out, &p)) return;
  const ScalarType t = self->scalar_type();
  const size_t es = elementSizeOrZero(t);
  const char* ip = static_cast<const char*>(self->const_data_ptr());
  const void* mp = mask->const_data_ptr();
  char* op = static_cast<char*>(out->mutable_data_ptr());
  for_each_broadcast<3>(p.shape, p.strides, [&](size_t, const int64_t* o) {
    const size_t at = static_cast<size_t>(o[2]);
    if (load_i(ScalarType::Bool, mp, static_cast<size_t>(o[1])) == 0) {
      std::memcpy(op + at * es, ip + static_cast<size_t>(o[0]) * es, es);
    } else if (value.is_float) {
      store_d(t, op, at, value.d);
    } else {
      store_i(t, op, at, value.i);
    }
  });
}

const Kernel kSelectKernels[] = {
    Kernel("aten::where.self_out", where_self_out),
    Kernel("aten::masked_fill.Scalar_out", masked_fill_scalar_out),
};

} // namespace

// where.self_out(condition, self, other, *, out) -> out
bool prepare_where(KernelRuntimeContext& ctx, Args args, WhereCall* call) {
  const char* name = "aten::where.self_out";
  if (!check_nargs(ctx, args, 5, name)) return false;
  Tensor* c = get_tensor(ctx, args, 0, name);
  Tensor* a = c != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* b = a != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  Tensor* out = b != nullptr ? get_tensor(ctx, args, 3, name) : nullptr;
  if (out == nullptr || !require_bool_condition(ctx, *c, name)) return false;
  const ScalarType common = promoteTypes(a->scalar_type(), b->scalar_type());
  if (!require_can_cast(ctx, common, out->scalar_type(), name)) return false;
  *call = WhereCall{c, a, b, out, common, {}};
  const Tensor* ins[3] = {c, a, b};
  return plan_elementwise(ctx, name, ins, *out, &call->plan);
}

void run_where(const WhereCall& w) {
  const ScalarType ct = w.cond->scalar_type(), ot = w.out->scalar_type();
  const void* cp = w.cond->const_data_ptr();
  const ValueReader ra(*w.a, w.common), rb(*w.b, w.common);
  void* op = w.out->mutable_data_ptr();
  const bool fp = isFloatingType(w.common);
  for_each_broadcast<4>(w.plan.shape, w.plan.strides, [&](size_t, const int64_t* o) {
    const bool cond = load_i(ct, cp, static_cast<size_t>(o[0])) != 0;
    const ValueReader& r = cond ? ra : rb;
    const int64_t at = cond ? o[1] : o[2];
    if (fp) {
      store_d(ot, op, static_cast<size_t>(o[3]), r.d(at));
    } else {
      store_i(ot, op, static_cast<size_t>(o[3]), r.i(at));
    }
  });
}

Span<const Kernel> select_kernels() {
  return Span<const Kernel>(kSelectKernels, sizeof(kSelectKernels) / sizeof(kSelectKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
