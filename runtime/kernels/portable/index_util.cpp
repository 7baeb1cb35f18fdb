#include "index_util.h"

#include "elementwise_util.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// One mask (bool/uint8) over self dims [d, d + rank): its true positions as
// coordinates in temp memory, one source per covered dim.
bool add_mask(KernelRuntimeContext& ctx, const char* name, const Tensor& self, const Tensor& m,
              int d, AdvancedIndex* ix) {
  const int k = static_cast<int>(m.dim());
  if (k == 0 || d + k > ix->self_rank) {
    PK_FAIL(ctx, name, "a mask of rank %d does not fit self's dims from %d", k, d);
    return false;
  }
  for (int j = 0; j < k; ++j) {
    if (m.size(j) != self.size(d + j)) {
      PK_FAIL(ctx, name, "mask dim %d has size %d, self dim %d has %d", j,
              static_cast<int>(m.size(j)), d + j, static_cast<int>(self.size(d + j)));
      return false;
    }
  }
  const Shape ms = shape_of(m);
  int64_t st[1][kMaxDim];
  tensor_strides(m, st[0]);
  int64_t nnz = 0;
  for_each_broadcast<1>(ms, st, [&](size_t, const int64_t* o) {
    nnz += load_i(m.scalar_type(), m.const_data_ptr(), static_cast<size_t>(o[0])) != 0;
  });
  int64_t* coords = nullptr;
  if (nnz > 0) {
    Result<void*> mem = ctx.allocate_temp(static_cast<size_t>(nnz * k) * sizeof(int64_t));
    if (!mem.ok()) {
      PK_FAIL(ctx, name, "no temp memory for the %lld positions of a mask",
              static_cast<long long>(nnz));
      return false;
    }
    coords = static_cast<int64_t*>(*mem);
  }
  int64_t row = 0;
  int64_t at[kMaxDim] = {};
  for_each_broadcast<1>(ms, st, [&](size_t, const int64_t* o) {
    if (load_i(m.scalar_type(), m.const_data_ptr(), static_cast<size_t>(o[0])) != 0) {
      for (int j = 0; j < k; ++j) coords[row * k + j] = at[j];
      ++row;
    }
    for (int j = k - 1; j >= 0; --j) {
      if (++at[j] < ms.s[j]) break;
      at[j] = 0;
    }
  });
  for (int j = 0; j < k; ++j) {
    AdvancedIndex::Source& s = ix->sources[ix->n_sources];
    s.coords = coords;
    s.col = j;
    s.cols = k;
    s.strides[0] = nnz; // the source's length until strides are set
    ix->source_of[d + j] = ix->n_sources++;
  }
  return true;
}

// Reads the list into sources; the dims not covered stay unindexed.
bool read_sources(KernelRuntimeContext& ctx, Args args, size_t i, const char* name,
                  const Tensor& self, AdvancedIndex* ix) {
  if (!args[i]->isListOptionalTensor()) {
    PK_FAIL(ctx, name, "argument %zu must be a list of optional tensors, got tag %s", i,
            tag_to_string(args[i]->tag));
    return false;
  }
  const ArrayRef<EValue*> list = args[i]->payload.copyable_union.as_list_optional_tensor.wrapped();
  int d = 0;
  for (size_t e = 0; e < list.size(); ++e) {
    if (d >= ix->self_rank) {
      PK_FAIL(ctx, name, "%zu indices for a tensor of rank %d", list.size(), ix->self_rank);
      return false;
    }
    if (list[e] == nullptr || list[e]->isNone()) {
      ++d;
      continue;
    }
    EValue* one[1] = {list[e]};
    const Tensor* t = get_tensor(ctx, Args(one, 1), 0, name);
    if (t == nullptr) return false;
    const ScalarType it = t->scalar_type();
    if (it == ScalarType::Bool || it == ScalarType::Byte) {
      if (!add_mask(ctx, name, self, *t, d, ix)) return false;
      d += static_cast<int>(t->dim());
    } else if (it == ScalarType::Long || it == ScalarType::Int) {
      ix->sources[ix->n_sources].t = t;
      ix->source_of[d++] = ix->n_sources++;
    } else {
      PK_FAIL(ctx, name, "index %zu has dtype %s (needs int64, int32, bool or uint8)", e,
              toString(it));
      return false;
    }
  }
  return true;
}

// B (the broadcast of every source's shape) and each source's strides on it.
bool broadcast_sources(KernelRuntimeContext& ctx, const char* name, AdvancedIndex* ix) {
  ix->b.n = 0;
  for (int k = 0; k < ix->n_sources; ++k) {
    const AdvancedIndex::Source& s = ix->sources[k];
    Shape one;
    one.n = 1;
    one.s[0] = static_cast<SizesType>(s.strides[0]);
    const ArrayRef<SizesType> sizes = s.t != nullptr ? s.t->sizes() : one.ref();
    Shape next;
    if (!broadcast_shape(ix->b.ref(), sizes, &next)) {
      PK_FAIL(ctx, name, "the index tensors do not broadcast together");
      return false;
    }
    ix->b = next;
  }
  for (int k = 0; k < ix->n_sources; ++k) {
    AdvancedIndex::Source& s = ix->sources[k];
    if (s.t != nullptr) {
      broadcast_tensor_strides(*s.t, ix->b, s.strides);
      continue;
    }
    const int64_t len = s.strides[0];
    for (int d = 0; d < ix->b.n; ++d) s.strides[d] = 0;
    if (len != 1) s.strides[ix->b.n - 1] = 1;
  }
  return true;
}

// The result shape: B replaces the indexed dims if they are adjacent, else
// leads.
bool layout_result(KernelRuntimeContext& ctx, const char* name, const Tensor& self,
                   AdvancedIndex* ix) {
  int first = -1, last = -1, indexed = 0;
  for (int d = 0; d < ix->self_rank; ++d) {
    if (ix->source_of[d] < 0) continue;
    if (first < 0) first = d;
    last = d;
    ++indexed;
  }
  const bool adjacent = first < 0 || last - first + 1 == indexed;
  ix->b_first = adjacent && first >= 0 ? first : 0;
  const int rank = ix->b.n + ix->self_rank - indexed;
  if (rank > kMaxDim) {
    PK_FAIL(ctx, name, "the result would have rank %d", rank);
    return false;
  }
  Shape& r = ix->result;
  r.n = rank;
  for (int j = 0; j < ix->b.n; ++j) r.s[ix->b_first + j] = ix->b.s[j];
  int next = 0;
  for (int d = 0; d < ix->self_rank; ++d) {
    if (ix->source_of[d] >= 0) continue;
    const bool before = adjacent && first >= 0 && d < first;
    const int pos =
        before ? d : (adjacent && first >= 0 ? d - indexed + ix->b.n : ix->b.n + next++);
    ix->result_pos[d] = pos;
    r.s[pos] = self.size(d);
  }
  return true;
}

} // namespace

bool prepare_advanced_index(KernelRuntimeContext& ctx, Args args, size_t i, const char* name,
                            const Tensor& self, AdvancedIndex* ix) {
  ix->self_rank = static_cast<int>(self.dim());
  ix->n_sources = 0;
  for (int d = 0; d < kMaxDim; ++d) ix->source_of[d] = -1;
  return read_sources(ctx, args, i, name, self, ix) && broadcast_sources(ctx, name, ix) &&
         layout_result(ctx, name, self, ix);
}

bool indexed_offset(const AdvancedIndex& ix, const Tensor& target, const int64_t* rc,
                    int64_t* offset, int* bad_dim, int64_t* bad_value) {
  int64_t off = 0;
  for (int d = 0; d < ix.self_rank; ++d) {
    const int k = ix.source_of[d];
    int64_t c;
    if (k < 0) {
      c = rc[ix.result_pos[d]];
    } else {
      const AdvancedIndex::Source& s = ix.sources[k];
      int64_t so = 0;
      for (int j = 0; j < ix.b.n; ++j) so += rc[ix.b_first + j] * s.strides[j];
      c = s.t != nullptr
              ? load_i(s.t->scalar_type(), s.t->const_data_ptr(), static_cast<size_t>(so))
              : s.coords[so * s.cols + s.col];
      const int64_t size = target.size(d);
      if (c < 0) c += size;
      if (c < 0 || c >= size) {
        *bad_dim = d;
        *bad_value = c < 0 ? c - size : c;
        return false;
      }
    }
    off += c * target.strides()[d];
  }
  *offset = off;
  return true;
}

} // namespace portable
} // namespace runtime
} // namespace executorch
