// The AOTInductor C shim, convolution fallback (aoti_torch_cuda_convolution).
// Placeholder until the cuDNN implementation lands: fails with a clear error.
#include "shim_internal.h"

#include <cstdio>

#define AOTI_SHIM extern "C" __attribute__((visibility("default")))

typedef int32_t AOTITorchError;

AOTI_SHIM AOTITorchError aoti_torch_cuda_convolution(...) {
  std::fprintf(stderr, "[CudaBackend shim] %s: convolution fallback is not implemented\n",
               __func__);
  return 1;
}
