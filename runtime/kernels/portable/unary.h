// The elementwise unary ops the optimized kernels also serve (relu, gelu,
// sigmoid, tanh, silu, clamp, hardtanh, exp, sqrt, rsqrt, neg) as checked
// call descriptions: prepare_* reads and checks an op's arguments, resizes
// out to self's shape and fills a UnaryCall (false after failing ctx when
// the arguments are wrong); run_* is the reference computation.
#pragma once

#include "elementwise_util.h"

namespace executorch {
namespace runtime {
namespace portable {

struct UnaryCall {
  const char* name = nullptr;
  const Tensor* in = nullptr;
  Tensor* out = nullptr;
  // clamp/hardtanh: the dtype compared in and the bounds (when given).
  ScalarType common = ScalarType::Undefined;
  bool has_lo = false, has_hi = false;
  ScalarArg lo, hi;
  // gelu: approximate="tanh" (else "none", the erf form).
  bool tanh_approx = false;
};

bool prepare_relu(KernelRuntimeContext& ctx, Args args, UnaryCall* call);
void run_relu(const UnaryCall& call);

bool prepare_gelu(KernelRuntimeContext& ctx, Args args, UnaryCall* call);
void run_gelu(const UnaryCall& call);

bool prepare_sigmoid(KernelRuntimeContext& ctx, Args args, UnaryCall* call);
void run_sigmoid(const UnaryCall& call);

bool prepare_tanh(KernelRuntimeContext& ctx, Args args, UnaryCall* call);
void run_tanh(const UnaryCall& call);

bool prepare_silu(KernelRuntimeContext& ctx, Args args, UnaryCall* call);
void run_silu(const UnaryCall& call);

// clamp.out and hardtanh.out share run_clamp.
bool prepare_clamp(KernelRuntimeContext& ctx, Args args, UnaryCall* call);
bool prepare_hardtanh(KernelRuntimeContext& ctx, Args args, UnaryCall* call);
void run_clamp(const UnaryCall& call);

// op.out(self, *, out) of a floating out (any input dtype), as name.
bool prepare_to_float_unary(KernelRuntimeContext& ctx, Args args, const char* name,
                            UnaryCall* call);
void run_exp(const UnaryCall& call);
void run_sqrt(const UnaryCall& call);
void run_rsqrt(const UnaryCall& call);

// op.out(self, *, out) of out's dtype equal to self's, as name.
bool prepare_same_dtype_unary(KernelRuntimeContext& ctx, Args args, const char* name,
                              bool allow_bool, UnaryCall* call);
void run_neg(const UnaryCall& call);

} // namespace portable
} // namespace runtime
} // namespace executorch
