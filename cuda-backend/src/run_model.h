// One run of a loaded AOTInductor model on given memory: the eager path of
// CudaBackend::execute, shared with CUDA-graph capture (graph_replay.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/span.h>

#include "aoti/model.h"

namespace executorch {
namespace backends {
namespace cuda {

// A tensor at the delegate boundary: ExecuTorch memory (host or CUDA) the
// model reads (input) or the result is copied into (output).
struct IoTensor {
  void* data = nullptr;
  size_t nbytes = 0;
  int32_t dtype = 0;
  bool on_device = false;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides; // in elements
  // The caller's tensor (null for the graph's staging buffers): an output
  // of a dynamic shape is resized to what the model produced.
  exec_aten::Tensor* tensor = nullptr;
};

// Describes args (inputs then outputs, all tensors) for the model; names the
// first bad argument in the Error's log line.
runtime::Error describe_args(const aoti::LoadedModel& model, runtime::Span<runtime::EValue*> args,
                             std::vector<IoTensor>& inputs, std::vector<IoTensor>& outputs);

// InvalidArgument, naming the tensor, when a tensor tagged CUDA is not in
// memory the device can address: pageable host memory (which a kernel
// would fault on), or page-locked memory not mapped at the same address.
// One cudaPointerGetAttributes per device tensor that is not empty.
runtime::Error check_device_tags(const aoti::LoadedModel& model,
                                 const std::vector<IoTensor>& inputs,
                                 const std::vector<IoTensor>& outputs);

// Runs the model once on `stream` (which the caller has made current):
// device inputs are viewed in place, host inputs staged through
// stream-ordered device copies; outputs are copied into `outputs`, each
// output with a tensor first resized to the shape the model produced
// (within its planned bound; `outputs` then describes the new shape). Does
// not synchronize; host outputs are valid once `stream` has reached this
// point.
runtime::Error run_model(const aoti::LoadedModel& model, const std::vector<IoTensor>& inputs,
                         std::vector<IoTensor>& outputs, cudaStream_t stream);

} // namespace cuda
} // namespace backends
} // namespace executorch
