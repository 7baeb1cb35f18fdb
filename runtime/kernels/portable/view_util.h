// Helpers of the copy-shaped kernels (views, splits, rearrangements): they
// read the input through its own strides and write the output through its
// own, so every dim order works.
#pragma once

#include "arg_lists.h"

namespace executorch {
namespace runtime {
namespace portable {

// Reads (in, ..., out, ret) with in at 0 and out at out_idx, same dtype.
inline bool same_dtype_io(KernelRuntimeContext& ctx, Args args, size_t nargs, size_t out_idx,
                          const char* name, Tensor** in, Tensor** out) {
  if (!check_nargs(ctx, args, nargs, name)) return false;
  *in = get_tensor(ctx, args, 0, name);
  if (*in == nullptr) return false;
  *out = get_tensor(ctx, args, out_idx, name);
  if (*out == nullptr) return false;
  return require_same_dtype(ctx, **in, **out, name);
}

// Copies the view of `in` (sizes vs, element strides vstr, element offset
// off) into `dst`, a tensor of the view's shape laid out by dst_strides and
// starting dst_off elements into `out`'s data.
inline void copy_view_into(const Tensor& in, const Shape& vs, const int64_t* vstr, int64_t off,
                           Tensor& out, const int64_t* dst_strides, int64_t dst_off) {
  char* base = static_cast<char*>(out.mutable_data_ptr()) +
               dst_off * static_cast<int64_t>(elementSizeOrZero(out.scalar_type()));
  strided_copy(in.scalar_type(), in.const_data_ptr(), off, vstr, out.scalar_type(), base,
               dst_strides, vs);
}

// Resizes out to the view's shape and copies the view into it.
inline bool copy_view_out(KernelRuntimeContext& ctx, const Tensor& in, const Shape& vs,
                          const int64_t* vstr, int64_t off, Tensor& out, const char* name) {
  if (!check_numel(ctx, vs, name) || !resize_out(ctx, out, vs, name)) return false;
  int64_t ostr[kMaxDim];
  tensor_strides(out, ostr);
  copy_view_into(in, vs, vstr, off, out, ostr, 0);
  return true;
}

// The offset of a multi-index through element strides.
inline int64_t offset_of(const int64_t* index, const int64_t* strides, int n) {
  int64_t off = 0;
  for (int d = 0; d < n; ++d) off += index[d] * strides[d];
  return off;
}

// Calls f(index) for every multi-index of `shape` in row-major order.
template <typename F>
void for_each_index(const Shape& shape, F f) {
  const int64_t total = shape.numel();
  int64_t index[kMaxDim] = {};
  for (int64_t i = 0; i < total; ++i) {
    f(static_cast<const int64_t*>(index));
    for (int d = shape.n - 1; d >= 0; --d) {
      if (++index[d] < shape.s[d]) break;
      index[d] = 0;
    }
  }
}

} // namespace portable
} // namespace runtime
} // namespace executorch
