// Comparison ops: eq, ne, lt, le, gt, ge, each as Tensor_out (broadcast)
// and Scalar_out. Operands are compared in their promoted dtype; the result
// (0 or 1) is written to an out of any dtype.
#include "mask.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

template <typename T>
bool compare(Cmp c, T a, T b) {
  switch (c) {
    case Cmp::Eq:
      return a == b;
    case Cmp::Ne:
      return a != b;
    case Cmp::Lt:
      return a < b;
    case Cmp::Le:
      return a <= b;
    case Cmp::Gt:
      return a > b;
    case Cmp::Ge:
      return a >= b;
  }
  return false;
}

void comparison_op(KernelRuntimeContext& ctx, Args args, const char* name, Cmp c,
                   bool scalar_other) {
  CompareCall call;
  if (prepare_comparison(ctx, args, name, c, scalar_other, &call)) run_comparison(call);
}

PK_TENSOR_AND_SCALAR_OUT(eq, comparison_op, Cmp::Eq, "eq")
PK_TENSOR_AND_SCALAR_OUT(ne, comparison_op, Cmp::Ne, "ne")
PK_TENSOR_AND_SCALAR_OUT(lt, comparison_op, Cmp::Lt, "lt")
PK_TENSOR_AND_SCALAR_OUT(le, comparison_op, Cmp::Le, "le")
PK_TENSOR_AND_SCALAR_OUT(gt, comparison_op, Cmp::Gt, "gt")
PK_TENSOR_AND_SCALAR_OUT(ge, comparison_op, Cmp::Ge, "ge")

const Kernel kComparisonKernels[] = {
    Kernel("aten::eq.Tensor_out", eq_tensor_out), Kernel("aten::eq.Scalar_out", eq_scalar_out),
    Kernel("aten::ne.Tensor_out", ne_tensor_out), Kernel("aten::ne.Scalar_out", ne_scalar_out),
    Kernel("aten::lt.Tensor_out", lt_tensor_out), Kernel("aten::lt.Scalar_out", lt_scalar_out),
    Kernel("aten::le.Tensor_out", le_tensor_out), Kernel("aten::le.Scalar_out", le_scalar_out),
    Kernel("aten::gt.Tensor_out", gt_tensor_out), Kernel("aten::gt.Scalar_out", gt_scalar_out),
    Kernel("aten::ge.Tensor_out", ge_tensor_out), Kernel("aten::ge.Scalar_out", ge_scalar_out),
};

} // namespace

bool plan_with_operand(KernelRuntimeContext& ctx, const char* name, const Tensor& a,
                       const BinaryOperand& b, Tensor& out, ElemPlan<3>* plan) {
  if (b.t != nullptr) {
    const Tensor* ins[2] = {&a, b.t};
    return plan_elementwise(ctx, name, ins, out, plan);
  }
  ElemPlan<2> p;
  const Tensor* ins[1] = {&a};
  if (!plan_elementwise(ctx, name, ins, out, &p)) return false;
  plan->shape = p.shape;
  for (int d = 0; d < kMaxDim; ++d) {
    plan->strides[0][d] = p.strides[0][d];
    plan->strides[1][d] = 0;
    plan->strides[2][d] = p.strides[1][d];
  }
  return true;
}

// op(self, other, *, out) -> out, other a tensor or a Scalar.
bool prepare_comparison(KernelRuntimeContext& ctx, Args args, const char* name, Cmp cmp,
                        bool scalar_other, CompareCall* call) {
  Tensor *self, *out;
  call->cmp = cmp;
  if (!get_binary_args(ctx, args, name, scalar_other, &self, &call->b, &out)) return false;
  call->a = self;
  call->out = out;
  call->common = binary_result_type(*self, call->b);
  if (call->common == ScalarType::Undefined) {
    PK_FAIL(ctx, name, "the operand dtypes do not promote");
    return false;
  }
  return plan_with_operand(ctx, name, *self, call->b, *out, &call->plan);
}

void run_comparison(const CompareCall& c) {
  const ValueReader a(*c.a, c.common);
  const ValueReader b = operand_reader(c.b, c.common);
  const ScalarType ot = c.out->scalar_type();
  void* op = c.out->mutable_data_ptr();
  const Cmp cmp = c.cmp;
  if (isFloatingType(c.common)) {
    for_each_broadcast<3>(c.plan.shape, c.plan.strides, [&](size_t, const int64_t* o) {
      store_i(ot, op, static_cast<size_t>(o[2]), compare(cmp, a.d(o[0]), b.d(o[1])) ? 1 : 0);
    });
  } else {
    for_each_broadcast<3>(c.plan.shape, c.plan.strides, [&](size_t, const int64_t* o) {
      store_i(ot, op, static_cast<size_t>(o[2]), compare(cmp, a.i(o[0]), b.i(o[1])) ? 1 : 0);
    });
  }
}

Span<const Kernel> comparison_kernels() {
  return Span<const Kernel>(kComparisonKernels,
                            sizeof(kComparisonKernels) / sizeof(kComparisonKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
