// p-norm distances between rows: _pdist_forward.out (every pair i < j of
// one matrix's rows) and _cdist_forward.out (every row of x1 against every
// row of x2, batch dims broadcast). Floating dtypes, computed in double;
// p = 0 counts differing coordinates, p = inf takes the largest. Any dim
// order.
#include <cmath>

#include "kernel_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// Reads the p of a p-norm: a finite or infinite value >= 0.
bool get_p(KernelRuntimeContext& ctx, Args args, size_t i, const char* name, double* p) {
  if (!get_double(ctx, args, i, name, p)) return false;
  if (!(*p >= 0)) {
    PK_FAIL(ctx, name, "p must be >= 0, got %g", *p);
    return false;
  }
  return true;
}

// One row of m elements: its dtype, data, element offset and stride.
struct Row {
  ScalarType t;
  const void* p;
  int64_t off, stride;
  double at(int64_t k) const { return load_d(t, p, static_cast<size_t>(off + k * stride)); }
};

double distance(const Row& a, const Row& b, int64_t m, double p) {
  double acc = 0;
  for (int64_t k = 0; k < m; ++k) {
    const double d = std::fabs(a.at(k) - b.at(k));
    if (p == 0) {
      acc += d != 0 ? 1 : 0;
    } else if (std::isinf(p)) {
      acc = d > acc || std::isnan(d) ? d : acc;
    } else if (p == 1) {
      acc += d;
    } else if (p == 2) {
      acc += d * d;
    } else {
      acc += std::pow(d, p);
    }
  }
  if (p == 0 || p == 1 || std::isinf(p)) return acc;
  return p == 2 ? std::sqrt(acc) : std::pow(acc, 1.0 / p);
}

// _pdist_forward.out(self, float p=2, *, out) -> out: [n * (n - 1) / 2]
void pdist_forward_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::_pdist_forward.out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  double p = 2;
  if (self == nullptr || !get_p(ctx, args, 1, name, &p)) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr || !require_floating(ctx, *self, name) ||
      !require_same_dtype(ctx, *self, *out, name)) {
    return;
  }
  if (self->dim() != 2) {
    PK_FAIL(ctx, name, "self must be 2-D, got rank %zd", static_cast<ssize_t>(self->dim()));
    return;
  }
  const int64_t n = self->size(0), m = self->size(1);
  const int64_t pairs = n * (n - 1) / 2; // n < 2^31: no overflow
  const SizesType size = static_cast<SizesType>(pairs);
  if (pairs > INT32_MAX || !resize_out(ctx, *out, ArrayRef<SizesType>(&size, 1), name)) return;
  const ScalarType t = self->scalar_type();
  const int64_t rs = self->strides()[0], cs = self->strides()[1], os = out->strides()[0];
  void* op = out->mutable_data_ptr();
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i + 1; j < n; ++j) {
      const Row a{t, self->const_data_ptr(), i * rs, cs}, b{t, self->const_data_ptr(), j * rs, cs};
      store_d(t, op, static_cast<size_t>(k++ * os), distance(a, b, m, p));
    }
  }
}

// Checks x1 [..., P, M] and x2 [..., R, M] and gives out's shape
// [broadcast(...), P, R].
bool cdist_shape(KernelRuntimeContext& ctx, const Tensor& x1, const Tensor& x2, const char* name,
                 Shape* s) {
  if (x1.dim() < 2 || x2.dim() < 2 || x1.size(x1.dim() - 1) != x2.size(x2.dim() - 1)) {
    PK_FAIL(ctx, name, "x1 and x2 must be [..., P, M] and [..., R, M]");
    return false;
  }
  const ArrayRef<SizesType> b1(x1.sizes().data(), static_cast<size_t>(x1.dim() - 2));
  const ArrayRef<SizesType> b2(x2.sizes().data(), static_cast<size_t>(x2.dim() - 2));
  if (!broadcast_shape(b1, b2, s) || s->n + 2 > kMaxDim) {
    PK_FAIL(ctx, name, "the batch dims of x1 and x2 do not broadcast");
    return false;
  }
  s->s[s->n++] = x1.size(x1.dim() - 2);
  s->s[s->n++] = x2.size(x2.dim() - 2);
  return true;
}

// _cdist_forward.out(x1, x2, float p, int? compute_mode, *, out) -> out
void cdist_forward_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::_cdist_forward.out";
  if (!check_nargs(ctx, args, 6, name)) return;
  Tensor* x1 = get_tensor(ctx, args, 0, name);
  Tensor* x2 = x1 != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  double p = 2;
  int64_t mode = 0;
  bool has_mode = false;
  if (x2 == nullptr || !get_p(ctx, args, 2, name, &p) ||
      !get_opt_int(ctx, args, 3, name, &mode, &has_mode)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 4, name);
  Shape s;
  if (out == nullptr || !require_floating(ctx, *x1, name) ||
      !require_same_dtype(ctx, *x1, *x2, name) || !require_same_dtype(ctx, *x1, *out, name) ||
      !cdist_shape(ctx, *x1, *x2, name, &s) || !resize_out(ctx, *out, s, name)) {
    return;
  }
  // Iterate the batch and P dims (R and M in the loop), each tensor read
  // through its own strides; x2's P stride and x1's R stride are 0.
  const int nb = s.n - 2;
  Shape outer = s;
  outer.n = nb + 1;
  int64_t st[3][kMaxDim] = {};
  int64_t x1s[kMaxDim], x2s[kMaxDim], os[kMaxDim];
  tensor_strides(*x1, x1s);
  tensor_strides(*x2, x2s);
  tensor_strides(*out, os);
  for (int d = 0; d < nb; ++d) {
    const int d1 = d - (nb - static_cast<int>(x1->dim() - 2));
    const int d2 = d - (nb - static_cast<int>(x2->dim() - 2));
    st[0][d] = d1 >= 0 && x1->size(d1) != 1 ? x1s[d1] : 0;
    st[1][d] = d2 >= 0 && x2->size(d2) != 1 ? x2s[d2] : 0;
    st[2][d] = os[d];
  }
  st[0][nb] = x1s[x1->dim() - 2];
  st[2][nb] = os[nb];
  const ScalarType t = x1->scalar_type();
  const int64_t r = s.s[nb + 1], m = x1->size(x1->dim() - 1);
  const int64_t m1 = x1s[x1->dim() - 1], m2 = x2s[x2->dim() - 1], r2 = x2s[x2->dim() - 2];
  void* op = out->mutable_data_ptr();
  for_each_broadcast<3>(outer, st, [&](size_t, const int64_t* o) {
    const Row a{t, x1->const_data_ptr(), o[0], m1};
    for (int64_t j = 0; j < r; ++j) {
      const Row b{t, x2->const_data_ptr(), o[1] + j * r2, m2};
      store_d(t, op, static_cast<size_t>(o[2] + j * os[nb + 1]), distance(a, b, m, p));
    }
  });
}

const Kernel kDistanceKernels[] = {
    Kernel("aten::_pdist_forward.out", pdist_forward_out),
    Kernel("aten::_cdist_forward.out", cdist_forward_out),
};

} // namespace

Span<const Kernel> distance_kernels() {
  return Span<const Kernel>(kDistanceKernels,
                            sizeof(kDistanceKernels) / sizeof(kDistanceKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
