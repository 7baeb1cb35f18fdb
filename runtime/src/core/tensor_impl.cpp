#include <executorch/runtime/core/portable_type/tensor_impl.h>

#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/platform/assert.h>
#include <executorch/runtime/platform/log.h>

#include "core/checked_math.h"

namespace executorch {
namespace runtime {
namespace etensor {

namespace checked = ::executorch::runtime::internal;

TensorImpl::TensorImpl(ScalarType type, ssize_t dim, SizesType* sizes, void* data,
                       DimOrderType* dim_order, StridesType* strides, TensorShapeDynamism dynamism,
                       DeviceType device_type, DeviceIndex device_index)
    : type_(type),
      dim_(dim),
      sizes_(sizes),
      dim_order_(dim_order),
      strides_(strides),
      data_(data),
      numel_(1),
      capacity_numel_(1),
      shape_dynamism_(dynamism),
      device_type_(device_type),
      device_index_(device_index),
      owns_dim_order_(dim_order == nullptr),
      owns_strides_(strides == nullptr) {
  ET_CHECK_MSG(isValid(type_), "Invalid ScalarType %d", static_cast<int>(type_));
  ET_CHECK_MSG(dim_ >= 0 && dim_ <= kMaxDim, "Tensor rank %zd outside [0, %zd]",
               static_cast<ssize_t>(dim_), static_cast<ssize_t>(kMaxDim));
  ET_CHECK_MSG(dim_ == 0 || sizes_ != nullptr, "Tensor of rank %zd without sizes",
               static_cast<ssize_t>(dim_));
  for (ssize_t i = 0; i < dim_; ++i) {
    ET_CHECK_MSG(sizes_[i] >= 0, "Negative size %d at dim %zd", sizes_[i], static_cast<ssize_t>(i));
  }
  // Programs are validated before their tensors are built, so only a
  // caller's own sizes can fail here.
  int64_t numel = 0;
  ET_CHECK_MSG(checked::checked_numel(sizes_, static_cast<size_t>(dim_), &numel),
               "Tensor element count overflows");
  numel_ = static_cast<ssize_t>(numel);
  capacity_numel_ = numel_;
  if (owns_dim_order_) {
    for (ssize_t i = 0; i < dim_; ++i) {
      own_dim_order_[i] = static_cast<DimOrderType>(i);
    }
    dim_order_ = own_dim_order_;
  }
  if (owns_strides_) {
    strides_ = own_strides_;
    compute_strides();
  }
}

TensorImpl::TensorImpl(const TensorImpl& other)
    : type_(other.type_),
      dim_(other.dim_),
      sizes_(other.sizes_),
      dim_order_(other.dim_order_),
      strides_(other.strides_),
      data_(other.data_),
      numel_(other.numel_),
      capacity_numel_(other.capacity_numel_),
      shape_dynamism_(other.shape_dynamism_),
      device_type_(other.device_type_),
      device_index_(other.device_index_),
      owns_dim_order_(other.owns_dim_order_),
      owns_strides_(other.owns_strides_) {
  // Self-owned arrays must point at this object's copies, not the source's.
  for (ssize_t i = 0; i < dim_; ++i) {
    own_dim_order_[i] = other.own_dim_order_[i];
    own_strides_[i] = other.own_strides_[i];
  }
  if (owns_dim_order_) dim_order_ = own_dim_order_;
  if (owns_strides_) strides_ = own_strides_;
}

TensorImpl& TensorImpl::operator=(const TensorImpl& other) {
  if (this != &other) {
    this->~TensorImpl();
    new (this) TensorImpl(other);
  }
  return *this;
}

size_t TensorImpl::nbytes() const { return static_cast<size_t>(numel_) * elementSize(type_); }

ssize_t TensorImpl::element_size() const { return static_cast<ssize_t>(elementSize(type_)); }

ssize_t TensorImpl::size(ssize_t dim) const {
  ET_CHECK_MSG(dim >= 0 && dim < dim_, "Dimension %zd out of range for rank %zd",
               static_cast<ssize_t>(dim), static_cast<ssize_t>(dim_));
  return sizes_[dim];
}

namespace {

// Dense strides for sizes in dim_order, or an Error (nothing written to
// `strides` is used then).
Error dense_strides(const TensorImpl::SizesType* sizes, const TensorImpl::DimOrderType* dim_order,
                    ssize_t dim, TensorImpl::StridesType* strides) {
  bool seen[TensorImpl::kMaxDim] = {};
  for (ssize_t i = 0; i < dim; ++i) {
    if (dim_order[i] >= dim || seen[dim_order[i]]) {
      ET_LOG(Error, "Tensor dim order is not a permutation of its %zd dims",
             static_cast<ssize_t>(dim));
      return Error::InvalidArgument;
    }
    seen[dim_order[i]] = true;
  }
  checked::StrideOverflow bad;
  if (!checked::checked_dense_strides(sizes, dim_order, static_cast<size_t>(dim), strides, &bad)) {
    ET_LOG(Error, "Stride %lld of dim %zu does not fit the 32-bit stride type",
           static_cast<long long>(bad.value), bad.dim);
    return Error::InvalidArgument;
  }
  return Error::Ok;
}

} // namespace

void TensorImpl::compute_strides() {
  const Error err = dense_strides(sizes_, dim_order_, dim_, strides_);
  ET_CHECK_MSG(err == Error::Ok, "Cannot compute the strides of a rank-%zd tensor",
               static_cast<ssize_t>(dim_));
}

// Checks everything before changing anything: on error the tensor keeps
// its sizes, strides and element count.
Error TensorImpl::internal_resize_contiguous(ArrayRef<SizesType> new_sizes) {
  if (static_cast<ssize_t>(new_sizes.size()) != dim_) {
    ET_LOG(Error, "Cannot change rank from %zd to %zu in a resize", static_cast<ssize_t>(dim_),
           new_sizes.size());
    return Error::NotSupported;
  }
  bool same = true;
  for (ssize_t i = 0; i < dim_; ++i) {
    if (new_sizes[i] < 0) {
      ET_LOG(Error, "Negative size %d in resize", new_sizes[i]);
      return Error::InvalidArgument;
    }
    same = same && new_sizes[i] == sizes_[i];
  }
  if (same) {
    return Error::Ok;
  }
  if (shape_dynamism_ == TensorShapeDynamism::STATIC) {
    ET_LOG(Error, "Attempted to resize a static tensor");
    return Error::NotSupported;
  }
  int64_t new_numel = 0;
  if (!checked::checked_numel(new_sizes.data(), new_sizes.size(), &new_numel)) {
    ET_LOG(Error, "Resize: element count of the new sizes overflows");
    return Error::InvalidArgument;
  }
  if (new_numel > capacity_numel_) {
    ET_LOG(Error, "Resize to %lld elements exceeds the tensor's capacity of %zd",
           static_cast<long long>(new_numel), static_cast<ssize_t>(capacity_numel_));
    return Error::NotSupported;
  }
  StridesType new_strides[kMaxDim];
  const Error err = dense_strides(new_sizes.data(), dim_order_, dim_, new_strides);
  if (err != Error::Ok) {
    return err;
  }
  for (ssize_t i = 0; i < dim_; ++i) {
    sizes_[i] = new_sizes[i];
    strides_[i] = new_strides[i];
  }
  numel_ = static_cast<ssize_t>(new_numel);
  return Error::Ok;
}

} // namespace etensor
} // namespace runtime
} // namespace executorch
