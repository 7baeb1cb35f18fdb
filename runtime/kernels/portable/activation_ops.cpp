// Activations with parameters: elu, leaky_relu, glu and logit (relu, gelu,
// sigmoid, tanh, silu and hardtanh live with the unary and clamp ops).
// Floating dtypes; values computed in double, rounded to the out's dtype.
#include <cmath>

#include "elementwise_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

double scalar_value(const ScalarArg& s) { return s.is_float ? s.d : static_cast<double>(s.i); }

// Applies f to a floating self into an out of the same dtype.
template <typename F>
void same_float_map(KernelRuntimeContext& ctx, const char* name, const Tensor& self, Tensor& out,
                    F f) {
  if (!require_floating(ctx, self, name) || !require_same_dtype(ctx, self, out, name)) return;
  const ScalarType t = self.scalar_type();
  const void* ip = self.const_data_ptr();
  void* op = out.mutable_data_ptr();
  for_each_unary(ctx, name, self, out, [&](int64_t x, int64_t o) {
    store_d(t, op, static_cast<size_t>(o), f(load_d(t, ip, static_cast<size_t>(x))));
  });
}

// elu.out(self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1, *, out)
void elu_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::elu.out";
  if (!check_nargs(ctx, args, 6, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  ScalarArg alpha, scale, input_scale;
  if (self == nullptr || !get_scalar(ctx, args, 1, name, &alpha) ||
      !get_scalar(ctx, args, 2, name, &scale) || !get_scalar(ctx, args, 3, name, &input_scale)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 4, name);
  if (out == nullptr) return;
  const double a = scalar_value(alpha), s = scalar_value(scale), is = scalar_value(input_scale);
  same_float_map(ctx, name, *self, *out,
                 [=](double x) { return x > 0 ? s * x : s * a * std::expm1(x * is); });
}

// leaky_relu.out(self, Scalar negative_slope=0.01, *, out)
void leaky_relu_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::leaky_relu.out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  ScalarArg slope;
  if (self == nullptr || !get_scalar(ctx, args, 1, name, &slope)) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr) return;
  const double k = scalar_value(slope);
  same_float_map(ctx, name, *self, *out, [=](double x) { return x > 0 ? x : x * k; });
}

// logit.out(self, float? eps=None, *, out): log(x / (1 - x)) with x clamped
// to [eps, 1 - eps] when eps is given; a floating out.
void logit_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::logit.out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  if (self == nullptr) return;
  const bool has_eps = !args[1]->isNone();
  double eps = 0;
  if (has_eps && !get_double(ctx, args, 1, name, &eps)) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr || !require_floating(ctx, *out, name)) return;
  const ScalarType it = self->scalar_type(), ot = out->scalar_type();
  const void* ip = self->const_data_ptr();
  void* op = out->mutable_data_ptr();
  for_each_unary(ctx, name, *self, *out, [&](int64_t xo, int64_t o) {
    double x = load_d(it, ip, static_cast<size_t>(xo));
    if (has_eps) x = x < eps ? eps : x > 1 - eps ? 1 - eps : x;
    store_d(ot, op, static_cast<size_t>(o), std::log(x / (1 - x)));
  });
}

// glu.out(self, int dim=-1, *, out): first half * sigmoid(second half) along dim.
void glu_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::glu.out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  int64_t dim = 0;
  if (self == nullptr || !get_int(ctx, args, 1, name, &dim)) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr || !require_floating(ctx, *self, name) ||
      !require_same_dtype(ctx, *self, *out, name)) {
    return;
  }
  if (self->dim() == 0 || !norm_dim(ctx, dim, self->dim(), name, &dim)) {
    if (ctx.failure_state() == Error::Ok) PK_FAIL(ctx, name, "needs at least one dim");
    return;
  }
  if (self->size(dim) % 2 != 0) {
    PK_FAIL(ctx, name, "dim %lld has odd size %d", static_cast<long long>(dim),
            static_cast<int>(self->size(dim)));
    return;
  }
  Shape half = shape_of(*self);
  half.s[dim] /= 2;
  if (!resize_out(ctx, *out, half, name)) return;
  // The two halves are views of self: same strides, the second offset by
  // half the dim's extent.
  int64_t st[2][kMaxDim];
  tensor_strides(*self, st[0]);
  tensor_strides(*out, st[1]);
  const int64_t second = half.s[dim] * st[0][dim];
  const ScalarType t = self->scalar_type();
  const void* ip = self->const_data_ptr();
  void* op = out->mutable_data_ptr();
  for_each_broadcast<2>(half, st, [&](size_t, const int64_t* o) {
    const double a = load_d(t, ip, static_cast<size_t>(o[0]));
    const double b = load_d(t, ip, static_cast<size_t>(o[0] + second));
    store_d(t, op, static_cast<size_t>(o[1]), a / (1.0 + std::exp(-b)));
  });
}

const Kernel kActivationKernels[] = {
    Kernel("aten::elu.out", elu_out),
    Kernel("aten::leaky_relu.out", leaky_relu_out),
    Kernel("aten::logit.out", logit_out),
    Kernel("aten::glu.out", glu_out),
};

} // namespace

Span<const Kernel> activation_kernels() {
  return Span<const Kernel>(kActivationKernels,
                            sizeof(kActivationKernels) / sizeof(kActivationKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
