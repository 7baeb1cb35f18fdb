// cuDNN 9, loaded on first use with dlopen("libcudnn.so.9") so that the
// backend library carries no NEEDED entry for it and still loads on hosts
// without cuDNN. cudnn.h is used for types, enums and prototypes only: every
// call goes through the function pointers below. Only built when cudnn.h was
// found at configure time.
#pragma once

#include <cudnn.h>

#include <cuda_runtime_api.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// X(name) for every cuDNN entry point the shim uses.
#define AOTI_CUDNN_FUNCTIONS(X)                       \
  X(cudnnGetVersion)                                  \
  X(cudnnGetErrorString)                              \
  X(cudnnCreate)                                      \
  X(cudnnDestroy)                                     \
  X(cudnnSetStream)                                   \
  X(cudnnCreateTensorDescriptor)                      \
  X(cudnnDestroyTensorDescriptor)                     \
  X(cudnnSetTensorNdDescriptor)                       \
  X(cudnnCreateFilterDescriptor)                      \
  X(cudnnDestroyFilterDescriptor)                     \
  X(cudnnSetFilterNdDescriptor)                       \
  X(cudnnCreateConvolutionDescriptor)                 \
  X(cudnnDestroyConvolutionDescriptor)                \
  X(cudnnSetConvolutionNdDescriptor)                  \
  X(cudnnSetConvolutionGroupCount)                    \
  X(cudnnSetConvolutionMathType)                      \
  X(cudnnGetConvolutionForwardAlgorithmMaxCount)      \
  X(cudnnGetConvolutionForwardAlgorithm_v7)           \
  X(cudnnConvolutionForward)                          \
  X(cudnnGetConvolutionBackwardDataAlgorithmMaxCount) \
  X(cudnnGetConvolutionBackwardDataAlgorithm_v7)      \
  X(cudnnConvolutionBackwardData)                     \
  X(cudnnAddTensor)                                   \
  X(cudnnTransformTensor)

struct CudnnApi {
#define AOTI_CUDNN_MEMBER(name) decltype(&::name) name = nullptr;
  AOTI_CUDNN_FUNCTIONS(AOTI_CUDNN_MEMBER)
#undef AOTI_CUDNN_MEMBER
  size_t version = 0; // cudnnGetVersion() of the loaded library
};

// The loaded API (the library is opened once, thread-safely, and never
// closed); nullptr when libcudnn.so.9 or one of its symbols is missing, with
// the reason in *why (static storage).
const CudnnApi* cudnn_api(const char** why);

// This thread's cuDNN handle for `device` (the current device on entry),
// bound to `stream`; nullptr when cudnnCreate or cudnnSetStream fails.
// Handles are destroyed when the thread exits.
cudnnHandle_t cudnn_handle(const CudnnApi& api, int32_t device, cudaStream_t stream,
                           cudnnStatus_t* status);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
