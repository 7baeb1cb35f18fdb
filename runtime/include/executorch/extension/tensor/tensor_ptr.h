// TensorPtr: a shared, owning handle to a tensor. It owns the TensorImpl,
// the sizes/dim order/strides arrays and (when given a vector or a deleter)
// the data, so a tensor can be built and passed around without arenas.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/platform/assert.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {

using TensorPtr = std::shared_ptr<::executorch::aten::Tensor>;

namespace internal {

// Element conversion used when a maker is asked for a dtype other than the
// one of its C++ values. Integers convert directly (no double round trip).
template <typename To, typename From>
inline To convert_element(From v) {
  if constexpr (std::is_integral<To>::value && std::is_integral<From>::value) {
    return static_cast<To>(v);
  } else if constexpr (std::is_same<To, bool>::value) {
    return static_cast<double>(v) != 0.0;
  } else {
    return static_cast<To>(static_cast<double>(v));
  }
}

// Calls fn(CType{}) for the dtypes makers can fill or cast to; aborts on
// others (quantized, complex, bit-packed and float8 have no arithmetic here).
template <typename Fn>
inline void switch_fillable_dtype(::executorch::aten::ScalarType type, Fn&& fn) {
  using ST = ::executorch::aten::ScalarType;
  switch (type) {
#define ET_EXT_FILL_CASE_(ctype, name) \
  case ST::name:                       \
    fn(ctype{});                       \
    return;
    ET_EXT_FILL_CASE_(uint8_t, Byte)
    ET_EXT_FILL_CASE_(int8_t, Char)
    ET_EXT_FILL_CASE_(int16_t, Short)
    ET_EXT_FILL_CASE_(int32_t, Int)
    ET_EXT_FILL_CASE_(int64_t, Long)
    ET_EXT_FILL_CASE_(::executorch::aten::Half, Half)
    ET_EXT_FILL_CASE_(float, Float)
    ET_EXT_FILL_CASE_(double, Double)
    ET_EXT_FILL_CASE_(bool, Bool)
    ET_EXT_FILL_CASE_(::executorch::aten::BFloat16, BFloat16)
    ET_EXT_FILL_CASE_(uint16_t, UInt16)
    ET_EXT_FILL_CASE_(uint32_t, UInt32)
    ET_EXT_FILL_CASE_(uint64_t, UInt64)
#undef ET_EXT_FILL_CASE_
    default:
      ET_CHECK_MSG(false, "Unsupported dtype %s for this tensor operation",
                   ::executorch::runtime::toString(type));
  }
}

EXECUTORCH_API ssize_t compute_numel(const ::executorch::aten::SizesType* sizes, size_t dim);

template <typename T>
struct is_tensor_element
    : std::integral_constant<bool, std::is_arithmetic<T>::value ||
                                       std::is_same<T, ::executorch::aten::Half>::value ||
                                       std::is_same<T, ::executorch::aten::BFloat16>::value> {};

} // namespace internal

// Wraps external data. An empty dim_order/strides means contiguous (one is
// derived from the other when only one is given). deleter, if any, runs
// once on the data when the last TensorPtr copy goes away.
EXECUTORCH_API TensorPtr
make_tensor_ptr(std::vector<::executorch::aten::SizesType> sizes, void* data,
                std::vector<::executorch::aten::DimOrderType> dim_order,
                std::vector<::executorch::aten::StridesType> strides,
                const ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
                const ::executorch::aten::TensorShapeDynamism dynamism =
                    ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND,
                std::function<void(void*)> deleter = nullptr,
                ::executorch::aten::Device device =
                    ::executorch::aten::Device(::executorch::aten::DeviceType::CPU));

inline TensorPtr make_tensor_ptr(
    std::vector<::executorch::aten::SizesType> sizes, void* data,
    const ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
    const ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND,
    std::function<void(void*)> deleter = nullptr,
    ::executorch::aten::Device device =
        ::executorch::aten::Device(::executorch::aten::DeviceType::CPU)) {
  return make_tensor_ptr(std::move(sizes), data, {}, {}, type, dynamism, std::move(deleter),
                         device);
}

// Owns raw bytes; their count must be numel * elementSize(type).
EXECUTORCH_API TensorPtr
make_tensor_ptr(std::vector<::executorch::aten::SizesType> sizes, std::vector<uint8_t> data,
                std::vector<::executorch::aten::DimOrderType> dim_order,
                std::vector<::executorch::aten::StridesType> strides,
                ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
                ::executorch::aten::TensorShapeDynamism dynamism =
                    ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND);

inline TensorPtr make_tensor_ptr(
    std::vector<::executorch::aten::SizesType> sizes, std::vector<uint8_t> data,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
    ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return make_tensor_ptr(std::move(sizes), std::move(data), {}, {}, type, dynamism);
}

// Owns a typed vector; converts element-wise when type differs from T's.
template <typename T = float, ::executorch::aten::ScalarType deduced_type =
                                  ::executorch::runtime::CppTypeToScalarType<T>::value>
TensorPtr make_tensor_ptr(std::vector<::executorch::aten::SizesType> sizes, std::vector<T> data,
                          std::vector<::executorch::aten::DimOrderType> dim_order = {},
                          std::vector<::executorch::aten::StridesType> strides = {},
                          ::executorch::aten::ScalarType type = deduced_type,
                          ::executorch::aten::TensorShapeDynamism dynamism =
                              ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  ET_CHECK_MSG(
      static_cast<ssize_t>(data.size()) == internal::compute_numel(sizes.data(), sizes.size()),
      "Data has %zu elements but the sizes need %zd", data.size(),
      internal::compute_numel(sizes.data(), sizes.size()));
  if (type != deduced_type) {
    // As upstream: a cast the dtype rules forbid (e.g. float -> int) aborts.
    ET_CHECK_MSG(
        ::executorch::runtime::canCast(deduced_type, type), "Cannot cast %s data to a %s tensor",
        ::executorch::runtime::toString(deduced_type), ::executorch::runtime::toString(type));
    std::vector<uint8_t> bytes(data.size() * ::executorch::runtime::elementSize(type));
    internal::switch_fillable_dtype(type, [&](auto tag) {
      using To = decltype(tag);
      auto* out = reinterpret_cast<To*>(bytes.data());
      for (size_t i = 0; i < data.size(); ++i) {
        out[i] = internal::convert_element<To>(data[i]);
      }
    });
    return make_tensor_ptr(std::move(sizes), std::move(bytes), std::move(dim_order),
                           std::move(strides), type, dynamism);
  }
  // The vector moves into the deleter's shared state; its buffer (and so
  // the pointer taken here) does not move with it.
  auto storage = std::make_shared<std::vector<T>>(std::move(data));
  void* raw = storage->data();
  return make_tensor_ptr(std::move(sizes), raw, std::move(dim_order), std::move(strides), type,
                         dynamism, [storage](void*) mutable { storage.reset(); });
}

// 1-D tensor over data.
template <typename T = float, ::executorch::aten::ScalarType deduced_type =
                                  ::executorch::runtime::CppTypeToScalarType<T>::value>
TensorPtr make_tensor_ptr(std::vector<T> data, ::executorch::aten::ScalarType type = deduced_type,
                          ::executorch::aten::TensorShapeDynamism dynamism =
                              ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  std::vector<::executorch::aten::SizesType> sizes{
      static_cast<::executorch::aten::SizesType>(data.size())};
  return make_tensor_ptr<T, deduced_type>(std::move(sizes), std::move(data), {}, {}, type,
                                          dynamism);
}

template <typename T = float, ::executorch::aten::ScalarType deduced_type =
                                  ::executorch::runtime::CppTypeToScalarType<T>::value>
TensorPtr make_tensor_ptr(std::vector<::executorch::aten::SizesType> sizes,
                          std::initializer_list<T> list,
                          std::vector<::executorch::aten::DimOrderType> dim_order = {},
                          std::vector<::executorch::aten::StridesType> strides = {},
                          ::executorch::aten::ScalarType type = deduced_type,
                          ::executorch::aten::TensorShapeDynamism dynamism =
                              ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return make_tensor_ptr<T, deduced_type>(std::move(sizes), std::vector<T>(list),
                                          std::move(dim_order), std::move(strides), type, dynamism);
}

template <typename T = float, ::executorch::aten::ScalarType deduced_type =
                                  ::executorch::runtime::CppTypeToScalarType<T>::value>
TensorPtr make_tensor_ptr(std::initializer_list<T> list,
                          ::executorch::aten::ScalarType type = deduced_type,
                          ::executorch::aten::TensorShapeDynamism dynamism =
                              ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return make_tensor_ptr<T, deduced_type>(std::vector<T>(list), type, dynamism);
}

// 0-D tensor holding value.
template <typename T,
          typename std::enable_if<internal::is_tensor_element<T>::value, bool>::type = true>
TensorPtr make_tensor_ptr(T value) {
  return make_tensor_ptr(std::vector<::executorch::aten::SizesType>{}, std::vector<T>{value});
}

// A new TensorPtr viewing tensor's data with (optionally) other sizes, dim
// order and strides. Empty sizes keep tensor's layout entirely.
EXECUTORCH_API TensorPtr make_tensor_ptr(
    const ::executorch::aten::Tensor& tensor, std::vector<::executorch::aten::SizesType> sizes = {},
    std::vector<::executorch::aten::DimOrderType> dim_order = {},
    std::vector<::executorch::aten::StridesType> strides = {},
    std::function<void(void*)> deleter = nullptr);

// Same, and the view keeps tensor_ptr (so its data) alive.
EXECUTORCH_API TensorPtr
make_tensor_ptr(const TensorPtr& tensor_ptr, std::vector<::executorch::aten::SizesType> sizes = {},
                std::vector<::executorch::aten::DimOrderType> dim_order = {},
                std::vector<::executorch::aten::StridesType> strides = {});

// Deep copies with their own data, cast to type.
EXECUTORCH_API TensorPtr clone_tensor_ptr(const ::executorch::aten::Tensor& tensor,
                                          ::executorch::aten::ScalarType type);
EXECUTORCH_API TensorPtr clone_tensor_ptr(const ::executorch::aten::Tensor& tensor);
inline TensorPtr clone_tensor_ptr(const TensorPtr& tensor, ::executorch::aten::ScalarType type) {
  return clone_tensor_ptr(*tensor, type);
}
inline TensorPtr clone_tensor_ptr(const TensorPtr& tensor) { return clone_tensor_ptr(*tensor); }

// A copy of tensor's data on target, through the DeviceAllocator registered
// for the device end (device_allocator.h): host to device, device to host,
// or (with copy_device_to_device) within one device type; host to host is
// clone_tensor_ptr. A device tensor's memory goes back to its allocator with
// the last TensorPtr copy. Where upstream aborts (no allocator, a failed
// allocation or copy, a source without data), this logs and returns nullptr.
EXECUTORCH_API TensorPtr clone_tensor_ptr_to(const TensorPtr& tensor,
                                             ::executorch::aten::Device target);

// Resizes in place (same rank; bounded tensors within their capacity).
ET_NODISCARD EXECUTORCH_API ::executorch::runtime::Error resize_tensor_ptr(
    TensorPtr& tensor, const std::vector<::executorch::aten::SizesType>& sizes);

} // namespace extension
} // namespace executorch
