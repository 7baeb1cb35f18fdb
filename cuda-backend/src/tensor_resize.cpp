#include "tensor_resize.h"

#include <cstdio>
#include <limits>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace backends {
namespace cuda {

using runtime::Error;
using SizesType = runtime::etensor::TensorImpl::SizesType;
using runtime::etensor::Tensor;
using runtime::TensorShapeDynamism;

namespace {

constexpr size_t kMaxRank = 16;

// "[a,b,c]" into buf.
const char* shape_text(const int64_t* s, size_t n, char* buf, size_t cap) {
  size_t used = static_cast<size_t>(std::snprintf(buf, cap, "["));
  for (size_t i = 0; i < n && used < cap; ++i) {
    used += static_cast<size_t>(
        std::snprintf(buf + used, cap - used, i ? ",%lld" : "%lld", static_cast<long long>(s[i])));
  }
  if (used < cap) std::snprintf(buf + used, cap - used, "]");
  return buf;
}

} // namespace

Error resize_to(Tensor& t, const int64_t* sizes, size_t ndim, const char* what) {
  const size_t rank = static_cast<size_t>(t.dim());
  int64_t have[kMaxRank] = {};
  for (size_t i = 0; i < rank && i < kMaxRank; ++i) have[i] = t.sizes()[i];
  char want_text[160], have_text[160];
  ET_CHECK_OR_RETURN_ERROR(
      ndim == rank && rank <= kMaxRank, InvalidArgument,
      "%s: data of shape %s for a tensor of shape %s (ranks differ)", what,
      shape_text(sizes, ndim, want_text, sizeof want_text),
      shape_text(have, rank < kMaxRank ? rank : kMaxRank, have_text, sizeof have_text));
  bool same = true;
  int64_t numel = 1;
  bool fits = true;
  SizesType converted[kMaxRank];
  for (size_t i = 0; i < rank; ++i) {
    same = same && sizes[i] == have[i];
    fits = fits && sizes[i] >= 0 && sizes[i] <= std::numeric_limits<SizesType>::max() &&
           !__builtin_mul_overflow(numel, sizes[i], &numel);
    converted[i] = fits ? static_cast<SizesType>(sizes[i]) : 0;
  }
  if (same) return Error::Ok;
  const bool dynamic = t.shape_dynamism() != TensorShapeDynamism::STATIC;
  const auto capacity = static_cast<long long>(t.unsafeGetTensorImpl()->capacity_numel());
  ET_CHECK_OR_RETURN_ERROR(
      fits && dynamic && numel <= capacity, InvalidArgument,
      "%s: data of shape %s does not fit the tensor planned as %s (%s, room for %lld "
      "elements)",
      what, shape_text(sizes, ndim, want_text, sizeof want_text),
      shape_text(have, rank, have_text, sizeof have_text), dynamic ? "dynamic" : "static",
      capacity);
  return t.unsafeGetTensorImpl()->internal_resize_contiguous(
      runtime::ArrayRef<SizesType>(converted, rank));
}

Error resize_like(Tensor& dst, const Tensor& src, const char* what) {
  const size_t rank = static_cast<size_t>(src.dim());
  int64_t sizes[kMaxRank] = {};
  ET_CHECK_OR_RETURN_ERROR(rank <= kMaxRank, InvalidArgument, "%s: rank %zu is too large", what,
                           rank);
  for (size_t i = 0; i < rank; ++i) sizes[i] = src.sizes()[i];
  return resize_to(dst, sizes, rank, what);
}

} // namespace cuda
} // namespace backends
} // namespace executorch
