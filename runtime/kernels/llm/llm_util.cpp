#include "llm_util.h"

namespace executorch {
namespace runtime {
namespace llm {

bool get_opt_double(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, double* out,
                    bool* has) {
  *has = !args[i]->isNone();
  return !*has || get_double(ctx, args, i, op, out);
}

bool check_cache_write(KernelRuntimeContext& ctx, const char* op, const Tensor& value,
                       const Tensor& cache, int64_t start_pos, const char* what) {
  if (value.dim() != 4 || cache.dim() != 4) {
    PK_FAIL(ctx, op, "value and %s must be 4-D ([B, S, H, D] and [B, L, H, D]), got ranks %zd, %zd",
            what, static_cast<ssize_t>(value.dim()), static_cast<ssize_t>(cache.dim()));
    return false;
  }
  if (value.scalar_type() != cache.scalar_type()) {
    PK_FAIL(ctx, op, "value (%s) and %s (%s) must have the same dtype",
            toString(value.scalar_type()), what, toString(cache.scalar_type()));
    return false;
  }
  if (!require_contiguous(ctx, value, op) || !require_contiguous(ctx, cache, op)) return false;
  for (int d : {0, 2, 3}) {
    if (value.size(d) != cache.size(d)) {
      PK_FAIL(ctx, op, "value and %s differ at dim %d: %zd vs %zd", what, d,
              static_cast<ssize_t>(value.size(d)), static_cast<ssize_t>(cache.size(d)));
      return false;
    }
  }
  const int64_t len = cache.size(1);
  const int64_t seq = value.size(1);
  // start_pos + seq <= len, written so that nothing overflows.
  if (start_pos < 0 || start_pos >= len || seq > len - start_pos) {
    PK_FAIL(ctx, op,
            "start_pos %lld with %lld new positions does not fit %s of length %lld "
            "(0 <= start_pos < length and start_pos + seq_len <= length)",
            static_cast<long long>(start_pos), static_cast<long long>(seq), what,
            static_cast<long long>(len));
    return false;
  }
  if (cache.numel() > 0 && cache.mutable_data_ptr() == nullptr) {
    PK_FAIL(ctx, op, "%s has no data", what);
    return false;
  }
  return true;
}

void write_cache(const Tensor& value, Tensor& cache, int64_t start_pos) {
  const size_t elem = elementSize(value.scalar_type());
  // One position of one batch line: H * D elements, the same in both.
  const size_t row = static_cast<size_t>(value.size(2)) * static_cast<size_t>(value.size(3)) * elem;
  const size_t seq = static_cast<size_t>(value.size(1));
  const size_t len = static_cast<size_t>(cache.size(1));
  if (row == 0 || seq == 0) return;
  const auto* src = static_cast<const uint8_t*>(value.const_data_ptr());
  auto* dst = static_cast<uint8_t*>(cache.mutable_data_ptr());
  for (size_t b = 0; b < static_cast<size_t>(value.size(0)); ++b) {
    // memmove: nothing stops a caller from passing overlapping storage.
    std::memmove(dst + (b * len + static_cast<size_t>(start_pos)) * row, src + b * seq * row,
                 seq * row);
  }
}

} // namespace llm
} // namespace runtime
} // namespace executorch
