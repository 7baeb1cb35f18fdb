// clone_tensor_ptr_to: copies between host and device memory through the
// registered DeviceAllocator.
#include <executorch/extension/tensor/tensor_ptr.h>

#include <vector>

#include <executorch/runtime/core/device_allocator.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {

using ::executorch::aten::Device;
using ::executorch::aten::DimOrderType;
using ::executorch::aten::SizesType;
using ::executorch::aten::StridesType;
using ::executorch::runtime::DeviceAllocator;
using ::executorch::runtime::Error;

namespace {

struct Layout {
  std::vector<SizesType> sizes;
  std::vector<DimOrderType> dim_order;
  std::vector<StridesType> strides;
};

Layout layout_of(const ::executorch::aten::Tensor& t) {
  return {std::vector<SizesType>(t.sizes().begin(), t.sizes().end()),
          std::vector<DimOrderType>(t.dim_order().begin(), t.dim_order().end()),
          std::vector<StridesType>(t.strides().begin(), t.strides().end())};
}

// A tensor on `device` over nbytes of that device's memory, filled by copy.
template <typename Copy>
TensorPtr device_tensor(const ::executorch::aten::Tensor& src, Device device,
                        DeviceAllocator* allocator, Copy copy) {
  const size_t nbytes = src.nbytes();
  void* data = nullptr;
  if (nbytes > 0) {
    auto mem = allocator->allocate(nbytes, device.index());
    if (!mem.ok()) {
      ET_LOG(Error, "clone_tensor_ptr_to: cannot allocate %zu bytes on %s:%d", nbytes,
             ::executorch::runtime::device_type_name(device.type()), int(device.index()));
      return nullptr;
    }
    data = *mem;
    const Error e = copy(data);
    if (e != Error::Ok) {
      allocator->deallocate(data, device.index());
      ET_LOG(Error, "clone_tensor_ptr_to: copy to %s failed (error %d)",
             ::executorch::runtime::device_type_name(device.type()), int(e));
      return nullptr;
    }
  }
  Layout l = layout_of(src);
  const auto index = device.index();
  return make_tensor_ptr(
      std::move(l.sizes), data, std::move(l.dim_order), std::move(l.strides), src.scalar_type(),
      src.shape_dynamism(),
      [allocator, index](void* p) {
        if (p != nullptr) allocator->deallocate(p, index);
      },
      device);
}

} // namespace

TensorPtr clone_tensor_ptr_to(const TensorPtr& tensor, Device target) {
  if (tensor == nullptr) {
    ET_LOG(Error, "clone_tensor_ptr_to: null TensorPtr");
    return nullptr;
  }
  const Device source = tensor->device();
  if (source.is_cpu() && target.is_cpu()) {
    return clone_tensor_ptr(*tensor);
  }
  const size_t nbytes = tensor->nbytes();
  const void* src = tensor->const_data_ptr();
  if (src == nullptr && nbytes > 0) {
    ET_LOG(Error, "clone_tensor_ptr_to: the source tensor has no data");
    return nullptr;
  }
  if (!source.is_cpu() && !target.is_cpu() && source.type() != target.type()) {
    ET_LOG(Error, "clone_tensor_ptr_to: %s to %s goes through the host",
           ::executorch::runtime::device_type_name(source.type()),
           ::executorch::runtime::device_type_name(target.type()));
    return nullptr;
  }
  const Device device = target.is_cpu() ? source : target;
  DeviceAllocator* allocator = ::executorch::runtime::get_device_allocator(device.type());
  if (allocator == nullptr) {
    ET_LOG(Error, "clone_tensor_ptr_to: no allocator registered for %s",
           ::executorch::runtime::device_type_name(device.type()));
    return nullptr;
  }
  if (target.is_cpu()) {
    std::vector<uint8_t> bytes(nbytes);
    if (nbytes > 0) {
      const Error e = allocator->copy_device_to_host(bytes.data(), src, nbytes, source.index());
      if (e != Error::Ok) {
        ET_LOG(Error, "clone_tensor_ptr_to: copy from %s failed (error %d)",
               ::executorch::runtime::device_type_name(source.type()), int(e));
        return nullptr;
      }
    }
    Layout l = layout_of(*tensor);
    return make_tensor_ptr(std::move(l.sizes), std::move(bytes), std::move(l.dim_order),
                           std::move(l.strides), tensor->scalar_type(), tensor->shape_dynamism());
  }
  if (source.is_cpu()) {
    return device_tensor(*tensor, target, allocator, [&](void* dst) {
      return allocator->copy_host_to_device(dst, src, nbytes, target.index());
    });
  }
  return device_tensor(*tensor, target, allocator, [&](void* dst) {
    return allocator->copy_device_to_device(dst, src, nbytes, target.index());
  });
}

} // namespace extension
} // namespace executorch
