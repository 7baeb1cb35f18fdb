// add, sub, mul and div in fp32: the portable kernels check the arguments
// (prepare_binary); here every operand that reads as a "window" of out's
// positions (same shape, scalar, suffix or inner-dim broadcast) runs through
// flat loops, and everything else (other dtypes, promotion, strided
// operands) through the portable computation.
#include "../../portable/binary.h"
#include "../parallel.h"
#include "../simd.h"
#include "ew_kernels.h"
#include "window.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

using portable::BinaryCall;
using portable::BinOp;

enum class Kind { Add, Sub, AddScaled, Mul, Div };

// AddScaled is x + alpha * y in double, as the portable kernel rounds it.
ET_SIMD_CLONES void binary_run(Kind kind, const float* a, bool a_s, const float* b, bool b_s,
                               double alpha, float* o, int64_t n) {
  switch (kind) {
    case Kind::Add:
      ET_OPERAND_LOOPS(float, x + y)
      break;
    case Kind::Sub:
      ET_OPERAND_LOOPS(float, x - y)
      break;
    case Kind::AddScaled:
      ET_OPERAND_LOOPS(float,
                       static_cast<float>(static_cast<double>(x) + alpha * static_cast<double>(y)))
      break;
    case Kind::Mul:
      ET_OPERAND_LOOPS(float, x* y)
      break;
    case Kind::Div:
      ET_OPERAND_LOOPS(float, x / y)
      break;
  }
}

void binary_range(Kind kind, const Window<float>& wa, const Window<float>& wb, double alpha,
                  float* out, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end;) {
    const float *pa, *pb;
    bool sa, sb;
    int64_t len = run_of(wa, i, end - i, &pa, &sa);
    len = run_of(wb, i, len, &pb, &sb);
    binary_run(kind, pa, sa, pb, sb, alpha, out + i, len);
    i += len;
  }
}

Kind kind_of(const BinaryCall& c, double* alpha) {
  *alpha = c.alpha.d;
  switch (c.op) {
    case BinOp::Add:
      return *alpha == 1.0 ? Kind::Add : Kind::AddScaled;
    case BinOp::Sub:
      *alpha = -*alpha; // x - a * y == x + (-a) * y exactly
      return *alpha == -1.0 ? Kind::Sub : Kind::AddScaled;
    case BinOp::Mul:
      return Kind::Mul;
    case BinOp::Div:
      break;
  }
  return Kind::Div;
}

// True when computed here.
bool binary_fp32(const BinaryCall& c, float* scalar_b) {
  if (c.common != ScalarType::Float || c.a->scalar_type() != ScalarType::Float ||
      c.out->scalar_type() != ScalarType::Float ||
      (c.b.t != nullptr && c.b.t->scalar_type() != ScalarType::Float)) {
    return false;
  }
  const portable::Shape& s = c.plan.shape;
  const int64_t n = s.numel();
  Window<float> wa, wb, wo;
  if (!find_window(s, c.plan.strides[0], &wa) || !find_window(s, c.plan.strides[1], &wb) ||
      !find_window(s, c.plan.strides[2], &wo) || (n > 1 && (wo.inner != 1 || wo.mid != n))) {
    return false;
  }
  wa.p = c.a->const_data_ptr<float>();
  if (c.b.t != nullptr) {
    wb.p = c.b.t->const_data_ptr<float>();
  } else {
    // The scalar as the portable kernel reads it: rounded to float.
    *scalar_b = static_cast<float>(portable::ValueReader(c.b.s, ScalarType::Float).d(0));
    wb.p = scalar_b;
  }
  double alpha;
  const Kind kind = kind_of(c, &alpha);
  float* out = c.out->mutable_data_ptr<float>();
  parallel_for(n, kElementwiseGrain,
               [&](int64_t b, int64_t e) { binary_range(kind, wa, wb, alpha, out, b, e); });
  return true;
}

void binary(KernelRuntimeContext& ctx, Args args, BinOp op, bool scalar_other) {
  BinaryCall c;
  if (!portable::prepare_binary(ctx, args, op, scalar_other, &c)) return;
  float scalar_b = 0;
  if (!binary_fp32(c, &scalar_b)) portable::run_binary(c);
}

} // namespace

void add_out(KernelRuntimeContext& ctx, Args args) { binary(ctx, args, BinOp::Add, false); }
void add_scalar_out(KernelRuntimeContext& ctx, Args args) { binary(ctx, args, BinOp::Add, true); }
void sub_out(KernelRuntimeContext& ctx, Args args) { binary(ctx, args, BinOp::Sub, false); }
void sub_scalar_out(KernelRuntimeContext& ctx, Args args) { binary(ctx, args, BinOp::Sub, true); }
void mul_out(KernelRuntimeContext& ctx, Args args) { binary(ctx, args, BinOp::Mul, false); }
void mul_scalar_out(KernelRuntimeContext& ctx, Args args) { binary(ctx, args, BinOp::Mul, true); }
void div_out(KernelRuntimeContext& ctx, Args args) { binary(ctx, args, BinOp::Div, false); }
void div_scalar_out(KernelRuntimeContext& ctx, Args args) { binary(ctx, args, BinOp::Div, true); }

} // namespace optimized
} // namespace runtime
} // namespace executorch
