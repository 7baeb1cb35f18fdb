#include "shared_stream.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <new>

#include <executorch/runtime/platform/log.h>

#include "aoti/device_pool.h"

namespace executorch {
namespace backends {
namespace cuda {

namespace {

std::mutex& registry_mu() {
  static std::mutex mu;
  return mu;
}

// Device -> its shared stream while one is live. Never destroyed: a delegate
// may outlive static destruction.
std::map<int, std::weak_ptr<SharedStream>>& registry() {
  static auto* r = new std::map<int, std::weak_ptr<SharedStream>>;
  return *r;
}

} // namespace

runtime::Result<std::shared_ptr<SharedStream>> SharedStream::acquire(int device,
                                                                     const char* label) {
  std::lock_guard<std::mutex> lk(registry_mu());
  std::weak_ptr<SharedStream>& slot = registry()[device];
  if (std::shared_ptr<SharedStream> live = slot.lock()) return live;
  cudaStream_t stream = nullptr;
  cudaError_t ce = cudaSetDevice(device);
  if (ce == cudaSuccess) ce = cudaStreamCreate(&stream);
  if (ce != cudaSuccess) {
    (void)cudaGetLastError();
    ET_LOG(Error, "CudaBackend[%s]: creating the shared CUDA stream of device %d: %s", label,
           device, cudaGetErrorString(ce));
    return runtime::Error::DelegateMemoryAllocationFailed;
  }
  std::shared_ptr<SharedStream> made(new (std::nothrow) SharedStream(stream, device));
  if (made == nullptr) {
    cudaStreamDestroy(stream);
    ET_LOG(Error, "CudaBackend[%s]: no memory for the shared CUDA stream", label);
    return runtime::Error::MemoryAllocationFailed;
  }
  // The shim's temporaries on it are reused as on a delegate's own stream.
  aoti::pool_cache_stream(stream, device);
  slot = made;
  ET_LOG(Info, "CudaBackend[%s]: shared CUDA stream %p on device %d", label,
         static_cast<void*>(stream), device);
  return made;
}

SharedStream::~SharedStream() {
  // Blocks cached on the stream may be in use by its queued work. The
  // thread's current device is put back after.
  int previous = -1;
  const bool switched = cudaGetDevice(&previous) == cudaSuccess && previous != device_ &&
                        cudaSetDevice(device_) == cudaSuccess;
  (void)cudaStreamSynchronize(stream_);
  aoti::pool_forget_stream(stream_);
  (void)cudaStreamDestroy(stream_);
  if (switched) (void)cudaSetDevice(previous);
}

size_t shared_stream_users() {
  std::lock_guard<std::mutex> lk(registry_mu());
  size_t n = 0;
  for (const auto& entry : registry()) n += static_cast<size_t>(entry.second.use_count());
  return n;
}

std::string describe_shared_stream() {
  std::lock_guard<std::mutex> lk(registry_mu());
  for (const auto& entry : registry()) {
    if (std::shared_ptr<SharedStream> live = entry.second.lock()) {
      char text[32];
      std::snprintf(text, sizeof text, "0x%" PRIxPTR, reinterpret_cast<uintptr_t>(live->get()));
      return text;
    }
  }
  return "none";
}

} // namespace cuda
} // namespace backends
} // namespace executorch
