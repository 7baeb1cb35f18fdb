#include "kernel_util.h"

#include <algorithm>

namespace executorch {
namespace runtime {
namespace portable {

bool check_nargs(KernelRuntimeContext& ctx, Args args, size_t n, const char* op) {
  if (args.size() != n) {
    PK_FAIL(ctx, op, "expected %zu arguments, got %zu", n, args.size());
    return false;
  }
  for (size_t i = 0; i < n; ++i) {
    if (args[i] == nullptr) {
      PK_FAIL(ctx, op, "argument %zu is null", i);
      return false;
    }
  }
  return true;
}

bool check_nargs_multi_out(KernelRuntimeContext& ctx, Args args, size_t n_in, size_t n_out,
                           const char* op) {
  if (!check_nargs(ctx, args, n_in + n_out + 1, op)) return false;
  const EValue* ret = args[n_in + n_out];
  if (!ret->isTensorList()) {
    PK_FAIL(ctx, op, "argument %zu (the returned tuple) must be a tensor list, got tag %s",
            n_in + n_out, tag_to_string(ret->tag));
    return false;
  }
  const size_t n = ret->payload.copyable_union.as_tensor_list.wrapped().size();
  if (n != n_out) {
    PK_FAIL(ctx, op, "the returned tuple has %zu entries, expected %zu", n, n_out);
    return false;
  }
  return true;
}

Tensor* get_tensor(KernelRuntimeContext& ctx, Args args, size_t i, const char* op) {
  EValue* v = args[i];
  if (!v->isTensor()) {
    PK_FAIL(ctx, op, "argument %zu must be a Tensor, got tag %s", i, tag_to_string(v->tag));
    return nullptr;
  }
  Tensor* t = &v->toTensor();
  if (t->unsafeGetTensorImpl() == nullptr) {
    PK_FAIL(ctx, op, "argument %zu has no TensorImpl", i);
    return nullptr;
  }
  if (!is_computable(t->scalar_type())) {
    PK_FAIL(ctx, op, "argument %zu has unsupported dtype %s", i, toString(t->scalar_type()));
    return nullptr;
  }
  if (t->numel() > 0 && t->const_data_ptr() == nullptr) {
    PK_FAIL(ctx, op, "argument %zu has no data", i);
    return nullptr;
  }
  return t;
}

bool get_opt_tensor(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, Tensor** out) {
  if (args[i]->isNone()) {
    *out = nullptr;
    return true;
  }
  *out = get_tensor(ctx, args, i, op);
  return *out != nullptr;
}

bool get_int(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, int64_t* out) {
  if (!args[i]->isInt()) {
    PK_FAIL(ctx, op, "argument %zu must be an Int, got tag %s", i, tag_to_string(args[i]->tag));
    return false;
  }
  *out = args[i]->toInt();
  return true;
}

bool get_opt_int(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, int64_t* out,
                 bool* has) {
  if (args[i]->isNone()) {
    *has = false;
    return true;
  }
  *has = true;
  return get_int(ctx, args, i, op, out);
}

bool get_bool(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, bool* out) {
  if (!args[i]->isBool()) {
    PK_FAIL(ctx, op, "argument %zu must be a Bool, got tag %s", i, tag_to_string(args[i]->tag));
    return false;
  }
  *out = args[i]->toBool();
  return true;
}

bool get_double(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, double* out) {
  if (args[i]->isDouble()) {
    *out = args[i]->toDouble();
    return true;
  }
  if (args[i]->isInt()) {
    *out = static_cast<double>(args[i]->toInt());
    return true;
  }
  PK_FAIL(ctx, op, "argument %zu must be a Double, got tag %s", i, tag_to_string(args[i]->tag));
  return false;
}

bool get_scalar(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, ScalarArg* out) {
  const EValue* v = args[i];
  if (v->isDouble()) {
    out->d = v->toDouble();
    out->i = sat_cast<int64_t>(out->d);
    out->is_float = true;
  } else if (v->isInt()) {
    out->i = v->toInt();
    out->d = static_cast<double>(out->i);
  } else if (v->isBool()) {
    out->i = v->toBool() ? 1 : 0;
    out->d = static_cast<double>(out->i);
    out->is_bool = true;
  } else {
    PK_FAIL(ctx, op, "argument %zu must be a Scalar, got tag %s", i, tag_to_string(v->tag));
    return false;
  }
  return true;
}

bool get_int_list(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, IntList* out) {
  const EValue* v = args[i];
  if (!v->isIntList()) {
    PK_FAIL(ctx, op, "argument %zu must be an int list, got tag %s", i, tag_to_string(v->tag));
    return false;
  }
  ArrayRef<EValue*> w = v->payload.copyable_union.as_int_list.wrapped();
  if (w.size() > 2 * static_cast<size_t>(kMaxDim)) {
    PK_FAIL(ctx, op, "argument %zu: int list of %zu entries is too long", i, w.size());
    return false;
  }
  for (size_t k = 0; k < w.size(); ++k) {
    if (w[k] == nullptr || !w[k]->isInt()) {
      PK_FAIL(ctx, op, "argument %zu: list entry %zu is not an Int", i, k);
      return false;
    }
    out->v[k] = w[k]->toInt();
  }
  out->n = w.size();
  return true;
}

bool get_opt_int_list(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, IntList* out,
                      bool* has) {
  if (args[i]->isNone()) {
    *has = false;
    out->n = 0;
    return true;
  }
  *has = true;
  return get_int_list(ctx, args, i, op, out);
}

bool get_string(KernelRuntimeContext& ctx, Args args, size_t i, const char* op,
                std::string_view* out) {
  if (!args[i]->isString()) {
    PK_FAIL(ctx, op, "argument %zu must be a String, got tag %s", i, tag_to_string(args[i]->tag));
    return false;
  }
  *out = args[i]->toString();
  return true;
}

bool norm_dim(KernelRuntimeContext& ctx, int64_t dim, int64_t rank, const char* op, int64_t* out) {
  const int64_t r = rank == 0 ? 1 : rank;
  if (dim < -r || dim >= r) {
    PK_FAIL(ctx, op, "dim %lld out of range for rank %lld", static_cast<long long>(dim),
            static_cast<long long>(rank));
    return false;
  }
  *out = dim < 0 ? dim + r : dim;
  return true;
}

bool is_default_dim_order(const Tensor& t) {
  const auto order = t.dim_order();
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] != i) return false;
  }
  return true;
}

bool is_channels_last(const Tensor& t) {
  if (t.dim() != 4) return false;
  const auto o = t.dim_order();
  return o[0] == 0 && o[1] == 2 && o[2] == 3 && o[3] == 1;
}

bool require_contiguous(KernelRuntimeContext& ctx, const Tensor& t, const char* op) {
  if (!is_default_dim_order(t)) {
    PK_FAIL(ctx, op, "only the contiguous dim order is supported");
    return false;
  }
  return true;
}

bool resize_out(KernelRuntimeContext& ctx, Tensor& out, ArrayRef<SizesType> sizes, const char* op) {
  if (static_cast<ssize_t>(sizes.size()) != out.dim()) {
    PK_FAIL(ctx, op, "output has rank %zd, expected %zu", static_cast<ssize_t>(out.dim()),
            sizes.size());
    return false;
  }
  const Error e = out.unsafeGetTensorImpl()->internal_resize_contiguous(sizes);
  if (e != Error::Ok) {
    PK_FAIL(ctx, op, "cannot resize the output to the result shape");
    return false;
  }
  if (out.numel() > 0 && out.mutable_data_ptr() == nullptr) {
    PK_FAIL(ctx, op, "output has no data");
    return false;
  }
  return true;
}

bool require_dtype_computable(KernelRuntimeContext& ctx, const Tensor& t, const char* op) {
  if (!is_computable(t.scalar_type())) {
    PK_FAIL(ctx, op, "unsupported dtype %s", toString(t.scalar_type()));
    return false;
  }
  return true;
}

bool require_floating(KernelRuntimeContext& ctx, const Tensor& t, const char* op) {
  if (!isFloatingType(t.scalar_type())) {
    PK_FAIL(ctx, op, "dtype %s is not a floating type", toString(t.scalar_type()));
    return false;
  }
  return true;
}

bool require_same_dtype(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                        const char* op) {
  if (a.scalar_type() != b.scalar_type()) {
    PK_FAIL(ctx, op, "dtype mismatch: %s vs %s", toString(a.scalar_type()),
            toString(b.scalar_type()));
    return false;
  }
  return true;
}

bool broadcast_shape(ArrayRef<SizesType> a, ArrayRef<SizesType> b, Shape* out) {
  const size_t n = a.size() > b.size() ? a.size() : b.size();
  if (n > static_cast<size_t>(kMaxDim)) return false;
  out->n = static_cast<int>(n);
  for (size_t i = 0; i < n; ++i) {
    const SizesType sa = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const SizesType sb = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (sa == sb || sb == 1) {
      out->s[i] = sa;
    } else if (sa == 1) {
      out->s[i] = sb;
    } else {
      return false;
    }
  }
  return true;
}

void broadcast_strides(ArrayRef<SizesType> in, const Shape& out, int64_t* strides) {
  const size_t lead = static_cast<size_t>(out.n) - in.size();
  int64_t running = 1;
  for (int d = out.n - 1; d >= 0; --d) {
    if (static_cast<size_t>(d) < lead) {
      strides[d] = 0;
      continue;
    }
    const SizesType s = in[static_cast<size_t>(d) - lead];
    strides[d] = (s == 1) ? 0 : running;
    running *= s;
  }
}

} // namespace portable
} // namespace runtime
} // namespace executorch

namespace executorch {
namespace runtime {
namespace portable {

namespace {

// A copy's dims with size-1 dims dropped and neighbours merged where both
// sides step through them as one (same element order, fewer loop levels).
struct CopyDims {
  int n = 0;
  int64_t size[kMaxDim], src[kMaxDim], dst[kMaxDim];
};

CopyDims coalesce(const Shape& sizes, const int64_t* src_strides, const int64_t* dst_strides) {
  CopyDims c;
  for (int d = 0; d < sizes.n; ++d) {
    if (sizes.s[d] == 1) continue;
    if (c.n > 0 && c.src[c.n - 1] == src_strides[d] * sizes.s[d] &&
        c.dst[c.n - 1] == dst_strides[d] * sizes.s[d]) {
      c.size[c.n - 1] *= sizes.s[d];
      c.src[c.n - 1] = src_strides[d];
      c.dst[c.n - 1] = dst_strides[d];
      continue;
    }
    c.size[c.n] = sizes.s[d];
    c.src[c.n] = src_strides[d];
    c.dst[c.n] = dst_strides[d];
    ++c.n;
  }
  if (c.n == 0) { // one element
    c.size[0] = 1;
    c.src[0] = c.dst[0] = 1;
    c.n = 1;
  }
  return c;
}

// Elements as unsigned words of their size (memcpy keeps it free of
// aliasing and alignment assumptions; it compiles to plain moves).
template <typename W>
void copy_run_typed(const char* src, int64_t ss, char* dst, int64_t ds, int64_t n) {
  if (ss == 0 && ds == 1) { // a broadcast (expand): one value repeated
    W w;
    std::memcpy(&w, src, sizeof(W));
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(dst + i * static_cast<int64_t>(sizeof(W)), &w, sizeof(W));
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    W w;
    std::memcpy(&w, src + i * ss * static_cast<int64_t>(sizeof(W)), sizeof(W));
    std::memcpy(dst + i * ds * static_cast<int64_t>(sizeof(W)), &w, sizeof(W));
  }
}

// One innermost run of a same-dtype copy: n elements of `es` bytes.
void copy_run(const char* src, int64_t ss, char* dst, int64_t ds, int64_t n, size_t es) {
  if (ss == 1 && ds == 1) {
    std::memcpy(dst, src, static_cast<size_t>(n) * es);
    return;
  }
  switch (es) {
    case 1:
      return copy_run_typed<uint8_t>(src, ss, dst, ds, n);
    case 2:
      return copy_run_typed<uint16_t>(src, ss, dst, ds, n);
    case 4:
      return copy_run_typed<uint32_t>(src, ss, dst, ds, n);
    case 8:
      return copy_run_typed<uint64_t>(src, ss, dst, ds, n);
    default: {
      const int64_t sb = ss * static_cast<int64_t>(es), db = ds * static_cast<int64_t>(es);
      for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * db, src + i * sb, es);
    }
  }
}

// Calls f(source offset, destination offset) for every index of c's dims
// (none: once, at 0), in row-major order.
template <typename F>
void for_each_outer(const CopyDims& c, F f) {
  int64_t total = 1;
  for (int d = 0; d < c.n; ++d) total *= c.size[d];
  int64_t counter[kMaxDim] = {};
  int64_t so = 0, dof = 0;
  for (int64_t r = 0; r < total; ++r) {
    f(so, dof);
    for (int d = c.n - 1; d >= 0; --d) {
      if (++counter[d] < c.size[d]) {
        so += c.src[d];
        dof += c.dst[d];
        break;
      }
      so -= c.src[d] * (c.size[d] - 1);
      dof -= c.dst[d] * (c.size[d] - 1);
      counter[d] = 0;
    }
  }
}

// A transpose (the source steps by 1 along the destination's rows and by
// sstep along its columns), in square tiles so both sides stay in cache.
template <typename W>
void transpose_tiles(const char* src, int64_t sstep, char* dst, int64_t dstep, int64_t rows,
                     int64_t cols) {
  constexpr int64_t kTile = 16, w = static_cast<int64_t>(sizeof(W));
  for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
    for (int64_t q0 = 0; q0 < cols; q0 += kTile) {
      const int64_t r1 = std::min(rows, r0 + kTile), q1 = std::min(cols, q0 + kTile);
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t q = q0; q < q1; ++q) {
          std::memcpy(dst + (r * dstep + q) * w, src + (r + q * sstep) * w, sizeof(W));
        }
      }
    }
  }
}

// The same-dtype copy: the innermost dim as runs, the outer ones by counter.
void copy_same_dtype(const char* src, char* dst, const CopyDims& c, size_t es) {
  if (c.n >= 2 && es == 4 && c.dst[c.n - 1] == 1 && c.src[c.n - 1] != 1 && c.src[c.n - 2] == 1) {
    // The two innermost dims are a transpose of 4-byte elements (weights
    // transposed for linear layers, K^T in attention): tile them.
    CopyDims outer = c;
    outer.n = c.n - 2;
    const int64_t rows = c.size[c.n - 2], cols = c.size[c.n - 1];
    for_each_outer(outer, [&](int64_t so, int64_t dof) {
      transpose_tiles<uint32_t>(src + so * 4, c.src[c.n - 1], dst + dof * 4, c.dst[c.n - 2], rows,
                                cols);
    });
    return;
  }
  const int inner = c.n - 1;
  CopyDims outer = c;
  outer.n = inner;
  const int64_t e = static_cast<int64_t>(es);
  for_each_outer(outer, [&](int64_t so, int64_t dof) {
    copy_run(src + so * e, c.src[inner], dst + dof * e, c.dst[inner], c.size[inner], es);
  });
}

} // namespace

void strided_copy(ScalarType st, const void* src, int64_t src_off, const int64_t* src_strides,
                  ScalarType dt, void* dst, const int64_t* dst_strides, const Shape& sizes) {
  const int64_t total = sizes.numel();
  if (total == 0) return;
  const size_t es = elementSizeOrZero(st);
  if (st == dt) {
    copy_same_dtype(static_cast<const char*>(src) + src_off * static_cast<int64_t>(es),
                    static_cast<char*>(dst), coalesce(sizes, src_strides, dst_strides), es);
    return;
  }
  const bool fp = isFloatingType(st) || isFloatingType(dt);
  int64_t counter[kMaxDim] = {};
  int64_t so = src_off, d_off = 0;
  for (int64_t idx = 0; idx < total; ++idx) {
    if (fp) {
      store_d(dt, dst, static_cast<size_t>(d_off), load_d(st, src, static_cast<size_t>(so)));
    } else {
      store_i(dt, dst, static_cast<size_t>(d_off), load_i(st, src, static_cast<size_t>(so)));
    }
    for (int d = sizes.n - 1; d >= 0; --d) {
      if (++counter[d] < sizes.s[d]) {
        so += src_strides[d];
        d_off += dst_strides[d];
        break;
      }
      so -= src_strides[d] * (sizes.s[d] - 1);
      d_off -= dst_strides[d] * (sizes.s[d] - 1);
      counter[d] = 0;
    }
  }
}

void contiguous_strides(const Shape& s, int64_t* strides) {
  int64_t running = 1;
  for (int d = s.n - 1; d >= 0; --d) {
    strides[d] = running;
    running *= s.s[d] == 0 ? 1 : s.s[d];
  }
}

void tensor_strides(const Tensor& t, int64_t* strides) {
  for (ssize_t d = 0; d < t.dim(); ++d) strides[d] = t.strides()[d];
}

void copy_convert(const Tensor& src, Tensor& dst) {
  int64_t ss[kMaxDim], ds[kMaxDim];
  tensor_strides(src, ss);
  tensor_strides(dst, ds);
  if (src.scalar_type() == dst.scalar_type() && is_default_dim_order(src) &&
      is_default_dim_order(dst)) {
    if (src.nbytes() > 0) std::memcpy(dst.mutable_data_ptr(), src.const_data_ptr(), src.nbytes());
    return;
  }
  strided_copy(src.scalar_type(), src.const_data_ptr(), 0, ss, dst.scalar_type(),
               dst.mutable_data_ptr(), ds, shape_of(src));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
