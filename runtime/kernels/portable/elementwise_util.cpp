#include "elementwise_util.h"

namespace executorch {
namespace runtime {
namespace portable {

void broadcast_tensor_strides(const Tensor& t, const Shape& out, int64_t* strides) {
  const int rank = static_cast<int>(t.dim());
  const int lead = out.n - rank;
  for (int d = 0; d < out.n; ++d) {
    if (d < lead || t.size(d - lead) == 1) {
      strides[d] = 0;
    } else {
      strides[d] = t.strides()[d - lead];
    }
  }
}

bool plan_elementwise(KernelRuntimeContext& ctx, const char* name, const Tensor* const* ins,
                      int n_in, Tensor& out, Shape* shape, int64_t (*strides)[kMaxDim]) {
  *shape = shape_of(*ins[0]);
  for (int k = 1; k < n_in; ++k) {
    Shape next;
    if (!broadcast_shape(shape->ref(), ins[k]->sizes(), &next)) {
      PK_FAIL(ctx, name, "input %d does not broadcast with the others", k);
      return false;
    }
    *shape = next;
  }
  int64_t numel = 1;
  for (int d = 0; d < shape->n; ++d) {
    if (__builtin_mul_overflow(numel, static_cast<int64_t>(shape->s[d]), &numel)) {
      PK_FAIL(ctx, name, "the result's element count overflows");
      return false;
    }
  }
  if (!resize_out(ctx, out, *shape, name)) return false;
  for (int k = 0; k < n_in; ++k) broadcast_tensor_strides(*ins[k], *shape, strides[k]);
  for (int d = 0; d < shape->n; ++d) strides[n_in][d] = out.strides()[d];
  return true;
}

ScalarType promote_with_scalar(ScalarType t, const ScalarArg& s) {
  if (s.is_float) return isFloatingType(t) ? t : ScalarType::Float;
  if (s.is_bool) return t;
  return t == ScalarType::Bool ? ScalarType::Long : t;
}

bool get_binary_args(KernelRuntimeContext& ctx, Args args, const char* name, bool scalar_other,
                     Tensor** self, BinaryOperand* other, Tensor** out) {
  if (!check_nargs(ctx, args, 4, name)) return false;
  *self = get_tensor(ctx, args, 0, name);
  if (*self == nullptr) return false;
  if (scalar_other) {
    other->t = nullptr;
    if (!get_scalar(ctx, args, 1, name, &other->s)) return false;
  } else {
    other->t = get_tensor(ctx, args, 1, name);
    if (other->t == nullptr) return false;
  }
  *out = get_tensor(ctx, args, 2, name);
  return *out != nullptr;
}

ScalarType binary_result_type(const Tensor& self, const BinaryOperand& other) {
  if (other.t != nullptr) return promoteTypes(self.scalar_type(), other.t->scalar_type());
  return promote_with_scalar(self.scalar_type(), other.s);
}

bool require_can_cast(KernelRuntimeContext& ctx, ScalarType from, ScalarType to, const char* name) {
  if (from == ScalarType::Undefined || !canCast(from, to)) {
    PK_FAIL(ctx, name, "a %s result cannot be written to an output of dtype %s", toString(from),
            toString(to));
    return false;
  }
  return true;
}

} // namespace portable
} // namespace runtime
} // namespace executorch
