// TensorAccessor: indexed element access (t[i][j]) over a tensor's strides.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {

namespace internal {
template <typename T, ssize_t N>
class TensorAccessorBase {
 public:
  ssize_t size(ssize_t i) const { return sizes_[i]; }
  ssize_t stride(ssize_t i) const { return strides_[i]; }

 protected:
  TensorAccessorBase(T* data, const ::executorch::aten::SizesType* sizes,
                     const ::executorch::aten::StridesType* strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  T* data_;
  const ::executorch::aten::SizesType* sizes_;
  const ::executorch::aten::StridesType* strides_;
};
} // namespace internal

template <typename T, ssize_t N>
class TensorAccessor : public internal::TensorAccessorBase<T, N> {
 public:
  TensorAccessor(T* data, const ::executorch::aten::SizesType* sizes,
                 const ::executorch::aten::StridesType* strides)
      : internal::TensorAccessorBase<T, N>(data, sizes, strides) {}
  // The sub-accessor over dimensions 1..N-1 at index i of dimension 0.
  TensorAccessor<T, N - 1> operator[](ssize_t i) {
    return TensorAccessor<T, N - 1>(this->data_ + this->strides_[0] * i, this->sizes_ + 1,
                                    this->strides_ + 1);
  }
  const TensorAccessor<T, N - 1> operator[](ssize_t i) const {
    return TensorAccessor<T, N - 1>(this->data_ + this->strides_[0] * i, this->sizes_ + 1,
                                    this->strides_ + 1);
  }
};

template <typename T>
class TensorAccessor<T, 1> : public internal::TensorAccessorBase<T, 1> {
 public:
  TensorAccessor(T* data, const ::executorch::aten::SizesType* sizes,
                 const ::executorch::aten::StridesType* strides)
      : internal::TensorAccessorBase<T, 1>(data, sizes, strides) {}
  T& operator[](ssize_t i) { return this->data_[this->strides_[0] * i]; }
  const T& operator[](ssize_t i) const { return this->data_[this->strides_[0] * i]; }
};

// InvalidArgument when the rank is not N or T does not match the dtype's
// element size; NotSupported for a tensor whose dim order is not the default
// one (as upstream).
template <typename T, ssize_t N>
::executorch::runtime::Result<TensorAccessor<T, N>> make_tensor_accessor(
    const ::executorch::aten::Tensor& tensor) {
  static_assert(N > 0, "TensorAccessor is used for indexing tensors, rank > 0");
  if (N != tensor.dim()) {
    ET_LOG(Error, "make_tensor_accessor: rank %zd, tensor has %zd", static_cast<ssize_t>(N),
           static_cast<ssize_t>(tensor.dim()));
    return ::executorch::runtime::Error::InvalidArgument;
  }
  if (static_cast<ssize_t>(sizeof(T)) != tensor.element_size()) {
    ET_LOG(Error, "make_tensor_accessor: element size %zu, tensor's is %zd", sizeof(T),
           static_cast<ssize_t>(tensor.element_size()));
    return ::executorch::runtime::Error::InvalidArgument;
  }
  const auto dim_order = tensor.dim_order();
  for (size_t i = 0; i < dim_order.size(); ++i) {
    if (dim_order[i] != i) {
      ET_LOG(Error, "make_tensor_accessor: non-default dim order (dim %zu is %d)", i,
             static_cast<int>(dim_order[i]));
      return ::executorch::runtime::Error::NotSupported;
    }
  }
  return TensorAccessor<T, N>(static_cast<T*>(tensor.mutable_data_ptr()), tensor.sizes().data(),
                              tensor.strides().data());
}

} // namespace extension
} // namespace executorch
