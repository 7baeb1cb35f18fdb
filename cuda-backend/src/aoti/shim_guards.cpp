// The AOTInductor C shim: grad mode, warnings and checks, device and
// stream guards (a model makes a stream guard per run: they come from a
// per-thread free list).
#include "shim_abi.h"
#include "free_list.h"

#include <cstdio>
#include <cstdlib>
#include <new>

using executorch::backends::cuda::aoti::TensorObj;
using executorch::backends::cuda::aoti::Storage;
namespace shim = executorch::backends::cuda::aoti;

// ---- grad mode, diagnostics ---------------------------------------------------
static thread_local bool tl_grad_enabled = false;
AOTI_SHIM bool aoti_torch_grad_mode_is_enabled() { return tl_grad_enabled; }
AOTI_SHIM void aoti_torch_grad_mode_set_enabled(bool enabled) {
  AOTI_TRACE("grad_mode_set_enabled %d", int(enabled));
  tl_grad_enabled = enabled;
}

AOTI_SHIM void aoti_torch_warn(const char* func, const char* file, uint32_t line, const char* msg) {
  std::fprintf(stderr, "[CudaBackend model] warning %s (%s:%u): %s\n", func ? func : "?",
               file ? file : "?", line, msg ? msg : "");
}

AOTI_SHIM void aoti_torch_check(bool cond, const char* func, const char* file, uint32_t line,
                                const char* msg) {
  if (cond) return;
  std::fprintf(stderr, "[CudaBackend model] check failed in %s (%s:%u): %s\n", func ? func : "?",
               file ? file : "?", line, msg ? msg : "");
  std::abort();
}

// ---- device and stream guards -------------------------------------------------
namespace {
struct DeviceGuard {
  int prev = 0;
};
struct StreamGuard {
  int32_t dev = 0;
  cudaStream_t prev_stream = nullptr;
  int prev_dev = 0;
};
} // namespace

AOTI_SHIM AOTITorchError aoti_torch_create_cuda_guard(int32_t dev, void** out) {
  auto* g = shim::FreeList<DeviceGuard>::make();
  if (g == nullptr) return kFail;
  cudaGetDevice(&g->prev);
  if (cudaSetDevice(dev) != cudaSuccess) {
    shim::FreeList<DeviceGuard>::drop(g);
    log_err(__func__, "cudaSetDevice failed");
    return kFail;
  }
  *out = g;
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_delete_cuda_guard(void* g) {
  auto* d = static_cast<DeviceGuard*>(g);
  if (d == nullptr) return kOk;
  cudaSetDevice(d->prev);
  shim::FreeList<DeviceGuard>::drop(d);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_cuda_guard_set_index(void* /*g*/, int32_t dev) {
  return cudaSetDevice(dev) == cudaSuccess ? kOk : kFail;
}

AOTI_SHIM AOTITorchError aoti_torch_create_cuda_stream_guard(void* stream, int32_t dev,
                                                             void** out) {
  auto* g = shim::FreeList<StreamGuard>::make();
  if (g == nullptr) return kFail;
  g->dev = dev;
  g->prev_stream = shim::current_stream(dev);
  cudaGetDevice(&g->prev_dev);
  if (g->prev_dev != dev && cudaSetDevice(dev) != cudaSuccess) {
    shim::FreeList<StreamGuard>::drop(g);
    log_err(__func__, "cudaSetDevice failed");
    return kFail;
  }
  shim::set_current_stream(dev, static_cast<cudaStream_t>(stream));
  *out = g;
  AOTI_TRACE("create_cuda_stream_guard stream=%p dev=%d -> %p", stream, dev, *out);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_delete_cuda_stream_guard(void* guard) {
  auto* g = static_cast<StreamGuard*>(guard);
  AOTI_TRACE("delete_cuda_stream_guard %p", guard);
  if (g == nullptr) return kOk;
  shim::set_current_stream(g->dev, g->prev_stream);
  if (g->prev_dev != g->dev) cudaSetDevice(g->prev_dev);
  shim::FreeList<StreamGuard>::drop(g);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_current_cuda_stream(int32_t dev, void** out) {
  *out = shim::current_stream(dev);
  return kOk;
}
