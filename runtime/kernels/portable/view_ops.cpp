// Copies of strided views: detach_copy, lift_fresh_copy, narrow_copy,
// as_strided_copy, diagonal_copy, unfold_copy, flip, pixel_shuffle,
// pixel_unshuffle. Each builds the view's sizes and element strides over the
// input's data and copies it into the resized output.
#include "op_tables.h"
#include "view_util.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// detach_copy.out / lift_fresh_copy.out(self, *, out) -> out
void plain_copy(KernelRuntimeContext& ctx, Args args, const char* name) {
  Tensor *in, *out;
  if (!same_dtype_io(ctx, args, 3, 1, name, &in, &out)) return;
  if (in->dim() != out->dim()) {
    PK_FAIL(ctx, name, "output rank %zd differs from the input's %zd",
            static_cast<ssize_t>(out->dim()), static_cast<ssize_t>(in->dim()));
    return;
  }
  if (resize_out(ctx, *out, in->sizes(), name)) copy_convert(*in, *out);
}
void detach_copy_out(KernelRuntimeContext& ctx, Args args) {
  plain_copy(ctx, args, "aten::detach_copy.out");
}
void lift_fresh_copy_out(KernelRuntimeContext& ctx, Args args) {
  plain_copy(ctx, args, "aten::lift_fresh_copy.out");
}

// narrow_copy.out(self, dim, start, length, *, out) -> out
void narrow_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::narrow_copy.out";
  Tensor *in, *out;
  if (!same_dtype_io(ctx, args, 6, 4, name, &in, &out)) return;
  int64_t dim, start, length;
  if (!get_int(ctx, args, 1, name, &dim) || !get_int(ctx, args, 2, name, &start) ||
      !get_int(ctx, args, 3, name, &length)) {
    return;
  }
  if (in->dim() == 0) {
    PK_FAIL(ctx, name, "cannot narrow a 0-dim tensor");
    return;
  }
  if (!norm_dim(ctx, dim, in->dim(), name, &dim)) return;
  const int64_t n = in->size(dim);
  if (start < -n || start > n) {
    PK_FAIL(ctx, name, "start %lld out of range for size %lld", static_cast<long long>(start),
            static_cast<long long>(n));
    return;
  }
  if (start < 0) start += n;
  if (length < 0 || length > n - start) {
    PK_FAIL(ctx, name, "length %lld does not fit from %lld in size %lld",
            static_cast<long long>(length), static_cast<long long>(start),
            static_cast<long long>(n));
    return;
  }
  Shape vs = shape_of(*in);
  int64_t vstr[kMaxDim];
  tensor_strides(*in, vstr);
  vs.s[dim] = static_cast<SizesType>(length);
  copy_view_out(ctx, *in, vs, vstr, start * vstr[dim], *out, name);
}

// as_strided_copy.out(self, size, stride, storage_offset=None, *, out) -> out:
// the view indexes self's data directly; it must stay inside self's numel.
void as_strided_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::as_strided_copy.out";
  Tensor *in, *out;
  if (!same_dtype_io(ctx, args, 6, 4, name, &in, &out)) return;
  IntList size, stride;
  Shape vs;
  int64_t off = 0;
  bool has_off = false;
  if (!get_int_list(ctx, args, 1, name, &size) || !get_int_list(ctx, args, 2, name, &stride) ||
      !get_opt_int(ctx, args, 3, name, &off, &has_off) || !shape_from_sizes(ctx, size, name, &vs)) {
    return;
  }
  if (stride.n != size.n) {
    PK_FAIL(ctx, name, "%zu strides for %zu sizes", stride.n, size.n);
    return;
  }
  if (off < 0) {
    PK_FAIL(ctx, name, "negative storage_offset %lld", static_cast<long long>(off));
    return;
  }
  int64_t last = off; // the largest element offset the view reads
  for (size_t d = 0; d < size.n && vs.numel() > 0; ++d) {
    int64_t step;
    if (stride.v[d] < 0 ||
        __builtin_mul_overflow(static_cast<int64_t>(vs.s[d] - 1), stride.v[d], &step) ||
        __builtin_add_overflow(last, step, &last)) {
      PK_FAIL(ctx, name, "stride %lld of dim %zu is negative or overflows",
              static_cast<long long>(stride.v[d]), d);
      return;
    }
  }
  if (vs.numel() > 0 && last >= in->numel()) {
    PK_FAIL(ctx, name, "the view reaches element %lld of a tensor of %lld",
            static_cast<long long>(last), static_cast<long long>(in->numel()));
    return;
  }
  copy_view_out(ctx, *in, vs, stride.v, off, *out, name);
}

// diagonal_copy.out(self, offset=0, dim1=0, dim2=1, *, out) -> out
void diagonal_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::diagonal_copy.out";
  Tensor *in, *out;
  if (!same_dtype_io(ctx, args, 6, 4, name, &in, &out)) return;
  int64_t offset, d1, d2;
  if (!get_int(ctx, args, 1, name, &offset) || !get_int(ctx, args, 2, name, &d1) ||
      !get_int(ctx, args, 3, name, &d2)) {
    return;
  }
  if (in->dim() < 2) {
    PK_FAIL(ctx, name, "needs a tensor of rank >= 2");
    return;
  }
  if (!norm_dim(ctx, d1, in->dim(), name, &d1) || !norm_dim(ctx, d2, in->dim(), name, &d2)) {
    return;
  }
  if (d1 == d2) {
    PK_FAIL(ctx, name, "dim1 and dim2 are both %lld", static_cast<long long>(d1));
    return;
  }
  const int64_t n1 = in->size(d1), n2 = in->size(d2);
  int64_t istr[kMaxDim];
  tensor_strides(*in, istr);
  // Offsets past either edge give an empty diagonal.
  int64_t len = 0, start = 0;
  if (offset >= 0 && offset < n2) {
    len = n1 < n2 - offset ? n1 : n2 - offset;
    start = offset * istr[d2];
  } else if (offset < 0 && -offset < n1) {
    len = n1 + offset < n2 ? n1 + offset : n2;
    start = -offset * istr[d1];
  }
  Shape vs;
  int64_t vstr[kMaxDim];
  for (int64_t d = 0; d < in->dim(); ++d) {
    if (d == d1 || d == d2) continue;
    vstr[vs.n] = istr[d];
    vs.s[vs.n++] = in->sizes()[d];
  }
  vstr[vs.n] = istr[d1] + istr[d2];
  vs.s[vs.n++] = static_cast<SizesType>(len);
  copy_view_out(ctx, *in, vs, vstr, len > 0 ? start : 0, *out, name);
}

// unfold_copy.out(self, dimension, size, step, *, out) -> out
void unfold_copy_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::unfold_copy.out";
  Tensor *in, *out;
  if (!same_dtype_io(ctx, args, 6, 4, name, &in, &out)) return;
  int64_t dim, size, step;
  if (!get_int(ctx, args, 1, name, &dim) || !get_int(ctx, args, 2, name, &size) ||
      !get_int(ctx, args, 3, name, &step) || !norm_dim(ctx, dim, in->dim(), name, &dim)) {
    return;
  }
  const int64_t n = in->dim() == 0 ? 1 : in->size(dim);
  if (size < 0 || size > n || step <= 0 || in->dim() + 1 > kMaxDim) {
    PK_FAIL(ctx, name, "size %lld / step %lld invalid for a dimension of %lld",
            static_cast<long long>(size), static_cast<long long>(step), static_cast<long long>(n));
    return;
  }
  Shape vs = shape_of(*in);
  int64_t vstr[kMaxDim + 1];
  tensor_strides(*in, vstr);
  const int64_t dim_stride = in->dim() == 0 ? 1 : vstr[dim];
  if (in->dim() > 0) {
    vs.s[dim] = static_cast<SizesType>((n - size) / step + 1);
    vstr[dim] = dim_stride * step;
  }
  vstr[vs.n] = dim_stride;
  vs.s[vs.n++] = static_cast<SizesType>(size);
  copy_view_out(ctx, *in, vs, vstr, 0, *out, name);
}

// flip.out(self, dims, *, out) -> out: negative strides over the flipped dims.
void flip_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::flip.out";
  Tensor *in, *out;
  if (!same_dtype_io(ctx, args, 4, 2, name, &in, &out)) return;
  IntList dims;
  if (!get_int_list(ctx, args, 1, name, &dims)) return;
  Shape vs = shape_of(*in);
  int64_t vstr[kMaxDim];
  tensor_strides(*in, vstr);
  bool flipped[kMaxDim] = {};
  int64_t off = 0;
  for (size_t i = 0; i < dims.n; ++i) {
    int64_t d;
    if (!norm_dim(ctx, dims.v[i], in->dim(), name, &d)) return;
    if (in->dim() == 0) continue;
    if (flipped[d]) {
      PK_FAIL(ctx, name, "dim %lld appears twice", static_cast<long long>(d));
      return;
    }
    flipped[d] = true;
    if (vs.s[d] > 0) off += (vs.s[d] - 1) * vstr[d];
    vstr[d] = -vstr[d];
  }
  copy_view_out(ctx, *in, vs, vstr, vs.numel() > 0 ? off : 0, *out, name);
}

// pixel_shuffle: (*, C*r*r, H, W) -> (*, C, H*r, W*r), and pixel_unshuffle
// back. Both sides are seen as (*, C, H, r, W, r): the packed side (C*r*r, H,
// W) through its channel stride, the spread side (C, H*r, W*r) through its
// row and column strides.
void shuffle_copy(const Tensor& in, Tensor& out, int64_t r, bool shuffle) {
  const Tensor& packed = shuffle ? in : out;
  const Tensor& spread = shuffle ? out : in;
  const int lead = static_cast<int>(in.dim() - 3);
  int64_t ps[kMaxDim], ss[kMaxDim];
  tensor_strides(packed, ps);
  tensor_strides(spread, ss);
  Shape vs;
  vs.n = lead + 5;
  int64_t pv[kMaxDim], sv[kMaxDim];
  for (int d = 0; d < lead; ++d) {
    vs.s[d] = in.sizes()[d];
    pv[d] = ps[d];
    sv[d] = ss[d];
  }
  const int64_t sizes[5] = {spread.size(lead), packed.size(lead + 1), r, packed.size(lead + 2), r};
  const int64_t pstr[5] = {ps[lead] * r * r, ps[lead + 1], ps[lead] * r, ps[lead + 2], ps[lead]};
  const int64_t sstr[5] = {ss[lead], ss[lead + 1] * r, ss[lead + 1], ss[lead + 2] * r,
                           ss[lead + 2]};
  for (int k = 0; k < 5; ++k) {
    vs.s[lead + k] = static_cast<SizesType>(sizes[k]);
    pv[lead + k] = pstr[k];
    sv[lead + k] = sstr[k];
  }
  copy_view_into(in, vs, shuffle ? pv : sv, 0, out, shuffle ? sv : pv, 0);
}

void pixel_shuffle_impl(KernelRuntimeContext& ctx, Args args, const char* name, bool shuffle) {
  Tensor *in, *out;
  if (!same_dtype_io(ctx, args, 4, 2, name, &in, &out)) return;
  int64_t r;
  if (!get_int(ctx, args, 1, name, &r)) return;
  const int64_t rank = in->dim();
  if (rank < 3 || rank + 2 > kMaxDim || r <= 0 || r > INT32_MAX) {
    PK_FAIL(ctx, name, "needs rank >= 3 and a positive factor (rank %lld, factor %lld)",
            static_cast<long long>(rank), static_cast<long long>(r));
    return;
  }
  const int lead = static_cast<int>(rank - 3);
  const int64_t c = in->size(lead), h = in->size(lead + 1), w = in->size(lead + 2);
  if (shuffle ? c % (r * r) != 0 : (h % r != 0 || w % r != 0)) {
    PK_FAIL(ctx, name, "sizes (%lld, %lld, %lld) do not divide by factor %lld",
            static_cast<long long>(c), static_cast<long long>(h), static_cast<long long>(w),
            static_cast<long long>(r));
    return;
  }
  int64_t spread_c = 0; // c * r * r, checked: r may be as large as h
  if (!shuffle && __builtin_mul_overflow(c, r * r, &spread_c)) spread_c = INT64_MAX;
  const int64_t sizes[3] = {shuffle ? c / (r * r) : spread_c, shuffle ? h * r : h / r,
                            shuffle ? w * r : w / r};
  Shape os = shape_of(*in);
  for (int k = 0; k < 3; ++k) {
    if (sizes[k] > INT32_MAX) {
      PK_FAIL(ctx, name, "result size %lld too large", static_cast<long long>(sizes[k]));
      return;
    }
    os.s[lead + k] = static_cast<SizesType>(sizes[k]);
  }
  if (!resize_out(ctx, *out, os, name)) return;
  shuffle_copy(*in, *out, r, shuffle);
}

// pixel_shuffle.out(self, upscale_factor, *, out) -> out
void pixel_shuffle_out(KernelRuntimeContext& ctx, Args args) {
  pixel_shuffle_impl(ctx, args, "aten::pixel_shuffle.out", true);
}
// pixel_unshuffle.out(self, downscale_factor, *, out) -> out
void pixel_unshuffle_out(KernelRuntimeContext& ctx, Args args) {
  pixel_shuffle_impl(ctx, args, "aten::pixel_unshuffle.out", false);
}

const Kernel kViewKernels[] = {
    Kernel("aten::detach_copy.out", detach_copy_out),
    Kernel("aten::lift_fresh_copy.out", lift_fresh_copy_out),
    Kernel("aten::narrow_copy.out", narrow_copy_out),
    Kernel("aten::as_strided_copy.out", as_strided_copy_out),
    Kernel("aten::diagonal_copy.out", diagonal_copy_out),
    Kernel("aten::unfold_copy.out", unfold_copy_out),
    Kernel("aten::flip.out", flip_out),
    Kernel("aten::pixel_shuffle.out", pixel_shuffle_out),
    Kernel("aten::pixel_unshuffle.out", pixel_unshuffle_out),
};

} // namespace

Span<const Kernel> view_kernels() {
  return Span<const Kernel>(kViewKernels, sizeof(kViewKernels) / sizeof(Kernel));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
