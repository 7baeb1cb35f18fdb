// quantized_decomposed::dequantize_per_tensor (.out, .Tensor_out),
// dequantize_per_channel.out and dequantize_per_token.out:
//   x = (q - zero_point) * scale, in float as upstream, then stored in out's
// dtype (float16, bfloat16, float32, float64; `out_dtype`, when given, must
// name it). Input of dtype `dtype` (uint8, int8, int16, int32); quant_min and
// quant_max are metadata, checked against the dtype but not applied.
// Contiguous tensors.
#include "quant_util.h"
#include "quantized_tables.h"

namespace executorch {
namespace runtime {
namespace quantized {
namespace {

// The checks every dequantize op shares; resizes out to the input's shape.
bool prepare_dequantize(KernelRuntimeContext& ctx, const char* op, const Tensor& in, int64_t qmin,
                        int64_t qmax, ScalarType dtype, bool has_out_dtype, ScalarType out_dtype,
                        Tensor& out) {
  if (!check_quant_range(ctx, op, dtype, qmin, qmax) || !require_contiguous(ctx, in, op)) {
    return false;
  }
  if (in.scalar_type() != dtype) {
    PK_FAIL(ctx, op, "input has dtype %s, expected %s", toString(in.scalar_type()),
            toString(dtype));
    return false;
  }
  if (!require_dtype_in(
          ctx, op, out, "out",
          {ScalarType::Half, ScalarType::BFloat16, ScalarType::Float, ScalarType::Double})) {
    return false;
  }
  if (has_out_dtype && out.scalar_type() != out_dtype) {
    PK_FAIL(ctx, op, "out has dtype %s but out_dtype is %s", toString(out.scalar_type()),
            toString(out_dtype));
    return false;
  }
  return resize_out(ctx, out, in.sizes(), op);
}

// Dequantizes block by block with channel c's scale and zero point.
void dequantize_blocks(const Tensor& in, Tensor& out, const AxisSplit& s, const ChannelParams& p) {
  const ScalarType it = in.scalar_type(), ot = out.scalar_type();
  const void* ip = in.const_data_ptr();
  void* op = out.mutable_data_ptr();
  size_t i = 0;
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t c = 0; c < s.channels; ++c) {
      const float scale = static_cast<float>(p.scale_at(static_cast<size_t>(c)));
      const int64_t zp = p.zero_point_at(static_cast<size_t>(c));
      for (int64_t k = 0; k < s.inner; ++k, ++i) {
        store_d(ot, op, i, dequantize_value(load_i(it, ip, i), zp, scale));
      }
    }
  }
}

// dequantize_per_tensor.out(input, float scale, int zero_point, int quant_min,
//   int quant_max, ScalarType dtype, *, ScalarType? out_dtype, out), and the
// .Tensor_out overload (one-element float64 scale and int64 zero point).
void dequantize_per_tensor_impl(KernelRuntimeContext& ctx, Args args, const char* name,
                                bool tensor_params) {
  if (!check_nargs(ctx, args, 9, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  Tensor* scale_t = in != nullptr && tensor_params ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* zp_t = scale_t != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  if (in == nullptr || (tensor_params && zp_t == nullptr)) return;
  double scale = 0;
  int64_t zp = 0, qmin = 0, qmax = 0;
  ScalarType dtype = ScalarType::Undefined, out_dtype = ScalarType::Undefined;
  bool has_out_dtype = false;
  if (tensor_params) {
    if (!check_channel_tensor(ctx, name, *scale_t, "scale", 1, {ScalarType::Double}) ||
        !check_channel_tensor(ctx, name, *zp_t, "zero_point", 1, {ScalarType::Long})) {
      return;
    }
    scale = scale_t->const_data_ptr<double>()[0];
    zp = zp_t->const_data_ptr<int64_t>()[0];
  } else if (!get_double(ctx, args, 1, name, &scale) || !get_int(ctx, args, 2, name, &zp)) {
    return;
  }
  if (!get_int(ctx, args, 3, name, &qmin) || !get_int(ctx, args, 4, name, &qmax) ||
      !get_dtype(ctx, args, 5, name, &dtype) ||
      !get_opt_dtype(ctx, args, 6, name, &out_dtype, &has_out_dtype) ||
      !check_zero_point(ctx, name, zp)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 7, name);
  if (out == nullptr ||
      !prepare_dequantize(ctx, name, *in, qmin, qmax, dtype, has_out_dtype, out_dtype, *out)) {
    return;
  }
  const float s = static_cast<float>(scale);
  const ScalarType it = in->scalar_type(), ot = out->scalar_type();
  const void* ip = in->const_data_ptr();
  void* op = out->mutable_data_ptr();
  const size_t n = static_cast<size_t>(in->numel());
  for (size_t i = 0; i < n; ++i) {
    store_d(ot, op, i, dequantize_value(load_i(it, ip, i), zp, s));
  }
}

void dequantize_per_tensor_out(KernelRuntimeContext& ctx, Args args) {
  dequantize_per_tensor_impl(ctx, args, "quantized_decomposed::dequantize_per_tensor.out", false);
}

void dequantize_per_tensor_tensor_out(KernelRuntimeContext& ctx, Args args) {
  dequantize_per_tensor_impl(ctx, args, "quantized_decomposed::dequantize_per_tensor.Tensor_out",
                             true);
}

// Per-channel parameters of the dequantize ops: float64 or float32 scales,
// optional int32 or int64 zero points (each in int32), n of each.
bool check_dequantize_channels(KernelRuntimeContext& ctx, const char* op, const Tensor& scales,
                               const Tensor* zps, int64_t n, ChannelParams* p) {
  if (!check_channel_tensor(ctx, op, scales, "scales", n,
                            {ScalarType::Double, ScalarType::Float})) {
    return false;
  }
  if (zps != nullptr &&
      !check_channel_tensor(ctx, op, *zps, "zero_points", n, {ScalarType::Int, ScalarType::Long})) {
    return false;
  }
  p->scale = &scales;
  p->zero_point = zps;
  return check_channel_zero_points(ctx, op, *p, n);
}

// dequantize_per_channel.out(input, Tensor scales, Tensor? zero_points,
//   int axis, int quant_min, int quant_max, ScalarType dtype, *,
//   ScalarType? out_dtype, out)
void dequantize_per_channel_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "quantized_decomposed::dequantize_per_channel.out";
  if (!check_nargs(ctx, args, 10, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  Tensor* scales = in != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* zps = nullptr;
  int64_t axis = 0, qmin = 0, qmax = 0;
  ScalarType dtype = ScalarType::Undefined, out_dtype = ScalarType::Undefined;
  bool has_out_dtype = false;
  if (scales == nullptr || !get_opt_tensor(ctx, args, 2, name, &zps) ||
      !get_int(ctx, args, 3, name, &axis) || !get_int(ctx, args, 4, name, &qmin) ||
      !get_int(ctx, args, 5, name, &qmax) || !get_dtype(ctx, args, 6, name, &dtype) ||
      !get_opt_dtype(ctx, args, 7, name, &out_dtype, &has_out_dtype)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 8, name);
  if (out == nullptr) return;
  if (in->dim() == 0) {
    PK_FAIL(ctx, name, "the input must have at least one dim");
    return;
  }
  ChannelParams p;
  if (!norm_dim(ctx, axis, in->dim(), name, &axis) ||
      !check_dequantize_channels(ctx, name, *scales, zps, in->size(axis), &p) ||
      !prepare_dequantize(ctx, name, *in, qmin, qmax, dtype, has_out_dtype, out_dtype, *out)) {
    return;
  }
  dequantize_blocks(*in, *out, split_at_axis(*in, axis), p);
}

// dequantize_per_token.out(input, Tensor scales, Tensor zero_points,
//   int quant_min, int quant_max, ScalarType dtype, ScalarType output_dtype,
//   *, out): one scale and zero point per token (every dim but the last).
void dequantize_per_token_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "quantized_decomposed::dequantize_per_token.out";
  if (!check_nargs(ctx, args, 9, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  Tensor* scales = in != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* zps = scales != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  int64_t qmin = 0, qmax = 0;
  ScalarType dtype = ScalarType::Undefined, out_dtype = ScalarType::Undefined;
  AxisSplit s;
  if (zps == nullptr || !get_int(ctx, args, 3, name, &qmin) ||
      !get_int(ctx, args, 4, name, &qmax) || !get_dtype(ctx, args, 5, name, &dtype) ||
      !get_dtype(ctx, args, 6, name, &out_dtype) || !token_split(ctx, name, *in, &s)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 7, name);
  ChannelParams p;
  if (out == nullptr || !check_dequantize_channels(ctx, name, *scales, zps, s.channels, &p) ||
      !prepare_dequantize(ctx, name, *in, qmin, qmax, dtype, true, out_dtype, *out)) {
    return;
  }
  dequantize_blocks(*in, *out, s, p);
}

const Kernel kDequantizeKernels[] = {
    Kernel("quantized_decomposed::dequantize_per_tensor.out", dequantize_per_tensor_out),
    Kernel("quantized_decomposed::dequantize_per_tensor.Tensor_out",
           dequantize_per_tensor_tensor_out),
    Kernel("quantized_decomposed::dequantize_per_channel.out", dequantize_per_channel_out),
    Kernel("quantized_decomposed::dequantize_per_token.out", dequantize_per_token_out),
};

} // namespace

Span<const Kernel> dequantize_kernels() {
  return Span<const Kernel>(kDequantizeKernels,
                            sizeof(kDequantizeKernels) / sizeof(kDequantizeKernels[0]));
}

} // namespace quantized
} // namespace runtime
} // namespace executorch
