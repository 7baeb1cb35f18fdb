// Matrix products: mm, bmm, addmm, linear.
#include "matmul.h"

#include "kernels.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

template <typename T>
struct Acc {
  using type = double;
};
template <>
struct Acc<int32_t> {
  using type = int64_t;
};
template <>
struct Acc<int64_t> {
  using type = int64_t;
};

// C[b] (n x m) = alpha * A[b] (n x k) @ B[b] (k x m) [+ beta * bias], where B is
// read with strides (b_row, b_col) so linear can use the weight transposed.
// bias (optional) is read at bias_off(i, j).
template <typename T, typename BiasF>
void gemm(int64_t batch, int64_t n, int64_t k, int64_t m, const T* a, const T* b, int64_t b_row,
          int64_t b_col, T* c, double alpha, BiasF bias) {
  using A = typename Acc<T>::type;
  for (int64_t bi = 0; bi < batch; ++bi) {
    const T* ab = a + bi * n * k;
    const T* bb = b + bi * k * m;
    T* cb = c + bi * n * m;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < m; ++j) {
        A acc = 0;
        for (int64_t p = 0; p < k; ++p) {
          acc += static_cast<A>(ab[i * k + p]) * static_cast<A>(bb[p * b_row + j * b_col]);
        }
        cb[i * m + j] = static_cast<T>(static_cast<double>(acc) * alpha + bias(i, j));
      }
    }
  }
}

template <typename T>
void gemm_int_exact(int64_t batch, int64_t n, int64_t k, int64_t m, const T* a, const T* b,
                    int64_t b_row, int64_t b_col, T* c) {
  for (int64_t bi = 0; bi < batch; ++bi) {
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < m; ++j) {
        int64_t acc = 0;
        for (int64_t p = 0; p < k; ++p) {
          acc = wrap_add(
              acc, wrap_mul(a[bi * n * k + i * k + p], b[bi * k * m + p * b_row + j * b_col]));
        }
        c[bi * n * m + i * m + j] = static_cast<T>(acc);
      }
    }
  }
}

bool mm_dtype_ok(KernelRuntimeContext& ctx, ScalarType t, const char* name) {
  switch (t) {
    case ScalarType::Float:
    case ScalarType::Double:
    case ScalarType::Half:
    case ScalarType::BFloat16:
    case ScalarType::Int:
    case ScalarType::Long:
      return true;
    default:
      PK_FAIL(ctx, name, "unsupported dtype %s", toString(t));
      return false;
  }
}

bool check_all(KernelRuntimeContext& ctx, const char* name,
               std::initializer_list<const Tensor*> ts) {
  const Tensor* first = *ts.begin();
  if (!mm_dtype_ok(ctx, first->scalar_type(), name)) return false;
  for (const Tensor* t : ts) {
    if (t == nullptr) continue;
    if (!require_same_dtype(ctx, *first, *t, name) || !require_contiguous(ctx, *t, name)) {
      return false;
    }
  }
  return true;
}

// Reads (self, mat2, *, out) of mm and bmm and checks their dtypes and layout.
bool get_matmul_args(KernelRuntimeContext& ctx, Args args, const char* name, Tensor** a, Tensor** b,
                     Tensor** out) {
  if (!check_nargs(ctx, args, 4, name)) return false;
  *a = get_tensor(ctx, args, 0, name);
  if (*a == nullptr) return false;
  *b = get_tensor(ctx, args, 1, name);
  if (*b == nullptr) return false;
  *out = get_tensor(ctx, args, 2, name);
  if (*out == nullptr) return false;
  return check_all(ctx, name, {*a, *b, *out});
}

} // namespace

// Dispatches gemm over the supported dtypes; bias read through load_d.
void run_gemm(const GemmCall& call) {
  const ScalarType t = call.dtype;
  const int64_t batch = call.batch, n = call.n, k = call.k, m = call.m;
  const void *a = call.a, *b = call.b;
  const int64_t b_row = call.b_row, b_col = call.b_col;
  void* c = call.c;
  const double alpha = call.alpha, beta = call.beta;
  const Tensor* bias = call.bias;
  const int64_t* bstr = call.bias_stride;
  auto bias_fn = [&](int64_t i, int64_t j) -> double {
    if (bias == nullptr) return 0.0;
    return beta * load_d(bias->scalar_type(), bias->const_data_ptr(),
                         static_cast<size_t>(i * bstr[0] + j * bstr[1]));
  };
  switch (t) {
    case ScalarType::Float:
      gemm(batch, n, k, m, static_cast<const float*>(a), static_cast<const float*>(b), b_row, b_col,
           static_cast<float*>(c), alpha, bias_fn);
      break;
    case ScalarType::Double:
      gemm(batch, n, k, m, static_cast<const double*>(a), static_cast<const double*>(b), b_row,
           b_col, static_cast<double*>(c), alpha, bias_fn);
      break;
    case ScalarType::Half:
      gemm(batch, n, k, m, static_cast<const Half*>(a), static_cast<const Half*>(b), b_row, b_col,
           static_cast<Half*>(c), alpha,
           [&](int64_t i, int64_t j) -> double { return static_cast<float>(bias_fn(i, j)); });
      break;
    case ScalarType::BFloat16:
      gemm(batch, n, k, m, static_cast<const BFloat16*>(a), static_cast<const BFloat16*>(b), b_row,
           b_col, static_cast<BFloat16*>(c), alpha, bias_fn);
      break;
    case ScalarType::Int:
    case ScalarType::Long: {
      // Integer products stay exact (wrapping); alpha/beta are integral here.
      const size_t total = static_cast<size_t>(batch * n * m);
      if (t == ScalarType::Int) {
        gemm_int_exact(batch, n, k, m, static_cast<const int32_t*>(a),
                       static_cast<const int32_t*>(b), b_row, b_col, static_cast<int32_t*>(c));
      } else {
        gemm_int_exact(batch, n, k, m, static_cast<const int64_t*>(a),
                       static_cast<const int64_t*>(b), b_row, b_col, static_cast<int64_t*>(c));
      }
      if (alpha != 1.0 || bias != nullptr) {
        const int64_t al = static_cast<int64_t>(alpha), be = static_cast<int64_t>(beta);
        for (size_t idx = 0; idx < total; ++idx) {
          const int64_t i = static_cast<int64_t>(idx) / m % n, j = static_cast<int64_t>(idx) % m;
          int64_t v = wrap_mul(al, load_i(t, c, idx));
          if (bias != nullptr) {
            v = wrap_add(v, wrap_mul(be, load_i(bias->scalar_type(), bias->const_data_ptr(),
                                                static_cast<size_t>(i * bstr[0] + j * bstr[1]))));
          }
          store_i(t, c, idx, v);
        }
      }
      break;
    }
    default:
      break;
  }
}

namespace {

// The common part of mm and bmm: a (.., n, k) @ b (.., k, m) into out.
void fill_call(ScalarType t, int64_t batch, int64_t n, int64_t k, int64_t m, const Tensor& a,
               const Tensor& b, Tensor& out, GemmCall* call) {
  *call = GemmCall{t,
                   batch,
                   n,
                   k,
                   m,
                   a.const_data_ptr(),
                   b.const_data_ptr(),
                   m,
                   1,
                   out.mutable_data_ptr(),
                   1.0,
                   0.0,
                   nullptr,
                   {0, 0}};
}

} // namespace

// mm.out(self, mat2, *, out) -> out
bool prepare_mm(KernelRuntimeContext& ctx, Args args, GemmCall* call) {
  const char* name = "aten::mm.out";
  Tensor *a, *b, *out;
  if (!get_matmul_args(ctx, args, name, &a, &b, &out)) return false;
  if (a->dim() != 2 || b->dim() != 2 || a->size(1) != b->size(0)) {
    PK_FAIL(ctx, name, "needs (n, k) @ (k, m) matrices");
    return false;
  }
  SizesType os[2] = {a->sizes()[0], b->sizes()[1]};
  if (!resize_out(ctx, *out, ArrayRef<SizesType>(os, 2), name)) return false;
  fill_call(a->scalar_type(), 1, a->size(0), a->size(1), b->size(1), *a, *b, *out, call);
  return true;
}

// bmm.out(self, mat2, *, out) -> out
bool prepare_bmm(KernelRuntimeContext& ctx, Args args, GemmCall* call) {
  const char* name = "aten::bmm.out";
  Tensor *a, *b, *out;
  if (!get_matmul_args(ctx, args, name, &a, &b, &out)) return false;
  if (a->dim() != 3 || b->dim() != 3 || a->size(0) != b->size(0) || a->size(2) != b->size(1)) {
    PK_FAIL(ctx, name, "needs (b, n, k) @ (b, k, m) batches");
    return false;
  }
  SizesType os[3] = {a->sizes()[0], a->sizes()[1], b->sizes()[2]};
  if (!resize_out(ctx, *out, ArrayRef<SizesType>(os, 3), name)) return false;
  fill_call(a->scalar_type(), a->size(0), a->size(1), a->size(2), b->size(2), *a, *b, *out, call);
  return true;
}

// addmm.out(self, mat1, mat2, *, beta=1, alpha=1, out) -> out
bool prepare_addmm(KernelRuntimeContext& ctx, Args args, GemmCall* call) {
  const char* name = "aten::addmm.out";
  if (!check_nargs(ctx, args, 7, name)) return false;
  Tensor* bias = get_tensor(ctx, args, 0, name);
  if (bias == nullptr) return false;
  Tensor* a = get_tensor(ctx, args, 1, name);
  if (a == nullptr) return false;
  Tensor* b = get_tensor(ctx, args, 2, name);
  if (b == nullptr) return false;
  ScalarArg beta, alpha;
  if (!get_scalar(ctx, args, 3, name, &beta) || !get_scalar(ctx, args, 4, name, &alpha)) {
    return false;
  }
  Tensor* out = get_tensor(ctx, args, 5, name);
  if (out == nullptr) return false;
  if (!check_all(ctx, name, {a, b, out, bias})) return false;
  if (a->dim() != 2 || b->dim() != 2 || a->size(1) != b->size(0)) {
    PK_FAIL(ctx, name, "needs (n, k) @ (k, m) matrices");
    return false;
  }
  if (!isFloatingType(a->scalar_type()) && (alpha.is_float || beta.is_float)) {
    PK_FAIL(ctx, name, "floating alpha/beta need floating tensors");
    return false;
  }
  Shape os;
  os.n = 2;
  os.s[0] = a->sizes()[0];
  os.s[1] = b->sizes()[1];
  Shape bs;
  if (bias->dim() > 2 || !broadcast_shape(bias->sizes(), os.ref(), &bs) || bs.s[0] != os.s[0] ||
      bs.s[1] != os.s[1]) {
    PK_FAIL(ctx, name, "self does not broadcast to the product's shape");
    return false;
  }
  int64_t bstr[kMaxDim] = {};
  broadcast_strides(bias->sizes(), os, bstr);
  if (!resize_out(ctx, *out, os, name)) return false;
  fill_call(a->scalar_type(), 1, a->size(0), a->size(1), b->size(1), *a, *b, *out, call);
  call->alpha = alpha.d;
  call->beta = beta.d;
  call->bias = beta.d == 0.0 ? nullptr : bias;
  call->bias_stride[0] = bstr[0];
  call->bias_stride[1] = bstr[1];
  return true;
}

// linear.out(input, weight, bias=None, *, out) -> out
bool prepare_linear(KernelRuntimeContext& ctx, Args args, GemmCall* call) {
  const char* name = "aten::linear.out";
  if (!check_nargs(ctx, args, 5, name)) return false;
  Tensor* x = get_tensor(ctx, args, 0, name);
  if (x == nullptr) return false;
  Tensor* w = get_tensor(ctx, args, 1, name);
  if (w == nullptr) return false;
  Tensor* bias = nullptr;
  if (!get_opt_tensor(ctx, args, 2, name, &bias)) return false;
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return false;
  if (!check_all(ctx, name, {x, w, out, bias})) return false;
  if (x->dim() < 1 || w->dim() != 2 || x->size(x->dim() - 1) != w->size(1)) {
    PK_FAIL(ctx, name, "needs input (..., k) and weight (m, k)");
    return false;
  }
  const int64_t k = w->size(1), m = w->size(0);
  Shape os = shape_of(*x);
  os.s[os.n - 1] = static_cast<SizesType>(m);
  int64_t bstr[2] = {0, 0};
  if (bias != nullptr) {
    if (bias->dim() > 1 || (bias->dim() == 1 && bias->size(0) != m && bias->size(0) != 1)) {
      PK_FAIL(ctx, name, "bias must have shape (m)");
      return false;
    }
    bstr[1] = (bias->dim() == 1 && bias->size(0) == m) ? 1 : 0;
  }
  if (!resize_out(ctx, *out, os, name)) return false;
  int64_t rows = 1;
  for (int d = 0; d < os.n - 1; ++d) rows *= os.s[d];
  *call = GemmCall{x->scalar_type(),
                   1,
                   rows,
                   k,
                   m,
                   x->const_data_ptr(),
                   w->const_data_ptr(),
                   1,
                   k,
                   out->mutable_data_ptr(),
                   1.0,
                   1.0,
                   bias,
                   {bstr[0], bstr[1]}};
  return true;
}

void mm_out(KernelRuntimeContext& ctx, Args args) {
  GemmCall call;
  if (prepare_mm(ctx, args, &call)) run_gemm(call);
}

void bmm_out(KernelRuntimeContext& ctx, Args args) {
  GemmCall call;
  if (prepare_bmm(ctx, args, &call)) run_gemm(call);
}

void addmm_out(KernelRuntimeContext& ctx, Args args) {
  GemmCall call;
  if (prepare_addmm(ctx, args, &call)) run_gemm(call);
}

void linear_out(KernelRuntimeContext& ctx, Args args) {
  GemmCall call;
  if (prepare_linear(ctx, args, &call)) run_gemm(call);
}

} // namespace portable
} // namespace runtime
} // namespace executorch
