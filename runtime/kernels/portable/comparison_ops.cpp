// Comparison ops: eq, ne, lt, le, gt, ge, each as Tensor_out (broadcast)
// and Scalar_out. Operands are compared in their promoted dtype; the result
// (0 or 1) is written to an out of any dtype.
#include "elementwise_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };

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

// op(self, other, *, out) -> out, other a tensor or a Scalar.
void comparison_op(KernelRuntimeContext& ctx, Args args, const char* name, Cmp c,
                   bool scalar_other) {
  Tensor *self, *out;
  BinaryOperand other;
  if (!get_binary_args(ctx, args, name, scalar_other, &self, &other, &out)) return;
  const ScalarType common = binary_result_type(*self, other);
  if (common == ScalarType::Undefined) {
    PK_FAIL(ctx, name, "the operand dtypes do not promote");
    return;
  }
  const ValueReader a(*self, common);
  const ValueReader b = operand_reader(other, common);
  const ScalarType ot = out->scalar_type();
  void* op = out->mutable_data_ptr();
  if (isFloatingType(common)) {
    for_each_binary(ctx, name, *self, other, *out, [&](int64_t x, int64_t y, int64_t o) {
      store_i(ot, op, static_cast<size_t>(o), compare(c, a.d(x), b.d(y)) ? 1 : 0);
    });
  } else {
    for_each_binary(ctx, name, *self, other, *out, [&](int64_t x, int64_t y, int64_t o) {
      store_i(ot, op, static_cast<size_t>(o), compare(c, a.i(x), b.i(y)) ? 1 : 0);
    });
  }
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

Span<const Kernel> comparison_kernels() {
  return Span<const Kernel>(kComparisonKernels,
                            sizeof(kComparisonKernels) / sizeof(kComparisonKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
