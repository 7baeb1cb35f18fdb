// The stream of "use_shared_cuda_stream" (upstream's option): one CUDA
// stream per device that every delegate initialized with the option runs
// on (unless a CallerStreamGuard names another), so a method's device
// outputs are complete, in stream order, before the next method reads them.
// It lives while a delegate holds it; the next one to ask makes a new one.
#pragma once

#include <memory>
#include <string>

#include <cuda_runtime_api.h>

#include <executorch/runtime/core/result.h>

namespace executorch {
namespace backends {
namespace cuda {

class SharedStream {
 public:
  // The live shared stream of `device`, or a new one (a blocking stream,
  // ordered with the legacy default stream as a delegate's own is).
  // `label` names the delegate in the error's log line.
  static runtime::Result<std::shared_ptr<SharedStream>> acquire(int device, const char* label);
  ~SharedStream();
  SharedStream(const SharedStream&) = delete;
  SharedStream& operator=(const SharedStream&) = delete;

  cudaStream_t get() const { return stream_; }

 private:
  SharedStream(cudaStream_t stream, int device) : stream_(stream), device_(device) {}
  cudaStream_t stream_;
  int device_;
};

// Delegates holding a shared stream now, over every device (a diagnostic).
size_t shared_stream_users();

// The lowest device's live shared stream as "0x<hex>", or "none".
std::string describe_shared_stream();

} // namespace cuda
} // namespace backends
} // namespace executorch
