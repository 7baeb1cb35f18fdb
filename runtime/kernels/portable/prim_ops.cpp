// The prim ops of the emitted programs: sym_size, scalar arithmetic, et_view.
#include <cmath>

#include "kernel_util.h"
#include "kernels.h"

namespace executorch {
namespace runtime {
namespace portable {

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

namespace {
enum class PrimOp { Add, Sub, Mul, FloorDiv };

void prim_scalar(KernelRuntimeContext& ctx, Args args, PrimOp op, const char* name) {
  if (!check_nargs(ctx, args, 3, name)) return;
  const EValue& a = *args[0];
  const EValue& b = *args[1];
  if (!(a.isInt() || a.isDouble() || a.isBool()) || !(b.isInt() || b.isDouble() || b.isBool())) {
    PK_FAIL(ctx, name, "operands must be Int, Double or Bool (got %s, %s)", tag_to_string(a.tag),
            tag_to_string(b.tag));
    return;
  }
  if (!a.isDouble() && !b.isDouble()) {
    const int64_t x = a.isInt() ? a.toInt() : (a.toBool() ? 1 : 0);
    const int64_t y = b.isInt() ? b.toInt() : (b.toBool() ? 1 : 0);
    int64_t r = 0;
    switch (op) {
      case PrimOp::Add: r = wrap_add(x, y); break;
      case PrimOp::Sub: r = wrap_sub(x, y); break;
      case PrimOp::Mul: r = wrap_mul(x, y); break;
      case PrimOp::FloorDiv:
        if (y == 0) {
          PK_FAIL(ctx, name, "integer division by zero");
          return;
        }
        if (x == INT64_MIN && y == -1) {
          r = INT64_MIN;  // wraps
        } else {
          r = x / y;
          if ((x % y != 0) && ((x < 0) != (y < 0))) --r;
        }
        break;
    }
    *args[2] = EValue(r);
    return;
  }
  const double x = a.isDouble() ? a.toDouble() : a.isInt() ? static_cast<double>(a.toInt()) : (a.toBool() ? 1.0 : 0.0);
  const double y = b.isDouble() ? b.toDouble() : b.isInt() ? static_cast<double>(b.toInt()) : (b.toBool() ? 1.0 : 0.0);
  double r = 0;
  switch (op) {
    case PrimOp::Add: r = x + y; break;
    case PrimOp::Sub: r = x - y; break;
    case PrimOp::Mul: r = x * y; break;
    case PrimOp::FloorDiv:
      if (y == 0.0) {
        PK_FAIL(ctx, name, "division by zero");
        return;
      }
      r = std::floor(x / y);
      break;
  }
  *args[2] = EValue(r);
}
} // namespace

void prim_add_scalar(KernelRuntimeContext& ctx, Args args) {
  prim_scalar(ctx, args, PrimOp::Add, "executorch_prim::add.Scalar");
}
void prim_sub_scalar(KernelRuntimeContext& ctx, Args args) {
  prim_scalar(ctx, args, PrimOp::Sub, "executorch_prim::sub.Scalar");
}
void prim_mul_scalar(KernelRuntimeContext& ctx, Args args) {
  prim_scalar(ctx, args, PrimOp::Mul, "executorch_prim::mul.Scalar");
}
void prim_floordiv_scalar(KernelRuntimeContext& ctx, Args args) {
  prim_scalar(ctx, args, PrimOp::FloorDiv, "executorch_prim::floordiv.Scalar");
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

} // namespace portable
} // namespace runtime
} // namespace executorch
