// Reflection and replication padding of the last 1, 2 or 3 dims:
// reflection_pad{1,2,3}d.out and replication_pad{1,2,3}d.out. Every dtype
// (elements are copied as bytes), any dim order of self and out.
#include <cstring>

#include "kernel_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

enum class PadMode { Reflection, Replication };

// The input index that output index j of a padded dim reads (pad_before may
// be negative: a crop). Valid for the sizes check_pad() accepts.
int64_t source_index(PadMode mode, int64_t j, int64_t size, int64_t pad_before) {
  const int64_t i = j - pad_before;
  if (i < 0) return mode == PadMode::Reflection ? -i : 0;
  if (i >= size) return mode == PadMode::Reflection ? 2 * (size - 1) - i : size - 1;
  return i;
}

// padding is (before, after) pairs from the last dim backwards, as ATen's.
// Fills the out shape; fails on a bad rank, padding length or size.
bool padded_shape(KernelRuntimeContext& ctx, PadMode mode, int n, const Tensor& in,
                  const IntList& padding, const char* name, Shape* s) {
  if (padding.n != static_cast<size_t>(2 * n)) {
    PK_FAIL(ctx, name, "padding has %zu values, expected %d", padding.n, 2 * n);
    return false;
  }
  if (in.dim() != n + 1 && in.dim() != n + 2) {
    PK_FAIL(ctx, name, "self has rank %zd, expected %d or %d", static_cast<ssize_t>(in.dim()),
            n + 1, n + 2);
    return false;
  }
  *s = shape_of(in);
  for (int k = 0; k < n; ++k) {
    const int d = s->n - 1 - k;
    const int64_t size = in.size(d), before = padding.v[2 * k], after = padding.v[2 * k + 1];
    const int64_t bound = mode == PadMode::Reflection ? size : INT32_MAX;
    if (before >= bound || after >= bound || before <= -INT32_MAX || after <= -INT32_MAX) {
      PK_FAIL(ctx, name, "padding (%lld, %lld) of dim %d (size %lld) is out of range",
              static_cast<long long>(before), static_cast<long long>(after), d,
              static_cast<long long>(size));
      return false;
    }
    const int64_t out_size = size + before + after;
    if (out_size < 0 || out_size > INT32_MAX || (size == 0 && out_size > 0)) {
      PK_FAIL(ctx, name, "dim %d of size %lld cannot be padded to %lld", d,
              static_cast<long long>(size), static_cast<long long>(out_size));
      return false;
    }
    s->s[d] = static_cast<SizesType>(out_size);
  }
  return true;
}

// Copies every out element from the input element its indices map to,
// walking the out shape in row-major order with both tensors' strides.
void pad_copy(PadMode mode, int n, const Tensor& in, const IntList& padding, Tensor& out) {
  const int rank = static_cast<int>(out.dim());
  int64_t is[kMaxDim], os[kMaxDim], pad_before[kMaxDim] = {}, idx[kMaxDim] = {};
  tensor_strides(in, is);
  tensor_strides(out, os);
  for (int k = 0; k < n; ++k) pad_before[rank - 1 - k] = padding.v[2 * k];
  const size_t es = elementSizeOrZero(in.scalar_type());
  const char* src = static_cast<const char*>(in.const_data_ptr());
  char* dst = static_cast<char*>(out.mutable_data_ptr());
  const int64_t total = out.numel();
  for (int64_t e = 0; e < total; ++e) {
    int64_t si = 0, di = 0;
    for (int d = 0; d < rank; ++d) {
      const int64_t j =
          d >= rank - n ? source_index(mode, idx[d], in.size(d), pad_before[d]) : idx[d];
      si += j * is[d];
      di += idx[d] * os[d];
    }
    std::memcpy(dst + static_cast<size_t>(di) * es, src + static_cast<size_t>(si) * es, es);
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[d] < out.size(d)) break;
      idx[d] = 0;
    }
  }
}

// <mode>_pad<n>d.out(self, padding, *, out) -> out
void pad_op(KernelRuntimeContext& ctx, Args args, PadMode mode, int n, const char* name) {
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  IntList padding;
  if (in == nullptr || !get_int_list(ctx, args, 1, name, &padding)) return;
  Tensor* out = get_tensor(ctx, args, 2, name);
  if (out == nullptr || !require_same_dtype(ctx, *in, *out, name)) return;
  Shape s;
  if (!padded_shape(ctx, mode, n, *in, padding, name, &s) || !resize_out(ctx, *out, s, name)) {
    return;
  }
  pad_copy(mode, n, *in, padding, *out);
}

#define PK_PAD(fn, mode, n, opname)                              \
  void fn(KernelRuntimeContext& ctx, Args args) {                \
    pad_op(ctx, args, PadMode::mode, n, "aten::" opname ".out"); \
  }
PK_PAD(reflection_pad1d_out, Reflection, 1, "reflection_pad1d")
PK_PAD(reflection_pad2d_out, Reflection, 2, "reflection_pad2d")
PK_PAD(reflection_pad3d_out, Reflection, 3, "reflection_pad3d")
PK_PAD(replication_pad1d_out, Replication, 1, "replication_pad1d")
PK_PAD(replication_pad2d_out, Replication, 2, "replication_pad2d")
PK_PAD(replication_pad3d_out, Replication, 3, "replication_pad3d")
#undef PK_PAD

const Kernel kPadKernels[] = {
    Kernel("aten::reflection_pad1d.out", reflection_pad1d_out),
    Kernel("aten::reflection_pad2d.out", reflection_pad2d_out),
    Kernel("aten::reflection_pad3d.out", reflection_pad3d_out),
    Kernel("aten::replication_pad1d.out", replication_pad1d_out),
    Kernel("aten::replication_pad2d.out", replication_pad2d_out),
    Kernel("aten::replication_pad3d.out", replication_pad3d_out),
};

} // namespace

Span<const Kernel> pad_kernels() {
  return Span<const Kernel>(kPadKernels, sizeof(kPadKernels) / sizeof(kPadKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
