// The kernel-author checking API: ET_CHECK_SAME_* macros that abort on a
// mismatch (for conditions only a kernel bug can break), bool predicates
// (tensors_have_same_*, tensor_is_*, tensor_has_*) that log what is wrong
// and return false (for arguments a model can get wrong, used with
// ET_KERNEL_CHECK), index helpers, and resize_tensor.
#pragma once

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <executorch/runtime/core/array_ref.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_dimension_limit.h>
#include <executorch/runtime/core/exec_aten/util/tensor_shape_to_c_string.h>
#include <executorch/runtime/platform/assert.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>
#include <executorch/runtime/platform/log.h>

// Every mismatch message of the ET_CHECK_SAME_* macros starts with this.
#define ET_TENSOR_CHECK_PREFIX__ "Tensors do not match"
#define ET_MIN2(a, b) (std::min(a, b))
#define ET_MIN3(a, b, c) (std::min(a, std::min(b, c)))

// A possibly negative index into [0, UPPER_BOUND).
#define ET_NORMALIZE_IX(IX, UPPER_BOUND) IX < 0 ? IX + UPPER_BOUND : IX

#define ET_CHECK_VALID_IX(IX, UPPER_BOUND)                                                     \
  ET_CHECK_MSG(static_cast<int64_t>(IX) >= -static_cast<int64_t>(UPPER_BOUND) &&               \
                   static_cast<int64_t>(IX) < static_cast<int64_t>(UPPER_BOUND),               \
               "index %" PRId64 " must be within range [-%zd, %zd)", static_cast<int64_t>(IX), \
               static_cast<ssize_t>(UPPER_BOUND), static_cast<ssize_t>(UPPER_BOUND))

#define ET_CHECK_VALID_DIM(DIM, UPPER_BOUND)                                                  \
  ET_CHECK_MSG(static_cast<int64_t>(DIM) >= -static_cast<int64_t>(UPPER_BOUND) &&             \
                   static_cast<int64_t>(DIM) < static_cast<int64_t>(UPPER_BOUND),             \
               "dim %" PRId64 " must be within range [-%zd, %zd)", static_cast<int64_t>(DIM), \
               static_cast<ssize_t>(UPPER_BOUND), static_cast<ssize_t>(UPPER_BOUND))

#define ET_CHECK_NON_ZERO_DIM_SIZE(DIM, T)                                   \
  const size_t udim = ET_NORMALIZE_IX(DIM, T.dim());                         \
  ET_CHECK_MSG(T.size(udim) != 0, "Expected dim %zd to have non-zero size.", \
               static_cast<ssize_t>(udim));

namespace executorch {
namespace runtime {
namespace internal {

// Whether the integer v has the same value as a To.
template <typename To, typename From>
constexpr bool fits_in(From v) {
  static_assert(std::is_integral<To>::value && std::is_integral<From>::value,
                "fits_in compares integers");
  if constexpr (std::is_signed<From>::value) {
    if (v < 0) {
      return std::is_signed<To>::value &&
             static_cast<intmax_t>(v) >= static_cast<intmax_t>(std::numeric_limits<To>::lowest());
    }
  }
  return static_cast<uintmax_t>(v) <= static_cast<uintmax_t>(std::numeric_limits<To>::max());
}

// Whether all `count` tensors have the same shape: equal element counts
// and, unless every one holds exactly one element (a scalar tensor matches
// a [1, 1] one, as in PyTorch), equal sizes. Logs the first mismatch.
inline bool same_shape_or_log(const ::executorch::aten::Tensor* tensors, size_t count) {
  bool all_single = true;
  for (size_t i = 0; i < count; ++i) {
    all_single = all_single && tensors[i].numel() == 1;
  }
  if (all_single) {
    return true;
  }
  for (size_t i = 1; i < count; ++i) {
    if (tensors[i].numel() != tensors[0].numel() || !(tensors[i].sizes() == tensors[0].sizes())) {
      const auto a = tensors[0].sizes();
      const auto b = tensors[i].sizes();
      ET_LOG(Error, ET_TENSOR_CHECK_PREFIX__ ": tensor 0 has sizes %s, tensor %zu has %s",
             tensor_shape_to_c_string({a.data(), a.size()}).data(), i,
             tensor_shape_to_c_string({b.data(), b.size()}).data());
      return false;
    }
  }
  return true;
}

// Whether all `count` tensors have equal strides; logs the first mismatch.
inline bool same_strides_or_log(const ::executorch::aten::Tensor* tensors, size_t count) {
  for (size_t i = 1; i < count; ++i) {
    if (!(tensors[i].strides() == tensors[0].strides())) {
      const auto a = tensors[0].strides();
      const auto b = tensors[i].strides();
      ET_LOG(Error, ET_TENSOR_CHECK_PREFIX__ ": tensor 0 has strides %s, tensor %zu has %s",
             tensor_shape_to_c_string({a.data(), a.size()}).data(), i,
             tensor_shape_to_c_string({b.data(), b.size()}).data());
      return false;
    }
  }
  return true;
}

// Whether all `count` tensors have the same scalar type; logs the types.
inline bool same_dtype_or_log(const ::executorch::aten::Tensor* tensors, size_t count) {
  for (size_t i = 1; i < count; ++i) {
    if (tensors[i].scalar_type() != tensors[0].scalar_type()) {
      ET_LOG(Error, ET_TENSOR_CHECK_PREFIX__ ": dtype %s (tensor 0) vs %s (tensor %zu)",
             ::executorch::runtime::toString(tensors[0].scalar_type()),
             ::executorch::runtime::toString(tensors[i].scalar_type()), i);
      return false;
    }
  }
  return true;
}

// Whether the strides are the dense row-major strides of the sizes.
inline bool has_contiguous_strides(const ::executorch::aten::Tensor& t) {
  const auto strides = t.strides();
  const auto sizes = t.sizes();
  int64_t expected = 1;
  for (size_t i = strides.size(); i-- > 0;) {
    if (strides[i] != expected) {
      ET_LOG(Error, "Tensor is not contiguous: stride of dim %zu is %d, expected %" PRId64, i,
             static_cast<int>(strides[i]), expected);
      return false;
    }
    expected *= sizes[i];
  }
  return true;
}

} // namespace internal
} // namespace runtime
} // namespace executorch

// The ET_CHECK_SAME_* macros are statement expressions, as upstream's, so
// they can be passed whole to another macro (EXPECT_DEATH, say).

// Aborts unless the tensors have the same shape (see tensors_have_same_shape).
#define ET_CHECK_SAME_SHAPE2(a__, b__)                                          \
  ({                                                                            \
    const ::executorch::aten::Tensor list__[] = {(a__), (b__)};                 \
    ET_CHECK_MSG(::executorch::runtime::internal::same_shape_or_log(list__, 2), \
                 ET_TENSOR_CHECK_PREFIX__ ": shapes differ");                   \
  })

#define ET_CHECK_SAME_SHAPE3(a__, b__, c__)                                     \
  ({                                                                            \
    const ::executorch::aten::Tensor list__[] = {(a__), (b__), (c__)};          \
    ET_CHECK_MSG(::executorch::runtime::internal::same_shape_or_log(list__, 3), \
                 ET_TENSOR_CHECK_PREFIX__ ": shapes differ");                   \
  })

// Aborts unless the tensors have the same scalar type.
#define ET_CHECK_SAME_DTYPE2(a__, b__)                                          \
  ({                                                                            \
    const ::executorch::aten::Tensor list__[] = {(a__), (b__)};                 \
    ET_CHECK_MSG(::executorch::runtime::internal::same_dtype_or_log(list__, 2), \
                 ET_TENSOR_CHECK_PREFIX__ ": dtypes differ");                   \
  })

#define ET_CHECK_SAME_DTYPE3(a__, b__, c__)                                     \
  ({                                                                            \
    const ::executorch::aten::Tensor list__[] = {(a__), (b__), (c__)};          \
    ET_CHECK_MSG(::executorch::runtime::internal::same_dtype_or_log(list__, 3), \
                 ET_TENSOR_CHECK_PREFIX__ ": dtypes differ");                   \
  })

#define ET_CHECK_SAME_SHAPE_AND_DTYPE2(a__, b__)                                    \
  ({                                                                                \
    const ::executorch::aten::Tensor list__[] = {(a__), (b__)};                     \
    ET_CHECK_MSG(::executorch::runtime::internal::same_shape_or_log(list__, 2) &&   \
                     ::executorch::runtime::internal::same_dtype_or_log(list__, 2), \
                 ET_TENSOR_CHECK_PREFIX__ ": shapes or dtypes differ");             \
  })

#define ET_CHECK_SAME_SHAPE_AND_DTYPE3(a__, b__, c__)                               \
  ({                                                                                \
    const ::executorch::aten::Tensor list__[] = {(a__), (b__), (c__)};              \
    ET_CHECK_MSG(::executorch::runtime::internal::same_shape_or_log(list__, 3) &&   \
                     ::executorch::runtime::internal::same_dtype_or_log(list__, 3), \
                 ET_TENSOR_CHECK_PREFIX__ ": shapes or dtypes differ");             \
  })

// Aborts unless the tensor's strides are the dense row-major strides of its
// sizes (a 0-dim tensor always is).
#define ET_CHECK_CONTIGUOUS(a__)                                             \
  ET_CHECK_MSG(::executorch::runtime::internal::has_contiguous_strides(a__), \
               "Tensor is not contiguous")

// Aborts unless the tensors have the same rank and strides; says nothing
// about contiguity.
#define ET_CHECK_SAME_STRIDES2(a__, b__)                                          \
  ({                                                                              \
    const ::executorch::aten::Tensor list__[] = {(a__), (b__)};                   \
    ET_CHECK_MSG(::executorch::runtime::internal::same_strides_or_log(list__, 2), \
                 ET_TENSOR_CHECK_PREFIX__ ": strides differ");                    \
  })

#define ET_CHECK_SAME_STRIDES3(a__, b__, c__)                                     \
  ({                                                                              \
    const ::executorch::aten::Tensor list__[] = {(a__), (b__), (c__)};            \
    ET_CHECK_MSG(::executorch::runtime::internal::same_strides_or_log(list__, 3), \
                 ET_TENSOR_CHECK_PREFIX__ ": strides differ");                    \
  })

// Aborts unless the tensor's dim order is contiguous or channels-last.
#define ET_CHECK_DEFAULT_OR_CHANNELSLAST_DIMORDER(t__)                                          \
  ET_CHECK_MSG(::executorch::runtime::is_contiguous_dim_order((t__).dim_order().data(),         \
                                                              (t__).dim_order().size()) ||      \
                   ::executorch::runtime::is_channels_last_dim_order((t__).dim_order().data(),  \
                                                                     (t__).dim_order().size()), \
               "Tensor must have default or channels last dim order")

// For bool-returning checks: logs the failed condition and returns false.
#define ET_LOG_AND_RETURN_IF_FALSE(cond)           \
  do {                                             \
    if (!(cond)) {                                 \
      ET_LOG(Error, "Check failed (%s): ", #cond); \
      return false;                                \
    }                                              \
  } while (false)

// As ET_LOG_AND_RETURN_IF_FALSE, with a printf-style message after it.
#define ET_LOG_MSG_AND_RETURN_IF_FALSE(cond, message, ...)                \
  do {                                                                    \
    if (!(cond)) {                                                        \
      ET_LOG(Error, "Check failed (%s): " message, #cond, ##__VA_ARGS__); \
      return false;                                                       \
    }                                                                     \
  } while (false)

#ifndef ET_KERNEL_CHECK
// In a kernel: unless cond holds, log it, mark the context failed with
// Error::error and return retval.
#define ET_KERNEL_CHECK(context, cond, error, retval)      \
  do {                                                     \
    if (!(cond)) {                                         \
      ET_LOG(Error, "Check failed (%s): ", #cond);         \
      (context).fail(::executorch::runtime::Error::error); \
      return retval;                                       \
    }                                                      \
  } while (false)
#endif

#ifndef ET_KERNEL_CHECK_MSG
#define ET_KERNEL_CHECK_MSG(context, cond, error, retval, message, ...)   \
  do {                                                                    \
    if (!(cond)) {                                                        \
      ET_LOG(Error, "Check failed (%s): " message, #cond, ##__VA_ARGS__); \
      (context).fail(::executorch::runtime::Error::error);                \
      return retval;                                                      \
    }                                                                     \
  } while (false)
#endif

// Aborts unless the one-element tensor's value fits out_val's type.
#define ET_EXTRACT_SCALAR_TENSOR(scalar_tensor, out_val)                              \
  ET_CHECK_MSG(::executorch::runtime::extract_scalar_tensor(scalar_tensor, &out_val), \
               #scalar_tensor " could not be extracted: wrong type or out of range");
namespace executorch {
namespace runtime {

// Whether dim lies in [-upper_bound, upper_bound).
inline bool dim_is_valid(int64_t dim, int64_t upper_bound) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(dim >= -upper_bound && dim < upper_bound,
                                 "Dimension %" PRId64
                                 " is out of range. Dimension should be between %" PRId64
                                 " and %" PRId64 ", inclusive.",
                                 dim, -upper_bound, upper_bound - 1);
  return true;
}

// The rank, counting a 0-dim tensor as 1-dim (kernels treat a scalar
// tensor as a one-element vector).
inline ssize_t nonzero_dim(const ::executorch::aten::Tensor& tensor) {
  return tensor.dim() == 0 ? 1 : tensor.dim();
}

// size(dim), or 1 for a 0-dim tensor.
inline ssize_t nonempty_size(const ::executorch::aten::Tensor& tensor, ssize_t dim) {
  return tensor.dim() == 0 ? 1 : tensor.size(dim);
}

inline bool tensor_can_cast_to(::executorch::aten::Tensor a, ::executorch::aten::ScalarType dtype) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(canCast(a.scalar_type(), dtype),
                                 "Tensor of dtype %s cannot cast to dtype %s",
                                 toString(a.scalar_type()), toString(dtype));
  return true;
}

inline bool tensor_is_bool_type(::executorch::aten::Tensor t) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(t.scalar_type() == ::executorch::aten::ScalarType::Bool,
                                 "Expected to find bool type, but tensor has type %s",
                                 toString(t.scalar_type()));
  return true;
}

inline bool tensor_is_type(::executorch::aten::Tensor t, ::executorch::aten::ScalarType dtype) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(t.scalar_type() == dtype,
                                 "Expected to find %s type, but tensor has type %s",
                                 toString(dtype), toString(t.scalar_type()));
  return true;
}

inline bool tensor_is_type(::executorch::aten::Tensor t, ::executorch::aten::ScalarType dtype,
                           ::executorch::aten::ScalarType dtype2) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(t.scalar_type() == dtype || t.scalar_type() == dtype2,
                                 "Expected to find %s or %s type, but tensor has type %s",
                                 toString(dtype), toString(dtype2), toString(t.scalar_type()));
  return true;
}

inline bool tensor_is_type(::executorch::aten::Tensor t, ::executorch::aten::ScalarType dtype,
                           ::executorch::aten::ScalarType dtype2,
                           ::executorch::aten::ScalarType dtype3) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(
      t.scalar_type() == dtype || t.scalar_type() == dtype2 || t.scalar_type() == dtype3,
      "Expected to find %s, %s, or %s type, but tensor has type %s", toString(dtype),
      toString(dtype2), toString(dtype3), toString(t.scalar_type()));
  return true;
}

// Whether the tensor's type is one of dtypes; logs all of them if not.
inline bool tensor_is_type(::executorch::aten::Tensor t,
                           const std::vector<::executorch::aten::ScalarType>& dtypes) {
  if (std::find(dtypes.begin(), dtypes.end(), t.scalar_type()) != dtypes.end()) {
    return true;
  }
  std::string names;
  for (const auto dtype : dtypes) {
    names += names.empty() ? "" : ", ";
    names += toString(dtype);
  }
  ET_LOG(Error, "Expected to find one of %s types, but tensor has type %s", names.c_str(),
         toString(t.scalar_type()));
  return false;
}

// The type-class predicates: each logs the tensor's type when it is not of
// the class.
#define ET_INTERNAL_TENSOR_IS_CLASS(name, predicate, what)                              \
  inline bool name(::executorch::aten::Tensor t) {                                      \
    ET_LOG_MSG_AND_RETURN_IF_FALSE(predicate(t.scalar_type()),                          \
                                   "Expected to find " what ", but tensor has type %s", \
                                   toString(t.scalar_type()));                          \
    return true;                                                                        \
  }
ET_INTERNAL_TENSOR_IS_CLASS(tensor_is_floating_type, isFloatingType, "a floating type")
ET_INTERNAL_TENSOR_IS_CLASS(tensor_is_real_type, isRealType, "a real type")
ET_INTERNAL_TENSOR_IS_CLASS(tensor_is_realh_type, isRealHType, "a real type")
ET_INTERNAL_TENSOR_IS_CLASS(tensor_is_realhbf16_type, isRealHBF16Type, "a real type")
ET_INTERNAL_TENSOR_IS_CLASS(tensor_is_realhb_type, isRealHBType, "a real type")
ET_INTERNAL_TENSOR_IS_CLASS(tensor_is_realhbbf16_type, isRealHBBF16Type, "a real type")
ET_INTERNAL_TENSOR_IS_CLASS(tensor_is_complex_type, isComplexType, "a complex type")
ET_INTERNAL_TENSOR_IS_CLASS(tensor_is_bits_type, isBitsType, "a bits type")
#undef ET_INTERNAL_TENSOR_IS_CLASS

inline bool tensor_is_integral_type(::executorch::aten::Tensor t, bool includeBool = false) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(isIntegralType(t.scalar_type(), includeBool),
                                 "Expected to find a integral type, but tensor has type %s",
                                 toString(t.scalar_type()));
  return true;
}

inline bool tensors_have_same_dtype(::executorch::aten::Tensor a, ::executorch::aten::Tensor b) {
  const ::executorch::aten::Tensor list[] = {a, b};
  return internal::same_dtype_or_log(list, 2);
}

inline bool tensors_have_same_dtype(::executorch::aten::Tensor a, ::executorch::aten::Tensor b,
                                    ::executorch::aten::Tensor c) {
  const ::executorch::aten::Tensor list[] = {a, b, c};
  return internal::same_dtype_or_log(list, 3);
}

inline bool tensor_is_rank(::executorch::aten::Tensor t, size_t rank) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(static_cast<size_t>(t.dim()) == rank,
                                 "Expected tensor.dim() to be %zu, but got %zu", rank,
                                 static_cast<size_t>(t.dim()));
  return true;
}

inline bool tensor_has_rank_greater_or_equal_to(::executorch::aten::Tensor t, size_t rank) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(static_cast<size_t>(t.dim()) >= rank,
                                 "Expected tensor.dim() to be >= %zu, but got %zu", rank,
                                 static_cast<size_t>(t.dim()));
  return true;
}

inline bool tensor_has_rank_smaller_or_equal_to(::executorch::aten::Tensor t, size_t rank) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(static_cast<size_t>(t.dim()) <= rank,
                                 "Expected tensor.dim() to be <= %zu, but got %zu", rank,
                                 static_cast<size_t>(t.dim()));
  return true;
}

// Whether d names a dimension of t, counting from the end when negative; a
// 0-dim tensor accepts 0 and -1, as PyTorch does.
inline bool tensor_has_dim(::executorch::aten::Tensor t, int64_t d) {
  const int64_t rank = t.dim();
  if (rank == 0) {
    ET_LOG_MSG_AND_RETURN_IF_FALSE(d == 0 || d == -1,
                                   "dim must be 0 or -1 for 0-dim tensor, got %" PRId64, d);
    return true;
  }
  ET_LOG_MSG_AND_RETURN_IF_FALSE(d >= -rank && d < rank,
                                 "%" PRId64 "-dim tensor does not have dim at index %" PRId64, rank,
                                 d);
  return true;
}

// Whether d names a dimension of t whose size is not 0.
inline bool tensor_has_non_empty_dim(::executorch::aten::Tensor t, int64_t d) {
  ET_LOG_AND_RETURN_IF_FALSE(tensor_has_dim(t, d));
  const int64_t rank = t.dim();
  if (rank == 0) {
    return true;
  }
  ET_LOG_AND_RETURN_IF_FALSE(t.size(d < 0 ? d + rank : d) != 0);
  return true;
}

// Whether ix indexes dimension d of t (both may count from the end).
// Aborts for a 0-dim tensor or a d that tensor_has_dim rejects: callers
// check those first.
inline bool tensor_dim_has_index(::executorch::aten::Tensor t, int64_t d, int64_t ix) {
  ET_CHECK_MSG(t.dim() != 0, "Indexing a 0-dim tensor");
  if (d < 0) {
    d += t.dim();
  }
  ET_CHECK_MSG(d >= 0 && d < t.dim(), "Dim %" PRId64 " out of range", d);
  const int64_t size = t.size(d);
  ET_LOG_MSG_AND_RETURN_IF_FALSE(ix >= -size && ix < size,
                                 "index %" PRId64 " out of range [-%" PRId64 ",%" PRId64
                                 ") at dimension %" PRId64,
                                 ix, size, size, d);
  return true;
}

inline bool tensors_have_same_size_at_dims(::executorch::aten::Tensor a, size_t dim_a,
                                           ::executorch::aten::Tensor b, size_t dim_b) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(dim_a < static_cast<size_t>(a.dim()),
                                 "Cannot retrieve dim %zu from tensor with dim %zu", dim_a,
                                 static_cast<size_t>(a.dim()));
  ET_LOG_MSG_AND_RETURN_IF_FALSE(dim_b < static_cast<size_t>(b.dim()),
                                 "Cannot retrieve dim %zu from tensor with dim %zu", dim_b,
                                 static_cast<size_t>(b.dim()));
  ET_LOG_MSG_AND_RETURN_IF_FALSE(a.size(dim_a) == b.size(dim_b),
                                 ET_TENSOR_CHECK_PREFIX__
                                 ": a.size(%zu) = %zd does not match b.size(%zu) = %zd",
                                 dim_a, a.size(dim_a), dim_b, b.size(dim_b));
  return true;
}

// Same element count and sizes; tensors of one element each always match.
inline bool tensors_have_same_shape(::executorch::aten::Tensor a, ::executorch::aten::Tensor b) {
  const ::executorch::aten::Tensor list[] = {a, b};
  return internal::same_shape_or_log(list, 2);
}

inline bool tensors_have_same_shape(::executorch::aten::Tensor a, ::executorch::aten::Tensor b,
                                    ::executorch::aten::Tensor c) {
  const ::executorch::aten::Tensor list[] = {a, b, c};
  return internal::same_shape_or_log(list, 3);
}

inline bool tensors_have_same_shape_and_dtype(::executorch::aten::Tensor a,
                                              ::executorch::aten::Tensor b) {
  return tensors_have_same_shape(a, b) && tensors_have_same_dtype(a, b);
}

inline bool tensors_have_same_shape_and_dtype(::executorch::aten::Tensor a,
                                              ::executorch::aten::Tensor b,
                                              ::executorch::aten::Tensor c) {
  return tensors_have_same_shape(a, b, c) && tensors_have_same_dtype(a, b, c);
}

inline bool tensor_has_expected_size(
    ::executorch::aten::Tensor a,
    ::executorch::aten::ArrayRef<::executorch::aten::SizesType> expected_sizes) {
  if (!(a.sizes() == expected_sizes)) {
    const auto sizes = a.sizes();
    ET_LOG(Error, ET_TENSOR_CHECK_PREFIX__ ": sizes %s, expected %s",
           tensor_shape_to_c_string({sizes.data(), sizes.size()}).data(),
           tensor_shape_to_c_string({expected_sizes.data(), expected_sizes.size()}).data());
    return false;
  }
  return true;
}

inline bool tensors_have_same_strides(::executorch::aten::Tensor a, ::executorch::aten::Tensor b) {
  const ::executorch::aten::Tensor list[] = {a, b};
  return internal::same_strides_or_log(list, 2);
}

inline bool tensors_have_same_strides(::executorch::aten::Tensor a, ::executorch::aten::Tensor b,
                                      ::executorch::aten::Tensor c) {
  const ::executorch::aten::Tensor list[] = {a, b, c};
  return internal::same_strides_or_log(list, 3);
}

// Whether t's strides are the dense row-major strides of its sizes.
inline bool tensor_is_contiguous(::executorch::aten::Tensor t) {
  return internal::has_contiguous_strides(t);
}

inline bool tensors_have_same_rank(::executorch::aten::Tensor a, ::executorch::aten::Tensor b) {
  ET_LOG_MSG_AND_RETURN_IF_FALSE(a.dim() == b.dim(), ET_TENSOR_CHECK_PREFIX__ ": rank={%zd, %zd}",
                                 a.dim(), b.dim());
  return true;
}

inline bool tensor_is_scalar(::executorch::aten::Tensor t) {
  return t.dim() == 0 && t.numel() == 1;
}

// The product of sizes [0, dim). Aborts unless 0 <= dim <= tensor.dim(), or
// when the product overflows size_t.
inline size_t getLeadingDims(const ::executorch::aten::Tensor& tensor, int64_t dim) {
  ET_CHECK_MSG(dim >= 0 && dim <= tensor.dim(),
               "Ending dimension %" PRId64 " should be in the range [0, tensor.dim() %zd].", dim,
               tensor.dim());
  size_t product = 1;
  for (int64_t i = 0; i < dim; ++i) {
    ET_CHECK_MSG(!__builtin_mul_overflow(product, static_cast<size_t>(tensor.size(i)), &product),
                 "Product of sizes overflows size_t");
  }
  return product;
}

// The product of sizes (dim, tensor.dim()). Aborts unless
// -1 <= dim < tensor.dim(), or when the product overflows size_t.
inline size_t getTrailingDims(const ::executorch::aten::Tensor& tensor, int64_t dim) {
  ET_CHECK_MSG(dim >= -1 && dim < tensor.dim(),
               "Starting dimension %" PRId64 " should be in the range [-1, tensor.dim() -1 %zd).",
               dim, tensor.dim());
  size_t product = 1;
  for (int64_t i = dim + 1; i < tensor.dim(); ++i) {
    ET_CHECK_MSG(!__builtin_mul_overflow(product, static_cast<size_t>(tensor.size(i)), &product),
                 "Product of sizes overflows size_t");
  }
  return product;
}

// The row-major linear index of `coordinate` (tensor.dim() entries) in a
// tensor of these sizes; strides are not consulted.
inline size_t coordinateToIndex(const ::executorch::aten::Tensor& tensor,
                                const size_t* const coordinate) {
  size_t index = 0;
  for (ssize_t d = 0; d < tensor.dim(); ++d) {
    index += coordinate[d] * getTrailingDims(tensor, d);
  }
  return index;
}

// trailing_dims_memo[d] = getTrailingDims(tensor, d) for every dim, for
// repeated coordinateToIndexWithTrailingDimsMemo calls.
inline void memoizeTrailingDims(const ::executorch::aten::Tensor& tensor,
                                size_t trailing_dims_memo[kTensorDimensionLimit]) {
  ET_CHECK_MSG(tensor.dim() <= static_cast<ssize_t>(kTensorDimensionLimit),
               "%zd dims exceed kTensorDimensionLimit", tensor.dim());
  size_t product = 1;
  for (ssize_t d = tensor.dim(); d-- > 0;) {
    trailing_dims_memo[d] = product;
    product *= static_cast<size_t>(tensor.size(d));
  }
}

inline size_t coordinateToIndexWithTrailingDimsMemo(
    const ::executorch::aten::Tensor& tensor, const size_t* const coordinate,
    const size_t trailing_dims_memo[kTensorDimensionLimit]) {
  size_t index = 0;
  for (ssize_t d = 0; d < tensor.dim(); ++d) {
    index += coordinate[d] * trailing_dims_memo[d];
  }
  return index;
}

// The inverse of coordinateToIndex: writes tensor.dim() entries. Aborts
// unless index < tensor.numel().
inline void indexToCoordinate(const ::executorch::aten::Tensor& tensor, size_t index,
                              size_t* coordinate) {
  ET_CHECK_MSG(index < static_cast<size_t>(tensor.numel()),
               "Index %zu out of range for %zd elements", index, tensor.numel());
  for (ssize_t d = tensor.dim(); d-- > 0;) {
    const size_t size = static_cast<size_t>(tensor.size(d));
    coordinate[d] = index % size;
    index /= size;
  }
}

// Reads a one-element integer tensor into *out_val: false (and *out_val
// untouched) for another element count, a non-integer type or a value
// INT_T cannot hold.
template <typename INT_T, typename std::enable_if<std::is_integral<INT_T>::value &&
                                                      !std::is_same<INT_T, bool>::value,
                                                  bool>::type = true>
bool extract_scalar_tensor(::executorch::aten::Tensor tensor, INT_T* out_val) {
  if (tensor.numel() != 1) {
    return false;
  }
  bool fits = false;
#define ET_INTERNAL_EXTRACT_INT(ctype, dtype)                      \
  case ::executorch::aten::ScalarType::dtype: {                    \
    const ctype value = tensor.const_data_ptr<ctype>()[0];         \
    fits = ::executorch::runtime::internal::fits_in<INT_T>(value); \
    if (fits) {                                                    \
      *out_val = static_cast<INT_T>(value);                        \
    }                                                              \
    break;                                                         \
  }
  switch (tensor.scalar_type()) {
    ET_FORALL_INT_TYPES(ET_INTERNAL_EXTRACT_INT)
    default:
      break;
  }
#undef ET_INTERNAL_EXTRACT_INT
  return fits;
}

// Reads a one-element real, Half or BFloat16 tensor into *out_val (a
// floating type, Half or BFloat16): false for another element count,
// another type or a finite value outside FLOAT_T's range (inf and NaN are
// kept).
template <typename FLOAT_T,
          typename std::enable_if<std::is_floating_point<FLOAT_T>::value ||
                                      std::is_same<FLOAT_T, ::executorch::aten::Half>::value ||
                                      std::is_same<FLOAT_T, ::executorch::aten::BFloat16>::value,
                                  bool>::type = true>
bool extract_scalar_tensor(::executorch::aten::Tensor tensor, FLOAT_T* out_val) {
  if (tensor.numel() != 1) {
    return false;
  }
  bool fits = false;
#define ET_INTERNAL_EXTRACT_REAL(ctype, dtype)                                      \
  case ::executorch::aten::ScalarType::dtype: {                                     \
    const double value = static_cast<double>(tensor.const_data_ptr<ctype>()[0]);    \
    fits = !std::isfinite(value) ||                                                 \
           (value >= static_cast<double>(std::numeric_limits<FLOAT_T>::lowest()) && \
            value <= static_cast<double>(std::numeric_limits<FLOAT_T>::max()));     \
    if (fits) {                                                                     \
      *out_val = static_cast<FLOAT_T>(value);                                       \
    }                                                                               \
    break;                                                                          \
  }
  switch (tensor.scalar_type()) {
    ET_FORALL_REALHBF16_TYPES(ET_INTERNAL_EXTRACT_REAL)
    default:
      break;
  }
#undef ET_INTERNAL_EXTRACT_REAL
  return fits;
}

// Reads a one-element Bool tensor into *out_val.
template <typename BOOL_T,
          typename std::enable_if<std::is_same<BOOL_T, bool>::value, bool>::type = true>
bool extract_scalar_tensor(::executorch::aten::Tensor tensor, BOOL_T* out_val) {
  if (tensor.scalar_type() != ::executorch::aten::ScalarType::Bool || tensor.numel() != 1) {
    return false;
  }
  *out_val = tensor.const_data_ptr<bool>()[0];
  return true;
}

// Data-pointer plumbing the executor uses; kept for code that calls it.
namespace internal {
// Makes t_dst point at t_src's data (null for an empty t_src):
// InvalidArgument unless both hold the same number of bytes and a non-empty
// t_src has data.
ET_NODISCARD EXECUTORCH_API Error share_tensor_data(const ::executorch::aten::Tensor& t_dst,
                                                    const ::executorch::aten::Tensor& t_src);
// Copies t_src's bytes into t_dst's data: InvalidArgument when t_dst has no
// data (unless both are empty) or the byte counts differ (a t_src without
// data copies nothing).
ET_NODISCARD EXECUTORCH_API Error copy_tensor_data(const ::executorch::aten::Tensor& t_dst,
                                                   const ::executorch::aten::Tensor& t_src);
// Points t at buffer: InvalidArgument when buffer_size < t.nbytes().
ET_NODISCARD EXECUTORCH_API Error set_tensor_data(const ::executorch::aten::Tensor& t, void* buffer,
                                                  size_t buffer_size);
// Sets t's data pointer to null.
EXECUTORCH_API void reset_data_ptr(const ::executorch::aten::Tensor& tensor);
// TensorImpl::internal_resize_contiguous: NotSupported for another rank, a
// STATIC tensor whose sizes change or more elements than a bounded tensor's
// capacity; InvalidArgument for negative or overflowing sizes.
ET_NODISCARD EXECUTORCH_API Error
resize_tensor_impl(::executorch::aten::TensorImpl* impl,
                   ::executorch::aten::ArrayRef<::executorch::aten::SizesType> new_sizes);
} // namespace internal

// Resizes t in place to new_sizes (same rank), recomputing contiguous
// strides; fails rather than grow past the tensor's planned capacity.
ET_NODISCARD inline Error resize_tensor(
    ::executorch::aten::Tensor t,
    ::executorch::aten::ArrayRef<::executorch::aten::SizesType> new_sizes) {
  return internal::resize_tensor_impl(t.unsafeGetTensorImpl(), new_sizes);
}

// resize_tensor from sizes of another integer type (int64_t, say):
// InvalidArgument for more than kTensorDimensionLimit sizes or one that
// SizesType cannot hold.
template <typename T, typename std::enable_if<
                          !std::is_same<::executorch::aten::SizesType, T>::value, int>::type = 0>
ET_NODISCARD inline Error resize_tensor(::executorch::aten::Tensor t,
                                        ::executorch::aten::ArrayRef<T> new_sizes) {
  ET_CHECK_OR_RETURN_ERROR(new_sizes.size() <= kTensorDimensionLimit, InvalidArgument,
                           "%zu sizes exceed kTensorDimensionLimit", new_sizes.size());
  std::array<::executorch::aten::SizesType, kTensorDimensionLimit> converted{};
  for (size_t i = 0; i < new_sizes.size(); ++i) {
    ET_CHECK_OR_RETURN_ERROR(internal::fits_in<::executorch::aten::SizesType>(new_sizes[i]),
                             InvalidArgument, "Size %zu does not fit the sizes type", i);
    converted[i] = static_cast<::executorch::aten::SizesType>(new_sizes[i]);
  }
  return internal::resize_tensor_impl(t.unsafeGetTensorImpl(),
                                      {converted.data(), new_sizes.size()});
}

// Deprecated: aborts where resize_tensor returns an error.
ET_DEPRECATED inline void resize(
    ::executorch::aten::Tensor t,
    ::executorch::aten::ArrayRef<::executorch::aten::SizesType> new_sizes) {
  const Error err = resize_tensor(t, new_sizes);
  ET_CHECK_MSG(err == Error::Ok, "Could not resize Tensor; see logs for details");
}

// Copies t's dim order into out_dim_order: InvalidArgument unless
// out_dim_order_size == t.dim().
ET_NODISCARD EXECUTORCH_API Error get_dim_order(const ::executorch::aten::Tensor& tensor,
                                                ::executorch::aten::DimOrderType* out_dim_order,
                                                size_t out_dim_order_size);

// The dim-order predicates: each logs the dim order when it answers false.
EXECUTORCH_API bool tensor_has_valid_dim_order(::executorch::aten::Tensor t);
EXECUTORCH_API bool tensor_is_default_or_channels_last_dim_order(::executorch::aten::Tensor t);
EXECUTORCH_API bool tensor_is_default_dim_order(::executorch::aten::Tensor t);
EXECUTORCH_API bool tensor_is_channels_last_dim_order(::executorch::aten::Tensor t);

// Whether the tensors are all in the contiguous dim order or all in the
// channels-last one (only the dim orders are compared, as upstream does).
EXECUTORCH_API bool tensors_have_same_dim_order(
    const ::executorch::aten::ArrayRef<::executorch::aten::Tensor> tensor_list);

inline bool tensors_have_same_dim_order(const ::executorch::aten::Tensor& a,
                                        const ::executorch::aten::Tensor& b) {
  const ::executorch::aten::Tensor list[] = {a, b};
  return tensors_have_same_dim_order({list, 2});
}

inline bool tensors_have_same_dim_order(const ::executorch::aten::Tensor& a,
                                        const ::executorch::aten::Tensor& b,
                                        const ::executorch::aten::Tensor& c) {
  const ::executorch::aten::Tensor list[] = {a, b, c};
  return tensors_have_same_dim_order({list, 3});
}

inline bool tensors_have_same_dim_order(const ::executorch::aten::Tensor& a,
                                        const ::executorch::aten::Tensor& b,
                                        const ::executorch::aten::Tensor& c,
                                        const ::executorch::aten::Tensor& d) {
  const ::executorch::aten::Tensor list[] = {a, b, c, d};
  return tensors_have_same_dim_order({list, 4});
}

// sum(coordinate[i] * strides[i]) over ndim dimensions.
inline size_t calculate_linear_index(const ::executorch::aten::SizesType* coordinate,
                                     const ::executorch::aten::StridesType* strides,
                                     const size_t ndim) {
  size_t index = 0;
  for (size_t i = 0; i < ndim; ++i) {
    index += static_cast<size_t>(coordinate[i]) * static_cast<size_t>(strides[i]);
  }
  return index;
}

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::calculate_linear_index;
using ::executorch::runtime::coordinateToIndex;
using ::executorch::runtime::coordinateToIndexWithTrailingDimsMemo;
using ::executorch::runtime::dim_is_valid;
using ::executorch::runtime::extract_scalar_tensor;
using ::executorch::runtime::get_dim_order;
using ::executorch::runtime::getLeadingDims;
using ::executorch::runtime::getTrailingDims;
using ::executorch::runtime::indexToCoordinate;
using ::executorch::runtime::memoizeTrailingDims;
using ::executorch::runtime::nonempty_size;
using ::executorch::runtime::nonzero_dim;
using ::executorch::runtime::resize;
using ::executorch::runtime::resize_tensor;
using ::executorch::runtime::tensor_can_cast_to;
using ::executorch::runtime::tensor_dim_has_index;
using ::executorch::runtime::tensor_has_dim;
using ::executorch::runtime::tensor_has_expected_size;
using ::executorch::runtime::tensor_has_non_empty_dim;
using ::executorch::runtime::tensor_has_rank_greater_or_equal_to;
using ::executorch::runtime::tensor_has_rank_smaller_or_equal_to;
using ::executorch::runtime::tensor_has_valid_dim_order;
using ::executorch::runtime::tensor_is_bits_type;
using ::executorch::runtime::tensor_is_bool_type;
using ::executorch::runtime::tensor_is_channels_last_dim_order;
using ::executorch::runtime::tensor_is_complex_type;
using ::executorch::runtime::tensor_is_contiguous;
using ::executorch::runtime::tensor_is_default_dim_order;
using ::executorch::runtime::tensor_is_default_or_channels_last_dim_order;
using ::executorch::runtime::tensor_is_floating_type;
using ::executorch::runtime::tensor_is_integral_type;
using ::executorch::runtime::tensor_is_rank;
using ::executorch::runtime::tensor_is_real_type;
using ::executorch::runtime::tensor_is_realh_type;
using ::executorch::runtime::tensor_is_realhb_type;
using ::executorch::runtime::tensor_is_realhbbf16_type;
using ::executorch::runtime::tensor_is_realhbf16_type;
using ::executorch::runtime::tensor_is_scalar;
using ::executorch::runtime::tensor_is_type;
using ::executorch::runtime::tensor_shape_to_c_string;
using ::executorch::runtime::tensors_have_same_dim_order;
using ::executorch::runtime::tensors_have_same_dtype;
using ::executorch::runtime::tensors_have_same_rank;
using ::executorch::runtime::tensors_have_same_shape;
using ::executorch::runtime::tensors_have_same_shape_and_dtype;
using ::executorch::runtime::tensors_have_same_size_at_dims;
using ::executorch::runtime::tensors_have_same_strides;
namespace internal {
using ::executorch::runtime::internal::copy_tensor_data;
using ::executorch::runtime::internal::reset_data_ptr;
using ::executorch::runtime::internal::resize_tensor_impl;
using ::executorch::runtime::internal::set_tensor_data;
using ::executorch::runtime::internal::share_tensor_data;
} // namespace internal
} // namespace executor
} // namespace torch
