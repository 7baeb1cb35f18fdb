// Tensor: a copyable, non-owning handle to a TensorImpl.
#pragma once

#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/platform/assert.h>

namespace executorch {
namespace runtime {
namespace etensor {

class Tensor {
 public:
  using SizesType = TensorImpl::SizesType;
  using DimOrderType = TensorImpl::DimOrderType;
  using StridesType = TensorImpl::StridesType;

  Tensor() = delete;
  explicit constexpr Tensor(TensorImpl* impl) : impl_(impl) {}

  TensorImpl* unsafeGetTensorImpl() const {
    ET_CHECK_MSG(impl_ != nullptr, "null TensorImpl");
    return impl_;
  }

  size_t nbytes() const { return impl_->nbytes(); }
  ssize_t size(ssize_t dim) const { return impl_->size(dim); }
  ssize_t dim() const { return impl_->dim(); }
  ssize_t numel() const { return impl_->numel(); }
  ScalarType scalar_type() const { return impl_->scalar_type(); }
  ScalarType dtype() const { return impl_->scalar_type(); }
  ssize_t element_size() const { return impl_->element_size(); }
  const ArrayRef<SizesType> sizes() const { return impl_->sizes(); }
  const ArrayRef<DimOrderType> dim_order() const { return impl_->dim_order(); }
  const ArrayRef<StridesType> strides() const { return impl_->strides(); }
  TensorShapeDynamism shape_dynamism() const { return impl_->shape_dynamism(); }
  Device device() const { return impl_->device(); }
  DeviceType device_type() const { return impl_->device_type(); }
  DeviceIndex device_index() const { return impl_->device_index(); }

  template <typename T>
  const T* const_data_ptr() const {
    return impl_->data<T>();
  }
  const void* const_data_ptr() const { return impl_->data(); }
  template <typename T>
  T* mutable_data_ptr() const {
    return impl_->mutable_data<T>();
  }
  void* mutable_data_ptr() const { return impl_->mutable_data(); }

  template <typename T>
  ET_DEPRECATED T* data_ptr() const {
    return impl_->mutable_data<T>();
  }
  ET_DEPRECATED void* data_ptr() const { return impl_->mutable_data(); }
  ET_DEPRECATED void set_data(void* ptr) const { impl_->set_data(ptr); }

 private:
  TensorImpl* impl_ = nullptr;
};

} // namespace etensor
} // namespace runtime
} // namespace executorch
