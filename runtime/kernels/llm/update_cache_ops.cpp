// llama::update_cache.out and llama::update_cache_with_indices.out (upstream's
// extension/llm/custom_ops/op_update_cache.cpp):
//   update_cache.out(Tensor value, Tensor(a!) cache, SymInt start_pos, *,
//     Tensor(b!) out) -> Tensor(b!)
//   update_cache_with_indices.out(Tensor value, Tensor(a!) cache,
//     SymInt start_pos, Tensor indices, *, Tensor(b!) out) -> Tensor(b!)
// value is [B, S, H, D], cache [B, L, H, D] (any dtype, the same for both,
// contiguous). update_cache copies value[b, s] into cache[b, start_pos + s];
// the indexed form copies it into cache[b, indices[b, s]] (indices int64
// [B, S]; start_pos is not used, as upstream). `out` is a placeholder the
// exporter allocates (upstream's meta returns a [1] tensor): it is neither
// resized nor written, as upstream.
#include "llm_tables.h"
#include "llm_util.h"

namespace executorch {
namespace runtime {
namespace llm {
namespace {

void update_cache_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "llama::update_cache.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* value = get_tensor(ctx, args, 0, name);
  Tensor* cache = value != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  int64_t start_pos = 0;
  if (cache == nullptr || !get_int(ctx, args, 2, name, &start_pos) ||
      get_tensor(ctx, args, 3, name) == nullptr ||
      !check_cache_write(ctx, name, *value, *cache, start_pos, "cache")) {
    return;
  }
  write_cache(*value, *cache, start_pos);
}

void update_cache_with_indices_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "llama::update_cache_with_indices.out";
  if (!check_nargs(ctx, args, 6, name)) return;
  Tensor* value = get_tensor(ctx, args, 0, name);
  Tensor* cache = value != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  int64_t start_pos = 0;
  Tensor* indices = nullptr;
  if (cache == nullptr || !get_int(ctx, args, 2, name, &start_pos) ||
      (indices = get_tensor(ctx, args, 3, name)) == nullptr ||
      get_tensor(ctx, args, 4, name) == nullptr) {
    return;
  }
  // The shape checks of the start_pos form without the position bounds
  // (the indices place each position).
  if (value->dim() != 4 || cache->dim() != 4) {
    PK_FAIL(ctx, name, "value and cache must be 4-D ([B, S, H, D] and [B, L, H, D])");
    return;
  }
  if (value->size(0) != cache->size(0) || value->size(2) != cache->size(2) ||
      value->size(3) != cache->size(3)) {
    PK_FAIL(ctx, name, "value [B, S, H, D] and cache [B, L, H, D] differ in B, H or D");
    return;
  }
  if (value->scalar_type() != cache->scalar_type()) {
    PK_FAIL(ctx, name, "value (%s) and cache (%s) must have the same dtype",
            toString(value->scalar_type()), toString(cache->scalar_type()));
    return;
  }
  if (!require_contiguous(ctx, *value, name) || !require_contiguous(ctx, *cache, name) ||
      !require_contiguous(ctx, *indices, name)) {
    return;
  }
  if (indices->scalar_type() != ScalarType::Long || indices->dim() != 2 ||
      indices->size(0) != value->size(0) || indices->size(1) != value->size(1)) {
    PK_FAIL(ctx, name, "indices must be int64 of shape [B, S] = [%zd, %zd]",
            static_cast<ssize_t>(value->size(0)), static_cast<ssize_t>(value->size(1)));
    return;
  }
  const size_t batch = static_cast<size_t>(value->size(0));
  const size_t seq = static_cast<size_t>(value->size(1));
  const int64_t len = cache->size(1);
  const int64_t* idx = indices->const_data_ptr<int64_t>();
  // Every index is checked before anything is written.
  for (size_t i = 0; i < batch * seq; ++i) {
    if (idx[i] < 0 || idx[i] >= len) {
      PK_FAIL(ctx, name, "index %lld at %zu is outside the cache's [0, %lld)",
              static_cast<long long>(idx[i]), i, static_cast<long long>(len));
      return;
    }
  }
  if (cache->numel() > 0 && cache->mutable_data_ptr() == nullptr) {
    PK_FAIL(ctx, name, "cache has no data");
    return;
  }
  const size_t row = static_cast<size_t>(value->size(2)) * static_cast<size_t>(value->size(3)) *
                     elementSize(value->scalar_type());
  if (row == 0) return;
  const auto* src = static_cast<const uint8_t*>(value->const_data_ptr());
  auto* dst = static_cast<uint8_t*>(cache->mutable_data_ptr());
  for (size_t b = 0; b < batch; ++b) {
    for (size_t s = 0; s < seq; ++s) {
      const size_t pos = static_cast<size_t>(idx[b * seq + s]);
      std::memmove(dst + (b * static_cast<size_t>(len) + pos) * row, src + (b * seq + s) * row,
                   row);
    }
  }
}

const Kernel kUpdateCacheKernels[] = {
    Kernel("llama::update_cache.out", update_cache_out),
    Kernel("llama::update_cache_with_indices.out", update_cache_with_indices_out),
};

} // namespace

Span<const Kernel> update_cache_kernels() {
  return Span<const Kernel>(kUpdateCacheKernels,
                            sizeof(kUpdateCacheKernels) / sizeof(kUpdateCacheKernels[0]));
}

} // namespace llm
} // namespace runtime
} // namespace executorch
