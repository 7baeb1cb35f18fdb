// quantized_decomposed::mixed_mm.out and mixed_linear.out: a float matrix
// times an int8 weight dequantized on the fly (scales only: upstream
// rejects zero points, and so do we).
//   mixed_mm:     in [m, k] x weight [k, n], scales [k]:
//                 out[i][j] = sum_k in[i][k] * w[k][j] * s[k]
//   mixed_linear: in [m, k] x weight [n, k]^T, scales [n] or [n, groups]:
//                 out[i][j] = sum_g s[j][g] * sum_{k in group g} in[i][k] * w[j][k]
// Inputs float32 or float16, scales of the input's dtype; sums in float32 in
// upstream's order (upstream sums float16 inputs in float16). Contiguous.
#include "quant_util.h"
#include "quantized_tables.h"

namespace executorch {
namespace runtime {
namespace quantized {
namespace {

// in, weight, scales and the (absent) zero points, common to both ops.
bool check_mixed_args(KernelRuntimeContext& ctx, const char* op, const Tensor& in, const Tensor& w,
                      const Tensor& s, const Tensor* zp) {
  if (zp != nullptr) {
    PK_FAIL(ctx, op, "weight zero points are not supported (upstream neither)");
    return false;
  }
  if (in.dim() != 2 || w.dim() != 2) {
    PK_FAIL(ctx, op, "input and weight must be 2-D");
    return false;
  }
  if (!require_dtype_in(ctx, op, in, "input", {ScalarType::Float, ScalarType::Half}) ||
      !require_dtype_in(ctx, op, w, "weight", {ScalarType::Char}) ||
      !require_same_dtype(ctx, in, s, op)) {
    return false;
  }
  return require_contiguous(ctx, in, op) && require_contiguous(ctx, w, op) &&
         require_contiguous(ctx, s, op);
}

float at(const Tensor& t, int64_t i) {
  return static_cast<float>(load_d(t.scalar_type(), t.const_data_ptr(), static_cast<size_t>(i)));
}

// mixed_mm.out(input, weight, weight_scales, weight_zero_points?, *, out)
void mixed_mm_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "quantized_decomposed::mixed_mm.out";
  if (!check_nargs(ctx, args, 6, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  Tensor* w = in != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* s = w != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  Tensor* zp = nullptr;
  if (s == nullptr || !get_opt_tensor(ctx, args, 3, name, &zp)) return;
  Tensor* out = get_tensor(ctx, args, 4, name);
  if (out == nullptr || !check_mixed_args(ctx, name, *in, *w, *s, zp) ||
      !require_same_dtype(ctx, *in, *out, name)) {
    return;
  }
  const int64_t m = in->size(0), k = in->size(1), n = w->size(1);
  if (w->size(0) != k || s->dim() != 1 || s->size(0) != k) {
    PK_FAIL(ctx, name, "need input [m, k], weight [k, n] and scales [k] (k = %lld)",
            static_cast<long long>(k));
    return;
  }
  const SizesType os[2] = {static_cast<SizesType>(m), static_cast<SizesType>(n)};
  if (!resize_out(ctx, *out, ArrayRef<SizesType>(os, 2), name)) return;
  const int8_t* wp = w->const_data_ptr<int8_t>();
  void* op = out->mutable_data_ptr();
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float sum = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        sum += at(*in, i * k + kk) * static_cast<float>(wp[kk * n + j]) * at(*s, kk);
      }
      store_d(out->scalar_type(), op, static_cast<size_t>(i * n + j), sum);
    }
  }
}

// The output dtype of mixed_linear: `dtype` when given (float32 or
// float16), out's own otherwise (float32, float16 or float64).
bool check_linear_out(KernelRuntimeContext& ctx, const char* op, bool has_dtype, ScalarType dtype,
                      const Tensor& out) {
  if (has_dtype && dtype != ScalarType::Float && dtype != ScalarType::Half) {
    PK_FAIL(ctx, op, "dtype must be float32 or float16, got %s", toString(dtype));
    return false;
  }
  if (has_dtype && out.scalar_type() != dtype) {
    PK_FAIL(ctx, op, "out has dtype %s, expected %s", toString(out.scalar_type()), toString(dtype));
    return false;
  }
  return require_dtype_in(ctx, op, out, "out",
                          {ScalarType::Float, ScalarType::Half, ScalarType::Double});
}

// Row j of the weight against row i of the input, group by group.
float linear_dot(const Tensor& in, const int8_t* w, const Tensor& s, int64_t i, int64_t j,
                 int64_t k, int64_t groups) {
  const int64_t g = k / groups;
  float sum = 0;
  for (int64_t gi = 0; gi < groups; ++gi) {
    float psum = 0;
    for (int64_t kk = gi * g; kk < (gi + 1) * g; ++kk) {
      psum += at(in, i * k + kk) * static_cast<float>(w[j * k + kk]);
    }
    sum += psum * at(s, j * groups + gi);
  }
  return sum;
}

// mixed_linear.out(input, weight, weight_scales, weight_zero_points?,
//   ScalarType? dtype, *, out)
void mixed_linear_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "quantized_decomposed::mixed_linear.out";
  if (!check_nargs(ctx, args, 7, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  Tensor* w = in != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* s = w != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  Tensor* zp = nullptr;
  ScalarType dtype = ScalarType::Undefined;
  bool has_dtype = false;
  if (s == nullptr || !get_opt_tensor(ctx, args, 3, name, &zp) ||
      !get_opt_dtype(ctx, args, 4, name, &dtype, &has_dtype)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 5, name);
  if (out == nullptr || !check_mixed_args(ctx, name, *in, *w, *s, zp) ||
      !check_linear_out(ctx, name, has_dtype, dtype, *out)) {
    return;
  }
  const int64_t m = in->size(0), k = in->size(1), n = w->size(0);
  const int64_t groups = s->dim() == 2 ? s->size(1) : 1;
  if (w->size(1) != k || (s->dim() != 1 && s->dim() != 2) || s->size(0) != n || groups < 1 ||
      k % groups != 0) {
    PK_FAIL(ctx, name,
            "need input [m, k], weight [n, k], scales [n] or [n, groups] with groups "
            "dividing k");
    return;
  }
  const SizesType os[2] = {static_cast<SizesType>(m), static_cast<SizesType>(n)};
  if (!resize_out(ctx, *out, ArrayRef<SizesType>(os, 2), name)) return;
  const int8_t* wp = w->const_data_ptr<int8_t>();
  void* op = out->mutable_data_ptr();
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      store_d(out->scalar_type(), op, static_cast<size_t>(i * n + j),
              linear_dot(*in, wp, *s, i, j, k, groups));
    }
  }
}

const Kernel kMixedKernels[] = {
    Kernel("quantized_decomposed::mixed_mm.out", mixed_mm_out),
    Kernel("quantized_decomposed::mixed_linear.out", mixed_linear_out),
};

} // namespace

Span<const Kernel> mixed_kernels() {
  return Span<const Kernel>(kMixedKernels, sizeof(kMixedKernels) / sizeof(kMixedKernels[0]));
}

} // namespace quantized
} // namespace runtime
} // namespace executorch
