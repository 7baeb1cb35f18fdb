// Internal model of the AOTInductor C shim: the tensor object behind an
// AtenTensorHandle, its reference-counted storage, and the per-thread
// "current stream". Not installed; shared by the shim and the delegate.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "aoti/dtype.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// Prefixed with the microseconds since the first traced line, so gaps
// between calls show where host time goes.
#define AOTI_TRACE(...)                                                       \
  do {                                                                         \
    if (::executorch::backends::cuda::aoti::trace_enabled()) {                 \
      std::fprintf(stderr, "[aoti-trace %12.1f us] ",                          \
                   ::executorch::backends::cuda::aoti::trace_clock_us());       \
      std::fprintf(stderr, __VA_ARGS__);                                       \
      std::fputc('\n', stderr);                                                \
    }                                                                          \
  } while (0)

// Storage: a block of memory shared by every tensor viewing it. Owned blocks
// are released when the last view goes (device memory with cudaFreeAsync on
// the stream that allocated it, so queued kernels finish first).
struct Storage {
  void* data = nullptr;
  size_t nbytes = 0;
  bool owned = false;
  int32_t device_type = kDevCuda;
  int32_t device_index = 0;
  cudaStream_t stream = nullptr;  // allocation stream (owned device blocks)
  std::atomic<int64_t> refs{1};
};

void storage_retain(Storage* s);
void storage_release(Storage* s);

// The object an AtenTensorHandle points to.
struct TensorObj {
  Storage* storage = nullptr;
  int32_t dtype = kDtF32;
  int32_t device_type = kDevCuda;
  int32_t device_index = 0;
  int64_t offset = 0;  // in elements
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;

  size_t elem_size() const { return dtype_size(dtype); }
  char* data() const {
    return static_cast<char*>(storage->data) +
           offset * static_cast<int64_t>(elem_size());
  }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
  }
  bool is_contiguous() const;
};

// New handle viewing caller memory (not freed by the shim).
TensorObj* make_view(void* data, size_t nbytes, int64_t ndim,
                     const int64_t* sizes, const int64_t* strides,
                     int32_t dtype, int32_t device_type, int32_t device_index);
// New handle owning a fresh stream-ordered device block of `nbytes`.
TensorObj* make_owned_device(size_t nbytes, int64_t ndim, const int64_t* sizes,
                             const int64_t* strides, int32_t dtype,
                             int32_t device_index, cudaStream_t stream);
void destroy_tensor(TensorObj* t);
size_t span_bytes(int64_t ndim, const int64_t* sizes, const int64_t* strides, size_t elem);

// The calling thread's current stream for a device (nullptr = legacy default).
cudaStream_t current_stream(int32_t device_index);
void set_current_stream(int32_t device_index, cudaStream_t stream);

// RAII: make `stream` current on the device for this thread.
class ScopedCurrentStream {
 public:
  ScopedCurrentStream(int32_t dev, cudaStream_t s)
      : dev_(dev), prev_(current_stream(dev)) {
    set_current_stream(dev, s);
  }
  ~ScopedCurrentStream() { set_current_stream(dev_, prev_); }
  ScopedCurrentStream(const ScopedCurrentStream&) = delete;
  ScopedCurrentStream& operator=(const ScopedCurrentStream&) = delete;

 private:
  int32_t dev_;
  cudaStream_t prev_;
};

// Copies a strided block of `sizes` elements from src to dst on `stream`
// (any of host or device memory). Returns a CUDA error code.
cudaError_t strided_copy(char* dst, const int64_t* dst_strides,
                         const char* src, const int64_t* src_strides,
                         const int64_t* sizes, int64_t ndim, size_t elem,
                         cudaStream_t stream);

// Env-gated call trace (EXECUTORCH_AOTI_TRACE=1): every shim call with its
// handles, shapes and dtypes on stderr, plus a registry of live handles so a
// freed or foreign handle is reported when it comes back.
bool trace_enabled();
double trace_clock_us();
std::string describe(const TensorObj* t);
void trace_live_add(const TensorObj* t);
void trace_live_remove(const TensorObj* t);
bool trace_is_live(const TensorObj* t);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
