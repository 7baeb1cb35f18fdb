// The out-of-line part of tensor_util.h: dim-order predicates, data-pointer
// plumbing and resizing.
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>

#include <cstring>

namespace executorch {
namespace runtime {
namespace {

using ::executorch::aten::Tensor;

// Logs t's dim order, one line, after a failed dim-order check.
void log_dim_order(const char* what, const Tensor& t) {
  const auto order = t.dim_order();
  if (order.size() > kTensorDimensionLimit) {
    ET_LOG(Error, "%s; a %zu-dim tensor", what, order.size());
    return;
  }
  int32_t values[kTensorDimensionLimit] = {};
  for (size_t i = 0; i < order.size(); ++i) {
    values[i] = order[i];
  }
  ET_LOG(Error, "%s; dim order %s", what, tensor_shape_to_c_string({values, order.size()}).data());
}

bool is_contiguous(const Tensor& t) {
  return is_contiguous_dim_order(t.dim_order().data(), t.dim_order().size());
}

bool is_channels_last(const Tensor& t) {
  return is_channels_last_dim_order(t.dim_order().data(), t.dim_order().size());
}

} // namespace

Error get_dim_order(const Tensor& tensor, ::executorch::aten::DimOrderType* out_dim_order,
                    size_t out_dim_order_size) {
  ET_CHECK_OR_RETURN_ERROR(out_dim_order_size == tensor.dim_order().size(), InvalidArgument,
                           "Dim order buffer holds %zu entries, the tensor has %zu dims",
                           out_dim_order_size, tensor.dim_order().size());
  if (out_dim_order_size != 0) {
    std::memcpy(out_dim_order, tensor.dim_order().data(),
                out_dim_order_size * sizeof(::executorch::aten::DimOrderType));
  }
  return Error::Ok;
}

bool tensor_has_valid_dim_order(Tensor t) {
  if (!validate_dim_order(t.dim_order().data(), t.dim_order().size())) {
    log_dim_order("Tensor dim order is not valid", t);
    return false;
  }
  return true;
}

bool tensor_is_default_or_channels_last_dim_order(Tensor t) {
  if (!is_contiguous(t) && !is_channels_last(t)) {
    log_dim_order("Expected tensor to have default or channels last dim order", t);
    return false;
  }
  return true;
}

bool tensor_is_default_dim_order(Tensor t) {
  if (!is_contiguous(t)) {
    log_dim_order("Expected tensor to have default dim order", t);
    return false;
  }
  return true;
}

bool tensor_is_channels_last_dim_order(Tensor t) {
  if (!is_channels_last(t)) {
    log_dim_order("Expected tensor to have channels last dim order", t);
    return false;
  }
  return true;
}

bool tensors_have_same_dim_order(const ::executorch::aten::ArrayRef<Tensor> tensor_list) {
  if (tensor_list.size() < 2) {
    return true;
  }
  bool all_contiguous = true;
  bool all_channels_last = true;
  for (const Tensor& t : tensor_list) {
    all_contiguous = all_contiguous && is_contiguous(t);
    all_channels_last = all_channels_last && is_channels_last(t);
  }
  if (!all_contiguous && !all_channels_last) {
    ET_LOG(Error,
           "%zu tensors do not all have the default dim order, nor all the "
           "channels last one",
           tensor_list.size());
    return false;
  }
  return true;
}

namespace internal {

Error share_tensor_data(const Tensor& t_dst, const Tensor& t_src) {
  ET_CHECK_OR_RETURN_ERROR(t_dst.nbytes() == t_src.nbytes(), InvalidArgument,
                           "t_dst.nbytes() %zu != t_src.nbytes() %zu", t_dst.nbytes(),
                           t_src.nbytes());
  ET_CHECK_OR_RETURN_ERROR(t_src.mutable_data_ptr() != nullptr || t_src.nbytes() == 0,
                           InvalidArgument, "Source tensor has no data to share");
  // An empty source shares no memory.
  t_dst.unsafeGetTensorImpl()->set_data(t_src.numel() == 0 ? nullptr : t_src.mutable_data_ptr());
  return Error::Ok;
}

Error copy_tensor_data(const Tensor& t_dst, const Tensor& t_src) {
  // A host memcpy cannot reach an accelerator's memory (as upstream).
  ET_CHECK_OR_RETURN_ERROR(t_dst.device().is_cpu() && t_src.device().is_cpu(), NotSupported,
                           "copy_tensor_data copies between CPU tensors only");
  ET_CHECK_OR_RETURN_ERROR(
      t_dst.const_data_ptr() != nullptr || (t_dst.nbytes() == 0 && t_src.nbytes() == 0),
      InvalidArgument, "Destination tensor has no data to copy into");
  // A tensor with a 0-sized dimension may have no data: nothing to copy.
  if (t_src.const_data_ptr() == nullptr) {
    return Error::Ok;
  }
  ET_CHECK_OR_RETURN_ERROR(t_dst.nbytes() == t_src.nbytes(), InvalidArgument,
                           "t_dst.nbytes() %zu != t_src.nbytes() %zu", t_dst.nbytes(),
                           t_src.nbytes());
  if (t_src.nbytes() != 0) {
    std::memcpy(t_dst.mutable_data_ptr(), t_src.const_data_ptr(), t_src.nbytes());
  }
  return Error::Ok;
}

Error set_tensor_data(const Tensor& t, void* buffer, size_t buffer_size) {
  ET_CHECK_OR_RETURN_ERROR(buffer_size >= t.nbytes(), InvalidArgument,
                           "Buffer of %zu bytes is smaller than the tensor's %zu", buffer_size,
                           t.nbytes());
  t.unsafeGetTensorImpl()->set_data(buffer);
  return Error::Ok;
}

void reset_data_ptr(const Tensor& tensor) { tensor.unsafeGetTensorImpl()->set_data(nullptr); }

Error resize_tensor_impl(::executorch::aten::TensorImpl* impl,
                         ::executorch::aten::ArrayRef<::executorch::aten::SizesType> new_sizes) {
  ET_CHECK_OR_RETURN_ERROR(impl != nullptr, InvalidArgument, "No TensorImpl to resize");
  return impl->internal_resize_contiguous(new_sizes);
}

} // namespace internal
} // namespace runtime
} // namespace executorch
