// quantized_decomposed::quantize_per_tensor (.out, .Tensor_out),
// quantize_per_channel.out and quantize_per_token.out:
//   q = clamp(round_half_even(x * (1 / scale)) + zero_point, quant_min, quant_max)
// with upstream's float arithmetic (quant_util.h). Input float16, bfloat16,
// float32 or float64; out of dtype `dtype` (uint8, int8, int16, int32);
// contiguous tensors.
#include "quant_util.h"
#include "quantized_tables.h"

namespace executorch {
namespace runtime {
namespace quantized {
namespace {

// The checks every quantize op shares; resizes out to the input's shape.
bool prepare_quantize(KernelRuntimeContext& ctx, const char* op, const Tensor& in, int64_t qmin,
                      int64_t qmax, ScalarType dtype, Tensor& out) {
  if (!require_dtype_in(
          ctx, op, in, "input",
          {ScalarType::Half, ScalarType::BFloat16, ScalarType::Float, ScalarType::Double}) ||
      !check_quant_range(ctx, op, dtype, qmin, qmax) || !require_contiguous(ctx, in, op)) {
    return false;
  }
  if (out.scalar_type() != dtype) {
    PK_FAIL(ctx, op, "out has dtype %s, expected %s", toString(out.scalar_type()), toString(dtype));
    return false;
  }
  return resize_out(ctx, out, in.sizes(), op);
}

// Quantizes block by block: params(c, &inv_scale, &zero_point) gives channel
// c's (already checked) parameters.
template <typename Params>
void quantize_blocks(const Tensor& in, Tensor& out, const AxisSplit& s, int64_t qmin, int64_t qmax,
                     Params params) {
  const ScalarType it = in.scalar_type(), ot = out.scalar_type();
  const void* ip = in.const_data_ptr();
  void* op = out.mutable_data_ptr();
  size_t i = 0;
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t c = 0; c < s.channels; ++c) {
      float inv = 0;
      int64_t zp = 0;
      params(static_cast<size_t>(c), &inv, &zp);
      for (int64_t k = 0; k < s.inner; ++k, ++i) {
        const float v = scale_value(it, load_d(it, ip, i), inv);
        store_i(ot, op, i, quantize_scaled(v, zp, qmin, qmax));
      }
    }
  }
}

void quantize_scalar_params(KernelRuntimeContext& ctx, const char* op, const Tensor& in,
                            double scale, int64_t zp, int64_t qmin, int64_t qmax, ScalarType dtype,
                            Tensor& out) {
  float inv = 0;
  if (!inverse_scale(ctx, op, scale, &inv) || !check_zero_point(ctx, op, zp) ||
      !prepare_quantize(ctx, op, in, qmin, qmax, dtype, out)) {
    return;
  }
  AxisSplit s;
  s.inner = in.numel();
  quantize_blocks(in, out, s, qmin, qmax, [&](size_t, float* i, int64_t* z) {
    *i = inv;
    *z = zp;
  });
}

// quantize_per_tensor.out(input, float scale, int zero_point, int quant_min,
//   int quant_max, ScalarType dtype, *, out)
void quantize_per_tensor_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "quantized_decomposed::quantize_per_tensor.out";
  if (!check_nargs(ctx, args, 8, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  double scale = 0;
  int64_t zp = 0, qmin = 0, qmax = 0;
  ScalarType dtype = ScalarType::Undefined;
  if (in == nullptr || !get_double(ctx, args, 1, name, &scale) ||
      !get_int(ctx, args, 2, name, &zp) || !get_int(ctx, args, 3, name, &qmin) ||
      !get_int(ctx, args, 4, name, &qmax) || !get_dtype(ctx, args, 5, name, &dtype)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 6, name);
  if (out == nullptr) return;
  quantize_scalar_params(ctx, name, *in, scale, zp, qmin, qmax, dtype, *out);
}

// Reads the one-element float64 scale and int64 zero point tensors of the
// .Tensor_out overloads.
bool read_tensor_qparams(KernelRuntimeContext& ctx, const char* op, Args args, size_t i,
                         double* scale, int64_t* zp) {
  Tensor* s = get_tensor(ctx, args, i, op);
  Tensor* z = s != nullptr ? get_tensor(ctx, args, i + 1, op) : nullptr;
  if (z == nullptr || !check_channel_tensor(ctx, op, *s, "scale", 1, {ScalarType::Double}) ||
      !check_channel_tensor(ctx, op, *z, "zero_point", 1, {ScalarType::Long})) {
    return false;
  }
  *scale = s->const_data_ptr<double>()[0];
  *zp = z->const_data_ptr<int64_t>()[0];
  return true;
}

// quantize_per_tensor.Tensor_out(input, Tensor scale, Tensor zero_point,
//   int quant_min, int quant_max, ScalarType dtype, *, out)
void quantize_per_tensor_tensor_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "quantized_decomposed::quantize_per_tensor.Tensor_out";
  if (!check_nargs(ctx, args, 8, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  double scale = 0;
  int64_t zp = 0, qmin = 0, qmax = 0;
  ScalarType dtype = ScalarType::Undefined;
  if (in == nullptr || !read_tensor_qparams(ctx, name, args, 1, &scale, &zp) ||
      !get_int(ctx, args, 3, name, &qmin) || !get_int(ctx, args, 4, name, &qmax) ||
      !get_dtype(ctx, args, 5, name, &dtype)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 6, name);
  if (out == nullptr) return;
  quantize_scalar_params(ctx, name, *in, scale, zp, qmin, qmax, dtype, *out);
}

// Per-channel parameters of the quantize ops: float64 scales, int64 zero
// points, n of each, every scale invertible and every zero point in int32.
bool check_quantize_channels(KernelRuntimeContext& ctx, const char* op, const Tensor& scales,
                             const Tensor& zps, int64_t n, ChannelParams* p) {
  if (!check_channel_tensor(ctx, op, scales, "scales", n, {ScalarType::Double}) ||
      !check_channel_tensor(ctx, op, zps, "zero_points", n, {ScalarType::Long})) {
    return false;
  }
  p->scale = &scales;
  p->zero_point = &zps;
  float inv = 0;
  for (int64_t c = 0; c < n; ++c) {
    if (!inverse_scale(ctx, op, p->scale_at(static_cast<size_t>(c)), &inv)) return false;
  }
  return check_channel_zero_points(ctx, op, *p, n);
}

void quantize_channels(KernelRuntimeContext& ctx, const char* op, const Tensor& in,
                       const Tensor& scales, const Tensor& zps, const AxisSplit& s, int64_t qmin,
                       int64_t qmax, ScalarType dtype, Tensor& out) {
  ChannelParams p;
  if (!prepare_quantize(ctx, op, in, qmin, qmax, dtype, out) ||
      !check_quantize_channels(ctx, op, scales, zps, s.channels, &p)) {
    return;
  }
  quantize_blocks(in, out, s, qmin, qmax, [&](size_t c, float* inv, int64_t* zp) {
    *inv = 1.0f / static_cast<float>(p.scale_at(c));
    *zp = p.zero_point_at(c);
  });
}

// quantize_per_channel.out(input, Tensor scales, Tensor zero_points, int axis,
//   int quant_min, int quant_max, ScalarType dtype, *, out)
void quantize_per_channel_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "quantized_decomposed::quantize_per_channel.out";
  if (!check_nargs(ctx, args, 9, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  Tensor* scales = in != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* zps = scales != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  int64_t axis = 0, qmin = 0, qmax = 0;
  ScalarType dtype = ScalarType::Undefined;
  if (zps == nullptr || !get_int(ctx, args, 3, name, &axis) ||
      !get_int(ctx, args, 4, name, &qmin) || !get_int(ctx, args, 5, name, &qmax) ||
      !get_dtype(ctx, args, 6, name, &dtype)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 7, name);
  if (out == nullptr) return;
  if (in->dim() == 0) {
    PK_FAIL(ctx, name, "the input must have at least one dim");
    return;
  }
  if (!norm_dim(ctx, axis, in->dim(), name, &axis)) return;
  quantize_channels(ctx, name, *in, *scales, *zps, split_at_axis(*in, axis), qmin, qmax, dtype,
                    *out);
}

// quantize_per_token.out(input, Tensor scales, Tensor zero_points,
//   int quant_min, int quant_max, ScalarType dtype, *, out): one scale and
//   zero point per token (every dim but the last).
void quantize_per_token_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "quantized_decomposed::quantize_per_token.out";
  if (!check_nargs(ctx, args, 8, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  Tensor* scales = in != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* zps = scales != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  int64_t qmin = 0, qmax = 0;
  ScalarType dtype = ScalarType::Undefined;
  AxisSplit s;
  if (zps == nullptr || !get_int(ctx, args, 3, name, &qmin) ||
      !get_int(ctx, args, 4, name, &qmax) || !get_dtype(ctx, args, 5, name, &dtype) ||
      !token_split(ctx, name, *in, &s)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 6, name);
  if (out == nullptr) return;
  quantize_channels(ctx, name, *in, *scales, *zps, s, qmin, qmax, dtype, *out);
}

const Kernel kQuantizeKernels[] = {
    Kernel("quantized_decomposed::quantize_per_tensor.out", quantize_per_tensor_out),
    Kernel("quantized_decomposed::quantize_per_tensor.Tensor_out", quantize_per_tensor_tensor_out),
    Kernel("quantized_decomposed::quantize_per_channel.out", quantize_per_channel_out),
    Kernel("quantized_decomposed::quantize_per_token.out", quantize_per_token_out),
};

} // namespace

Span<const Kernel> quantize_kernels() {
  return Span<const Kernel>(kQuantizeKernels,
                            sizeof(kQuantizeKernels) / sizeof(kQuantizeKernels[0]));
}

} // namespace quantized
} // namespace runtime
} // namespace executorch
