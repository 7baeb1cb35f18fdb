// Shared machinery of the elementwise op families (unary math, comparison,
// logical, bitwise, binary math, clamp, activations): broadcasting over any
// dim order (every operand is read and written through its own strides),
// ATen's type promotion with scalars, and values read in a compute dtype.
//
// Internal to libexecutorch.
#pragma once

#include "kernel_util.h"

namespace executorch {
namespace runtime {
namespace portable {

// The operands of an elementwise op: N-1 inputs, then the out, each with its
// element strides over the out's (broadcast) shape; 0 along broadcast dims.
template <int N>
struct ElemPlan {
  Shape shape;
  int64_t strides[N][kMaxDim] = {};
};

// Broadcasts the n_in inputs, resizes out to the broadcast shape and records
// every operand's strides. Fails the context when the shapes do not
// broadcast, the element count overflows or out cannot take the shape.
bool plan_elementwise(KernelRuntimeContext& ctx, const char* name, const Tensor* const* ins,
                      int n_in, Tensor& out, Shape* shape, int64_t (*strides)[kMaxDim]);

template <int N>
bool plan_elementwise(KernelRuntimeContext& ctx, const char* name,
                      const Tensor* const (&ins)[N - 1], Tensor& out, ElemPlan<N>* plan) {
  return plan_elementwise(ctx, name, ins, N - 1, out, &plan->shape, plan->strides);
}

// Element strides of t read at the positions of shape `out` (t broadcasts to
// it): t's own strides, 0 along dims t lacks or has of size 1.
void broadcast_tensor_strides(const Tensor& t, const Shape& out, int64_t* strides);

// ATen's result dtype of a tensor and a scalar: the scalar only raises the
// category (bool < integral < floating; a float scalar gives Float).
ScalarType promote_with_scalar(ScalarType t, const ScalarArg& s);

// v rounded to the precision of the floating dtype t (Double: unchanged).
inline double round_to(ScalarType t, double v) {
  switch (t) {
    case ScalarType::Float:
      return static_cast<float>(v);
    case ScalarType::Half:
      return float(Half(static_cast<float>(v)));
    case ScalarType::BFloat16:
      return float(BFloat16(static_cast<float>(v)));
    default:
      return v;
  }
}

// v narrowed to the integer dtype t as a C cast would (wrapping).
inline int64_t wrap_to(ScalarType t, int64_t v) {
  switch (t) {
    case ScalarType::Byte:
      return static_cast<uint8_t>(v);
    case ScalarType::Char:
      return static_cast<int8_t>(v);
    case ScalarType::Short:
      return static_cast<int16_t>(v);
    case ScalarType::Int:
      return static_cast<int32_t>(v);
    case ScalarType::Bool:
      return v != 0 ? 1 : 0;
    default:
      return v;
  }
}

// One operand read as values of a compute dtype: a tensor's elements (by
// element offset) or a scalar, converted as ATen converts to that dtype.
class ValueReader {
 public:
  ValueReader(const Tensor& t, ScalarType compute)
      : t_(t.scalar_type()), p_(t.const_data_ptr()), compute_(compute) {}
  ValueReader(const ScalarArg& s, ScalarType compute) : compute_(compute), scalar_(true) {
    d_ = round_to(compute, s.is_float ? s.d : static_cast<double>(s.i));
    i_ = wrap_to(compute, s.is_float ? sat_cast<int64_t>(s.d) : s.i);
  }
  double d(int64_t off) const {
    return scalar_ ? d_ : round_to(compute_, load_d(t_, p_, static_cast<size_t>(off)));
  }
  int64_t i(int64_t off) const {
    return scalar_ ? i_ : wrap_to(compute_, load_i(t_, p_, static_cast<size_t>(off)));
  }

 private:
  ScalarType t_ = ScalarType::Undefined;
  const void* p_ = nullptr;
  ScalarType compute_;
  bool scalar_ = false;
  double d_ = 0;
  int64_t i_ = 0;
};

// The second operand of a binary op: a tensor, or (t null) a scalar.
struct BinaryOperand {
  const Tensor* t = nullptr;
  ScalarArg s;
};

// Reads the operand as `compute`, whether a tensor or a scalar.
inline ValueReader operand_reader(const BinaryOperand& other, ScalarType compute) {
  return other.t != nullptr ? ValueReader(*other.t, compute) : ValueReader(other.s, compute);
}

// Defines fn##_tensor_out and fn##_scalar_out, the kernels of
// aten::<opname>.Tensor_out and .Scalar_out, as calls of
// impl(ctx, args, name, tag, scalar_other).
#define PK_TENSOR_AND_SCALAR_OUT(fn, impl, tag, opname)         \
  void fn##_tensor_out(KernelRuntimeContext& ctx, Args args) {  \
    impl(ctx, args, "aten::" opname ".Tensor_out", tag, false); \
  }                                                             \
  void fn##_scalar_out(KernelRuntimeContext& ctx, Args args) {  \
    impl(ctx, args, "aten::" opname ".Scalar_out", tag, true);  \
  }

// Reads op(self, other, *, out) laid out as (self, other, out, ret): other
// is a tensor or, with scalar_other, a Scalar.
bool get_binary_args(KernelRuntimeContext& ctx, Args args, const char* name, bool scalar_other,
                     Tensor** self, BinaryOperand* other, Tensor** out);

// ATen's result dtype of self and other (promoteTypes, or the scalar rule);
// Undefined when they do not promote.
ScalarType binary_result_type(const Tensor& self, const BinaryOperand& other);

// Plans self (op) other into out and calls f(off_self, off_other, off_out)
// for every element (off_other is 0 for a scalar). False when planning
// failed (the context has failed).
template <typename F>
bool for_each_binary(KernelRuntimeContext& ctx, const char* name, const Tensor& self,
                     const BinaryOperand& other, Tensor& out, F f) {
  if (other.t != nullptr) {
    ElemPlan<3> p;
    const Tensor* ins[2] = {&self, other.t};
    if (!plan_elementwise(ctx, name, ins, out, &p)) return false;
    for_each_broadcast<3>(p.shape, p.strides,
                          [&](size_t, const int64_t* o) { f(o[0], o[1], o[2]); });
    return true;
  }
  ElemPlan<2> p;
  const Tensor* ins[1] = {&self};
  if (!plan_elementwise(ctx, name, ins, out, &p)) return false;
  for_each_broadcast<2>(p.shape, p.strides,
                        [&](size_t, const int64_t* o) { f(o[0], int64_t(0), o[1]); });
  return true;
}

// Plans op(self) into out (same shape) and calls f(off_self, off_out).
template <typename F>
bool for_each_unary(KernelRuntimeContext& ctx, const char* name, const Tensor& self, Tensor& out,
                    F f) {
  ElemPlan<2> p;
  const Tensor* ins[1] = {&self};
  if (!plan_elementwise(ctx, name, ins, out, &p)) return false;
  for_each_broadcast<2>(p.shape, p.strides, [&](size_t, const int64_t* o) { f(o[0], o[1]); });
  return true;
}

// Resizes out to self's shape (the planning of for_each_unary, without the
// loop): false after failing ctx when out cannot take it.
inline bool resize_unary(KernelRuntimeContext& ctx, const char* name, const Tensor& self,
                         Tensor& out) {
  ElemPlan<2> p;
  const Tensor* ins[1] = {&self};
  return plan_elementwise(ctx, name, ins, out, &p);
}

// for_each_unary over an out that resize_unary already shaped.
template <typename F>
void for_each_resized_unary(const Tensor& self, const Tensor& out, F f) {
  ElemPlan<2> p;
  p.shape = shape_of(out);
  broadcast_tensor_strides(self, p.shape, p.strides[0]);
  for (int d = 0; d < p.shape.n; ++d) p.strides[1][d] = out.strides()[d];
  for_each_broadcast<2>(p.shape, p.strides, [&](size_t, const int64_t* o) { f(o[0], o[1]); });
}

// Fails unless `from` can be written into an out of dtype `to` (canCast).
bool require_can_cast(KernelRuntimeContext& ctx, ScalarType from, ScalarType to, const char* name);

} // namespace portable
} // namespace runtime
} // namespace executorch
