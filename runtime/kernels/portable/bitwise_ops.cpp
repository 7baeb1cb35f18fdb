// Bitwise ops on integer and bool tensors: bitwise_and, bitwise_or,
// bitwise_xor (Tensor_out and Scalar_out) and bitwise_not. Computed in the
// promoted dtype (wrapping like C), written to an out it can be cast to.
#include "elementwise_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

enum class Bit { And, Or, Xor };

bool require_integral(KernelRuntimeContext& ctx, ScalarType t, const char* name) {
  if (!isIntegralType(t, /*includeBool=*/true)) {
    PK_FAIL(ctx, name, "needs integer or bool operands, got %s", toString(t));
    return false;
  }
  return true;
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
  const ValueReader a(*self, common);
  const ValueReader b = other.t != nullptr ? ValueReader(*other.t, common)
                                           : ValueReader(other.s, common);
  const ScalarType ot = out->scalar_type();
  void* op = out->mutable_data_ptr();
  for_each_binary(ctx, name, *self, other, *out, [&](int64_t x, int64_t y, int64_t o) {
    const int64_t u = a.i(x), v = b.i(y);
    const int64_t r = bit == Bit::And ? (u & v) : bit == Bit::Or ? (u | v) : (u ^ v);
    store_i(ot, op, static_cast<size_t>(o), wrap_to(common, r));
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

#define PK_BITWISE(fn, bit, opname)                                                   \
  void fn##_tensor_out(KernelRuntimeContext& ctx, Args args) {                      \
    bitwise_binary(ctx, args, "aten::" opname ".Tensor_out", Bit::bit, false);      \
  }                                                                                 \
  void fn##_scalar_out(KernelRuntimeContext& ctx, Args args) {                      \
    bitwise_binary(ctx, args, "aten::" opname ".Scalar_out", Bit::bit, true);       \
  }

PK_BITWISE(bitwise_and, And, "bitwise_and")
PK_BITWISE(bitwise_or, Or, "bitwise_or")
PK_BITWISE(bitwise_xor, Xor, "bitwise_xor")
#undef PK_BITWISE

const Kernel kBitwiseKernels[] = {
    Kernel("aten::bitwise_and.Tensor_out", bitwise_and_tensor_out),
    Kernel("aten::bitwise_and.Scalar_out", bitwise_and_scalar_out),
    Kernel("aten::bitwise_or.Tensor_out", bitwise_or_tensor_out),
    Kernel("aten::bitwise_or.Scalar_out", bitwise_or_scalar_out),
    Kernel("aten::bitwise_xor.Tensor_out", bitwise_xor_tensor_out),
    Kernel("aten::bitwise_xor.Scalar_out", bitwise_xor_scalar_out),
    Kernel("aten::bitwise_not.out", bitwise_not_out),
};

} // namespace

Span<const Kernel> bitwise_kernels() {
  return Span<const Kernel>(kBitwiseKernels,
                            sizeof(kBitwiseKernels) / sizeof(kBitwiseKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
