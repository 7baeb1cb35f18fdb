// The calling thread's "current stream" per device: what a model's stream
// guard sets and what the fallback ops and empty_strided run on. Defined
// once, in this library, so every delegate and the shim see one state.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// nullptr (the legacy default stream) until set.
cudaStream_t current_stream(int32_t device_index);
void set_current_stream(int32_t device_index, cudaStream_t stream);

// The stream's id, unique in the process (a destroyed stream's handle can
// come back for a new stream; its id does not). False when the runtime has
// none: cudaStreamGetId is CUDA 12's.
bool stream_id(cudaStream_t s, unsigned long long* id);

// RAII: make `stream` current on the device for this thread.
class ScopedCurrentStream {
 public:
  ScopedCurrentStream(int32_t dev, cudaStream_t s) : dev_(dev), prev_(current_stream(dev)) {
    set_current_stream(dev, s);
  }
  ~ScopedCurrentStream() { set_current_stream(dev_, prev_); }
  ScopedCurrentStream(const ScopedCurrentStream&) = delete;
  ScopedCurrentStream& operator=(const ScopedCurrentStream&) = delete;

 private:
  int32_t dev_;
  cudaStream_t prev_;
};

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
