// executorch::aten: the tensor vocabulary kernels and users write.
#pragma once

#include <optional>
#include <string_view>

#include <executorch/runtime/core/array_ref.h>
#include <executorch/runtime/core/portable_type/bfloat16.h>
#include <executorch/runtime/core/portable_type/bfloat16_math.h>
#include <executorch/runtime/core/portable_type/bits_types.h>
#include <executorch/runtime/core/portable_type/complex.h>
#include <executorch/runtime/core/portable_type/device.h>
#include <executorch/runtime/core/portable_type/half.h>
#include <executorch/runtime/core/portable_type/qint_types.h>
#include <executorch/runtime/core/portable_type/scalar.h>
#include <executorch/runtime/core/portable_type/scalar_type.h>
#include <executorch/runtime/core/portable_type/tensor.h>
#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/core/tensor_shape_dynamism.h>

namespace executorch {
namespace aten {

using Tensor = ::executorch::runtime::etensor::Tensor;
using TensorImpl = ::executorch::runtime::etensor::TensorImpl;
using ScalarType = ::executorch::runtime::etensor::ScalarType;
using Scalar = ::executorch::runtime::etensor::Scalar;
using Half = ::executorch::runtime::etensor::Half;
using BFloat16 = ::executorch::runtime::etensor::BFloat16;
template <typename T>
using complex = ::executorch::runtime::etensor::complex<T>;
using qint8 = ::executorch::runtime::etensor::qint8;
using quint8 = ::executorch::runtime::etensor::quint8;
using qint32 = ::executorch::runtime::etensor::qint32;
using quint4x2 = ::executorch::runtime::etensor::quint4x2;
using quint2x4 = ::executorch::runtime::etensor::quint2x4;
using Device = ::executorch::runtime::etensor::Device;
using DeviceType = ::executorch::runtime::etensor::DeviceType;
using DeviceIndex = ::executorch::runtime::etensor::DeviceIndex;
using TensorShapeDynamism = ::executorch::runtime::TensorShapeDynamism;
using SizesType = int32_t;
using DimOrderType = uint8_t;
using StridesType = int32_t;
template <typename T>
using ArrayRef = ::executorch::runtime::ArrayRef<T>;
using IntArrayRef = ArrayRef<int64_t>;
using TensorList = ArrayRef<Tensor>;
template <typename T>
using optional = std::optional<T>;
using nullopt_t = std::nullopt_t;
using std::nullopt;
template <typename T>
using OptionalArrayRef = std::optional<ArrayRef<T>>;
using OptionalIntArrayRef = OptionalArrayRef<int64_t>;
using ::executorch::runtime::etensor::compute_numel;
using string_view = std::string_view;

// Only contiguous (and channels-last through dim order) layouts exist here.
enum class MemoryFormat : int8_t { Contiguous = 0, Preserve = 1, ChannelsLast = 2 };
enum class Layout : int8_t { Strided = 0 };

} // namespace aten
} // namespace executorch

namespace exec_aten = ::executorch::aten;

namespace torch {
namespace executor {
using ::executorch::aten::BFloat16;
using ::executorch::aten::Half;
using ::executorch::aten::Scalar;
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;
using TensorList = ::executorch::aten::TensorList;
} // namespace executor
} // namespace torch
