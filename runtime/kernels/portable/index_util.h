// Advanced indexing as ATen does it (index.Tensor, index_put): a list of
// optional index tensors, one per leading dim of self (None = the whole
// dim); int64/int32 tensors give positions (negative ones count from the
// end), bool/uint8 tensors are masks over as many dims as they have. The
// index tensors broadcast together to shape B; the result has B in place
// of the indexed dims when those are adjacent, else B first.
//
// Internal to libexecutorch.
#pragma once

#include "kernel_util.h"

namespace executorch {
namespace runtime {
namespace portable {

struct AdvancedIndex {
  // Per indexed source (a position tensor, or one column of a mask's
  // coordinates): where its values are and its strides over B.
  struct Source {
    const Tensor* t = nullptr;       // positions, or null for mask coordinates
    const int64_t* coords = nullptr; // mask coordinates, row-major (nnz x cols)
    int64_t col = 0, cols = 1;
    int64_t strides[kMaxDim] = {};
  };
  int self_rank = 0;
  int source_of[kMaxDim] = {};  // per self dim: its source, or -1 (not indexed)
  int result_pos[kMaxDim] = {}; // per self dim not indexed: its result dim
  Source sources[kMaxDim];
  int n_sources = 0;
  Shape b;         // the broadcast index shape
  int b_first = 0; // the result dim where B starts
  Shape result;
};

// Reads the index list (argument i of args) against self. Mask coordinates
// are taken from the context's temp allocator. Fails the context (and
// returns false) on a bad list.
bool prepare_advanced_index(KernelRuntimeContext& ctx, Args args, size_t i, const char* name,
                            const Tensor& self, AdvancedIndex* ix);

// The element offset in `target` (self, or a tensor of self's sizes) that
// result coordinate rc selects; false when an index is out of range
// (*bad_dim names the dim).
bool indexed_offset(const AdvancedIndex& ix, const Tensor& target, const int64_t* rc,
                    int64_t* offset, int* bad_dim, int64_t* bad_value);

// indexed_offset, failing the context on a position out of range.
inline bool offset_or_fail(KernelRuntimeContext& ctx, const char* name, const AdvancedIndex& ix,
                           const Tensor& target, const int64_t* rc, int64_t* off) {
  int64_t bad_value = 0;
  int bad_dim = 0;
  if (indexed_offset(ix, target, rc, off, &bad_dim, &bad_value)) return true;
  PK_FAIL(ctx, name, "index %lld is out of range for dim %d of size %d",
          static_cast<long long>(bad_value), bad_dim, static_cast<int>(target.size(bad_dim)));
  return false;
}

// Calls f(rc, offset) for every result coordinate rc (result.n values) with
// the element offset it selects in `target` (self, or a tensor of self's
// sizes). Stops and fails the context on a position out of range.
template <typename F>
bool for_each_indexed(KernelRuntimeContext& ctx, const char* name, const AdvancedIndex& ix,
                      const Tensor& target, F f) {
  const Shape& r = ix.result;
  if (r.numel() == 0) return true;
  int64_t rc[kMaxDim] = {};
  for (int64_t n = r.numel(); n > 0; --n) {
    int64_t off = 0;
    if (!offset_or_fail(ctx, name, ix, target, rc, &off)) return false;
    f(static_cast<const int64_t*>(rc), off);
    for (int d = r.n - 1; d >= 0; --d) {
      if (++rc[d] < r.s[d]) break;
      rc[d] = 0;
    }
  }
  return true;
}

// Whether the result's last dim is self's last dim, not indexed and of
// stride 1 in target: then each result row is one run in target.
inline bool rows_are_runs(const AdvancedIndex& ix, const Tensor& target) {
  const int last = ix.self_rank - 1;
  return last >= 0 && ix.result.n > 0 && ix.source_of[last] < 0 &&
         ix.result_pos[last] == ix.result.n - 1 && target.strides()[last] == 1;
}

// for_each_indexed a row at a time, when rows_are_runs: f(rc, offset, n)
// for the n elements from result coordinate rc (its last entry 0), which
// are n consecutive elements of target from offset.
template <typename F>
bool for_each_indexed_row(KernelRuntimeContext& ctx, const char* name, const AdvancedIndex& ix,
                          const Tensor& target, F f) {
  const Shape& r = ix.result;
  if (r.numel() == 0) return true;
  const int64_t len = r.s[r.n - 1];
  int64_t rc[kMaxDim] = {};
  for (int64_t n = r.numel() / len; n > 0; --n) {
    int64_t off = 0;
    if (!offset_or_fail(ctx, name, ix, target, rc, &off)) return false;
    f(static_cast<const int64_t*>(rc), off, len);
    for (int d = r.n - 2; d >= 0; --d) {
      if (++rc[d] < r.s[d]) break;
      rc[d] = 0;
    }
  }
  return true;
}

} // namespace portable
} // namespace runtime
} // namespace executorch
