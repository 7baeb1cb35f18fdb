#include "reduce_util.h"

namespace executorch {
namespace runtime {
namespace portable {

bool plan_reduction(KernelRuntimeContext& ctx, const Tensor& in, const IntList& dims, bool has_dims,
                    bool keepdim, const char* name, ReducePlan* p) {
  const int64_t rank = in.dim();
  p->keepdim = keepdim;
  for (size_t i = 0; has_dims && i < dims.n; ++i) {
    int64_t d;
    if (!norm_dim(ctx, dims.v[i], rank, name, &d)) return false;
    if (rank == 0) continue;
    if (p->mask[d]) {
      PK_FAIL(ctx, name, "dim %lld appears twice", static_cast<long long>(d));
      return false;
    }
    p->mask[d] = true;
  }
  const bool all = !has_dims || dims.n == 0;
  int64_t str[kMaxDim];
  tensor_strides(in, str);
  for (int64_t d = 0; d < rank; ++d) {
    if (all) p->mask[d] = true;
    const SizesType s = in.sizes()[d];
    if (p->mask[d]) {
      p->red_str[p->reduced.n] = str[d];
      p->reduced.s[p->reduced.n++] = s;
      if (keepdim) p->out_shape.s[p->out_shape.n++] = 1;
    } else {
      p->kept_str[p->kept.n] = str[d];
      p->kept.s[p->kept.n++] = s;
      p->out_shape.s[p->out_shape.n++] = s;
    }
  }
  return true;
}

void reduction_out_strides(const Tensor& out, const ReducePlan& p, int64_t* str) {
  int64_t own[kMaxDim];
  tensor_strides(out, own);
  for (int d = 0, k = 0; d < p.out_shape.n; ++d) {
    // With keepdim, the reduced dims sit in the output at size 1.
    if (p.keepdim && p.mask[d]) continue;
    str[k++] = own[d];
  }
}

} // namespace portable
} // namespace runtime
} // namespace executorch
