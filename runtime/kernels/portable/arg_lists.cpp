#include "arg_lists.h"

namespace executorch {
namespace runtime {
namespace portable {

bool get_tensor_list(KernelRuntimeContext& ctx, Args args, size_t i, const char* op,
                     ArrayRef<EValue*>* entries) {
  if (!args[i]->isTensorList()) {
    PK_FAIL(ctx, op, "argument %zu must be a tensor list, got tag %s", i,
            tag_to_string(args[i]->tag));
    return false;
  }
  const ArrayRef<EValue*> list = args[i]->payload.copyable_union.as_tensor_list.wrapped();
  for (size_t k = 0; k < list.size(); ++k) {
    const EValue* e = list[k];
    if (e == nullptr || !e->isTensor()) {
      PK_FAIL(ctx, op, "argument %zu: list entry %zu is not a tensor", i, k);
      return false;
    }
    const Tensor& t = e->toTensor();
    if (t.unsafeGetTensorImpl() == nullptr || !is_computable(t.scalar_type())) {
      PK_FAIL(ctx, op, "argument %zu: list entry %zu has an unsupported dtype", i, k);
      return false;
    }
    if (t.numel() > 0 && t.const_data_ptr() == nullptr) {
      PK_FAIL(ctx, op, "argument %zu: list entry %zu has no data", i, k);
      return false;
    }
  }
  *entries = list;
  return true;
}

bool get_opt_double_list(KernelRuntimeContext& ctx, Args args, size_t i, const char* op,
                         ArrayRef<double>* values, bool* has) {
  *has = !args[i]->isNone();
  if (!*has) return true;
  if (!args[i]->isDoubleList()) {
    PK_FAIL(ctx, op, "argument %zu must be a float list, got tag %s", i,
            tag_to_string(args[i]->tag));
    return false;
  }
  *values = args[i]->toDoubleList();
  return true;
}

bool get_opt_double(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, double* value,
                    bool* has) {
  *has = !args[i]->isNone();
  return !*has || get_double(ctx, args, i, op, value);
}

bool check_numel(KernelRuntimeContext& ctx, const Shape& shape, const char* op) {
  int64_t n = 1;
  for (int d = 0; d < shape.n; ++d) {
    if (shape.s[d] < 0 || __builtin_mul_overflow(n, static_cast<int64_t>(shape.s[d]), &n)) {
      PK_FAIL(ctx, op, "result shape has too many elements");
      return false;
    }
  }
  return true;
}

bool shape_from_sizes(KernelRuntimeContext& ctx, const IntList& sizes, const char* op,
                      Shape* shape) {
  if (sizes.n > static_cast<size_t>(kMaxDim)) {
    PK_FAIL(ctx, op, "%zu sizes exceed the rank limit of %d", sizes.n, kMaxDim);
    return false;
  }
  shape->n = static_cast<int>(sizes.n);
  for (size_t d = 0; d < sizes.n; ++d) {
    if (sizes.v[d] < 0 || sizes.v[d] > INT32_MAX) {
      PK_FAIL(ctx, op, "invalid size %lld", static_cast<long long>(sizes.v[d]));
      return false;
    }
    shape->s[d] = static_cast<SizesType>(sizes.v[d]);
  }
  return check_numel(ctx, *shape, op);
}

} // namespace portable
} // namespace runtime
} // namespace executorch
