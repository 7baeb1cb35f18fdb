#include <executorch/extension/tensor/tensor_ptr.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {

using ::executorch::aten::DimOrderType;
using ::executorch::aten::ScalarType;
using ::executorch::aten::SizesType;
using ::executorch::aten::StridesType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;
using ::executorch::runtime::Error;

namespace internal {

ssize_t compute_numel(const SizesType* sizes, size_t dim) {
  ssize_t numel = 1;
  for (size_t i = 0; i < dim; ++i) {
    ET_CHECK_MSG(sizes[i] >= 0, "Negative size %d at dim %zu", sizes[i], i);
    numel *= sizes[i];
  }
  return numel;
}

} // namespace internal

namespace {

// Everything a TensorPtr owns, in one allocation. The TensorImpl points into
// the vectors, so this object never moves once built.
struct TensorStorage {
  std::vector<SizesType> sizes;
  std::vector<DimOrderType> dim_order;
  std::vector<StridesType> strides;
  std::function<void(void*)> deleter;
  void* data = nullptr;
  TensorImpl impl;
  Tensor tensor;

  TensorStorage(std::vector<SizesType> s, std::vector<DimOrderType> d, std::vector<StridesType> st,
                ScalarType type, void* data_in, ::executorch::aten::TensorShapeDynamism dynamism,
                std::function<void(void*)> del, ::executorch::aten::Device device)
      : sizes(std::move(s)),
        dim_order(std::move(d)),
        strides(std::move(st)),
        deleter(std::move(del)),
        data(data_in),
        impl(type, static_cast<ssize_t>(sizes.size()), sizes.data(), data_in, dim_order.data(),
             strides.data(), dynamism, device.type(), device.index()),
        tensor(&impl) {}
  TensorStorage(const TensorStorage&) = delete;
  TensorStorage& operator=(const TensorStorage&) = delete;

  ~TensorStorage() {
    if (deleter) {
      deleter(data);
    }
  }
};

// Strides of a dense layout in the given dim order.
std::vector<StridesType> strides_from_dim_order(const std::vector<SizesType>& sizes,
                                                const std::vector<DimOrderType>& order) {
  std::vector<StridesType> strides(sizes.size());
  StridesType running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    const DimOrderType d = order[i];
    strides[d] = running;
    running *= std::max<SizesType>(sizes[d], 1);
  }
  return strides;
}

// Outermost dimension first: larger strides come first; ties keep the
// natural order (size-1 dims can have any stride).
std::vector<DimOrderType> dim_order_from_strides(const std::vector<StridesType>& strides) {
  std::vector<DimOrderType> order(strides.size());
  std::iota(order.begin(), order.end(), DimOrderType{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](DimOrderType a, DimOrderType b) { return strides[a] > strides[b]; });
  return order;
}

bool is_permutation_of_dims(const std::vector<DimOrderType>& order) {
  std::vector<bool> seen(order.size(), false);
  for (DimOrderType d : order) {
    if (d >= order.size() || seen[d]) {
      return false;
    }
    seen[d] = true;
  }
  return true;
}

} // namespace

TensorPtr make_tensor_ptr(std::vector<SizesType> sizes, void* data,
                          std::vector<DimOrderType> dim_order, std::vector<StridesType> strides,
                          const ScalarType type,
                          const ::executorch::aten::TensorShapeDynamism dynamism,
                          std::function<void(void*)> deleter, ::executorch::aten::Device device) {
  const size_t dim = sizes.size();
  ET_CHECK_MSG(dim_order.empty() || dim_order.size() == dim,
               "dim_order has %zu entries for a rank-%zu tensor", dim_order.size(), dim);
  ET_CHECK_MSG(strides.empty() || strides.size() == dim,
               "strides has %zu entries for a rank-%zu tensor", strides.size(), dim);
  if (dim_order.empty()) {
    if (strides.empty()) {
      dim_order.resize(dim);
      std::iota(dim_order.begin(), dim_order.end(), DimOrderType{0});
    } else {
      dim_order = dim_order_from_strides(strides);
    }
  }
  ET_CHECK_MSG(is_permutation_of_dims(dim_order),
               "dim_order is not a permutation of the tensor's dimensions");
  // The runtime only represents dense layouts (a permutation of contiguous):
  // explicit strides must be the ones the dim order implies, except that a
  // size-1 dimension may have any stride. The tensor keeps the canonical
  // strides either way, as upstream's does.
  std::vector<StridesType> expected = strides_from_dim_order(sizes, dim_order);
  for (size_t i = 0; i < strides.size(); ++i) {
    ET_CHECK_MSG(sizes[i] == 1 || strides[i] == expected[i],
                 "Stride %d at dim %zu does not match the dense layout (%d)", strides[i], i,
                 expected[i]);
  }
  // A rank-0 tensor cannot change shape.
  const auto effective_dynamism =
      dim > 0 ? dynamism : ::executorch::aten::TensorShapeDynamism::STATIC;
  auto storage =
      std::make_shared<TensorStorage>(std::move(sizes), std::move(dim_order), std::move(expected),
                                      type, data, effective_dynamism, std::move(deleter), device);
  Tensor* tensor = &storage->tensor;
  // Aliasing constructor: the TensorPtr points at the Tensor but owns the
  // whole storage block.
  return TensorPtr(std::move(storage), tensor);
}

TensorPtr make_tensor_ptr(std::vector<SizesType> sizes, std::vector<uint8_t> data,
                          std::vector<DimOrderType> dim_order, std::vector<StridesType> strides,
                          ScalarType type, ::executorch::aten::TensorShapeDynamism dynamism) {
  const size_t expected = static_cast<size_t>(internal::compute_numel(sizes.data(), sizes.size())) *
                          ::executorch::runtime::elementSize(type);
  ET_CHECK_MSG(data.size() == expected,
               "Raw data has %zu bytes but a %s tensor of these sizes needs %zu", data.size(),
               ::executorch::runtime::toString(type), expected);
  auto bytes = std::make_shared<std::vector<uint8_t>>(std::move(data));
  void* raw = bytes->data();
  return make_tensor_ptr(std::move(sizes), raw, std::move(dim_order), std::move(strides), type,
                         dynamism, [bytes](void*) mutable { bytes.reset(); });
}

TensorPtr make_tensor_ptr(const Tensor& tensor, std::vector<SizesType> sizes,
                          std::vector<DimOrderType> dim_order, std::vector<StridesType> strides,
                          std::function<void(void*)> deleter) {
  if (sizes.empty()) {
    sizes.assign(tensor.sizes().begin(), tensor.sizes().end());
  }
  const bool same_rank = sizes.size() == static_cast<size_t>(tensor.dim());
  const bool same_shape =
      same_rank && std::equal(sizes.begin(), sizes.end(), tensor.sizes().begin());
  ET_CHECK_MSG(internal::compute_numel(sizes.data(), sizes.size()) <= tensor.numel(),
               "A view of %zd elements over a tensor of %zd",
               internal::compute_numel(sizes.data(), sizes.size()), tensor.numel());
  // Without an explicit layout, a view of the same rank keeps the source's
  // dim order (and, for the same shape, its strides).
  if (dim_order.empty() && strides.empty() && same_rank) {
    dim_order.assign(tensor.dim_order().begin(), tensor.dim_order().end());
    if (same_shape) {
      strides.assign(tensor.strides().begin(), tensor.strides().end());
    }
  }
  return make_tensor_ptr(std::move(sizes), tensor.mutable_data_ptr(), std::move(dim_order),
                         std::move(strides), tensor.scalar_type(), tensor.shape_dynamism(),
                         std::move(deleter), tensor.device());
}

TensorPtr make_tensor_ptr(const TensorPtr& tensor_ptr, std::vector<SizesType> sizes,
                          std::vector<DimOrderType> dim_order, std::vector<StridesType> strides) {
  ET_CHECK_MSG(tensor_ptr != nullptr, "make_tensor_ptr from a null TensorPtr");
  // The deleter holds a reference so the source (and its data) outlives the view.
  TensorPtr keep = tensor_ptr;
  return make_tensor_ptr(*tensor_ptr, std::move(sizes), std::move(dim_order), std::move(strides),
                         [keep](void*) mutable { keep.reset(); });
}

TensorPtr clone_tensor_ptr(const Tensor& tensor, ScalarType type) {
  std::vector<SizesType> sizes(tensor.sizes().begin(), tensor.sizes().end());
  std::vector<DimOrderType> dim_order(tensor.dim_order().begin(), tensor.dim_order().end());
  std::vector<StridesType> strides(tensor.strides().begin(), tensor.strides().end());
  const auto dynamism = tensor.shape_dynamism();
  if (tensor.const_data_ptr() == nullptr) {
    return make_tensor_ptr(std::move(sizes), nullptr, std::move(dim_order), std::move(strides),
                           type, dynamism);
  }
  ET_CHECK_MSG(
      type == tensor.scalar_type() || ::executorch::runtime::canCast(tensor.scalar_type(), type),
      "Cannot cast a %s tensor to %s", ::executorch::runtime::toString(tensor.scalar_type()),
      ::executorch::runtime::toString(type));
  const size_t numel = static_cast<size_t>(tensor.numel());
  std::vector<uint8_t> bytes(numel * ::executorch::runtime::elementSize(type));
  if (type == tensor.scalar_type()) {
    if (!bytes.empty()) {
      std::memcpy(bytes.data(), tensor.const_data_ptr(), bytes.size());
    }
  } else {
    // Dense layouts keep element i at the same linear position in both
    // tensors, so a flat element-wise cast preserves the layout.
    internal::switch_fillable_dtype(tensor.scalar_type(), [&](auto from_tag) {
      using From = decltype(from_tag);
      const From* in = tensor.const_data_ptr<From>();
      internal::switch_fillable_dtype(type, [&](auto to_tag) {
        using To = decltype(to_tag);
        To* out = reinterpret_cast<To*>(bytes.data());
        for (size_t i = 0; i < numel; ++i) {
          out[i] = internal::convert_element<To>(in[i]);
        }
      });
    });
  }
  return make_tensor_ptr(std::move(sizes), std::move(bytes), std::move(dim_order),
                         std::move(strides), type, dynamism);
}

TensorPtr clone_tensor_ptr(const Tensor& tensor) {
  return clone_tensor_ptr(tensor, tensor.scalar_type());
}

Error resize_tensor_ptr(TensorPtr& tensor, const std::vector<SizesType>& sizes) {
  ET_CHECK_OR_RETURN_ERROR(tensor != nullptr, InvalidArgument, "resize_tensor_ptr: null TensorPtr");
  return tensor->unsafeGetTensorImpl()->internal_resize_contiguous(
      ::executorch::aten::ArrayRef<SizesType>(sizes.data(), sizes.size()));
}

} // namespace extension
} // namespace executorch
