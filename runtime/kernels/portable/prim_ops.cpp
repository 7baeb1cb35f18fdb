// The tensor prim ops of the emitted programs: sym_size, sym_numel,
// _local_scalar_dense, et_view, et_copy_index (the scalar ones are in
// prim_scalar_ops.cpp).
#include <cmath>

#include <cstring>

#include "kernel_util.h"
#include "op_tables.h"

namespace executorch {
namespace runtime {
namespace portable {
namespace {

// aten::sym_size.int(self, dim) -> SymInt
void sym_size_int(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::sym_size.int";
  if (!check_nargs(ctx, args, 3, name)) return;
  Tensor* t = get_tensor(ctx, args, 0, name);
  if (t == nullptr) return;
  int64_t dim;
  if (!get_int(ctx, args, 1, name, &dim) || !norm_dim(ctx, dim, t->dim(), name, &dim)) return;
  if (t->dim() == 0) {
    PK_FAIL(ctx, name, "0-dim tensor has no sizes");
    return;
  }
  *args[2] = EValue(static_cast<int64_t>(t->size(dim)));
}

// executorch_prim::et_view.default(self, size) -> Tensor: the result shares
// self's data (its own data pointer is replaced), with the new sizes.
void prim_et_view(KernelRuntimeContext& ctx, Args args) {
  const char* name = "executorch_prim::et_view.default";
  if (!check_nargs(ctx, args, 3, name)) return;
  Tensor* in = get_tensor(ctx, args, 0, name);
  if (in == nullptr) return;
  IntList size;
  if (!get_int_list(ctx, args, 1, name, &size)) return;
  if (!args[2]->isTensor()) {
    PK_FAIL(ctx, name, "result must be a Tensor, got tag %s", tag_to_string(args[2]->tag));
    return;
  }
  Tensor& out = args[2]->toTensor();
  if (!require_same_dtype(ctx, *in, out, name) || !require_contiguous(ctx, *in, name) ||
      !require_contiguous(ctx, out, name)) {
    return;
  }
  Shape s;
  if (!infer_view_shape(ctx, size, in->numel(), name, &s)) return;
  if (static_cast<ssize_t>(s.n) != out.dim() ||
      out.unsafeGetTensorImpl()->internal_resize_contiguous(s.ref()) != Error::Ok) {
    PK_FAIL(ctx, name, "cannot give the result the view's shape");
    return;
  }
  out.unsafeGetTensorImpl()->set_data(in->mutable_data_ptr());
}

// aten::sym_numel(self) -> SymInt
void sym_numel(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::sym_numel";
  if (!check_nargs(ctx, args, 2, name)) return;
  Tensor* t = get_tensor(ctx, args, 0, name);
  if (t == nullptr) return;
  *args[1] = EValue(static_cast<int64_t>(t->numel()));
}

// aten::_local_scalar_dense(self) -> Scalar: the value of a one-element
// tensor (Tensor.item()): a Bool, an Int or a Double by its dtype.
void local_scalar_dense(KernelRuntimeContext& ctx, Args args) {
  const char* name = "aten::_local_scalar_dense";
  if (!check_nargs(ctx, args, 2, name)) return;
  Tensor* t = get_tensor(ctx, args, 0, name);
  if (t == nullptr) return;
  if (t->numel() != 1) {
    PK_FAIL(ctx, name, "the tensor has %zd elements, expected 1", static_cast<ssize_t>(t->numel()));
    return;
  }
  const ScalarType st = t->scalar_type();
  const void* p = t->const_data_ptr();
  if (st == ScalarType::Bool) {
    *args[1] = EValue(load_i(st, p, 0) != 0);
  } else if (isFloatingType(st)) {
    *args[1] = EValue(load_d(st, p, 0));
  } else {
    *args[1] = EValue(load_i(st, p, 0));
  }
}

// The shape copy_to takes when copy_from is written at `index` along its
// first dim: [max(size(0), index + 1), copy_from's sizes...].
bool copy_index_shape(KernelRuntimeContext& ctx, const Tensor& to, const Tensor& from,
                      int64_t index, const char* name, Shape* s) {
  if (to.dim() != from.dim() + 1) {
    PK_FAIL(ctx, name, "copy_to has rank %zd, expected copy_from's rank + 1 (%zd)",
            static_cast<ssize_t>(to.dim()), static_cast<ssize_t>(from.dim() + 1));
    return false;
  }
  if (index < 0 || index >= std::numeric_limits<SizesType>::max()) {
    PK_FAIL(ctx, name, "index %lld is out of range", static_cast<long long>(index));
    return false;
  }
  // Rows before `index` were written with copy_from's shape: it cannot change.
  for (ssize_t d = 0; index > 0 && d < from.dim(); ++d) {
    if (to.size(d + 1) != from.size(d)) {
      PK_FAIL(ctx, name, "copy_from's size %zd along dim %zd differs from copy_to's %zd",
              static_cast<ssize_t>(from.size(d)), static_cast<ssize_t>(d),
              static_cast<ssize_t>(to.size(d + 1)));
      return false;
    }
  }
  s->n = static_cast<int>(to.dim());
  s->s[0] = to.size(0) > index ? to.size(0) : static_cast<SizesType>(index + 1);
  for (ssize_t d = 0; d < from.dim(); ++d) s->s[d + 1] = from.size(d);
  return true;
}

// executorch_prim::et_copy_index.tensor(copy_to, copy_from, index): writes
// copy_from into copy_to[index] (the emitted loop of a `map`), growing
// copy_to's first dim within its capacity.
void et_copy_index(KernelRuntimeContext& ctx, Args args) {
  const char* name = "executorch_prim::et_copy_index.tensor";
  // The schema returns nothing; a trailing return slot is accepted.
  if (!check_nargs(ctx, args, args.size() == 4 ? 4 : 3, name)) return;
  Tensor* to = get_tensor(ctx, args, 0, name);
  Tensor* from = to != nullptr ? get_tensor(ctx, args, 1, name) : nullptr;
  int64_t index = 0;
  if (from == nullptr || !get_int(ctx, args, 2, name, &index) ||
      !require_same_dtype(ctx, *to, *from, name) || !require_contiguous(ctx, *to, name) ||
      !require_contiguous(ctx, *from, name)) {
    return;
  }
  Shape s;
  if (!copy_index_shape(ctx, *to, *from, index, name, &s) || !resize_out(ctx, *to, s, name)) {
    return;
  }
  // After the resize, row `index` exists and holds copy_from's element count.
  const size_t bytes = static_cast<size_t>(from->nbytes());
  char* dst = static_cast<char*>(to->mutable_data_ptr());
  if (bytes > 0) {
    std::memcpy(dst + static_cast<size_t>(index) * bytes, from->const_data_ptr(), bytes);
  }
}

const Kernel kPrimKernels[] = {
    Kernel("aten::sym_size.int", sym_size_int),
    Kernel("aten::sym_numel", sym_numel),
    Kernel("aten::_local_scalar_dense", local_scalar_dense),
    Kernel("executorch_prim::et_view.default", prim_et_view),
    Kernel("executorch_prim::et_copy_index.tensor", et_copy_index),
};

} // namespace

Span<const Kernel> prim_kernels() {
  return Span<const Kernel>(kPrimKernels, sizeof(kPrimKernels) / sizeof(kPrimKernels[0]));
}

} // namespace portable
} // namespace runtime
} // namespace executorch
