// quantized_decomposed::add.out: dequantize a and b, add in float32,
// quantize into out (upstream's "Dq -> fp add -> Q"):
//   out = quantize(float((a - a_zp) * a_scale) + float((b - b_zp) * b_scale))
// with the quantize rule of quant_util.h. a, b and out share one shape and
// one integer dtype; every quant range lies in [0, 255] (upstream's
// requirement) and in the dtype's range (int8 holds [0, 127] of it);
// contiguous tensors.
#include "quant_util.h"
#include "quantized_tables.h"

namespace executorch {
namespace runtime {
namespace quantized {
namespace {

// One operand's (or the output's) quantization parameters.
struct Operand {
  double scale = 0;
  int64_t zp = 0, qmin = 0, qmax = 0;
};

// Reads scale, zero point, quant_min, quant_max from args[i..i+3]; the
// zero point must fit int32 and the range lie in [0, 255].
bool get_operand(KernelRuntimeContext& ctx, const char* op, Args args, size_t i, Operand* o) {
  if (!get_double(ctx, args, i, op, &o->scale) || !get_int(ctx, args, i + 1, op, &o->zp) ||
      !get_int(ctx, args, i + 2, op, &o->qmin) || !get_int(ctx, args, i + 3, op, &o->qmax) ||
      !check_zero_point(ctx, op, o->zp)) {
    return false;
  }
  if (o->qmin < 0 || o->qmax > 255 || o->qmin > o->qmax) {
    PK_FAIL(ctx, op, "quant range [%lld, %lld] is not within [0, 255] or is empty",
            static_cast<long long>(o->qmin), static_cast<long long>(o->qmax));
    return false;
  }
  return true;
}

// a, b and out: same dtype (an integer one) and shape, contiguous.
bool check_add_tensors(KernelRuntimeContext& ctx, const char* op, const Tensor& a, const Tensor& b,
                       Tensor& out) {
  if (!require_dtype_in(ctx, op, a, "a",
                        {ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int,
                         ScalarType::Long}) ||
      !require_same_dtype(ctx, a, b, op) || !require_same_dtype(ctx, a, out, op) ||
      !require_contiguous(ctx, a, op) || !require_contiguous(ctx, b, op)) {
    return false;
  }
  if (a.sizes() != b.sizes()) {
    PK_FAIL(ctx, op, "a and b must have the same shape");
    return false;
  }
  return resize_out(ctx, out, a.sizes(), op);
}

// (q - zp) * scale with the float32 scale, in float64, narrowed to float32.
float dequantize_operand(int64_t q, const Operand& o) {
  return static_cast<float>(static_cast<double>(q - o.zp) *
                            static_cast<double>(static_cast<float>(o.scale)));
}

// add.out(a, a_scale, a_zero_point, a_quant_min, a_quant_max, b, b_scale,
//   b_zero_point, b_quant_min, b_quant_max, out_scale, out_zero_point,
//   out_quant_min, out_quant_max, *, out)
void quantized_add_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "quantized_decomposed::add.out";
  if (!check_nargs(ctx, args, 16, name)) return;
  Tensor* a = get_tensor(ctx, args, 0, name);
  Tensor* b = a != nullptr ? get_tensor(ctx, args, 5, name) : nullptr;
  Operand qa, qb, qo;
  float inv = 0;
  if (b == nullptr || !get_operand(ctx, name, args, 1, &qa) ||
      !get_operand(ctx, name, args, 6, &qb) || !get_operand(ctx, name, args, 10, &qo) ||
      !inverse_scale(ctx, name, qo.scale, &inv)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 14, name);
  if (out == nullptr || !check_add_tensors(ctx, name, *a, *b, *out)) return;
  const ScalarType t = a->scalar_type();
  for (const Operand* o : {&qa, &qb, &qo}) {
    if (t == ScalarType::Char && o->qmax > 127) {
      PK_FAIL(ctx, name, "quant range [%lld, %lld] does not fit int8",
              static_cast<long long>(o->qmin), static_cast<long long>(o->qmax));
      return;
    }
  }
  const size_t n = static_cast<size_t>(a->numel());
  for (size_t i = 0; i < n; ++i) {
    const float sum = dequantize_operand(load_i(t, a->const_data_ptr(), i), qa) +
                      dequantize_operand(load_i(t, b->const_data_ptr(), i), qb);
    store_i(t, out->mutable_data_ptr(), i, quantize_scaled(inv * sum, qo.zp, qo.qmin, qo.qmax));
  }
}

const Kernel kAddKernels[] = {
    Kernel("quantized_decomposed::add.out", quantized_add_out),
};

} // namespace

Span<const Kernel> add_kernels() {
  return Span<const Kernel>(kAddKernels, sizeof(kAddKernels) / sizeof(kAddKernels[0]));
}

} // namespace quantized
} // namespace runtime
} // namespace executorch
