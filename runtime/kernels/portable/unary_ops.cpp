// Elementwise unary ops (relu, gelu, sigmoid, tanh, silu), copies and dtype
// conversions (clone, _to_copy, the dim-order copies) and full.
#include <cmath>

#include "kernels.h"
#include "unary.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// out = f(in) computed in double and stored in out's dtype; out already has
// in's shape; any dim order (a flat loop when both are contiguous float32).
template <typename F>
void map_float(const Tensor& in, Tensor& out, F f) {
  const ScalarType it = in.scalar_type(), ot = out.scalar_type();
  const void* ip = in.const_data_ptr();
  void* op = out.mutable_data_ptr();
  if (it == ScalarType::Float && ot == ScalarType::Float && is_default_dim_order(in) &&
      is_default_dim_order(out)) {
    const float* x = static_cast<const float*>(ip);
    float* y = static_cast<float*>(op);
    const size_t n = static_cast<size_t>(in.numel());
    for (size_t i = 0; i < n; ++i) y[i] = static_cast<float>(f(static_cast<double>(x[i])));
    return;
  }
  for_each_resized_unary(in, out, [&](int64_t x, int64_t o) {
    store_d(ot, op, static_cast<size_t>(o), f(load_d(it, ip, static_cast<size_t>(x))));
  });
}

// Common checks of op(self, out): the argument count and both tensors.
bool unary_prologue(KernelRuntimeContext& ctx, Args args, size_t nargs, size_t out_idx,
                    const char* name, UnaryCall* call) {
  call->name = name;
  if (!check_nargs(ctx, args, nargs, name)) return false;
  call->in = get_tensor(ctx, args, 0, name);
  if (call->in == nullptr) return false;
  call->out = get_tensor(ctx, args, out_idx, name);
  return call->out != nullptr;
}

// sigmoid/tanh: any real input, floating output.
bool prepare_float_result(KernelRuntimeContext& ctx, Args args, const char* name, UnaryCall* call) {
  if (!unary_prologue(ctx, args, 3, 1, name, call)) return false;
  const Tensor &in = *call->in, &out = *call->out;
  if (!require_floating(ctx, out, name)) return false;
  if (isFloatingType(in.scalar_type()) && in.scalar_type() != out.scalar_type()) {
    PK_FAIL(ctx, name, "output dtype %s differs from the input's %s", toString(out.scalar_type()),
            toString(in.scalar_type()));
    return false;
  }
  return resize_unary(ctx, name, in, *call->out);
}

// silu/gelu: floating input, same dtype output.
bool check_float_same(KernelRuntimeContext& ctx, UnaryCall* call) {
  return require_floating(ctx, *call->in, call->name) &&
         require_same_dtype(ctx, *call->in, *call->out, call->name) &&
         resize_unary(ctx, call->name, *call->in, *call->out);
}

} // namespace

bool prepare_relu(KernelRuntimeContext& ctx, Args args, UnaryCall* call) {
  const char* name = "aten::relu.out";
  if (!unary_prologue(ctx, args, 3, 1, name, call)) return false;
  if (!require_same_dtype(ctx, *call->in, *call->out, name)) return false;
  if (call->in->scalar_type() == ScalarType::Bool) {
    PK_FAIL(ctx, name, "bool is not supported");
    return false;
  }
  return resize_unary(ctx, name, *call->in, *call->out);
}

void run_relu(const UnaryCall& c) {
  const ScalarType t = c.in->scalar_type();
  if (isFloatingType(t)) {
    // NaN stays NaN (x < 0 is false for NaN, so keep x then).
    map_float(*c.in, *c.out, [](double x) { return x < 0 ? 0.0 : x; });
    return;
  }
  const void* ip = c.in->const_data_ptr();
  void* op = c.out->mutable_data_ptr();
  for_each_resized_unary(*c.in, *c.out, [&](int64_t xo, int64_t o) {
    const int64_t x = load_i(t, ip, static_cast<size_t>(xo));
    store_i(t, op, static_cast<size_t>(o), x < 0 ? 0 : x);
  });
}

void relu_out(KernelRuntimeContext& ctx, Args args) {
  UnaryCall c;
  if (prepare_relu(ctx, args, &c)) run_relu(c);
}

bool prepare_gelu(KernelRuntimeContext& ctx, Args args, UnaryCall* call) {
  const char* name = "aten::gelu.out";
  if (!unary_prologue(ctx, args, 4, 2, name, call)) return false;
  std::string_view approx = "none";
  if (!args[1]->isNone() && !get_string(ctx, args, 1, name, &approx)) return false;
  if (approx != "none" && approx != "tanh") {
    PK_FAIL(ctx, name, "unknown approximate mode '%.*s'", static_cast<int>(approx.size()),
            approx.data());
    return false;
  }
  call->tanh_approx = approx == "tanh";
  return check_float_same(ctx, call);
}

void run_gelu(const UnaryCall& c) {
  if (!c.tanh_approx) {
    map_float(*c.in, *c.out, [](double x) { return 0.5 * x * (1.0 + std::erf(x * M_SQRT1_2)); });
    return;
  }
  const double k = std::sqrt(2.0 / M_PI);
  map_float(*c.in, *c.out,
            [k](double x) { return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x))); });
}

void gelu_out(KernelRuntimeContext& ctx, Args args) {
  UnaryCall c;
  if (prepare_gelu(ctx, args, &c)) run_gelu(c);
}

bool prepare_sigmoid(KernelRuntimeContext& ctx, Args args, UnaryCall* call) {
  return prepare_float_result(ctx, args, "aten::sigmoid.out", call);
}

void run_sigmoid(const UnaryCall& c) {
  map_float(*c.in, *c.out, [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
}

void sigmoid_out(KernelRuntimeContext& ctx, Args args) {
  UnaryCall c;
  if (prepare_sigmoid(ctx, args, &c)) run_sigmoid(c);
}

bool prepare_tanh(KernelRuntimeContext& ctx, Args args, UnaryCall* call) {
  return prepare_float_result(ctx, args, "aten::tanh.out", call);
}

void run_tanh(const UnaryCall& c) {
  map_float(*c.in, *c.out, [](double x) { return std::tanh(x); });
}

void tanh_out(KernelRuntimeContext& ctx, Args args) {
  UnaryCall c;
  if (prepare_tanh(ctx, args, &c)) run_tanh(c);
}

bool prepare_silu(KernelRuntimeContext& ctx, Args args, UnaryCall* call) {
  return unary_prologue(ctx, args, 3, 1, "aten::silu.out", call) && check_float_same(ctx, call);
}

void run_silu(const UnaryCall& c) {
  map_float(*c.in, *c.out, [](double x) { return x / (1.0 + std::exp(-x)); });
}

void silu_out(KernelRuntimeContext& ctx, Args args) {
  UnaryCall c;
  if (prepare_silu(ctx, args, &c)) run_silu(c);
}

// clone.out(self, *, memory_format=None, out) -> out
void clone_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::clone.out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr) return;
  if (!args[1]->isNone() && !args[1]->isInt()) {
    PK_FAIL(ctx, name, "memory_format must be None or an Int");
    return;
  }
  if (!require_same_dtype(ctx, *in, *out, name)) return;
  if (in->dim() != out->dim()) {
    PK_FAIL(ctx, name, "output rank differs from the input's");
    return;
  }
  if (!resize_out(ctx, *out, in->sizes(), name)) return;
  copy_convert(*in, *out);
}

// _to_copy.out(self, *, non_blocking=False, memory_format=None, out) -> out
void to_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::_to_copy.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return;
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  bool nb = false;
  if (!get_bool(ctx, args, 1, name, &nb)) return;
  if (!args[2]->isNone() && !args[2]->isInt()) {
    PK_FAIL(ctx, name, "memory_format must be None or an Int");
    return;
  }
  if (in->dim() != out->dim()) {
    PK_FAIL(ctx, name, "output rank differs from the input's");
    return;
  }
  if (!resize_out(ctx, *out, in->sizes(), name)) return;
  copy_convert(*in, *out);
}

namespace {
// The dim-order copies: self, non_blocking, dim_order?, out.
void dim_order_copy(KernelRuntimeContext& ctx, Args args, const char* name, bool same_dtype) {
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return;
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  bool nb = false;
  if (!get_bool(ctx, args, 1, name, &nb)) return;
  IntList order;
  bool has_order = false;
  if (!get_opt_int_list(ctx, args, 2, name, &order, &has_order)) return;
  if (same_dtype && !require_same_dtype(ctx, *in, *out, name)) return;
  if (in->dim() != out->dim()) {
    PK_FAIL(ctx, name, "output rank differs from the input's");
    return;
  }
  if (has_order) {
    if (order.n != static_cast<size_t>(out->dim())) {
      PK_FAIL(ctx, name, "dim_order has %zu entries for rank %zd", order.n,
              static_cast<ssize_t>(out->dim()));
      return;
    }
    for (size_t i = 0; i < order.n; ++i) {
      if (order.v[i] != out->dim_order()[i]) {
        PK_FAIL(ctx, name, "the output's dim order differs from the requested one");
        return;
      }
    }
  } else if (!is_default_dim_order(*out)) {
    // None means contiguous.
    PK_FAIL(ctx, name, "dim_order None needs a contiguous output");
    return;
  }
  if (!resize_out(ctx, *out, in->sizes(), name)) return;
  copy_convert(*in, *out);
}
} // namespace

void to_dim_order_copy_out(KernelRuntimeContext& ctx, Args args) {
  dim_order_copy(ctx, args, "dim_order_ops::_to_dim_order_copy.out", false);
}

void clone_dim_order_out(KernelRuntimeContext& ctx, Args args) {
  dim_order_copy(ctx, args, "dim_order_ops::_clone_dim_order.out", true);
}

// full.out(size, fill_value, *, out) -> out
void full_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::full.out";
  if (!check_nargs(ctx, args, 4, name)) return;
  IntList size;
  if (!get_int_list(ctx, args, 0, name, &size)) return;
  ScalarArg v;
  if (!get_scalar(ctx, args, 1, name, &v)) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr) return;
  if (size.n > static_cast<size_t>(kMaxDim)) {
    PK_FAIL(ctx, name, "too many dimensions");
    return;
  }
  Shape s;
  s.n = static_cast<int>(size.n);
  for (size_t i = 0; i < size.n; ++i) {
    if (size.v[i] < 0 || size.v[i] > INT32_MAX) {
      PK_FAIL(ctx, name, "invalid size %lld", static_cast<long long>(size.v[i]));
      return;
    }
    s.s[i] = static_cast<SizesType>(size.v[i]);
  }
  if (!resize_out(ctx, *out, s, name)) return;
  const ScalarType ot = out->scalar_type();
  const size_t n = static_cast<size_t>(out->numel());
  for (size_t i = 0; i < n; ++i) {
    if (v.is_float) {
      store_d(ot, out->mutable_data_ptr(), i, v.d);
    } else {
      store_i(ot, out->mutable_data_ptr(), i, v.i);
    }
  }
}

} // namespace portable
} // namespace runtime
} // namespace executorch
