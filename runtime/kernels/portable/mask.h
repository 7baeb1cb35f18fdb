// The mask family (where, comparisons, logical_not, pow.Tensor_Scalar) as
// checked call descriptions: the portable and the optimized kernels share
// the argument checking (prepare_*) and differ only in how they compute.
// Every prepare_* reads and checks the arguments, resizes out and fills
// *call; it returns false (after failing ctx) when the arguments are wrong.
#pragma once

#include "elementwise_util.h"

namespace executorch {
namespace runtime {
namespace portable {

// Plans a (op) b into out as three operands: a scalar b gets zero strides.
bool plan_with_operand(KernelRuntimeContext& ctx, const char* name, const Tensor& a,
                       const BinaryOperand& b, Tensor& out, ElemPlan<3>* plan);

// where.self_out: out = cond ? a : b, values in `common`; plan.strides are
// cond's, a's, b's and out's.
struct WhereCall {
  const Tensor* cond = nullptr;
  const Tensor* a = nullptr;
  const Tensor* b = nullptr;
  Tensor* out = nullptr;
  ScalarType common = ScalarType::Undefined;
  ElemPlan<4> plan;
};
bool prepare_where(KernelRuntimeContext& ctx, Args args, WhereCall* call);
void run_where(const WhereCall& call);

enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };

// <cmp>.Tensor_out / .Scalar_out: out = a (cmp) b as 0 or 1, compared in
// `common`; out may have any dtype.
struct CompareCall {
  Cmp cmp = Cmp::Eq;
  const Tensor* a = nullptr;
  BinaryOperand b;
  ScalarType common = ScalarType::Undefined;
  Tensor* out = nullptr;
  ElemPlan<3> plan;
};
bool prepare_comparison(KernelRuntimeContext& ctx, Args args, const char* name, Cmp cmp,
                        bool scalar_other, CompareCall* call);
void run_comparison(const CompareCall& call);

// logical_not.out: out = !truth(self) as 0 or 1 into an out of any dtype.
struct LogicalNotCall {
  const Tensor* self = nullptr;
  Tensor* out = nullptr;
  ElemPlan<2> plan;
};
bool prepare_logical_not(KernelRuntimeContext& ctx, Args args, LogicalNotCall* call);
void run_logical_not(const LogicalNotCall& call);

// pow.Tensor_Scalar_out: out = self ** exponent computed in `common`
// (floating: std::pow in double, rounded to common).
struct PowScalarCall {
  const Tensor* self = nullptr;
  BinaryOperand exponent;
  ScalarType common = ScalarType::Undefined;
  Tensor* out = nullptr;
  ElemPlan<3> plan;
};
bool prepare_pow_tensor_scalar(KernelRuntimeContext& ctx, Args args, PowScalarCall* call);
void run_pow_tensor_scalar(const PowScalarCall& call);

} // namespace portable
} // namespace runtime
} // namespace executorch
