// Ops whose output size depends on the data: masked_select.out (the
// elements where a bool mask is true), masked_scatter.out (those positions
// filled from a source in order) and nonzero.out (the coordinates of the
// non-zero elements). Row-major order over the logical shape, any dim
// order; the out is resized to the count within its capacity.
#include <cstring>

#include "elementwise_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// self and mask broadcast to one shape; strides[0] self's, [1] mask's.
struct MaskPlan {
  Shape shape;
  int64_t strides[2][kMaxDim] = {};
};

bool plan_mask(KernelRuntimeContext& ctx, const Tensor& self, const Tensor& mask, const char* name,
               MaskPlan* p) {
  if (mask.scalar_type() != ScalarType::Bool) {
    PK_FAIL(ctx, name, "the mask must be bool, got %s", toString(mask.scalar_type()));
    return false;
  }
  if (!broadcast_shape(self.sizes(), mask.sizes(), &p->shape) || p->shape.numel() < 0 ||
      p->shape.numel() == INT64_MAX) {
    PK_FAIL(ctx, name, "self and mask do not broadcast");
    return false;
  }
  broadcast_tensor_strides(self, p->shape, p->strides[0]);
  broadcast_tensor_strides(mask, p->shape, p->strides[1]);
  return true;
}

int64_t count_true(const Tensor& mask, const MaskPlan& p) {
  const void* mp = mask.const_data_ptr();
  int64_t n = 0;
  for_each_broadcast<2>(p.shape, p.strides, [&](size_t, const int64_t* o) {
    n += load_i(ScalarType::Bool, mp, static_cast<size_t>(o[1])) != 0 ? 1 : 0;
  });
  return n;
}

// masked_select.out(self, mask, *, out) -> out (1-D)
void masked_select_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::masked_select.out";
  if (!check_nargs(ctx, args, 4, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  Tensor* mask = self != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* out = mask != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  MaskPlan p;
  if (out == nullptr || !require_same_dtype(ctx, *self, *out, name) ||
      !plan_mask(ctx, *self, *mask, name, &p)) {
    return;
  }
  const int64_t n = count_true(*mask, p);
  const SizesType size = static_cast<SizesType>(n);
  if (n > INT32_MAX || !resize_out(ctx, *out, ArrayRef<SizesType>(&size, 1), name)) return;
  const size_t es = elementSizeOrZero(self->scalar_type());
  const char* ip = static_cast<const char*>(self->const_data_ptr());
  const void* mp = mask->const_data_ptr();
  char* op = static_cast<char*>(out->mutable_data_ptr());
  const int64_t os = out->strides()[0];
  int64_t k = 0;
  for_each_broadcast<2>(p.shape, p.strides, [&](size_t, const int64_t* o) {
    if (load_i(ScalarType::Bool, mp, static_cast<size_t>(o[1])) == 0) return;
    std::memcpy(op + static_cast<size_t>(k++ * os) * es, ip + static_cast<size_t>(o[0]) * es, es);
  });
}

// masked_scatter.out(self, mask, source, *, out) -> out: out = self
// (broadcast with mask), its masked positions taking source's elements in
// row-major order.
void masked_scatter_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::masked_scatter.out";
  if (!check_nargs(ctx, args, 5, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  Tensor* mask = self != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  Tensor* source = mask != nullptr ? get_tensor(ctx, args, 2, name) : nullptr;
  Tensor* out = source != nullptr ? get_tensor(ctx, args, 3, name) : nullptr;
  MaskPlan mask_plan;
  if (out == nullptr || !require_same_dtype(ctx, *self, *source, name) ||
      !require_same_dtype(ctx, *self, *out, name) ||
      !plan_mask(ctx, *self, *mask, name, &mask_plan)) {
    return;
  }
  ElemPlan<3> p;
  const Tensor* ins[2] = {self, mask};
  if (!plan_elementwise(ctx, name, ins, *out, &p)) return;
  if (count_true(*mask, mask_plan) > source->numel()) {
    PK_FAIL(ctx, name, "the mask selects more elements than source has (%zd)",
            static_cast<ssize_t>(source->numel()));
    return;
  }
  // source is read in its logical row-major order, whatever its dim order.
  int64_t src_str[kMaxDim], idx[kMaxDim] = {};
  tensor_strides(*source, src_str);
  const int src_rank = static_cast<int>(source->dim());
  const size_t es = elementSizeOrZero(self->scalar_type());
  const char* ip = static_cast<const char*>(self->const_data_ptr());
  const char* sp = static_cast<const char*>(source->const_data_ptr());
  const void* mp = mask->const_data_ptr();
  char* op = static_cast<char*>(out->mutable_data_ptr());
  for_each_broadcast<3>(p.shape, p.strides, [&](size_t, const int64_t* o) {
    const char* from = ip + static_cast<size_t>(o[0]) * es;
    if (load_i(ScalarType::Bool, mp, static_cast<size_t>(o[1])) != 0) {
      int64_t so = 0;
      for (int d = 0; d < src_rank; ++d) so += idx[d] * src_str[d];
      from = sp + static_cast<size_t>(so) * es;
      for (int d = src_rank - 1; d >= 0; --d) {
        if (++idx[d] < source->size(d)) break;
        idx[d] = 0;
      }
    }
    std::memcpy(op + static_cast<size_t>(o[2]) * es, from, es);
  });
}

// nonzero.out(self, *, out) -> out: int64 [count, rank], row-major order.
void nonzero_out(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::nonzero.out";
  if (!check_nargs(ctx, args, 3, name)) return;
  Tensor* self = get_tensor(ctx, args, 0, name);
  Tensor* out = self != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  if (out == nullptr) return;
  if (out->scalar_type() != ScalarType::Long || out->dim() != 2) {
    PK_FAIL(ctx, name, "out must be a 2-D int64 tensor");
    return;
  }
  const ScalarType t = self->scalar_type();
  const void* ip = self->const_data_ptr();
  MaskPlan p;
  p.shape = shape_of(*self);
  tensor_strides(*self, p.strides[0]);
  auto is_nonzero = [&](int64_t off) {
    return isFloatingType(t) ? load_d(t, ip, static_cast<size_t>(off)) != 0.0
                             : load_i(t, ip, static_cast<size_t>(off)) != 0;
  };
  int64_t n = 0;
  for_each_broadcast<2>(p.shape, p.strides,
                        [&](size_t, const int64_t* o) { n += is_nonzero(o[0]) ? 1 : 0; });
  const SizesType sizes[2] = {static_cast<SizesType>(n), static_cast<SizesType>(p.shape.n)};
  if (n > INT32_MAX || !resize_out(ctx, *out, ArrayRef<SizesType>(sizes, 2), name)) return;
  int64_t* op = out->mutable_data_ptr<int64_t>();
  const int64_t rs = out->strides()[0], cs = out->strides()[1];
  int64_t idx[kMaxDim] = {}, row = 0;
  for_each_broadcast<2>(p.shape, p.strides, [&](size_t, const int64_t* o) {
    if (is_nonzero(o[0])) {
      for (int d = 0; d < p.shape.n; ++d) op[row * rs + d * cs] = idx[d];
      ++row;
    }
    for (int d = p.shape.n - 1; d >= 0; --d) {
      if (++idx[d] < p.shape.s[d]) break;
      idx[d] = 0;
    }
  });
}

const Kernel kMaskKernels[] = {
    Kernel("aten::masked_select.out", masked_select_out),
    Kernel("aten::masked_scatter.out", masked_scatter_out),
    Kernel("aten::nonzero.out", nonzero_out),
};

} // namespace

Span<const Kernel> mask_kernels() {
  return Span<const Kernel>(kMaskKernels, sizeof(kMaskKernels) / sizeof(kMaskKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
