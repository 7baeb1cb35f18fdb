// The object behind an AtenTensorHandle and its reference-counted storage.
// Handles are made and dropped several times per execute, so none of this
// allocates in the steady state: shapes live inline (Dims) and the objects
// come from per-thread free lists.
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

// Sizes or strides of a tensor object, inline (no heap). Models pass at most
// kMaxRank dims (ExecuTorch's own limit); more is refused where handles are
// made.
class Dims {
 public:
  static constexpr size_t kMaxRank = 16;
  Dims() = default;
  // False (and unchanged) beyond kMaxRank.
  bool assign(const int64_t* first, const int64_t* last) {
    const size_t n = static_cast<size_t>(last - first);
    if (n > kMaxRank) return false;
    for (size_t i = 0; i < n; ++i) v_[i] = first[i];
    n_ = n;
    return true;
  }
  bool assign(size_t n, int64_t value) {
    if (n > kMaxRank) return false;
    for (size_t i = 0; i < n; ++i) v_[i] = value;
    n_ = n;
    return true;
  }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  int64_t* data() { return v_; }
  const int64_t* data() const { return v_; }
  int64_t& operator[](size_t i) { return v_[i]; }
  int64_t operator[](size_t i) const { return v_[i]; }
  const int64_t* begin() const { return v_; }
  const int64_t* end() const { return v_ + n_; }
  bool operator==(const Dims& o) const { return equal(o.v_, o.n_); }
  bool operator!=(const Dims& o) const { return !(*this == o); }
  bool operator==(const std::vector<int64_t>& o) const { return equal(o.data(), o.size()); }
  bool operator!=(const std::vector<int64_t>& o) const { return !(*this == o); }

 private:
  bool equal(const int64_t* o, size_t n) const {
    if (n != n_) return false;
    for (size_t i = 0; i < n; ++i) {
      if (v_[i] != o[i]) return false;
    }
    return true;
  }
  int64_t v_[kMaxRank] = {};
  size_t n_ = 0;
};

// Storage: a block of memory shared by every tensor viewing it. Owned blocks
// are released when the last view goes (device memory with cudaFreeAsync on
// the stream that allocated it, so queued kernels finish first).
struct Storage {
  void* data = nullptr;
  size_t nbytes = 0;
  bool owned = false;
  int32_t device_type = kDevCuda;
  int32_t device_index = 0;
  cudaStream_t stream = nullptr; // allocation stream (owned device blocks)
  // Which CUDA aoti_torch_empty_strided call of the run made the block
  // (output_placement.h); UINT32_MAX when none counted it.
  uint32_t alloc_seq = UINT32_MAX;
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
  int64_t offset = 0; // in elements
  Dims sizes;
  Dims strides;

  size_t elem_size() const { return dtype_size(dtype); }
  char* data() const {
    return static_cast<char*>(storage->data) + offset * static_cast<int64_t>(elem_size());
  }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
  }
  bool is_contiguous() const;
};

// New handle viewing caller memory (not freed by the shim); nullptr beyond
// Dims::kMaxRank dims or without memory.
TensorObj* make_view(void* data, size_t nbytes, int64_t ndim, const int64_t* sizes,
                     const int64_t* strides, int32_t dtype, int32_t device_type,
                     int32_t device_index);
// New handle owning a fresh stream-ordered device block of `nbytes`.
TensorObj* make_owned_device(size_t nbytes, int64_t ndim, const int64_t* sizes,
                             const int64_t* strides, int32_t dtype, int32_t device_index,
                             cudaStream_t stream);
// New handle sharing src's storage and view (nullptr without memory).
TensorObj* alias(const TensorObj* src);
void destroy_tensor(TensorObj* t);

// Storage and TensorObj objects from this thread's free list (constructed
// as `new` would), and back to it. nullptr without memory.
Storage* new_storage();
void delete_storage(Storage* s);
TensorObj* new_tensor_obj();
TensorObj* copy_tensor_obj(const TensorObj& src);
void delete_tensor_obj(TensorObj* t);
// Tensor objects and storages made and not yet deleted, in the whole process
// (constants' handles included): steady across executes unless a handle or a
// storage leaks.
int64_t live_tensor_objs();
int64_t live_storages();
// While one is alive on a thread, every handle aoti_torch_create_tensor_
// from_blob(_v2) makes there is appended to `out`: how the handles a model
// makes for its constants while loading its weights blob are found.
class ScopedBlobRecorder {
 public:
  explicit ScopedBlobRecorder(std::vector<TensorObj*>* out);
  ~ScopedBlobRecorder();
  ScopedBlobRecorder(const ScopedBlobRecorder&) = delete;
  ScopedBlobRecorder& operator=(const ScopedBlobRecorder&) = delete;

 private:
  std::vector<TensorObj*>* prev_;
};
void record_blob_handle(TensorObj* t);

// Bytes spanned by a strided layout (max offset + 1 element); contiguous
// when `strides` is null.
size_t span_bytes(int64_t ndim, const int64_t* sizes, const int64_t* strides, size_t elem);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
