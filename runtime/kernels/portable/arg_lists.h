// Argument helpers of the list-shaped arguments: tensor lists (inputs and
// the several outputs of an op) and sizes given as int lists. Like
// kernel_util.h they never abort: a bad argument fails the context.
#pragma once

#include "kernel_util.h"

namespace executorch {
namespace runtime {
namespace portable {

// The entries of a tensor-list argument, each checked as get_tensor does.
// `entries` stays valid while args does.
bool get_tensor_list(KernelRuntimeContext& ctx, Args args, size_t i, const char* op,
                     ArrayRef<EValue*>* entries);

// A float[]? argument: None -> has=false.
bool get_opt_double_list(KernelRuntimeContext& ctx, Args args, size_t i, const char* op,
                         ArrayRef<double>* values, bool* has);

// A float? argument: None -> has=false.
bool get_opt_double(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, double* value,
                    bool* has);

// A shape from a size list: every size in [0, INT32_MAX], at most kMaxDim
// of them, and a product that fits in int64.
bool shape_from_sizes(KernelRuntimeContext& ctx, const IntList& sizes, const char* op,
                      Shape* shape);

// Fails unless the product of the sizes fits in int64 (resize_out and
// Shape::numel multiply without checks).
bool check_numel(KernelRuntimeContext& ctx, const Shape& shape, const char* op);

// Copies one element of dtype `st` at src[si] into dtype `dt` at dst[di].
inline void move_elem(ScalarType st, const void* src, size_t si, ScalarType dt, void* dst,
                      size_t di) {
  if (st == dt) {
    const size_t es = elementSizeOrZero(st);
    std::memcpy(static_cast<char*>(dst) + di * es, static_cast<const char*>(src) + si * es, es);
  } else if (isFloatingType(st) || isFloatingType(dt)) {
    store_d(dt, dst, di, load_d(st, src, si));
  } else {
    store_i(dt, dst, di, load_i(st, src, si));
  }
}

// Writes a Scalar argument into element i of a tensor of dtype t (ATen's
// casting: a floating value truncates into an integer dtype).
inline void store_scalar(ScalarType t, void* p, size_t i, const ScalarArg& v) {
  if (v.is_float) {
    store_d(t, p, i, v.d);
  } else {
    store_i(t, p, i, v.i);
  }
}

} // namespace portable
} // namespace runtime
} // namespace executorch
