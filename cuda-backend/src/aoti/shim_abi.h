// The C ABI every shim source file exports to AOTInductor models: the
// handle and error types, the export macro, and the one-line error report.
#pragma once

#include <cstdint>
#include <cstdio>

#include "shim_internal.h"

// extern "C", default visibility: a model opened RTLD_LOCAL resolves these.
#define AOTI_SHIM extern "C" __attribute__((visibility("default")))

typedef executorch::backends::cuda::aoti::TensorObj* AtenTensorHandle;
typedef int32_t AOTITorchError;
static constexpr AOTITorchError kOk = 0;
static constexpr AOTITorchError kFail = 1;

// One stderr line naming the shim function and the problem.
static inline void log_err(const char* fn, const char* msg) {
  std::fprintf(stderr, "[CudaBackend shim] %s: %s\n", fn, msg);
}
