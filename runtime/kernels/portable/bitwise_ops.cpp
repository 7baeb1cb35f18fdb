// Bitwise ops on integer and bool tensors: bitwise_and, bitwise_or,
// bitwise_xor (Tensor_out and Scalar_out), bitwise_not, and the shifts
// bitwise_left_shift / bitwise_right_shift (Tensor_out, Tensor_Scalar_out;
// integers only). Computed in the promoted dtype (wrapping like C), written
// to an out it can be cast to.
#include "elementwise_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

enum class Bit { And, Or, Xor, Shl, Shr };

bool require_integral(KernelRuntimeContext& ctx, ScalarType t, const char* name) {
  const bool barebones_unsigned =
      t == ScalarType::UInt16 || t == ScalarType::UInt32 || t == ScalarType::UInt64;
  if (!isIntegralType(t, /*includeBool=*/true) && !barebones_unsigned) {
    PK_FAIL(ctx, name, "needs integer or bool operands, got %s", toString(t));
    return false;
  }
  return true;
}

// a << b or a >> b in the bit width of dtype t; amounts outside [0, width)
// shift every bit out (0, or -1 for a negative value shifted right), as
// ATen does. a is already narrowed to t (sign-extended if signed).
int64_t shift(Bit bit, ScalarType t, int64_t a, int64_t b) {
  const int64_t width = static_cast<int64_t>(elementSizeOrZero(t)) * 8;
  if (b < 0 || b >= width) return bit == Bit::Shr && a < 0 ? -1 : 0;
  if (bit == Bit::Shl) return static_cast<int64_t>(static_cast<uint64_t>(a) << b);
  return a >> b;
}

int64_t apply(Bit bit, ScalarType t, int64_t u, int64_t v) {
  switch (bit) {
    case Bit::And:
      return u & v;
    case Bit::Or:
      return u | v;
    case Bit::Xor:
      return u ^ v;
    default:
      return shift(bit, t, u, v);
  }
}

// bitwise_<op>.Tensor_out / .Scalar_out(self, other, *, out) -> out
void bitwise_binary(KernelRuntimeContext& ctx, Args args, const char* name, Bit bit,
                    bool scalar_other) {
  Tensor *self, *out;
  BinaryOperand other;
  if (!get_binary_args(ctx, args, name, scalar_other, &self, &other, &out)) return;
  const ScalarType common = binary_result_type(*self, other);
  if (!require_integral(ctx, common, name) ||
      !require_can_cast(ctx, common, out->scalar_type(), name)) {
    return;
  }
  if ((bit == Bit::Shl || bit == Bit::Shr) && common == ScalarType::Bool) {
    PK_FAIL(ctx, name, "bool operands cannot be shifted");
    return;
  }
  const ValueReader a(*self, common);
  const ValueReader b = operand_reader(other, common);
  const ScalarType ot = out->scalar_type();
  void* op = out->mutable_data_ptr();
  for_each_binary(ctx, name, *self, other, *out, [&](int64_t x, int64_t y, int64_t o) {
    store_i(ot, op, static_cast<size_t>(o), wrap_to(common, apply(bit, common, a.i(x), b.i(y))));
  });
}

// bitwise_not.out(self, *, out) -> out: same dtype; logical not for bool.
void bitwise_not_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::bitwise_not.out";
  if (!check_nargs(ctx, args, 3, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  if (self == nullptr) return;
  Tensor* out = get_tensor(ctx, args, 1, name);
  if (out == nullptr) return;
  const ScalarType t = self->scalar_type();
  if (!require_integral(ctx, t, name) || !require_same_dtype(ctx, *self, *out, name)) return;
  const void* ip = self->const_data_ptr();
  void* op = out->mutable_data_ptr();
  for_each_unary(ctx, name, *self, *out, [&](int64_t x, int64_t o) {
    const int64_t v = load_i(t, ip, static_cast<size_t>(x));
    store_i(t, op, static_cast<size_t>(o), t == ScalarType::Bool ? (v == 0 ? 1 : 0) : ~v);
  });
}

PK_TENSOR_AND_SCALAR_OUT(bitwise_and, bitwise_binary, Bit::And, "bitwise_and")
PK_TENSOR_AND_SCALAR_OUT(bitwise_or, bitwise_binary, Bit::Or, "bitwise_or")
PK_TENSOR_AND_SCALAR_OUT(bitwise_xor, bitwise_binary, Bit::Xor, "bitwise_xor")

#define PK_SHIFT(fn, bit, opname)                                                    \
  void fn##_tensor_out(KernelRuntimeContext& ctx, Args args) {                       \
    bitwise_binary(ctx, args, "aten::" opname ".Tensor_out", Bit::bit, false);       \
  }                                                                                  \
  void fn##_tensor_scalar_out(KernelRuntimeContext& ctx, Args args) {                \
    bitwise_binary(ctx, args, "aten::" opname ".Tensor_Scalar_out", Bit::bit, true); \
  }
PK_SHIFT(left_shift, Shl, "bitwise_left_shift")
PK_SHIFT(right_shift, Shr, "bitwise_right_shift")
#undef PK_SHIFT

const Kernel kBitwiseKernels[] = {
    Kernel("aten::bitwise_and.Tensor_out", bitwise_and_tensor_out),
    Kernel("aten::bitwise_and.Scalar_out", bitwise_and_scalar_out),
    Kernel("aten::bitwise_or.Tensor_out", bitwise_or_tensor_out),
    Kernel("aten::bitwise_or.Scalar_out", bitwise_or_scalar_out),
    Kernel("aten::bitwise_xor.Tensor_out", bitwise_xor_tensor_out),
    Kernel("aten::bitwise_xor.Scalar_out", bitwise_xor_scalar_out),
    Kernel("aten::bitwise_not.out", bitwise_not_out),
    Kernel("aten::bitwise_left_shift.Tensor_out", left_shift_tensor_out),
    Kernel("aten::bitwise_left_shift.Tensor_Scalar_out", left_shift_tensor_scalar_out),
    Kernel("aten::bitwise_right_shift.Tensor_out", right_shift_tensor_out),
    Kernel("aten::bitwise_right_shift.Tensor_Scalar_out", right_shift_tensor_scalar_out),
};

} // namespace

Span<const Kernel> bitwise_kernels() {
  return Span<const Kernel>(kBitwiseKernels, sizeof(kBitwiseKernels) / sizeof(kBitwiseKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
