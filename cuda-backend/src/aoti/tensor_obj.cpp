#include "aoti/tensor_obj.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "aoti/device_pool.h"
#include "aoti/free_list.h"
#include "aoti/trace.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

void storage_retain(Storage* s) { s->refs.fetch_add(1, std::memory_order_relaxed); }

void storage_release(Storage* s) {
  if (s->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (s->owned && s->data != nullptr) {
    if (s->device_type == kDevCuda) {
      cudaError_t e = pool_free(s->data, s->nbytes, s->stream);
      if (e != cudaSuccess) {
        std::fprintf(stderr, "[CudaBackend shim] cudaFreeAsync failed: %s\n",
                     cudaGetErrorString(e));
      }
    } else {
      std::free(s->data);
    }
  }
  delete_storage(s);
}

namespace {
// Relaxed: counts, read only for diagnostics.
std::atomic<int64_t> g_live_storages{0}, g_live_tensor_objs{0};

template <typename T>
T* counted(T* p, std::atomic<int64_t>& n) {
  if (p != nullptr) n.fetch_add(1, std::memory_order_relaxed);
  return p;
}
} // namespace

Storage* new_storage() { return counted(FreeList<Storage>::make(), g_live_storages); }
void delete_storage(Storage* s) {
  if (s == nullptr) return;
  g_live_storages.fetch_sub(1, std::memory_order_relaxed);
  FreeList<Storage>::drop(s);
}
TensorObj* new_tensor_obj() { return counted(FreeList<TensorObj>::make(), g_live_tensor_objs); }
TensorObj* copy_tensor_obj(const TensorObj& src) {
  return counted(FreeList<TensorObj>::make(src), g_live_tensor_objs);
}
void delete_tensor_obj(TensorObj* t) {
  if (t == nullptr) return;
  g_live_tensor_objs.fetch_sub(1, std::memory_order_relaxed);
  FreeList<TensorObj>::drop(t);
}
int64_t live_tensor_objs() { return g_live_tensor_objs.load(std::memory_order_relaxed); }
int64_t live_storages() { return g_live_storages.load(std::memory_order_relaxed); }

bool TensorObj::is_contiguous() const {
  int64_t expect = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] != 1 && strides[i] != expect) return false;
    expect *= sizes[i];
  }
  return true;
}

// ndim is at most Dims::kMaxRank (checked by make_view).
static void fill_shape(TensorObj* t, int64_t ndim, const int64_t* sizes, const int64_t* strides) {
  t->sizes.assign(sizes, sizes + ndim);
  if (strides != nullptr) {
    t->strides.assign(strides, strides + ndim);
  } else {
    t->strides.assign(static_cast<size_t>(ndim), 1);
    int64_t s = 1;
    for (int64_t i = ndim; i-- > 0;) {
      t->strides[static_cast<size_t>(i)] = s;
      s *= sizes[i];
    }
  }
}

// Bytes spanned by a strided layout (max offset + 1 element).
size_t span_bytes(int64_t ndim, const int64_t* sizes, const int64_t* strides, size_t elem) {
  int64_t last = 0;
  for (int64_t i = 0; i < ndim; ++i) {
    if (sizes[i] == 0) return 0;
    last += (sizes[i] - 1) * (strides ? strides[i] : 1);
  }
  if (strides == nullptr) {
    int64_t n = 1;
    for (int64_t i = 0; i < ndim; ++i) n *= sizes[i];
    return static_cast<size_t>(n) * elem;
  }
  return static_cast<size_t>(last + 1) * elem;
}

TensorObj* make_view(void* data, size_t nbytes, int64_t ndim, const int64_t* sizes,
                     const int64_t* strides, int32_t dtype, int32_t device_type,
                     int32_t device_index) {
  if (ndim < 0 || static_cast<size_t>(ndim) > Dims::kMaxRank) {
    std::fprintf(stderr, "[CudaBackend shim] a tensor of %lld dims (at most %zu)\n",
                 static_cast<long long>(ndim), Dims::kMaxRank);
    return nullptr;
  }
  Storage* s = new_storage();
  TensorObj* t = new_tensor_obj();
  if (s == nullptr || t == nullptr) {
    delete_storage(s);
    delete_tensor_obj(t);
    return nullptr;
  }
  s->data = data;
  s->nbytes = nbytes;
  s->owned = false;
  s->device_type = device_type;
  s->device_index = device_index;
  t->storage = s;
  trace_live_add(t);
  t->dtype = dtype;
  t->device_type = device_type;
  t->device_index = device_index;
  fill_shape(t, ndim, sizes, strides);
  return t;
}

TensorObj* make_owned_device(size_t nbytes, int64_t ndim, const int64_t* sizes,
                             const int64_t* strides, int32_t dtype, int32_t device_index,
                             cudaStream_t stream) {
  void* p = nullptr;
  if (nbytes > 0) {
    cudaError_t e = pool_alloc(&p, nbytes, device_index, stream);
    if (e != cudaSuccess) {
      std::fprintf(stderr, "[CudaBackend shim] cudaMallocFromPoolAsync(%zu bytes) failed: %s\n",
                   nbytes, cudaGetErrorString(e));
      return nullptr;
    }
  }
  TensorObj* t = make_view(p, nbytes, ndim, sizes, strides, dtype, kDevCuda, device_index);
  if (t == nullptr) {
    pool_free(p, nbytes, stream);
    return nullptr;
  }
  t->storage->owned = true;
  t->storage->stream = stream;
  return t;
}

void destroy_tensor(TensorObj* t) {
  if (t == nullptr) return;
  trace_live_remove(t);
  storage_release(t->storage);
  delete_tensor_obj(t);
}

namespace {
thread_local std::vector<TensorObj*>* tl_blob_recorder = nullptr;
} // namespace

ScopedBlobRecorder::ScopedBlobRecorder(std::vector<TensorObj*>* out) : prev_(tl_blob_recorder) {
  tl_blob_recorder = out;
}
ScopedBlobRecorder::~ScopedBlobRecorder() { tl_blob_recorder = prev_; }

void record_blob_handle(TensorObj* t) {
  if (tl_blob_recorder != nullptr) tl_blob_recorder->push_back(t);
}

TensorObj* alias(const TensorObj* src) {
  TensorObj* t = copy_tensor_obj(*src);
  if (t == nullptr) return nullptr;
  storage_retain(t->storage);
  trace_live_add(t);
  return t;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
