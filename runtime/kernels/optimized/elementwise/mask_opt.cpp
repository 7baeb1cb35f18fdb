// The optimized mask kernels: where, the comparisons, logical_not and
// pow.Tensor_Scalar. The portable kernels check the arguments (prepare_* in
// portable/mask.h); fp32 operands (bool conditions and results) that read as
// windows of out (window.h) run through flat loops here, and everything
// else (other dtypes, promotion, strided operands) through the portable
// computation.
#include <cmath>
#include <cstdint>

#include "../../portable/mask.h"
#include "../optimized_tables.h"
#include "../parallel.h"
#include "../simd.h"
#include "ew_kernels.h"
#include "window.h"

namespace executorch {
namespace runtime {
namespace optimized {
namespace {

using portable::Cmp;
using ByteWindow = Window<uint8_t>;
using FloatWindow = Window<float>;

bool is_bool_like(ScalarType t) { return t == ScalarType::Bool || t == ScalarType::Byte; }

// Calls run(pa, sa, pb, sb, out + i, len) over runs that cover out's n
// positions, split over the pool; sa/sb flag an operand read at [0].
template <typename A, typename B, typename O, typename Run>
void windowed(const Window<A>& wa, const Window<B>& wb, O* out, int64_t n, const Run& run) {
  parallel_for(n, kElementwiseGrain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end;) {
      const A* pa;
      const B* pb;
      bool sa, sb;
      int64_t len = run_of(wa, i, end - i, &pa, &sa);
      len = run_of(wb, i, len, &pb, &sb);
      run(pa, sa, pb, sb, out + i, len);
      i += len;
    }
  });
}

// Float comparisons are exactly the portable double ones (both sides are
// floats), NaN included.
ET_SIMD_CLONES void compare_run(Cmp cmp, const float* a, bool a_s, const float* b, bool b_s,
                                uint8_t* o, int64_t n) {
  switch (cmp) {
    case Cmp::Eq:
      ET_OPERAND_LOOPS(uint8_t, static_cast<uint8_t>(x == y))
      break;
    case Cmp::Ne:
      ET_OPERAND_LOOPS(uint8_t, static_cast<uint8_t>(x != y))
      break;
    case Cmp::Lt:
      ET_OPERAND_LOOPS(uint8_t, static_cast<uint8_t>(x < y))
      break;
    case Cmp::Le:
      ET_OPERAND_LOOPS(uint8_t, static_cast<uint8_t>(x <= y))
      break;
    case Cmp::Gt:
      ET_OPERAND_LOOPS(uint8_t, static_cast<uint8_t>(x > y))
      break;
    case Cmp::Ge:
      ET_OPERAND_LOOPS(uint8_t, static_cast<uint8_t>(x >= y))
      break;
  }
}

// True when computed here: fp32 operands, a Bool out.
bool compare_fp32(const portable::CompareCall& c) {
  if (c.common != ScalarType::Float || c.a->scalar_type() != ScalarType::Float ||
      c.out->scalar_type() != ScalarType::Bool ||
      (c.b.t != nullptr && c.b.t->scalar_type() != ScalarType::Float)) {
    return false;
  }
  const portable::Shape& s = c.plan.shape;
  const int64_t n = s.numel();
  FloatWindow wa, wb;
  if (!find_window(s, c.plan.strides[0], &wa) || !find_window(s, c.plan.strides[1], &wb) ||
      !is_flat(s, c.plan.strides[2], n)) {
    return false;
  }
  // The scalar as the portable kernel reads it: rounded to float.
  const float scalar_b =
      c.b.t != nullptr ? 0.0f
                       : static_cast<float>(portable::ValueReader(c.b.s, ScalarType::Float).d(0));
  wa.p = c.a->const_data_ptr<float>();
  wb.p = c.b.t != nullptr ? c.b.t->const_data_ptr<float>() : &scalar_b;
  auto* out = static_cast<uint8_t*>(c.out->mutable_data_ptr());
  const Cmp cmp = c.cmp;
  windowed(wa, wb, out, n,
           [cmp](const float* pa, bool sa, const float* pb, bool sb, uint8_t* o, int64_t len) {
             compare_run(cmp, pa, sa, pb, sb, o, len);
           });
  return true;
}

void comparison(KernelRuntimeContext& ctx, Args args, const char* name, Cmp cmp,
                bool scalar_other) {
  portable::CompareCall c;
  if (!portable::prepare_comparison(ctx, args, name, cmp, scalar_other, &c)) return;
  if (!compare_fp32(c)) portable::run_comparison(c);
}

PK_TENSOR_AND_SCALAR_OUT(eq, comparison, Cmp::Eq, "eq")
PK_TENSOR_AND_SCALAR_OUT(ne, comparison, Cmp::Ne, "ne")
PK_TENSOR_AND_SCALAR_OUT(lt, comparison, Cmp::Lt, "lt")
PK_TENSOR_AND_SCALAR_OUT(le, comparison, Cmp::Le, "le")
PK_TENSOR_AND_SCALAR_OUT(gt, comparison, Cmp::Gt, "gt")
PK_TENSOR_AND_SCALAR_OUT(ge, comparison, Cmp::Ge, "ge")

// o[i] = c[i] ? a[i] : b[i], each flagged operand read at [0]; both values
// are loaded unconditionally so that the loop becomes a blend.
template <bool SC, bool SA, bool SB>
__attribute__((always_inline)) inline void where_loop(const uint8_t* c, const float* a,
                                                      const float* b, float* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float x = a[SA ? 0 : i], y = b[SB ? 0 : i];
    o[i] = c[SC ? 0 : i] != 0 ? x : y;
  }
}

ET_SIMD_CLONES void where_run(const uint8_t* c, bool sc, const float* a, bool sa, const float* b,
                              bool sb, float* o, int64_t n) {
  switch ((sc ? 4 : 0) | (sa ? 2 : 0) | (sb ? 1 : 0)) {
    case 0:
      return where_loop<false, false, false>(c, a, b, o, n);
    case 1:
      return where_loop<false, false, true>(c, a, b, o, n);
    case 2:
      return where_loop<false, true, false>(c, a, b, o, n);
    case 3:
      return where_loop<false, true, true>(c, a, b, o, n);
    case 4:
      return where_loop<true, false, false>(c, a, b, o, n);
    case 5:
      return where_loop<true, false, true>(c, a, b, o, n);
    case 6:
      return where_loop<true, true, false>(c, a, b, o, n);
    default:
      return where_loop<true, true, true>(c, a, b, o, n);
  }
}

void where_range(const ByteWindow& wc, const FloatWindow& wa, const FloatWindow& wb, float* out,
                 int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end;) {
    const uint8_t* pc;
    const float *pa, *pb;
    bool sc, sa, sb;
    int64_t len = run_of(wc, i, end - i, &pc, &sc);
    len = run_of(wa, i, len, &pa, &sa);
    len = run_of(wb, i, len, &pb, &sb);
    where_run(pc, sc, pa, sa, pb, sb, out + i, len);
    i += len;
  }
}

// True when computed here: a bool (or uint8) condition, all else fp32.
bool where_fp32(const portable::WhereCall& w) {
  if (!is_bool_like(w.cond->scalar_type()) || w.common != ScalarType::Float ||
      w.a->scalar_type() != ScalarType::Float || w.b->scalar_type() != ScalarType::Float ||
      w.out->scalar_type() != ScalarType::Float) {
    return false;
  }
  const portable::Shape& s = w.plan.shape;
  const int64_t n = s.numel();
  ByteWindow wc;
  FloatWindow wa, wb;
  if (!find_window(s, w.plan.strides[0], &wc) || !find_window(s, w.plan.strides[1], &wa) ||
      !find_window(s, w.plan.strides[2], &wb) || !is_flat(s, w.plan.strides[3], n)) {
    return false;
  }
  wc.p = static_cast<const uint8_t*>(w.cond->const_data_ptr());
  wa.p = w.a->const_data_ptr<float>();
  wb.p = w.b->const_data_ptr<float>();
  float* out = w.out->mutable_data_ptr<float>();
  parallel_for(n, kElementwiseGrain,
               [&](int64_t b, int64_t e) { where_range(wc, wa, wb, out, b, e); });
  return true;
}

void where_self_out(KernelRuntimeContext& ctx, Args args) {
  portable::WhereCall w;
  if (!portable::prepare_where(ctx, args, &w)) return;
  if (!where_fp32(w)) portable::run_where(w);
}

ET_SIMD_CLONES void not_bytes(const uint8_t* a, uint8_t* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = a[i] == 0;
}

// NaN is true, so its negation false, as x == 0 gives.
ET_SIMD_CLONES void not_floats(const float* a, uint8_t* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = a[i] == 0.0f;
}

// True when computed here: a bool, uint8 or fp32 self, a Bool out, both
// contiguous.
bool logical_not_fast(const portable::LogicalNotCall& c) {
  const ScalarType t = c.self->scalar_type();
  const portable::Shape& s = c.plan.shape;
  const int64_t n = s.numel();
  if ((!is_bool_like(t) && t != ScalarType::Float) || c.out->scalar_type() != ScalarType::Bool ||
      !is_flat(s, c.plan.strides[0], n) || !is_flat(s, c.plan.strides[1], n)) {
    return false;
  }
  auto* out = static_cast<uint8_t*>(c.out->mutable_data_ptr());
  const void* in = c.self->const_data_ptr();
  parallel_for(n, kElementwiseGrain, [&](int64_t b, int64_t e) {
    if (t == ScalarType::Float) {
      not_floats(static_cast<const float*>(in) + b, out + b, e - b);
    } else {
      not_bytes(static_cast<const uint8_t*>(in) + b, out + b, e - b);
    }
  });
  return true;
}

void logical_not_out(KernelRuntimeContext& ctx, Args args) {
  portable::LogicalNotCall c;
  if (!portable::prepare_logical_not(ctx, args, &c)) return;
  if (!logical_not_fast(c)) portable::run_logical_not(c);
}

// Each form is exactly float(pow(double(x), e)): a product of two floats is
// exact in double, and so is a float's square root up to one rounding
// (pow(-0, 0.5) is +0 and pow(-inf, 0.5) +inf, unlike sqrt).
ET_SIMD_CLONES void pow_square(const float* a, float* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = a[i] * a[i];
}
ET_SIMD_CLONES void pow_sqrt(const float* a, float* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float x = a[i];
    o[i] = x == -INFINITY ? INFINITY : std::sqrt(x) + 0.0f;
  }
}
// x^3 (GPT-2's gelu): the product is computed in double, as pow computes it:
// x*x is exact there and one rounding of x*x*x gives what a correctly
// rounded pow gives (glibc's pow is within 0.52 ulp of double: the float
// results agree).
ET_SIMD_CLONES void pow_cube(const float* a, float* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double x = a[i];
    o[i] = static_cast<float>(x * x * x);
  }
}
void pow_general(const float* a, double e, float* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = static_cast<float>(std::pow(static_cast<double>(a[i]), e));
}

// True when computed here: fp32 self and out, both contiguous.
bool pow_fp32(const portable::PowScalarCall& c) {
  const portable::Shape& s = c.plan.shape;
  const int64_t n = s.numel();
  if (c.common != ScalarType::Float || c.self->scalar_type() != ScalarType::Float ||
      c.out->scalar_type() != ScalarType::Float || !is_flat(s, c.plan.strides[0], n) ||
      !is_flat(s, c.plan.strides[2], n)) {
    return false;
  }
  // The exponent as the portable kernel reads it: rounded to float.
  const double e = portable::ValueReader(c.exponent.s, ScalarType::Float).d(0);
  const float* in = c.self->const_data_ptr<float>();
  float* out = c.out->mutable_data_ptr<float>();
  parallel_for(n, kElementwiseGrain, [&](int64_t b, int64_t end) {
    if (e == 2.0) {
      pow_square(in + b, out + b, end - b);
    } else if (e == 0.5) {
      pow_sqrt(in + b, out + b, end - b);
    } else if (e == 1.0) {
      std::copy(in + b, in + end, out + b);
    } else if (e == 3.0) {
      pow_cube(in + b, out + b, end - b);
    } else {
      pow_general(in + b, e, out + b, end - b);
    }
  });
  return true;
}

void pow_tensor_scalar_out(KernelRuntimeContext& ctx, Args args) {
  portable::PowScalarCall c;
  if (!portable::prepare_pow_tensor_scalar(ctx, args, &c)) return;
  if (!pow_fp32(c)) portable::run_pow_tensor_scalar(c);
}

} // namespace

Span<const Kernel> mask_kernels() {
  static const Kernel kKernels[] = {
      Kernel("aten::where.self_out", where_self_out),
      Kernel("aten::eq.Tensor_out", eq_tensor_out),
      Kernel("aten::eq.Scalar_out", eq_scalar_out),
      Kernel("aten::ne.Tensor_out", ne_tensor_out),
      Kernel("aten::ne.Scalar_out", ne_scalar_out),
      Kernel("aten::lt.Tensor_out", lt_tensor_out),
      Kernel("aten::lt.Scalar_out", lt_scalar_out),
      Kernel("aten::le.Tensor_out", le_tensor_out),
      Kernel("aten::le.Scalar_out", le_scalar_out),
      Kernel("aten::gt.Tensor_out", gt_tensor_out),
      Kernel("aten::gt.Scalar_out", gt_scalar_out),
      Kernel("aten::ge.Tensor_out", ge_tensor_out),
      Kernel("aten::ge.Scalar_out", ge_scalar_out),
      Kernel("aten::logical_not.out", logical_not_out),
      Kernel("aten::pow.Tensor_Scalar_out", pow_tensor_scalar_out),
  };
  return Span<const Kernel>(kKernels, sizeof(kKernels) / sizeof(kKernels[0]));
}

} // namespace optimized
} // namespace runtime
} // namespace executorch
