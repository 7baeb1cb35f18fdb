// Shared helpers of the portable kernels: argument checking that never
// aborts (every EValue tag is checked before it is read), element load/store
// for the supported dtypes, broadcasting, and output resizing.
//
// Internal to libexecutorch: nothing here is exported.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>
#include <executorch/runtime/platform/log.h>

#include "core/checked_math.h"

namespace executorch {
namespace runtime {
namespace portable {

using ::executorch::aten::BFloat16;
using ::executorch::aten::Half;
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;
using SizesType = TensorImpl::SizesType;
using Args = Span<EValue*>;

constexpr int kMaxDim = static_cast<int>(TensorImpl::kMaxDim);

// Fails the context with InvalidArgument and logs "<op>: <message>".
#define PK_FAIL(ctx, op, fmt, ...)                             \
  do {                                                         \
    ET_LOG(Error, "%s: " fmt, op, ##__VA_ARGS__);              \
    (ctx).fail(::executorch::runtime::Error::InvalidArgument); \
  } while (0)

// A small fixed-capacity shape.
struct Shape {
  int n = 0;
  SizesType s[kMaxDim] = {};
  ArrayRef<SizesType> ref() const { return ArrayRef<SizesType>(s, static_cast<size_t>(n)); }
  // Saturates at INT64_MAX (a shape built from two tensors' sizes can pass
  // it); resize_out() rejects such a shape before anything loops over it.
  int64_t numel() const {
    int64_t r = 1;
    for (int i = 0; i < n; ++i) {
      if (!::executorch::runtime::internal::checked_mul<int64_t>(r, s[i], &r)) {
        return std::numeric_limits<int64_t>::max();
      }
    }
    return r;
  }
};

inline Shape shape_of(const Tensor& t) {
  Shape sh;
  sh.n = static_cast<int>(t.dim());
  for (int i = 0; i < sh.n; ++i) sh.s[i] = t.sizes()[i];
  return sh;
}

// ---- argument access -------------------------------------------------------

bool check_nargs(KernelRuntimeContext& ctx, Args args, size_t n, const char* op);
// Ops with several outputs, as upstream's emitter calls them: the n_in
// schema inputs, the n_out outs, then the returned tuple as one TensorList
// of n_out entries.
bool check_nargs_multi_out(KernelRuntimeContext& ctx, Args args, size_t n_in, size_t n_out,
                           const char* op);

// Null on failure (ctx failed). Checks the tag, the dtype is known and the
// tensor is on the CPU with a data pointer (unless it has no elements).
Tensor* get_tensor(KernelRuntimeContext& ctx, Args args, size_t i, const char* op);
// Sets *out to null for None.
bool get_opt_tensor(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, Tensor** out);
bool get_int(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, int64_t* out);
// None -> has=false.
bool get_opt_int(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, int64_t* out,
                 bool* has);
bool get_bool(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, bool* out);
bool get_double(KernelRuntimeContext& ctx, Args args, size_t i, const char* op,
                double* out); // Double or Int
// A Scalar (Int, Double or Bool): as double, as int, and whether floating.
struct ScalarArg {
  double d = 0;
  int64_t i = 0;
  bool is_float = false;
  bool is_bool = false;
};
bool get_scalar(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, ScalarArg* out);
// Int list (each element checked); copies up to kMaxDim*2 values.
struct IntList {
  size_t n = 0;
  int64_t v[2 * kMaxDim] = {};
};
bool get_int_list(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, IntList* out);
// None -> has=false.
bool get_opt_int_list(KernelRuntimeContext& ctx, Args args, size_t i, const char* op, IntList* out,
                      bool* has);
bool get_string(KernelRuntimeContext& ctx, Args args, size_t i, const char* op,
                std::string_view* out);

// Normalizes a possibly negative dim into [0, rank); rank 0 accepts -1 and 0.
bool norm_dim(KernelRuntimeContext& ctx, int64_t dim, int64_t rank, const char* op, int64_t* out);

bool is_default_dim_order(const Tensor& t);
bool is_channels_last(const Tensor& t);
// Fails unless the tensor has the contiguous (default) dim order.
bool require_contiguous(KernelRuntimeContext& ctx, const Tensor& t, const char* op);

// Resizes out (internal_resize_contiguous); fails the context on error.
bool resize_out(KernelRuntimeContext& ctx, Tensor& out, ArrayRef<SizesType> sizes, const char* op);
inline bool resize_out(KernelRuntimeContext& ctx, Tensor& out, const Shape& s, const char* op) {
  return resize_out(ctx, out, s.ref(), op);
}

// The dtypes the portable kernels compute with.
inline bool is_computable(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
    case ScalarType::Half:
    case ScalarType::Float:
    case ScalarType::Double:
    case ScalarType::Bool:
    case ScalarType::BFloat16:
      return true;
    default:
      return false;
  }
}
bool require_dtype_computable(KernelRuntimeContext& ctx, const Tensor& t, const char* op);
bool require_floating(KernelRuntimeContext& ctx, const Tensor& t, const char* op);
bool require_same_dtype(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                        const char* op);

// ---- element access ----------------------------------------------------------
// Bool elements are read and written as bytes: tensor data comes from files,
// and a byte other than 0/1 read as C++ bool is undefined behaviour.

// Float -> integer conversion without UB (NaN -> 0, saturating).
template <typename I>
inline I sat_cast(double v) {
  if (std::isnan(v)) return I(0);
  const double lo = static_cast<double>(std::numeric_limits<I>::lowest());
  const double hi = static_cast<double>(std::numeric_limits<I>::max());
  if (v <= lo) return std::numeric_limits<I>::lowest();
  if (v >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}

inline double load_d(ScalarType t, const void* p, size_t i) {
  switch (t) {
    case ScalarType::Byte:
      return static_cast<const uint8_t*>(p)[i];
    case ScalarType::Char:
      return static_cast<const int8_t*>(p)[i];
    case ScalarType::Short:
      return static_cast<const int16_t*>(p)[i];
    case ScalarType::Int:
      return static_cast<const int32_t*>(p)[i];
    case ScalarType::Long:
      return static_cast<double>(static_cast<const int64_t*>(p)[i]);
    case ScalarType::Half:
      return float(static_cast<const Half*>(p)[i]);
    case ScalarType::Float:
      return static_cast<const float*>(p)[i];
    case ScalarType::Double:
      return static_cast<const double*>(p)[i];
    case ScalarType::Bool:
      return static_cast<const uint8_t*>(p)[i] != 0 ? 1.0 : 0.0;
    case ScalarType::BFloat16:
      return float(static_cast<const BFloat16*>(p)[i]);
    default:
      return 0;
  }
}

inline int64_t load_i(ScalarType t, const void* p, size_t i) {
  switch (t) {
    case ScalarType::Byte:
      return static_cast<const uint8_t*>(p)[i];
    case ScalarType::Char:
      return static_cast<const int8_t*>(p)[i];
    case ScalarType::Short:
      return static_cast<const int16_t*>(p)[i];
    case ScalarType::Int:
      return static_cast<const int32_t*>(p)[i];
    case ScalarType::Long:
      return static_cast<const int64_t*>(p)[i];
    case ScalarType::Bool:
      return static_cast<const uint8_t*>(p)[i] != 0 ? 1 : 0;
    default:
      return sat_cast<int64_t>(load_d(t, p, i));
  }
}

inline void store_d(ScalarType t, void* p, size_t i, double v) {
  switch (t) {
    case ScalarType::Byte:
      static_cast<uint8_t*>(p)[i] = sat_cast<uint8_t>(v);
      break;
    case ScalarType::Char:
      static_cast<int8_t*>(p)[i] = sat_cast<int8_t>(v);
      break;
    case ScalarType::Short:
      static_cast<int16_t*>(p)[i] = sat_cast<int16_t>(v);
      break;
    case ScalarType::Int:
      static_cast<int32_t*>(p)[i] = sat_cast<int32_t>(v);
      break;
    case ScalarType::Long:
      static_cast<int64_t*>(p)[i] = sat_cast<int64_t>(v);
      break;
    case ScalarType::Half:
      static_cast<Half*>(p)[i] = Half(static_cast<float>(v));
      break;
    case ScalarType::Float:
      static_cast<float*>(p)[i] = static_cast<float>(v);
      break;
    case ScalarType::Double:
      static_cast<double*>(p)[i] = v;
      break;
    case ScalarType::Bool:
      static_cast<uint8_t*>(p)[i] = v != 0.0 ? 1 : 0;
      break;
    case ScalarType::BFloat16:
      static_cast<BFloat16*>(p)[i] = BFloat16(static_cast<float>(v));
      break;
    default:
      break;
  }
}

inline void store_i(ScalarType t, void* p, size_t i, int64_t v) {
  switch (t) {
    case ScalarType::Byte:
      static_cast<uint8_t*>(p)[i] = static_cast<uint8_t>(v);
      break;
    case ScalarType::Char:
      static_cast<int8_t*>(p)[i] = static_cast<int8_t>(v);
      break;
    case ScalarType::Short:
      static_cast<int16_t*>(p)[i] = static_cast<int16_t>(v);
      break;
    case ScalarType::Int:
      static_cast<int32_t*>(p)[i] = static_cast<int32_t>(v);
      break;
    case ScalarType::Long:
      static_cast<int64_t*>(p)[i] = v;
      break;
    case ScalarType::Bool:
      static_cast<uint8_t*>(p)[i] = v != 0 ? 1 : 0;
      break;
    default:
      store_d(t, p, i, static_cast<double>(v));
      break;
  }
}

// Wrapping integer arithmetic (no signed-overflow UB).
inline int64_t wrap_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrap_sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t wrap_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// ---- broadcasting --------------------------------------------------------------

// Broadcasts two shapes (numpy rules); false when incompatible.
bool broadcast_shape(ArrayRef<SizesType> a, ArrayRef<SizesType> b, Shape* out);
// Element strides of a contiguous tensor of sizes `in` read at the positions of
// `out` (0 along broadcast dims). `in` must broadcast to `out`.
void broadcast_strides(ArrayRef<SizesType> in, const Shape& out, int64_t* strides);

// Calls f(out_index, offset_0, ..., offset_{K-1}) over out's elements, where
// offset_k is the element offset into input k (strides from broadcast_strides).
template <int K, typename F>
void for_each_broadcast(const Shape& out, const int64_t (&strides)[K][kMaxDim], F f) {
  const int64_t total = out.numel();
  if (total == 0) return;
  int64_t counter[kMaxDim] = {};
  int64_t off[K] = {};
  for (int64_t idx = 0; idx < total; ++idx) {
    f(static_cast<size_t>(idx), off);
    for (int d = out.n - 1; d >= 0; --d) {
      if (++counter[d] < out.s[d]) {
        for (int k = 0; k < K; ++k) off[k] += strides[k][d];
        break;
      }
      for (int k = 0; k < K; ++k) off[k] -= strides[k][d] * (out.s[d] - 1);
      counter[d] = 0;
    }
  }
}

} // namespace portable
} // namespace runtime
} // namespace executorch

namespace executorch {
namespace runtime {
namespace portable {

// Copies the elements of a strided view of `src` (element sizes `sizes`,
// element strides `src_strides`, starting at element `src_off`) to `dst`
// laid out by `dst_strides`, converting from dtype `st` to `dt`.
void strided_copy(ScalarType st, const void* src, int64_t src_off, const int64_t* src_strides,
                  ScalarType dt, void* dst, const int64_t* dst_strides, const Shape& sizes);

// Contiguous strides of a shape (elements).
void contiguous_strides(const Shape& s, int64_t* strides);

// Strides of a tensor as int64 (elements).
void tensor_strides(const Tensor& t, int64_t* strides);

// A view size with at most one -1 (inferred) for `numel` elements.
bool infer_view_shape(KernelRuntimeContext& ctx, const IntList& size, int64_t numel,
                      const char* name, Shape* s);

// Copies (with dtype conversion) a whole tensor into another of the same
// sizes, honouring each one's own dim order.
void copy_convert(const Tensor& src, Tensor& dst);

} // namespace portable
} // namespace runtime
} // namespace executorch
