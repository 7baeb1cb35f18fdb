// stack, and the ops with a list of outputs: split_copy.Tensor_out and
// unbind_copy.int_out. Upstream's emitter passes the output list and then
// the returned list, so these take one argument more than their schema.
#include "op_tables.h"
#include "view_util.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// stack.out(tensors, dim=0, *, out) -> out
void stack_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::stack.out";
  if (!check_nargs(ctx, args, 4, name)) return;
  ArrayRef<EValue*> list;
  int64_t dim;
  if (!get_tensor_list(ctx, args, 0, name, &list) || !get_int(ctx, args, 1, name, &dim)) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr) return;
  if (list.size() == 0) {
    PK_FAIL(ctx, name, "needs at least one tensor");
    return;
  }
  const Tensor& first = list[0]->toTensor();
  const int64_t rank = first.dim();
  if (rank + 1 > kMaxDim || !norm_dim(ctx, dim, rank + 1, name, &dim)) {
    if (ctx.failure_state() == Error::Ok) PK_FAIL(ctx, name, "rank too large");
    return;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const Tensor& t = list[i]->toTensor();
    if (!t.sizes().equals(first.sizes())) {
      PK_FAIL(ctx, name, "entry %zu differs in shape from entry 0", i);
      return;
    }
    if (!canCast(t.scalar_type(), out->scalar_type())) {
      PK_FAIL(ctx, name, "entry %zu: cannot write %s into %s", i, toString(t.scalar_type()),
              toString(out->scalar_type()));
      return;
    }
  }
  if (list.size() > static_cast<size_t>(INT32_MAX)) {
    PK_FAIL(ctx, name, "too many tensors");
    return;
  }
  Shape os;
  for (int64_t d = 0; d <= rank; ++d) {
    if (d == dim) os.s[os.n++] = static_cast<SizesType>(list.size());
    if (d < rank) os.s[os.n++] = first.sizes()[d];
  }
  if (!check_numel(ctx, os, name) || !resize_out(ctx, *out, os, name)) return;
  // Entry i is the slice out[..., i, ...] along dim.
  int64_t ostr[kMaxDim], dst[kMaxDim];
  tensor_strides(*out, ostr);
  for (int64_t d = 0, k = 0; d <= rank; ++d) {
    if (d != dim) dst[k++] = ostr[d];
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const Tensor& t = list[i]->toTensor();
    int64_t tstr[kMaxDim];
    tensor_strides(t, tstr);
    copy_view_into(t, shape_of(t), tstr, 0, *out, dst, static_cast<int64_t>(i) * ostr[dim]);
  }
}

// Copies in's chunk [start, start + len) along dim into out (resized).
bool copy_chunk(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, int64_t start,
                int64_t len, bool keep_dim, Tensor& out, const char* name) {
  if (!require_same_dtype(ctx, in, out, name)) return false;
  int64_t istr[kMaxDim];
  tensor_strides(in, istr);
  Shape vs;
  int64_t vstr[kMaxDim];
  for (int64_t d = 0; d < in.dim(); ++d) {
    if (d == dim && !keep_dim) continue;
    vstr[vs.n] = istr[d];
    vs.s[vs.n++] = d == dim ? static_cast<SizesType>(len) : in.sizes()[d];
  }
  return copy_view_out(ctx, in, vs, vstr, start * istr[dim], out, name);
}

// split_copy.Tensor_out(self, split_size, dim=0, *, out[]) -> ()
void split_copy_tensor_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::split_copy.Tensor_out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  int64_t split, dim;
  ArrayRef<EValue*> outs;
  if (in == nullptr || !get_int(ctx, args, 1, name, &split) || !get_int(ctx, args, 2, name, &dim) ||
      !get_tensor_list(ctx, args, 3, name, &outs)) {
    return;
  }
  if (in->dim() == 0) {
    PK_FAIL(ctx, name, "cannot split a 0-dim tensor");
    return;
  }
  if (!norm_dim(ctx, dim, in->dim(), name, &dim)) return;
  const int64_t n = in->size(dim);
  if (split < 0 || (split == 0 && n != 0)) {
    PK_FAIL(ctx, name, "split_size %lld invalid for a dimension of %lld",
            static_cast<long long>(split), static_cast<long long>(n));
    return;
  }
  // As ATen: ceil(n / split) chunks, at least one; the last may be short.
  const int64_t chunks = split == 0 ? 1 : (n == 0 ? 1 : (n - 1) / split + 1);
  if (static_cast<int64_t>(outs.size()) != chunks) {
    PK_FAIL(ctx, name, "%zu outputs for %lld chunks", outs.size(), static_cast<long long>(chunks));
    return;
  }
  for (int64_t c = 0; c < chunks; ++c) {
    const int64_t start = c * split;
    const int64_t len = n - start < split ? n - start : split;
    if (!copy_chunk(ctx, *in, dim, start, len, true, outs[c]->toTensor(), name)) return;
  }
}

// unbind_copy.int_out(self, dim=0, *, out[]) -> ()
void unbind_copy_int_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::unbind_copy.int_out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  int64_t dim;
  ArrayRef<EValue*> outs;
  if (in == nullptr || !get_int(ctx, args, 1, name, &dim) ||
      !get_tensor_list(ctx, args, 2, name, &outs)) {
    return;
  }
  if (in->dim() == 0) {
    PK_FAIL(ctx, name, "cannot unbind a 0-dim tensor");
    return;
  }
  if (!norm_dim(ctx, dim, in->dim(), name, &dim)) return;
  if (static_cast<int64_t>(outs.size()) != in->size(dim)) {
    PK_FAIL(ctx, name, "%zu outputs for a dimension of %lld", outs.size(),
            static_cast<long long>(in->size(dim)));
    return;
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    if (!copy_chunk(ctx, *in, dim, static_cast<int64_t>(i), 1, false, outs[i]->toTensor(), name)) {
      return;
    }
  }
}

const Kernel kSplitStackKernels[] = {
    Kernel("aten::stack.out", stack_out),
    Kernel("aten::split_copy.Tensor_out", split_copy_tensor_out),
    Kernel("aten::unbind_copy.int_out", unbind_copy_int_out),
};

} // namespace

Span<const Kernel> split_stack_kernels() {
  return Span<const Kernel>(kSplitStackKernels, sizeof(kSplitStackKernels) / sizeof(Kernel));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
