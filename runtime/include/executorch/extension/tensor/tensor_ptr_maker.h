// Builders for TensorPtr: for_blob()/from_blob() wrap existing memory;
// empty/full/zeros/ones/rand/randn/randint allocate and own their data.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {

// Move-only builder returned by for_blob(); finish with make_tensor_ptr()
// or by converting to TensorPtr.
class TensorPtrMaker final {
 public:
  TensorPtrMaker(const TensorPtrMaker&) = delete;
  TensorPtrMaker& operator=(const TensorPtrMaker&) = delete;
  TensorPtrMaker(TensorPtrMaker&&) = default;
  TensorPtrMaker& operator=(TensorPtrMaker&&) = default;

  TensorPtrMaker&& type(::executorch::aten::ScalarType type) {
    type_ = type;
    return std::move(*this);
  }
  TensorPtrMaker&& dim_order(std::vector<::executorch::aten::DimOrderType> dim_order) {
    dim_order_ = std::move(dim_order);
    return std::move(*this);
  }
  TensorPtrMaker&& strides(std::vector<::executorch::aten::StridesType> strides) {
    strides_ = std::move(strides);
    return std::move(*this);
  }
  TensorPtrMaker&& dynamism(::executorch::aten::TensorShapeDynamism dynamism) {
    dynamism_ = dynamism;
    return std::move(*this);
  }
  TensorPtrMaker&& deleter(std::function<void(void*)>&& deleter) {
    deleter_ = std::move(deleter);
    return std::move(*this);
  }
  TensorPtrMaker&& device(::executorch::aten::Device device) {
    device_ = device;
    return std::move(*this);
  }

  TensorPtr make_tensor_ptr() && {
    return ::executorch::extension::make_tensor_ptr(std::move(sizes_), data_, std::move(dim_order_),
                                                    std::move(strides_), type_, dynamism_,
                                                    std::move(deleter_), device_);
  }
  /* implicit */ operator TensorPtr() && { return std::move(*this).make_tensor_ptr(); }

 private:
  TensorPtrMaker(void* data, std::vector<::executorch::aten::SizesType> sizes,
                 ::executorch::aten::ScalarType type)
      : sizes_(std::move(sizes)), data_(data), type_(type) {}

  friend TensorPtrMaker for_blob(void* data, std::vector<::executorch::aten::SizesType> sizes,
                                 ::executorch::aten::ScalarType type);

  std::vector<::executorch::aten::SizesType> sizes_;
  std::vector<::executorch::aten::StridesType> strides_;
  std::vector<::executorch::aten::DimOrderType> dim_order_;
  std::function<void(void*)> deleter_ = nullptr;
  void* data_ = nullptr;
  ::executorch::aten::ScalarType type_ = ::executorch::aten::ScalarType::Float;
  ::executorch::aten::TensorShapeDynamism dynamism_ =
      ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND;
  ::executorch::aten::Device device_ =
      ::executorch::aten::Device(::executorch::aten::DeviceType::CPU);
};

inline TensorPtrMaker for_blob(
    void* data, std::vector<::executorch::aten::SizesType> sizes,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float) {
  return TensorPtrMaker(data, std::move(sizes), type);
}

// Non-owning views of data unless a deleter is given.
inline TensorPtr from_blob(
    void* data, std::vector<::executorch::aten::SizesType> sizes,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
    ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return for_blob(data, std::move(sizes), type).dynamism(dynamism).make_tensor_ptr();
}

inline TensorPtr from_blob(
    void* data, std::vector<::executorch::aten::SizesType> sizes,
    std::vector<::executorch::aten::StridesType> strides,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
    ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return for_blob(data, std::move(sizes), type)
      .strides(std::move(strides))
      .dynamism(dynamism)
      .make_tensor_ptr();
}

inline TensorPtr from_blob(void* data, std::vector<::executorch::aten::SizesType> sizes,
                           ::executorch::aten::ScalarType type,
                           std::function<void(void*)>&& deleter,
                           ::executorch::aten::TensorShapeDynamism dynamism =
                               ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return for_blob(data, std::move(sizes), type)
      .deleter(std::move(deleter))
      .dynamism(dynamism)
      .make_tensor_ptr();
}

inline TensorPtr from_blob(void* data, std::vector<::executorch::aten::SizesType> sizes,
                           std::vector<::executorch::aten::StridesType> strides,
                           ::executorch::aten::ScalarType type,
                           std::function<void(void*)>&& deleter,
                           ::executorch::aten::TensorShapeDynamism dynamism =
                               ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return for_blob(data, std::move(sizes), type)
      .strides(std::move(strides))
      .deleter(std::move(deleter))
      .dynamism(dynamism)
      .make_tensor_ptr();
}

// Owning tensors with uninitialized (empty*) or filled contents. Empty
// strides mean contiguous.
EXECUTORCH_API TensorPtr
empty_strided(std::vector<::executorch::aten::SizesType> sizes,
              std::vector<::executorch::aten::StridesType> strides,
              ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
              ::executorch::aten::TensorShapeDynamism dynamism =
                  ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND);

inline TensorPtr empty(std::vector<::executorch::aten::SizesType> sizes,
                       ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
                       ::executorch::aten::TensorShapeDynamism dynamism =
                           ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return empty_strided(std::move(sizes), {}, type, dynamism);
}

// Undefined type means "the same dtype as other".
inline TensorPtr empty_like(
    const TensorPtr& other,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Undefined,
    ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  if (type == ::executorch::aten::ScalarType::Undefined) {
    type = other->scalar_type();
  }
  return empty_strided({other->sizes().begin(), other->sizes().end()},
                       {other->strides().begin(), other->strides().end()}, type, dynamism);
}

EXECUTORCH_API TensorPtr full_strided(
    std::vector<::executorch::aten::SizesType> sizes,
    std::vector<::executorch::aten::StridesType> strides, ::executorch::aten::Scalar fill_value,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
    ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND);

inline TensorPtr full(std::vector<::executorch::aten::SizesType> sizes,
                      ::executorch::aten::Scalar fill_value,
                      ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
                      ::executorch::aten::TensorShapeDynamism dynamism =
                          ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return full_strided(std::move(sizes), {}, fill_value, type, dynamism);
}

inline TensorPtr full_like(
    const TensorPtr& other, ::executorch::aten::Scalar fill_value,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Undefined,
    ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  if (type == ::executorch::aten::ScalarType::Undefined) {
    type = other->scalar_type();
  }
  return full_strided({other->sizes().begin(), other->sizes().end()},
                      {other->strides().begin(), other->strides().end()}, fill_value, type,
                      dynamism);
}

inline TensorPtr scalar_tensor(
    ::executorch::aten::Scalar value,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float) {
  return full({}, value, type);
}

inline TensorPtr zeros(std::vector<::executorch::aten::SizesType> sizes,
                       ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
                       ::executorch::aten::TensorShapeDynamism dynamism =
                           ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return full(std::move(sizes), 0, type, dynamism);
}

inline TensorPtr zeros_like(
    const TensorPtr& other,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Undefined,
    ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return full_like(other, 0, type, dynamism);
}

inline TensorPtr ones(std::vector<::executorch::aten::SizesType> sizes,
                      ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
                      ::executorch::aten::TensorShapeDynamism dynamism =
                          ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return full(std::move(sizes), 1, type, dynamism);
}

inline TensorPtr ones_like(
    const TensorPtr& other,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Undefined,
    ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return full_like(other, 1, type, dynamism);
}

// Uniform in [0, 1).
EXECUTORCH_API TensorPtr
rand_strided(std::vector<::executorch::aten::SizesType> sizes,
             std::vector<::executorch::aten::StridesType> strides,
             ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
             ::executorch::aten::TensorShapeDynamism dynamism =
                 ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND);

inline TensorPtr rand(std::vector<::executorch::aten::SizesType> sizes,
                      ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
                      ::executorch::aten::TensorShapeDynamism dynamism =
                          ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return rand_strided(std::move(sizes), {}, type, dynamism);
}

inline TensorPtr rand_like(
    const TensorPtr& other,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Undefined,
    ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  if (type == ::executorch::aten::ScalarType::Undefined) {
    type = other->scalar_type();
  }
  return rand_strided({other->sizes().begin(), other->sizes().end()},
                      {other->strides().begin(), other->strides().end()}, type, dynamism);
}

// Standard normal.
EXECUTORCH_API TensorPtr
randn_strided(std::vector<::executorch::aten::SizesType> sizes,
              std::vector<::executorch::aten::StridesType> strides,
              ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
              ::executorch::aten::TensorShapeDynamism dynamism =
                  ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND);

inline TensorPtr randn(std::vector<::executorch::aten::SizesType> sizes,
                       ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Float,
                       ::executorch::aten::TensorShapeDynamism dynamism =
                           ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return randn_strided(std::move(sizes), {}, type, dynamism);
}

inline TensorPtr randn_like(
    const TensorPtr& other,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Undefined,
    ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  if (type == ::executorch::aten::ScalarType::Undefined) {
    type = other->scalar_type();
  }
  return randn_strided({other->sizes().begin(), other->sizes().end()},
                       {other->strides().begin(), other->strides().end()}, type, dynamism);
}

// Uniform integers in [low, high).
EXECUTORCH_API TensorPtr
randint_strided(int64_t low, int64_t high, std::vector<::executorch::aten::SizesType> sizes,
                std::vector<::executorch::aten::StridesType> strides,
                ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Int,
                ::executorch::aten::TensorShapeDynamism dynamism =
                    ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND);

inline TensorPtr randint(int64_t low, int64_t high,
                         std::vector<::executorch::aten::SizesType> sizes,
                         ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Int,
                         ::executorch::aten::TensorShapeDynamism dynamism =
                             ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  return randint_strided(low, high, std::move(sizes), {}, type, dynamism);
}

inline TensorPtr randint_like(
    const TensorPtr& other, int64_t low, int64_t high,
    ::executorch::aten::ScalarType type = ::executorch::aten::ScalarType::Undefined,
    ::executorch::aten::TensorShapeDynamism dynamism =
        ::executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND) {
  if (type == ::executorch::aten::ScalarType::Undefined) {
    type = other->scalar_type();
  }
  return randint_strided(low, high, {other->sizes().begin(), other->sizes().end()},
                         {other->strides().begin(), other->strides().end()}, type, dynamism);
}

} // namespace extension
} // namespace executorch
