// Normalization: native_layer_norm, _native_batch_norm_legit_no_training.
#include <cmath>

#include "norm.h"

#include "kernels.h"

namespace executorch {
namespace runtime {
namespace portable {

namespace {
bool check_layer_norm_tensors(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* w,
                              const Tensor* b, const Tensor& out, const Tensor& mean_out,
                              const Tensor& rstd_out, const char* name) {
  return require_floating(ctx, in, name) && require_same_dtype(ctx, in, out, name) &&
         require_same_dtype(ctx, in, mean_out, name) &&
         require_same_dtype(ctx, in, rstd_out, name) && require_contiguous(ctx, in, name) &&
         require_contiguous(ctx, out, name) &&
         (w == nullptr ||
          (require_same_dtype(ctx, in, *w, name) && require_contiguous(ctx, *w, name))) &&
         (b == nullptr ||
          (require_same_dtype(ctx, in, *b, name) && require_contiguous(ctx, *b, name)));
}

// Checks normalized_shape against the input's trailing dims and the
// weight/bias sizes; *inner is the number of elements normalized together.
bool layer_norm_inner(KernelRuntimeContext& ctx, const Tensor& in, const IntList& ns,
                      const Tensor* w, const Tensor* b, const char* name, int64_t* inner) {
  const int64_t rank = in.dim();
  if (ns.n == 0 || static_cast<int64_t>(ns.n) > rank) {
    PK_FAIL(ctx, name, "normalized_shape of %zu dims for rank %lld", ns.n,
            static_cast<long long>(rank));
    return false;
  }
  const int64_t axis = rank - static_cast<int64_t>(ns.n);
  *inner = 1;
  for (size_t i = 0; i < ns.n; ++i) {
    if (ns.v[i] != in.sizes()[axis + static_cast<int64_t>(i)]) {
      PK_FAIL(ctx, name, "normalized_shape does not match the input's trailing dims");
      return false;
    }
    *inner *= ns.v[i];
  }
  if ((w != nullptr && w->numel() != *inner) || (b != nullptr && b->numel() != *inner)) {
    PK_FAIL(ctx, name, "weight/bias must have normalized_shape's %lld elements",
            static_cast<long long>(*inner));
    return false;
  }
  return true;
}

} // namespace

// Normalizes `outer` rows of `inner` elements, writing each row's mean and
// 1/std to mean_out and rstd_out.
void layer_norm_rows(const Tensor& in, const Tensor* w, const Tensor* b, double eps, int64_t outer,
                     int64_t inner, Tensor& out, Tensor& mean_out, Tensor& rstd_out) {
  const ScalarType t = in.scalar_type();
  const void* ip = in.const_data_ptr();
  void* op = out.mutable_data_ptr();
  for (int64_t o = 0; o < outer; ++o) {
    const size_t base = static_cast<size_t>(o * inner);
    double sum = 0;
    for (int64_t i = 0; i < inner; ++i) sum += load_d(t, ip, base + static_cast<size_t>(i));
    const double mean = inner == 0 ? 0.0 : sum / static_cast<double>(inner);
    double var = 0;
    for (int64_t i = 0; i < inner; ++i) {
      const double dv = load_d(t, ip, base + static_cast<size_t>(i)) - mean;
      var += dv * dv;
    }
    var = inner == 0 ? 0.0 : var / static_cast<double>(inner);
    const double rstd = 1.0 / std::sqrt(var + eps);
    for (int64_t i = 0; i < inner; ++i) {
      const size_t k = static_cast<size_t>(i);
      double y = (load_d(t, ip, base + k) - mean) * rstd;
      if (w != nullptr) y *= load_d(t, w->const_data_ptr(), k);
      if (b != nullptr) y += load_d(t, b->const_data_ptr(), k);
      store_d(t, op, base + k, y);
    }
    store_d(t, mean_out.mutable_data_ptr(), static_cast<size_t>(o), mean);
    store_d(t, rstd_out.mutable_data_ptr(), static_cast<size_t>(o), rstd);
  }
}

// native_layer_norm.out(input, normalized_shape, weight?, bias?, eps, *,
//     out0, out1, out2) -> (out0, out1, out2)
bool prepare_layer_norm(KernelRuntimeContext& ctx, Args args, LayerNormCall* call) {
  const char* name = "aten::native_layer_norm.out";
  if (!check_nargs_multi_out(ctx, args, 5, 3, name)) return false;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return false;
  IntList ns;
  if (!get_int_list(ctx, args, 1, name, &ns)) return false;
  Tensor *w = nullptr, *b = nullptr;
  if (!get_opt_tensor(ctx, args, 2, name, &w) || !get_opt_tensor(ctx, args, 3, name, &b)) {
    return false;
  }
  double eps;
  if (!get_double(ctx, args, 4, name, &eps)) return false;
  Tensor* out = get_tensor(ctx, args, 5, name);
  if (out == nullptr) return false;
  Tensor* mean_out = get_tensor(ctx, args, 6, name);
  if (mean_out == nullptr) return false;
  Tensor* rstd_out = get_tensor(ctx, args, 7, name);
  if (rstd_out == nullptr) return false;
  int64_t inner;
  if (!check_layer_norm_tensors(ctx, *in, w, b, *out, *mean_out, *rstd_out, name) ||
      !layer_norm_inner(ctx, *in, ns, w, b, name, &inner)) {
    return false;
  }
  // mean and rstd keep the input's shape with the normalized dims set to 1.
  Shape ms = shape_of(*in);
  for (int64_t d = in->dim() - static_cast<int64_t>(ns.n); d < in->dim(); ++d) ms.s[d] = 1;
  if (!resize_out(ctx, *out, in->sizes(), name) || !resize_out(ctx, *mean_out, ms, name) ||
      !resize_out(ctx, *rstd_out, ms, name)) {
    return false;
  }
  const int64_t outer = inner == 0 ? ms.numel() : in->numel() / inner;
  *call = LayerNormCall{in, w, b, eps, outer, inner, out, mean_out, rstd_out};
  return true;
}

void native_layer_norm_out(KernelRuntimeContext& ctx, Args args) {
  LayerNormCall c;
  if (!prepare_layer_norm(ctx, args, &c)) return;
  layer_norm_rows(*c.in, c.w, c.b, c.eps, c.outer, c.inner, *c.out, *c.mean_out, *c.rstd_out);
}

// _native_batch_norm_legit_no_training.out(input, weight?, bias?, running_mean,
//     running_var, momentum, eps, *, out0, out1, out2) -> (out0, out1, out2)
bool prepare_batch_norm(KernelRuntimeContext& ctx, Args args, BatchNormCall* call) {
  const char* name = "aten::_native_batch_norm_legit_no_training.out";
  if (!check_nargs_multi_out(ctx, args, 7, 3, name)) return false;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return false;
  Tensor *w = nullptr, *b = nullptr;
  if (!get_opt_tensor(ctx, args, 1, name, &w) || !get_opt_tensor(ctx, args, 2, name, &b)) {
    return false;
  }
  Tensor* rm = get_tensor(ctx, args, 3, name);
  if (rm == nullptr) return false;
  Tensor* rv = get_tensor(ctx, args, 4, name);
  if (rv == nullptr) return false;
  double momentum, eps;
  if (!get_double(ctx, args, 5, name, &momentum) || !get_double(ctx, args, 6, name, &eps)) {
    return false;
  }
  Tensor* out = get_tensor(ctx, args, 7, name);
  if (out == nullptr) return false;
  Tensor* o1 = get_tensor(ctx, args, 8, name);
  if (o1 == nullptr) return false;
  Tensor* o2 = get_tensor(ctx, args, 9, name);
  if (o2 == nullptr) return false;
  if (!require_floating(ctx, *in, name) || !require_same_dtype(ctx, *in, *out, name) ||
      !require_contiguous(ctx, *in, name) || !require_contiguous(ctx, *out, name)) {
    return false;
  }
  if (in->dim() < 2) {
    PK_FAIL(ctx, name, "input must have a channel dim");
    return false;
  }
  const int64_t C = in->size(1);
  const Tensor* per_c[4] = {w, b, rm, rv};
  for (const Tensor* t : per_c) {
    if (t != nullptr && (t->dim() != 1 || t->size(0) != C || !isFloatingType(t->scalar_type()))) {
      PK_FAIL(ctx, name, "weight/bias/running stats must be floating with shape (%lld)",
              static_cast<long long>(C));
      return false;
    }
  }
  if (!resize_out(ctx, *out, in->sizes(), name)) return false;
  // The saved statistics are empty in inference; leave them as planned when
  // they cannot be resized to (0).
  SizesType zero[1] = {0};
  if (o1->dim() == 1)
    (void)o1->unsafeGetTensorImpl()->internal_resize_contiguous(ArrayRef<SizesType>(zero, 1));
  if (o2->dim() == 1)
    (void)o2->unsafeGetTensorImpl()->internal_resize_contiguous(ArrayRef<SizesType>(zero, 1));
  const int64_t N = in->size(0);
  const int64_t inner = C == 0 || N == 0 ? 0 : in->numel() / (N * C);
  *call = BatchNormCall{in, w, b, rm, rv, eps, N, C, inner, out};
  return true;
}

void batch_norm_rows(const BatchNormCall& bn) {
  const Tensor *in = bn.in, *w = bn.w, *b = bn.b, *rm = bn.rm, *rv = bn.rv;
  Tensor* out = bn.out;
  const int64_t N = bn.N, C = bn.C, inner = bn.inner;
  const double eps = bn.eps;
  const ScalarType t = in->scalar_type();
  for (int64_t c = 0; c < C; ++c) {
    const size_t ci = static_cast<size_t>(c);
    const double mean = load_d(rm->scalar_type(), rm->const_data_ptr(), ci);
    const double var = load_d(rv->scalar_type(), rv->const_data_ptr(), ci);
    const double scale = (w != nullptr ? load_d(w->scalar_type(), w->const_data_ptr(), ci) : 1.0) /
                         std::sqrt(var + eps);
    const double shift = b != nullptr ? load_d(b->scalar_type(), b->const_data_ptr(), ci) : 0.0;
    for (int64_t n = 0; n < N; ++n) {
      const size_t base = static_cast<size_t>((n * C + c) * inner);
      for (int64_t i = 0; i < inner; ++i) {
        const size_t k = base + static_cast<size_t>(i);
        store_d(t, out->mutable_data_ptr(), k,
                (load_d(t, in->const_data_ptr(), k) - mean) * scale + shift);
      }
    }
  }
}

void batch_norm_no_training_out(KernelRuntimeContext& ctx, Args args) {
  BatchNormCall c;
  if (prepare_batch_norm(ctx, args, &c)) batch_norm_rows(c);
}

} // namespace portable
} // namespace runtime
} // namespace executorch
