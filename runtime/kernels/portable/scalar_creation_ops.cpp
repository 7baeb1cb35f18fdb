// Tensors made from scalars: full_like, scalar_tensor, arange (end only and
// start/end/step). Each resizes its output to the shape it makes.
#include <cmath>
#include <cstring>
#include <algorithm>
#include <limits>

#include "elementwise_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// Whether the scalar converts to dtype t without overflow (ATen's check):
// integer dtypes take finite values in their range; floating dtypes any
// value that is not a finite number beyond their range.
bool scalar_fits(ScalarType t, const ScalarArg& s) {
  if (t == ScalarType::Bool) return true;
  const double v = s.is_float ? s.d : static_cast<double>(s.i);
  if (isFloatingType(t)) {
    if (!std::isfinite(v)) return true;
    const double hi = t == ScalarType::Half     ? 65504.0
                      : t == ScalarType::Double ? std::numeric_limits<double>::max()
                                                : std::numeric_limits<float>::max();
    return std::fabs(v) <= hi;
  }
  if (!s.is_float) return s.i == wrap_to(t, s.i);
  if (!std::isfinite(v)) return false;
  const int64_t i = sat_cast<int64_t>(v);
  return i == wrap_to(t, i) && std::fabs(v) < 9.3e18;
}

void fill(Tensor& out, const ScalarArg& v) {
  const ScalarType t = out.scalar_type();
  char* p = static_cast<char*>(out.mutable_data_ptr());
  const size_t n = static_cast<size_t>(out.numel()), es = elementSizeOrZero(t);
  if (n == 0) return;
  if (v.is_float) {
    store_d(t, p, 0, v.d);
  } else {
    store_i(t, p, 0, v.i);
  }
  // The first element's bytes, repeated by doubling copies.
  for (size_t done = 1; done < n;) {
    const size_t k = std::min(done, n - done);
    std::memcpy(p + done * es, p, k * es);
    done += k;
  }
}

// full_like.out(self, Scalar fill_value, *, MemoryFormat? memory_format=None,
//     out) -> out
void full_like_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::full_like.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  ScalarArg v;
  if (self == nullptr || !get_scalar(ctx, args, 1, name, &v)) return;
  int64_t format = 0;
  bool has_format = false;
  if (!get_opt_int(ctx, args, 2, name, &format, &has_format)) return;
  // ExecuTorch's MemoryFormat: 0 contiguous, 1 preserve.
  if (has_format && format != 0 && format != 1) {
    PK_FAIL(ctx, name, "memory_format %lld is not supported", static_cast<long long>(format));
    return;
  }
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr) return;
  if (!scalar_fits(out->scalar_type(), v)) {
    PK_FAIL(ctx, name, "the fill value does not fit dtype %s", toString(out->scalar_type()));
    return;
  }
  if (!resize_out(ctx, *out, self->sizes(), name)) return;
  fill(*out, v);
}

// scalar_tensor.out(Scalar s, *, out) -> out: a 0-dim tensor holding s.
void scalar_tensor_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::scalar_tensor.out";
  if (!check_nargs(ctx, args, 3, name)) return;
  ScalarArg v;
  if (!get_scalar(ctx, args, 0, name, &v)) return;
  Tensor* out = get_tensor(ctx, args, 1, name);
  if (out == nullptr) return;
  if (!scalar_fits(out->scalar_type(), v)) {
    PK_FAIL(ctx, name, "the value does not fit dtype %s", toString(out->scalar_type()));
    return;
  }
  if (!resize_out(ctx, *out, ArrayRef<SizesType>(), name)) return;
  fill(*out, v);
}

bool require_1d(KernelRuntimeContext& ctx, const Tensor& out, const char* name) {
  if (out.dim() != 1) {
    PK_FAIL(ctx, name, "the output must be 1-D, got rank %zd", static_cast<ssize_t>(out.dim()));
    return false;
  }
  return true;
}

// Fills out (1-D, resized) with start, start + step, ... below end.
void arange(KernelRuntimeContext& ctx, const char* name, const ScalarArg& start,
            const ScalarArg& end, const ScalarArg& step, Tensor& out) {
  const double s = start.is_float ? start.d : static_cast<double>(start.i);
  const double e = end.is_float ? end.d : static_cast<double>(end.i);
  const double d = step.is_float ? step.d : static_cast<double>(step.i);
  if (!std::isfinite(s) || !std::isfinite(e) || !std::isfinite(d) || d == 0 || (d > 0 && e < s) ||
      (d < 0 && e > s)) {
    PK_FAIL(ctx, name, "invalid range: start %g, end %g, step %g", s, e, d);
    return;
  }
  const double count = std::ceil((e - s) / d);
  if (count > static_cast<double>(std::numeric_limits<SizesType>::max())) {
    PK_FAIL(ctx, name, "the range has too many elements");
    return;
  }
  const SizesType n = static_cast<SizesType>(count);
  if (!resize_out(ctx, out, ArrayRef<SizesType>(&n, 1), name)) return;
  const ScalarType t = out.scalar_type();
  void* p = out.mutable_data_ptr();
  const bool exact_ints = !start.is_float && !step.is_float && !isFloatingType(t);
  for (SizesType i = 0; i < n; ++i) {
    const size_t k = static_cast<size_t>(i);
    if (exact_ints) {
      store_i(t, p, k, wrap_add(start.i, wrap_mul(step.i, i)));
    } else {
      store_d(t, p, k, s + d * static_cast<double>(i));
    }
  }
}

// arange.start_out(Scalar start, Scalar end, Scalar step=1, *, out) -> out
void arange_start_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::arange.start_out";
  if (!check_nargs(ctx, args, 5, name)) return;
  ScalarArg start, end, step;
  if (!get_scalar(ctx, args, 0, name, &start) || !get_scalar(ctx, args, 1, name, &end) ||
      !get_scalar(ctx, args, 2, name, &step)) {
    return;
  }
  Tensor* out = get_tensor(ctx, args, 3, name);
  if (out == nullptr || !require_1d(ctx, *out, name)) return;
  arange(ctx, name, start, end, step, *out);
}

// arange.out(Scalar end, *, out) -> out
void arange_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::arange.out";
  if (!check_nargs(ctx, args, 3, name)) return;
  ScalarArg end, zero, one;
  if (!get_scalar(ctx, args, 0, name, &end)) return;
  Tensor* out = get_tensor(ctx, args, 1, name);
  if (out == nullptr || !require_1d(ctx, *out, name)) return;
  one.i = 1;
  one.d = 1.0;
  arange(ctx, name, zero, end, one, *out);
}

const Kernel kScalarCreationKernels[] = {
    Kernel("aten::full_like.out", full_like_out),
    Kernel("aten::scalar_tensor.out", scalar_tensor_out),
    Kernel("aten::arange.out", arange_out),
    Kernel("aten::arange.start_out", arange_start_out),
};

} // namespace

Span<const Kernel> scalar_creation_kernels() {
  return Span<const Kernel>(kScalarCreationKernels,
                            sizeof(kScalarCreationKernels) / sizeof(kScalarCreationKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
