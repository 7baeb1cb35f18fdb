// add, sub, mul and div (Tensor and Scalar forms) as a checked call
// description: the portable and the optimized kernels share the argument
// checking (prepare_binary) and differ only in how they compute it.
#pragma once

#include "elementwise_util.h"

namespace executorch {
namespace runtime {
namespace portable {

enum class BinOp { Add, Sub, Mul, Div };

// out = a (op) alpha * b over out's (broadcast) shape, values computed in
// `common` (add/sub scale b by alpha.d in double; mul/div have alpha 1).
// plan.strides[0..2] are a's, b's (all 0 for a scalar b) and out's element
// strides; out is already resized.
struct BinaryCall {
  BinOp op = BinOp::Add;
  const char* name = nullptr;
  const Tensor* a = nullptr;
  BinaryOperand b;
  ScalarArg alpha;
  ScalarType common = ScalarType::Undefined;
  Tensor* out = nullptr;
  ElemPlan<3> plan;
};

// Reads and checks op.out / op.Scalar_out (scalar_other), resizes out and
// fills *call; false (after failing ctx) when the arguments are wrong.
bool prepare_binary(KernelRuntimeContext& ctx, Args args, BinOp op, bool scalar_other,
                    BinaryCall* call);

// The reference computation.
void run_binary(const BinaryCall& call);

} // namespace portable
} // namespace runtime
} // namespace executorch
