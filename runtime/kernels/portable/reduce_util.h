// The plan of a reduction over some dims of a tensor in any dim order: the
// kept dims (one output element per index) and the reduced ones, each with
// the input's element strides, and the output's strides over the kept dims.
#pragma once

#include "view_util.h"

namespace executorch {
namespace runtime {
namespace portable {

struct ReducePlan {
  Shape kept, reduced, out_shape;
  int64_t kept_str[kMaxDim] = {}, red_str[kMaxDim] = {}, out_str[kMaxDim] = {};
  bool mask[kMaxDim] = {};
  bool keepdim = false;
  // Elements per output (1 for an empty reduced shape of rank 0).
  int64_t count() const { return reduced.numel(); }
};

// dims: the reduced dims (an empty or absent list reduces every dim).
// Fills everything but out_str.
bool plan_reduction(KernelRuntimeContext& ctx, const Tensor& in, const IntList& dims, bool has_dims,
                    bool keepdim, const char* name, ReducePlan* p);

// An output's strides over the kept dims (out resized to p.out_shape).
void reduction_out_strides(const Tensor& out, const ReducePlan& p, int64_t* str);

// Sets p->out_str for out; call after resizing out to p->out_shape.
inline void set_reduction_out(const Tensor& out, ReducePlan* p) {
  reduction_out_strides(out, *p, p->out_str);
}

// Calls f(out_offset, in_base) once per output element.
template <typename F>
void for_each_output(const ReducePlan& p, F f) {
  for_each_index(p.kept, [&](const int64_t* idx) {
    f(offset_of(idx, p.out_str, p.kept.n), offset_of(idx, p.kept_str, p.kept.n));
  });
}

// Calls g(in_offset) for each input element reduced into the output at in_base.
template <typename G>
void for_each_reduced(const ReducePlan& p, int64_t in_base, G g) {
  for_each_index(p.reduced,
                 [&](const int64_t* idx) { g(in_base + offset_of(idx, p.red_str, p.reduced.n)); });
}

} // namespace portable
} // namespace runtime
} // namespace executorch
