// The object behind an AtenTensorHandle and its reference-counted storage.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <cuda_runtime_api.h>

#include "aoti/dtype.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

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
// New handle sharing src's storage and view (nullptr without memory).
TensorObj* alias(const TensorObj* src);
void destroy_tensor(TensorObj* t);
// Bytes spanned by a strided layout (max offset + 1 element); contiguous
// when `strides` is null.
size_t span_bytes(int64_t ndim, const int64_t* sizes, const int64_t* strides, size_t elem);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
