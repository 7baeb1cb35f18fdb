// save_ptd: writes named tensors as a .ptd (FlatTensor) file that
// FlatTensorDataMap, Module and upstream's runtime read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace extension {
namespace flat_tensor {

// The FlatTensor.version this writer stores.
constexpr uint32_t kSchemaVersion = 0;

// Writes every tensor of tensor_map (in key order) with its dtype, sizes and
// dim order, each tensor's bytes starting at a multiple of tensor_alignment
// from the segment base (itself aligned). InvalidArgument when
// tensor_alignment is not a power of two or a tensor with bytes has no
// data; AccessFailed when the file or stream cannot be written.
EXECUTORCH_API ET_EXPERIMENTAL runtime::Error save_ptd(
    const std::string& path, const std::map<std::string, executorch::aten::Tensor>& tensor_map,
    const size_t tensor_alignment);

EXECUTORCH_API ET_EXPERIMENTAL runtime::Error save_ptd(
    std::ostream& out, const std::map<std::string, executorch::aten::Tensor>& tensor_map,
    const size_t tensor_alignment);

} // namespace flat_tensor
} // namespace extension
} // namespace executorch
