// TensorImpl: the metadata of a tensor. It does not own the sizes, dim order,
// strides or data it points to. When dim_order or strides are not given, the
// tensor is contiguous and keeps its own copies (up to kMaxDim dimensions).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/array_ref.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/portable_type/device.h>
#include <executorch/runtime/core/portable_type/scalar_type.h>
#include <executorch/runtime/core/tensor_shape_dynamism.h>
#include <executorch/runtime/platform/assert.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {
namespace etensor {

// The element count of a tensor of these sizes (1 for dim 0). Aborts on a
// negative dim or size, or a count that overflows ssize_t.
inline ssize_t compute_numel(const int32_t* sizes, ssize_t dim) {
  ET_CHECK_MSG(dim >= 0, "Negative dim %zd", dim);
  ET_CHECK_MSG(dim == 0 || sizes != nullptr, "No sizes for a %zd-dim tensor", dim);
  ssize_t numel = 1;
  for (ssize_t i = 0; i < dim; ++i) {
    ET_CHECK_MSG(sizes[i] >= 0, "Size %d of dim %zd is negative", sizes[i], i);
    ET_CHECK_MSG(!__builtin_mul_overflow(numel, sizes[i], &numel),
                 "Element count overflows at dim %zd", i);
  }
  return numel;
}

class EXECUTORCH_API TensorImpl {
 public:
  using SizesType = int32_t;
  using DimOrderType = uint8_t;
  using StridesType = int32_t;

  // The largest rank a tensor may have in this runtime.
  static constexpr ssize_t kMaxDim = 16;

  TensorImpl() = delete;
  TensorImpl(ScalarType type, ssize_t dim, SizesType* sizes, void* data = nullptr,
             DimOrderType* dim_order = nullptr, StridesType* strides = nullptr,
             TensorShapeDynamism dynamism = TensorShapeDynamism::STATIC,
             DeviceType device_type = DeviceType::CPU, DeviceIndex device_index = 0);
  TensorImpl(const TensorImpl& other);
  TensorImpl& operator=(const TensorImpl& other);

  size_t nbytes() const;
  ssize_t size(ssize_t dim) const;
  ssize_t dim() const { return dim_; }
  ssize_t numel() const { return numel_; }
  ScalarType scalar_type() const { return type_; }
  ScalarType dtype() const { return type_; }
  ssize_t element_size() const;
  const ArrayRef<SizesType> sizes() const {
    return ArrayRef<SizesType>(sizes_, static_cast<size_t>(dim_));
  }
  const ArrayRef<DimOrderType> dim_order() const {
    return ArrayRef<DimOrderType>(dim_order_, static_cast<size_t>(dim_));
  }
  const ArrayRef<StridesType> strides() const {
    return ArrayRef<StridesType>(strides_, static_cast<size_t>(dim_));
  }
  TensorShapeDynamism shape_dynamism() const { return shape_dynamism_; }
  Device device() const { return Device(device_type_, device_index_); }
  DeviceType device_type() const { return device_type_; }
  DeviceIndex device_index() const { return device_index_; }

  template <typename T>
  const T* data() const {
    return static_cast<const T*>(data_);
  }
  const void* data() const { return data_; }
  template <typename T>
  T* mutable_data() const {
    return static_cast<T*>(data_);
  }
  void* mutable_data() const { return data_; }
  void set_data(void* ptr) { data_ = ptr; }

  // The largest element count this tensor's storage was planned for.
  ssize_t capacity_numel() const { return capacity_numel_; }

  // Changes the sizes in place (and recomputes strides). STATIC tensors only
  // accept their current sizes; bounded ones accept up to capacity_numel().
  ET_NODISCARD Error internal_resize_contiguous(ArrayRef<SizesType> new_sizes);

  // Deprecated upstream spelling of internal_resize_contiguous() that aborts,
  // naming the tensor's rank, when the resize is refused (as upstream's
  // does). Use resize_tensor() (tensor_util.h), which returns the Error.
  ET_DEPRECATED void set_sizes_contiguous(ArrayRef<SizesType> new_sizes) {
    const Error err = internal_resize_contiguous(new_sizes);
    ET_CHECK_MSG(err == Error::Ok, "Cannot resize a tensor of rank %zd; see the log",
                 static_cast<ssize_t>(dim_));
  }

 private:
  void compute_strides();

  ScalarType type_;
  ssize_t dim_;
  SizesType* sizes_;
  DimOrderType* dim_order_;
  StridesType* strides_;
  void* data_;
  ssize_t numel_;
  ssize_t capacity_numel_;
  TensorShapeDynamism shape_dynamism_;
  DeviceType device_type_;
  DeviceIndex device_index_;
  bool owns_dim_order_;
  bool owns_strides_;
  DimOrderType own_dim_order_[kMaxDim];
  StridesType own_strides_[kMaxDim];
};

} // namespace etensor
} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::etensor::compute_numel;
} // namespace executor
} // namespace torch
