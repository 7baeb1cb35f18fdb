// Shape and data-movement ops: cat, view_copy, permute_copy, transpose_copy,
// t_copy, slice_copy, select_copy, unsqueeze_copy, squeeze_copy, expand_copy,
// embedding, constant_pad_nd.
#include <utility>

#include "kernel_util.h"
#include "kernels.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// Reads (in, ..., out) with in at 0 and out at out_idx; both contiguous.
bool io(KernelRuntimeContext& ctx, Args args, size_t nargs, size_t out_idx, const char* name,
        Tensor** in, Tensor** out, bool same_dtype = true) {
  if (!check_nargs(ctx, args, nargs, name)) return false;
  *in = get_tensor(ctx, args, 0, name);
  if (*in == nullptr) return false;
  *out = get_tensor(ctx, args, out_idx, name);
  if (*out == nullptr) return false;
  if (same_dtype && !require_same_dtype(ctx, **in, **out, name)) return false;
  return require_contiguous(ctx, **in, name) && require_contiguous(ctx, **out, name);
}

// A view of `in` with per-dim sizes/strides (elements) and an element offset,
// copied into out (contiguous).
void copy_view(const Tensor& in, const Shape& vs, const int64_t* vstr, int64_t off, Tensor& out) {
  int64_t ostr[kMaxDim];
  contiguous_strides(vs, ostr);
  strided_copy(in.scalar_type(), in.const_data_ptr(), off, vstr, out.scalar_type(),
               out.mutable_data_ptr(), ostr, vs);
}

void copy_flat(const Tensor& in, Tensor& out) {
  if (in.nbytes() > 0) std::memcpy(out.mutable_data_ptr(), in.const_data_ptr(), in.nbytes());
}

} // namespace

// view_copy.out(self, size, *, out) -> out
bool infer_view_shape(KernelRuntimeContext& ctx, const IntList& size, int64_t numel,
                      const char* name, Shape* s) {
  if (size.n > static_cast<size_t>(kMaxDim)) {
    PK_FAIL(ctx, name, "too many dimensions");
    return false;
  }
  int infer = -1;
  int64_t known = 1;
  s->n = static_cast<int>(size.n);
  for (size_t i = 0; i < size.n; ++i) {
    if (size.v[i] == -1) {
      if (infer >= 0) {
        PK_FAIL(ctx, name, "more than one -1 in the size");
        return false;
      }
      infer = static_cast<int>(i);
      continue;
    }
    if (size.v[i] < 0 || size.v[i] > INT32_MAX) {
      PK_FAIL(ctx, name, "invalid size %lld", static_cast<long long>(size.v[i]));
      return false;
    }
    s->s[i] = static_cast<SizesType>(size.v[i]);
    known *= size.v[i];
  }
  if (infer >= 0) {
    if (known == 0 || numel % known != 0) {
      PK_FAIL(ctx, name, "cannot infer the -1 dimension");
      return false;
    }
    s->s[infer] = static_cast<SizesType>(numel / known);
    known *= s->s[infer];
  }
  if (known != numel) {
    PK_FAIL(ctx, name, "size has %lld elements, input has %lld", static_cast<long long>(known),
            static_cast<long long>(numel));
    return false;
  }
  return true;
}

void view_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::view_copy.out";
  Tensor *in, *out;
  if (!io(ctx, args, 4, 2, name, &in, &out)) return;
  IntList size;
  Shape s;
  if (!get_int_list(ctx, args, 1, name, &size) ||
      !infer_view_shape(ctx, size, in->numel(), name, &s) || !resize_out(ctx, *out, s, name)) {
    return;
  }
  copy_flat(*in, *out);
}

// permute_copy.out(self, dims, *, out) -> out
void permute_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::permute_copy.out";
  Tensor *in, *out;
  if (!io(ctx, args, 4, 2, name, &in, &out)) return;
  IntList dims;
  if (!get_int_list(ctx, args, 1, name, &dims)) return;
  const int64_t rank = in->dim();
  if (static_cast<int64_t>(dims.n) != rank) {
    PK_FAIL(ctx, name, "dims has %zu entries for rank %lld", dims.n, static_cast<long long>(rank));
    return;
  }
  int64_t istr[kMaxDim];
  Shape is = shape_of(*in);
  contiguous_strides(is, istr);
  Shape vs;
  vs.n = static_cast<int>(rank);
  int64_t vstr[kMaxDim];
  bool used[kMaxDim] = {};
  for (int64_t i = 0; i < rank; ++i) {
    int64_t d;
    if (!norm_dim(ctx, dims.v[i], rank, name, &d)) return;
    if (used[d]) {
      PK_FAIL(ctx, name, "dim %lld repeated", static_cast<long long>(d));
      return;
    }
    used[d] = true;
    vs.s[i] = is.s[d];
    vstr[i] = istr[d];
  }
  if (!resize_out(ctx, *out, vs, name)) return;
  copy_view(*in, vs, vstr, 0, *out);
}

namespace {
void transpose_impl(KernelRuntimeContext& ctx, Tensor& in, Tensor& out, int64_t d0, int64_t d1,
                    const char* name) {
  const int64_t rank = in.dim();
  if (!norm_dim(ctx, d0, rank, name, &d0) || !norm_dim(ctx, d1, rank, name, &d1)) return;
  Shape vs = shape_of(in);
  int64_t vstr[kMaxDim];
  contiguous_strides(vs, vstr);
  if (rank > 0) {
    std::swap(vs.s[d0], vs.s[d1]);
    std::swap(vstr[d0], vstr[d1]);
  }
  if (!resize_out(ctx, out, vs, name)) return;
  copy_view(in, vs, vstr, 0, out);
}
} // namespace

// transpose_copy.int_out(self, dim0, dim1, *, out) -> out
void transpose_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::transpose_copy.int_out";
  Tensor *in, *out;
  if (!io(ctx, args, 5, 3, name, &in, &out)) return;
  int64_t d0, d1;
  if (!get_int(ctx, args, 1, name, &d0) || !get_int(ctx, args, 2, name, &d1)) return;
  transpose_impl(ctx, *in, *out, d0, d1, name);
}

// t_copy.out(self, *, out) -> out
void t_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::t_copy.out";
  Tensor *in, *out;
  if (!io(ctx, args, 3, 1, name, &in, &out)) return;
  if (in->dim() > 2) {
    PK_FAIL(ctx, name, "needs a tensor of rank <= 2");
    return;
  }
  if (in->dim() < 2) {
    if (resize_out(ctx, *out, in->sizes(), name)) copy_flat(*in, *out);
    return;
  }
  transpose_impl(ctx, *in, *out, 0, 1, name);
}

// slice_copy.Tensor_out(self, dim=0, start=None, end=None, step=1, *, out) -> out
void slice_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::slice_copy.Tensor_out";
  Tensor *in, *out;
  if (!io(ctx, args, 7, 5, name, &in, &out)) return;
  int64_t dim, start = 0, end = 0, step;
  bool has_start, has_end;
  if (!get_int(ctx, args, 1, name, &dim) || !get_opt_int(ctx, args, 2, name, &start, &has_start) ||
      !get_opt_int(ctx, args, 3, name, &end, &has_end) || !get_int(ctx, args, 4, name, &step)) {
    return;
  }
  if (in->dim() == 0) {
    PK_FAIL(ctx, name, "cannot slice a 0-dim tensor");
    return;
  }
  if (!norm_dim(ctx, dim, in->dim(), name, &dim)) return;
  if (step <= 0) {
    PK_FAIL(ctx, name, "step must be positive");
    return;
  }
  const int64_t n = in->size(dim);
  if (!has_start) start = 0;
  if (!has_end) end = n;
  if (start < 0) start += n;
  if (end < 0) end += n;
  start = start < 0 ? 0 : (start > n ? n : start);
  end = end < start ? start : (end > n ? n : end);
  // (end - start + step - 1) / step without overflowing for a huge step.
  const int64_t len = end > start ? (end - start - 1) / step + 1 : 0;
  Shape vs = shape_of(*in);
  int64_t vstr[kMaxDim];
  contiguous_strides(vs, vstr);
  const int64_t off = start * vstr[dim];
  vs.s[dim] = static_cast<SizesType>(len);
  vstr[dim] *= step;
  if (!resize_out(ctx, *out, vs, name)) return;
  copy_view(*in, vs, vstr, off, *out);
}

// select_copy.int_out(self, dim, index, *, out) -> out
void select_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::select_copy.int_out";
  Tensor *in, *out;
  if (!io(ctx, args, 5, 3, name, &in, &out)) return;
  int64_t dim, index;
  if (!get_int(ctx, args, 1, name, &dim) || !get_int(ctx, args, 2, name, &index)) return;
  if (in->dim() == 0) {
    PK_FAIL(ctx, name, "cannot select from a 0-dim tensor");
    return;
  }
  if (!norm_dim(ctx, dim, in->dim(), name, &dim)) return;
  const int64_t n = in->size(dim);
  if (index < -n || index >= n) {
    PK_FAIL(ctx, name, "index %lld out of range for size %lld", static_cast<long long>(index),
            static_cast<long long>(n));
    return;
  }
  if (index < 0) index += n;
  Shape is = shape_of(*in);
  int64_t istr[kMaxDim];
  contiguous_strides(is, istr);
  Shape vs;
  int64_t vstr[kMaxDim];
  for (int d = 0; d < is.n; ++d) {
    if (d == dim) continue;
    vstr[vs.n] = istr[d];
    vs.s[vs.n++] = is.s[d];
  }
  if (!resize_out(ctx, *out, vs, name)) return;
  copy_view(*in, vs, vstr, index * istr[dim], *out);
}

// unsqueeze_copy.out(self, dim, *, out) -> out
void unsqueeze_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::unsqueeze_copy.out";
  Tensor *in, *out;
  if (!io(ctx, args, 4, 2, name, &in, &out)) return;
  int64_t dim;
  if (!get_int(ctx, args, 1, name, &dim)) return;
  const int64_t rank = in->dim();
  if (rank + 1 > kMaxDim || !norm_dim(ctx, dim, rank + 1, name, &dim)) {
    if (ctx.failure_state() == Error::Ok) PK_FAIL(ctx, name, "rank too large");
    return;
  }
  Shape s;
  for (int64_t d = 0; d <= rank; ++d) {
    if (d == dim) s.s[s.n++] = 1;
    if (d < rank) s.s[s.n++] = in->sizes()[d];
  }
  if (!resize_out(ctx, *out, s, name)) return;
  copy_flat(*in, *out);
}

namespace {
void squeeze_impl(KernelRuntimeContext& ctx, Tensor& in, Tensor& out, const IntList& dims,
                  const char* name) {
  const int64_t rank = in.dim();
  bool mask[kMaxDim] = {};
  for (size_t i = 0; i < dims.n; ++i) {
    int64_t d;
    if (!norm_dim(ctx, dims.v[i], rank, name, &d)) return;
    if (rank > 0) mask[d] = true;
  }
  Shape s;
  for (int64_t d = 0; d < rank; ++d) {
    if (mask[d] && in.sizes()[d] == 1) continue;
    s.s[s.n++] = in.sizes()[d];
  }
  if (!resize_out(ctx, out, s, name)) return;
  copy_flat(in, out);
}
} // namespace

// squeeze_copy.dims_out(self, dim[], *, out) -> out
void squeeze_copy_dims_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::squeeze_copy.dims_out";
  Tensor *in, *out;
  if (!io(ctx, args, 4, 2, name, &in, &out)) return;
  IntList dims;
  if (!get_int_list(ctx, args, 1, name, &dims)) return;
  squeeze_impl(ctx, *in, *out, dims, name);
}

// squeeze_copy.dim_out(self, dim, *, out) -> out
void squeeze_copy_dim_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::squeeze_copy.dim_out";
  Tensor *in, *out;
  if (!io(ctx, args, 4, 2, name, &in, &out)) return;
  IntList dims;
  dims.n = 1;
  if (!get_int(ctx, args, 1, name, &dims.v[0])) return;
  squeeze_impl(ctx, *in, *out, dims, name);
}

// expand_copy.out(self, size, *, implicit=False, out) -> out
void expand_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::expand_copy.out";
  Tensor *in, *out;
  if (!io(ctx, args, 5, 3, name, &in, &out)) return;
  IntList size;
  bool implicit;
  if (!get_int_list(ctx, args, 1, name, &size) || !get_bool(ctx, args, 2, name, &implicit)) {
    return;
  }
  const int64_t rank = in->dim();
  if (static_cast<int64_t>(size.n) < rank || size.n > static_cast<size_t>(kMaxDim)) {
    PK_FAIL(ctx, name, "size has %zu entries for an input of rank %lld", size.n,
            static_cast<long long>(rank));
    return;
  }
  Shape s;
  s.n = static_cast<int>(size.n);
  const size_t lead = size.n - static_cast<size_t>(rank);
  for (size_t i = 0; i < size.n; ++i) {
    const int64_t cur = i < lead ? -2 : in->sizes()[i - lead];
    int64_t want = size.v[i];
    if (want == -1) {
      if (cur == -2) {
        PK_FAIL(ctx, name, "-1 not allowed in a new leading dimension");
        return;
      }
      want = cur;
    }
    if (want < 0 || want > INT32_MAX || (cur >= 0 && cur != 1 && cur != want)) {
      PK_FAIL(ctx, name, "cannot expand dim %zu to %lld", i, static_cast<long long>(want));
      return;
    }
    s.s[i] = static_cast<SizesType>(want);
  }
  int64_t vstr[kMaxDim];
  broadcast_strides(in->sizes(), s, vstr);
  if (!resize_out(ctx, *out, s, name)) return;
  copy_view(*in, s, vstr, 0, *out);
}

namespace {
// A rank-1 tensor of size 0: cat skips these (legacy empty inputs).
bool is_legacy_empty(const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

// Validates every entry; *ref is the first one that is not legacy-empty, or
// nullptr when all are.
bool check_cat_entries(KernelRuntimeContext& ctx, ArrayRef<EValue*> list, const Tensor& out,
                       const char* name, const Tensor** ref) {
  *ref = nullptr;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] == nullptr || !list[i]->isTensor()) {
      PK_FAIL(ctx, name, "list entry %zu is not a tensor", i);
      return false;
    }
    const Tensor& t = list[i]->toTensor();
    if (!is_computable(t.scalar_type()) || !require_contiguous(ctx, t, name)) {
      if (ctx.failure_state() == Error::Ok) PK_FAIL(ctx, name, "entry %zu: bad dtype", i);
      return false;
    }
    if (!canCast(t.scalar_type(), out.scalar_type())) {
      PK_FAIL(ctx, name, "entry %zu: cannot write %s into %s", i, toString(t.scalar_type()),
              toString(out.scalar_type()));
      return false;
    }
    if (t.numel() > 0 && t.const_data_ptr() == nullptr) {
      PK_FAIL(ctx, name, "entry %zu has no data", i);
      return false;
    }
    if (is_legacy_empty(t)) continue;
    if (*ref == nullptr) *ref = &t;
  }
  return true;
}

// The output shape: `ref`'s sizes with the entries' sizes at `dim` summed.
bool cat_out_shape(KernelRuntimeContext& ctx, ArrayRef<EValue*> list, const Tensor& ref,
                   int64_t dim, const char* name, Shape* os) {
  const int64_t rank = ref.dim();
  *os = shape_of(ref);
  os->s[dim] = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const Tensor& t = list[i]->toTensor();
    if (is_legacy_empty(t)) continue;
    if (t.dim() != rank) {
      PK_FAIL(ctx, name, "entry %zu has rank %zd, expected %lld", i, static_cast<ssize_t>(t.dim()),
              static_cast<long long>(rank));
      return false;
    }
    for (int64_t d = 0; d < rank; ++d) {
      if (d != dim && t.sizes()[d] != ref.sizes()[d]) {
        PK_FAIL(ctx, name, "entry %zu differs in size at dim %lld", i, static_cast<long long>(d));
        return false;
      }
    }
    os->s[dim] += t.sizes()[dim];
  }
  return true;
}

// Copies each entry into its slab of `out` (already resized to `os`).
void cat_copy_entries(ArrayRef<EValue*> list, const Shape& os, int64_t dim, Tensor& out) {
  int64_t ostr[kMaxDim];
  contiguous_strides(os, ostr);
  int64_t offset = 0;
  const size_t oes = elementSizeOrZero(out.scalar_type());
  for (size_t i = 0; i < list.size(); ++i) {
    const Tensor& t = list[i]->toTensor();
    if (is_legacy_empty(t)) continue;
    Shape ts = shape_of(t);
    int64_t tstr[kMaxDim];
    contiguous_strides(ts, tstr);
    strided_copy(
        t.scalar_type(), t.const_data_ptr(), 0, tstr, out.scalar_type(),
        static_cast<char*>(out.mutable_data_ptr()) + offset * ostr[dim] * static_cast<int64_t>(oes),
        ostr, ts);
    offset += t.sizes()[dim];
  }
}
} // namespace

// cat.out(tensors, dim=0, *, out) -> out
void cat_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::cat.out";
  if (!check_nargs(ctx, args, 4, name)) return;
  if (!args[0]->isTensorList()) {
    PK_FAIL(ctx, name, "argument 0 must be a tensor list, got tag %s", tag_to_string(args[0]->tag));
    return;
  }
  int64_t dim;
  if (!get_int(ctx, args, 1, name, &dim)) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr || !require_contiguous(ctx, *out, name)) return;
  ArrayRef<EValue*> list = args[0]->payload.copyable_union.as_tensor_list.wrapped();
  if (list.size() == 0) {
    PK_FAIL(ctx, name, "needs at least one tensor");
    return;
  }
  const Tensor* ref = nullptr;
  if (!check_cat_entries(ctx, list, *out, name, &ref)) return;
  if (ref == nullptr) {
    // Everything empty: the output is empty too.
    SizesType z[1] = {0};
    if (out->dim() == 1) resize_out(ctx, *out, ArrayRef<SizesType>(z, 1), name);
    return;
  }
  if (ref->dim() == 0) {
    PK_FAIL(ctx, name, "cannot concatenate 0-dim tensors");
    return;
  }
  Shape os;
  if (!norm_dim(ctx, dim, ref->dim(), name, &dim) ||
      !cat_out_shape(ctx, list, *ref, dim, name, &os) || !resize_out(ctx, *out, os, name)) {
    return;
  }
  cat_copy_entries(list, os, dim, *out);
}

// embedding.out(weight, indices, padding_idx=-1, scale_grad_by_freq=False,
//               sparse=False, *, out) -> out
void embedding_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::embedding.out";
  if (!check_nargs(ctx, args, 7, name)) return;
  Tensor* w = get_tensor(ctx, args, 0, name);
  if (w == nullptr) return;
  Tensor* idx = get_tensor(ctx, args, 1, name);
  if (idx == nullptr) return;
  int64_t pad;
  bool sg, sp;
  if (!get_int(ctx, args, 2, name, &pad) || !get_bool(ctx, args, 3, name, &sg) ||
      !get_bool(ctx, args, 4, name, &sp)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 5, name);
  if (out == nullptr) return;
  if (!require_same_dtype(ctx, *w, *out, name) || !require_contiguous(ctx, *w, name) ||
      !require_contiguous(ctx, *idx, name) || !require_contiguous(ctx, *out, name)) {
    return;
  }
  if (w->dim() != 2) {
    PK_FAIL(ctx, name, "weight must be 2-D");
    return;
  }
  if (idx->scalar_type() != ScalarType::Long && idx->scalar_type() != ScalarType::Int) {
    PK_FAIL(ctx, name, "indices must be int32 or int64, got %s", toString(idx->scalar_type()));
    return;
  }
  if (idx->dim() + 1 > kMaxDim) {
    PK_FAIL(ctx, name, "indices rank too large");
    return;
  }
  Shape os = shape_of(*idx);
  os.s[os.n++] = w->sizes()[1];
  const int64_t rows = w->size(0);
  const size_t n = static_cast<size_t>(idx->numel());
  for (size_t i = 0; i < n; ++i) {
    const int64_t r = load_i(idx->scalar_type(), idx->const_data_ptr(), i);
    if (r < 0 || r >= rows) {
      PK_FAIL(ctx, name, "index %lld out of range for %lld rows", static_cast<long long>(r),
              static_cast<long long>(rows));
      return;
    }
  }
  if (!resize_out(ctx, *out, os, name)) return;
  const size_t row_bytes = static_cast<size_t>(w->size(1)) * elementSizeOrZero(w->scalar_type());
  for (size_t i = 0; i < n; ++i) {
    const int64_t r = load_i(idx->scalar_type(), idx->const_data_ptr(), i);
    if (row_bytes > 0) {
      std::memcpy(
          static_cast<char*>(out->mutable_data_ptr()) + i * row_bytes,
          static_cast<const char*>(w->const_data_ptr()) + static_cast<size_t>(r) * row_bytes,
          row_bytes);
    }
  }
}

// constant_pad_nd.out(self, pad, value=0, *, out) -> out
void constant_pad_nd_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::constant_pad_nd.out";
  Tensor *in, *out;
  if (!io(ctx, args, 5, 3, name, &in, &out)) return;
  IntList pad;
  ScalarArg value;
  if (!get_int_list(ctx, args, 1, name, &pad) || !get_scalar(ctx, args, 2, name, &value)) {
    return;
  }
  const int64_t rank = in->dim();
  if (pad.n % 2 != 0 || static_cast<int64_t>(pad.n / 2) > rank) {
    PK_FAIL(ctx, name, "pad length %zu invalid for rank %lld", pad.n, static_cast<long long>(rank));
    return;
  }
  Shape os = shape_of(*in);
  int64_t before[kMaxDim] = {};
  for (size_t p = 0; p < pad.n / 2; ++p) {
    const int64_t d = rank - 1 - static_cast<int64_t>(p);
    before[d] = pad.v[2 * p];
    const int64_t sz = os.s[d] + pad.v[2 * p] + pad.v[2 * p + 1];
    if (sz < 0 || sz > INT32_MAX) {
      PK_FAIL(ctx, name, "padded size of dim %lld is negative", static_cast<long long>(d));
      return;
    }
    os.s[d] = static_cast<SizesType>(sz);
  }
  if (!resize_out(ctx, *out, os, name)) return;
  const ScalarType t = out->scalar_type();
  const size_t es = elementSizeOrZero(t);
  int64_t istr[kMaxDim];
  Shape is = shape_of(*in);
  contiguous_strides(is, istr);
  const int64_t total = os.numel();
  int64_t counter[kMaxDim] = {};
  for (int64_t o = 0; o < total; ++o) {
    int64_t src = 0;
    bool inside = true;
    for (int d = 0; d < os.n; ++d) {
      const int64_t id = counter[d] - before[d];
      if (id < 0 || id >= is.s[d]) {
        inside = false;
        break;
      }
      src += id * istr[d];
    }
    if (inside) {
      std::memcpy(static_cast<char*>(out->mutable_data_ptr()) + o * static_cast<int64_t>(es),
                  static_cast<const char*>(in->const_data_ptr()) + src * static_cast<int64_t>(es),
                  es);
    } else if (value.is_float) {
      store_d(t, out->mutable_data_ptr(), static_cast<size_t>(o), value.d);
    } else {
      store_i(t, out->mutable_data_ptr(), static_cast<size_t>(o), value.i);
    }
    for (int d = os.n - 1; d >= 0; --d) {
      if (++counter[d] < os.s[d]) break;
      counter[d] = 0;
    }
  }
}

} // namespace portable
} // namespace runtime
} // namespace executorch
