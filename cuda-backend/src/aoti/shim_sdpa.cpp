// The AOTInductor C shim, fused-attention fallbacks. Placeholder until the
// math implementation lands: fails with a clear error.
#include "shim_internal.h"

#include <cstdio>

#define AOTI_SHIM extern "C" __attribute__((visibility("default")))

typedef int32_t AOTITorchError;

static AOTITorchError unsupported(const char* fn) {
  std::fprintf(stderr, "[CudaBackend shim] %s: fused SDPA is not implemented\n", fn);
  return 1;
}
AOTI_SHIM AOTITorchError aoti_torch_cuda__scaled_dot_product_flash_attention(...) {
  return unsupported(__func__);
}
AOTI_SHIM AOTITorchError aoti_torch_cuda__scaled_dot_product_efficient_attention(...) {
  return unsupported(__func__);
}
AOTI_SHIM AOTITorchError aoti_torch_cuda__scaled_dot_product_cudnn_attention(...) {
  return unsupported(__func__);
}
