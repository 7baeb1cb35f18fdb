// The AOTInductor C shim, tensor half: constants, getters, creation,
// views, copies, grad mode, warnings, device and stream guards.
// Every aoti_torch_* symbol is extern "C" with default visibility: the model
// .so (opened RTLD_LOCAL) resolves them from the global scope.
#include "shim_abi.h"
#include "device_pool.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <unordered_set>

using executorch::backends::cuda::aoti::TensorObj;
using executorch::backends::cuda::aoti::Storage;
namespace shim = executorch::backends::cuda::aoti;

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

bool trace_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("EXECUTORCH_AOTI_TRACE");
    return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
  }();
  return on;
}

double trace_clock_us() {
  static const auto t0 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
      .count();
}

namespace {
std::mutex& live_mu() {
  static std::mutex* m = new std::mutex();
  return *m;
}
std::unordered_set<const TensorObj*>& live_set() {
  static auto* s = new std::unordered_set<const TensorObj*>();
  return *s;
}
std::string ints(const std::vector<int64_t>& v) {
  std::string r = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) r += ",";
    r += std::to_string(v[i]);
  }
  return r + "]";
}
} // namespace

void trace_live_add(const TensorObj* t) {
  if (!trace_enabled() || t == nullptr) return;
  std::lock_guard<std::mutex> lk(live_mu());
  live_set().insert(t);
}
void trace_live_remove(const TensorObj* t) {
  if (!trace_enabled() || t == nullptr) return;
  std::lock_guard<std::mutex> lk(live_mu());
  live_set().erase(t);
}
bool trace_is_live(const TensorObj* t) {
  std::lock_guard<std::mutex> lk(live_mu());
  return live_set().count(t) != 0;
}

std::string describe(const TensorObj* t) {
  if (t == nullptr) return "null";
  char buf[160];
  if (!trace_is_live(t)) {
    std::snprintf(buf, sizeof(buf), "%p(NOT-LIVE)", static_cast<const void*>(t));
    return buf;
  }
  std::snprintf(buf, sizeof(buf), "%p{st=%p base=%p nbytes=%zu own=%d refs=%lld dt=%d dev=%d off=%lld ",
                static_cast<const void*>(t), static_cast<const void*>(t->storage),
                t->storage ? t->storage->data : nullptr,
                t->storage ? t->storage->nbytes : size_t{0},
                t->storage ? int(t->storage->owned) : -1,
                t->storage ? static_cast<long long>(t->storage->refs.load()) : -1LL, t->dtype,
                t->device_type, static_cast<long long>(t->offset));
  return std::string(buf) + "sz=" + ints(t->sizes) + " str=" + ints(t->strides) + "}";
}

void storage_retain(Storage* s) { s->refs.fetch_add(1, std::memory_order_relaxed); }

void storage_release(Storage* s) {
  if (s->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (s->owned && s->data != nullptr) {
    if (s->device_type == kDevCuda) {
      cudaError_t e = pool_free(s->data, s->stream);
      if (e != cudaSuccess) {
        std::fprintf(stderr, "[CudaBackend shim] cudaFreeAsync failed: %s\n",
                     cudaGetErrorString(e));
      }
    } else {
      std::free(s->data);
    }
  }
  delete s;
}

bool TensorObj::is_contiguous() const {
  int64_t expect = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] != 1 && strides[i] != expect) return false;
    expect *= sizes[i];
  }
  return true;
}

static void fill_shape(TensorObj* t, int64_t ndim, const int64_t* sizes,
                       const int64_t* strides) {
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
size_t span_bytes(int64_t ndim, const int64_t* sizes,
                         const int64_t* strides, size_t elem) {
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

TensorObj* make_view(void* data, size_t nbytes, int64_t ndim,
                     const int64_t* sizes, const int64_t* strides,
                     int32_t dtype, int32_t device_type, int32_t device_index) {
  auto* s = new (std::nothrow) Storage();
  auto* t = new (std::nothrow) TensorObj();
  if (s == nullptr || t == nullptr) {
    delete s;
    delete t;
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
                             const int64_t* strides, int32_t dtype,
                             int32_t device_index, cudaStream_t stream) {
  void* p = nullptr;
  if (nbytes > 0) {
    cudaError_t e = pool_alloc(&p, nbytes, device_index, stream);
    if (e != cudaSuccess) {
      std::fprintf(stderr,
                   "[CudaBackend shim] cudaMallocFromPoolAsync(%zu bytes) failed: %s\n",
                   nbytes, cudaGetErrorString(e));
      return nullptr;
    }
  }
  TensorObj* t = make_view(p, nbytes, ndim, sizes, strides, dtype, kDevCuda,
                           device_index);
  if (t == nullptr) {
    pool_free(p, stream);
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
  delete t;
}

// One per-thread map, defined once in this library (cuda-delegate.md 4).
static thread_local std::unordered_map<int32_t, cudaStream_t> tl_streams;

cudaStream_t current_stream(int32_t dev) {
  auto it = tl_streams.find(dev);
  return it == tl_streams.end() ? nullptr : it->second;
}
void set_current_stream(int32_t dev, cudaStream_t s) { tl_streams[dev] = s; }

cudaError_t strided_copy(char* dst, const int64_t* ds, const char* src,
                         const int64_t* ss, const int64_t* sizes, int64_t ndim,
                         size_t elem, cudaStream_t stream) {
  for (int64_t i = 0; i < ndim; ++i) {
    if (sizes[i] == 0) return cudaSuccess;
  }
  if (ndim == 0) return cudaMemcpyAsync(dst, src, elem, cudaMemcpyDefault, stream);
  // Innermost dim: a 2D copy of `n` elements (rows of one element when the
  // strides are not 1; one contiguous row when both are).
  const int64_t last = ndim - 1;
  const int64_t n = sizes[last];
  const bool rows_contig = ds[last] == 1 && ss[last] == 1;
  // Outer index iteration.
  std::vector<int64_t> idx(static_cast<size_t>(last), 0);
  int64_t outer = 1;
  for (int64_t i = 0; i < last; ++i) outer *= sizes[i];
  // Merge the second-to-last dim into a 2D copy when rows are contiguous.
  const bool merge2 = rows_contig && last >= 1;
  const int64_t steps = merge2 ? outer / sizes[last - 1] : outer;
  const int64_t iter_dims = merge2 ? last - 1 : last;
  for (int64_t step = 0; step < steps; ++step) {
    int64_t doff = 0, soff = 0;
    for (int64_t i = 0; i < iter_dims; ++i) {
      doff += idx[static_cast<size_t>(i)] * ds[i];
      soff += idx[static_cast<size_t>(i)] * ss[i];
    }
    char* d = dst + doff * static_cast<int64_t>(elem);
    const char* s = src + soff * static_cast<int64_t>(elem);
    cudaError_t e;
    if (merge2) {
      const size_t width = static_cast<size_t>(n) * elem;
      const size_t dp = static_cast<size_t>(ds[last - 1]) * elem;
      const size_t sp = static_cast<size_t>(ss[last - 1]) * elem;
      const int64_t h = sizes[last - 1];
      if (h > 1 && dp >= width && sp >= width && ds[last - 1] > 0 && ss[last - 1] > 0) {
        e = cudaMemcpy2DAsync(d, dp, s, sp, width, static_cast<size_t>(h),
                              cudaMemcpyDefault, stream);
      } else {
        e = cudaSuccess;
        for (int64_t r = 0; r < h && e == cudaSuccess; ++r) {
          e = cudaMemcpyAsync(d + r * ds[last - 1] * static_cast<int64_t>(elem),
                              s + r * ss[last - 1] * static_cast<int64_t>(elem), width,
                              cudaMemcpyDefault, stream);
        }
      }
    } else if (rows_contig) {
      e = cudaMemcpyAsync(d, s, static_cast<size_t>(n) * elem, cudaMemcpyDefault,
                          stream);
    } else {
      e = cudaMemcpy2DAsync(d, static_cast<size_t>(ds[last]) * elem, s,
                            static_cast<size_t>(ss[last]) * elem, elem,
                            static_cast<size_t>(n), cudaMemcpyDefault, stream);
    }
    if (e != cudaSuccess) return e;
    for (int64_t i = iter_dims; i-- > 0;) {
      if (++idx[static_cast<size_t>(i)] < sizes[i]) break;
      idx[static_cast<size_t>(i)] = 0;
    }
  }
  return cudaSuccess;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch

static void shim_log(const char* what, const char* detail) {
  std::fprintf(stderr, "[CudaBackend shim] %s: %s\n", what, detail);
}

// ---- constants ------------------------------------------------------------
AOTI_SHIM int32_t aoti_torch_dtype_uint8() { return shim::kDtU8; }
AOTI_SHIM int32_t aoti_torch_dtype_int8() { return shim::kDtI8; }
AOTI_SHIM int32_t aoti_torch_dtype_int16() { return shim::kDtI16; }
AOTI_SHIM int32_t aoti_torch_dtype_int32() { return shim::kDtI32; }
AOTI_SHIM int32_t aoti_torch_dtype_int64() { return shim::kDtI64; }
AOTI_SHIM int32_t aoti_torch_dtype_float16() { return shim::kDtF16; }
AOTI_SHIM int32_t aoti_torch_dtype_float32() { return shim::kDtF32; }
AOTI_SHIM int32_t aoti_torch_dtype_float64() { return shim::kDtF64; }
AOTI_SHIM int32_t aoti_torch_dtype_bool() { return shim::kDtBool; }
AOTI_SHIM int32_t aoti_torch_dtype_bfloat16() { return shim::kDtBF16; }
AOTI_SHIM int32_t aoti_torch_dtype_float8_e5m2() { return shim::kDtF8E5M2; }
AOTI_SHIM int32_t aoti_torch_dtype_float8_e4m3fn() { return shim::kDtF8E4M3; }
AOTI_SHIM int32_t aoti_torch_dtype_uint16() { return shim::kDtU16; }
AOTI_SHIM int32_t aoti_torch_dtype_uint32() { return shim::kDtU32; }
AOTI_SHIM int32_t aoti_torch_dtype_uint64() { return shim::kDtU64; }
AOTI_SHIM int32_t aoti_torch_device_type_cpu() { return shim::kDevCpu; }
AOTI_SHIM int32_t aoti_torch_device_type_cuda() { return shim::kDevCuda; }
AOTI_SHIM int32_t aoti_torch_layout_strided() { return 0; }
AOTI_SHIM int32_t aoti_torch_memory_format_contiguous_format() { return 0; }
AOTI_SHIM size_t aoti_torch_dtype_element_size(int32_t dtype) {
  return shim::dtype_size(dtype);
}

// ---- getters ----------------------------------------------------------------
#define CHECK_H(h)                                                      \
  do {                                                                  \
    if ((h) == nullptr) {                                               \
      shim_log(__func__, "null tensor handle");                         \
      return kFail;                                                     \
    }                                                                   \
    if (shim::trace_enabled() && !shim::trace_is_live(h)) {             \
      AOTI_TRACE("%s: handle %p is NOT LIVE (freed or foreign)",        \
                 __func__, static_cast<const void*>(h));                \
    }                                                                   \
  } while (0)

AOTI_SHIM AOTITorchError aoti_torch_get_data_ptr(AtenTensorHandle h, void** out) {
  CHECK_H(h);
  *out = h->data();
  AOTI_TRACE("get_data_ptr %s -> %p", shim::describe(h).c_str(), *out);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_sizes(AtenTensorHandle h, int64_t** out) {
  CHECK_H(h);
  *out = h->sizes.data();
  AOTI_TRACE("get_sizes %s", shim::describe(h).c_str());
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_strides(AtenTensorHandle h, int64_t** out) {
  CHECK_H(h);
  *out = h->strides.data();
  AOTI_TRACE("get_strides %s", shim::describe(h).c_str());
  return kOk;
}
static int64_t wrap_dim(const TensorObj* h, int64_t d) {
  int64_t n = static_cast<int64_t>(h->sizes.size());
  return d < 0 ? d + n : d;
}
AOTI_SHIM AOTITorchError aoti_torch_get_size(AtenTensorHandle h, int64_t d, int64_t* out) {
  CHECK_H(h);
  d = wrap_dim(h, d);
  if (d < 0 || d >= static_cast<int64_t>(h->sizes.size())) return kFail;
  *out = h->sizes[static_cast<size_t>(d)];
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_stride(AtenTensorHandle h, int64_t d, int64_t* out) {
  CHECK_H(h);
  d = wrap_dim(h, d);
  if (d < 0 || d >= static_cast<int64_t>(h->strides.size())) return kFail;
  *out = h->strides[static_cast<size_t>(d)];
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_dim(AtenTensorHandle h, int64_t* out) {
  CHECK_H(h);
  *out = static_cast<int64_t>(h->sizes.size());
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_numel(AtenTensorHandle h, int64_t* out) {
  CHECK_H(h);
  *out = h->numel();
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_storage_offset(AtenTensorHandle h, int64_t* out) {
  CHECK_H(h);
  *out = h->offset;
  AOTI_TRACE("get_storage_offset %s -> %lld", shim::describe(h).c_str(), (long long)*out);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_storage_size(AtenTensorHandle h, int64_t* out) {
  CHECK_H(h);
  *out = static_cast<int64_t>(h->storage->nbytes);
  AOTI_TRACE("get_storage_size %s -> %lld", shim::describe(h).c_str(), (long long)*out);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_dtype(AtenTensorHandle h, int32_t* out) {
  CHECK_H(h);
  *out = h->dtype;
  AOTI_TRACE("get_dtype %s -> %d", shim::describe(h).c_str(), *out);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_device_type(AtenTensorHandle h, int32_t* out) {
  CHECK_H(h);
  *out = h->device_type;
  AOTI_TRACE("get_device_type %s -> %d", shim::describe(h).c_str(), *out);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_device_index(AtenTensorHandle h, int32_t* out) {
  CHECK_H(h);
  *out = h->device_index;
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_layout(AtenTensorHandle h, int32_t* out) {
  CHECK_H(h);
  *out = 0;
  return kOk;
}

// ---- creation and lifetime -------------------------------------------------
AOTI_SHIM AOTITorchError aoti_torch_empty_strided(int64_t ndim, const int64_t* sizes,
                                                  const int64_t* strides, int32_t dtype,
                                                  int32_t dev_type, int32_t dev_idx,
                                                  AtenTensorHandle* out) {
  size_t es = shim::dtype_size(dtype);
  if (es == 0 || out == nullptr || ndim < 0) {
    shim_log(__func__, "bad dtype or arguments");
    return kFail;
  }
  size_t nbytes = shim::span_bytes(ndim, sizes, strides, es);
  if (dev_type == shim::kDevCuda) {
    *out = shim::make_owned_device(nbytes, ndim, sizes, strides, dtype, dev_idx,
                                   shim::current_stream(dev_idx));
    AOTI_TRACE("empty_strided ndim=%lld dt=%d dev=%d:%d strides=%s -> %s", (long long)ndim,
               dtype, dev_type, dev_idx, strides ? "given" : "null",
               shim::describe(*out).c_str());
    return *out ? kOk : kFail;
  }
  if (dev_type == shim::kDevCpu) {
    void* p = nbytes ? std::malloc(nbytes) : nullptr;
    if (nbytes && p == nullptr) return kFail;
    *out = shim::make_view(p, nbytes, ndim, sizes, strides, dtype, shim::kDevCpu, 0);
    if (*out == nullptr) {
      std::free(p);
      return kFail;
    }
    (*out)->storage->owned = true;
    AOTI_TRACE("empty_strided(cpu) -> %s", shim::describe(*out).c_str());
    return kOk;
  }
  shim_log(__func__, "unsupported device type");
  return kFail;
}

AOTI_SHIM AOTITorchError aoti_torch_create_tensor_from_blob(
    void* data, int64_t ndim, const int64_t* sizes, const int64_t* strides,
    int64_t storage_offset, int32_t dtype, int32_t dev_type, int32_t dev_idx,
    AtenTensorHandle* out) {
  size_t es = shim::dtype_size(dtype);
  if (es == 0 || out == nullptr || ndim < 0) {
    shim_log(__func__, "bad dtype or arguments");
    return kFail;
  }
  size_t nbytes = shim::span_bytes(ndim, sizes, strides, es) +
                  static_cast<size_t>(storage_offset) * es;
  *out = shim::make_view(data, nbytes, ndim, sizes, strides, dtype, dev_type, dev_idx);
  if (*out == nullptr) return kFail;
  (*out)->offset = storage_offset;
  AOTI_TRACE("create_tensor_from_blob data=%p off=%lld dt=%d dev=%d:%d -> %s", data,
             (long long)storage_offset, dtype, dev_type, dev_idx,
             shim::describe(*out).c_str());
  return kOk;
}

AOTI_SHIM AOTITorchError aoti_torch_create_tensor_from_blob_v2(
    void* data, int64_t ndim, const int64_t* sizes, const int64_t* strides,
    int64_t storage_offset, int32_t dtype, int32_t dev_type, int32_t dev_idx,
    AtenTensorHandle* out, int32_t layout, const uint8_t* /*opaque*/,
    int64_t opaque_size) {
  AOTI_TRACE("create_tensor_from_blob_v2 layout=%d opaque_size=%lld out_slot=%p", layout,
             (long long)opaque_size, static_cast<void*>(out));
  if (layout != 0) {
    shim_log(__func__, "only the strided layout is supported");
    return kFail;
  }
  return aoti_torch_create_tensor_from_blob(data, ndim, sizes, strides, storage_offset,
                                            dtype, dev_type, dev_idx, out);
}

AOTI_SHIM AOTITorchError aoti_torch_delete_tensor_object(AtenTensorHandle h) {
  AOTI_TRACE("delete_tensor_object %s", shim::describe(h).c_str());
  shim::destroy_tensor(h);
  return kOk;
}

static TensorObj* alias(const TensorObj* src) {
  auto* t = new (std::nothrow) TensorObj(*src);
  if (t == nullptr) return nullptr;
  shim::storage_retain(t->storage);
  shim::trace_live_add(t);
  return t;
}

AOTI_SHIM AOTITorchError aoti_torch_new_tensor_handle(AtenTensorHandle src,
                                                      AtenTensorHandle* out) {
  CHECK_H(src);
  *out = alias(src);
  AOTI_TRACE("new_tensor_handle %s -> %s", shim::describe(src).c_str(),
             shim::describe(*out).c_str());
  return *out ? kOk : kFail;
}
AOTI_SHIM AOTITorchError aoti_torch_assign_tensors_out(AtenTensorHandle src,
                                                       AtenTensorHandle* out) {
  return aoti_torch_new_tensor_handle(src, out);
}

AOTI_SHIM AOTITorchError aoti_torch__reinterpret_tensor(AtenTensorHandle self, int64_t ndim,
                                                        const int64_t* sizes,
                                                        const int64_t* strides,
                                                        int64_t offset_increment,
                                                        AtenTensorHandle* out) {
  CHECK_H(self);
  TensorObj* t = alias(self);
  if (t == nullptr) return kFail;
  t->sizes.assign(sizes, sizes + ndim);
  t->strides.assign(strides, strides + ndim);
  t->offset = self->offset + offset_increment;
  *out = t;
  AOTI_TRACE("_reinterpret_tensor self=%s ndim=%lld off+=%lld -> %s",
             shim::describe(self).c_str(), (long long)ndim, (long long)offset_increment,
             shim::describe(t).c_str());
  return kOk;
}

AOTI_SHIM AOTITorchError aoti_torch_as_strided(AtenTensorHandle self, const int64_t* sizes,
                                               const int64_t* strides, AtenTensorHandle* out) {
  CHECK_H(self);
  TensorObj* t = alias(self);
  if (t == nullptr) return kFail;
  size_t n = self->sizes.size();
  t->sizes.assign(sizes, sizes + n);
  t->strides.assign(strides, strides + n);
  *out = t;
  AOTI_TRACE("as_strided self=%s -> %s", shim::describe(self).c_str(),
             shim::describe(t).c_str());
  return kOk;
}

static cudaStream_t stream_for(const TensorObj* t) {
  return shim::current_stream(t->device_index);
}

AOTI_SHIM AOTITorchError aoti_torch_copy_(AtenTensorHandle self, AtenTensorHandle src,
                                          int32_t non_blocking) {
  CHECK_H(self);
  CHECK_H(src);
  AOTI_TRACE("copy_ self=%s src=%s nb=%d", shim::describe(self).c_str(),
             shim::describe(src).c_str(), non_blocking);
  if (self->dtype != src->dtype || self->sizes != src->sizes) {
    shim_log(__func__, "dtype conversion and broadcasting are not supported");
    return kFail;
  }
  cudaStream_t st = stream_for(self->device_type == shim::kDevCuda ? self : src);
  cudaError_t e = shim::strided_copy(self->data(), self->strides.data(), src->data(),
                                     src->strides.data(), self->sizes.data(),
                                     static_cast<int64_t>(self->sizes.size()),
                                     self->elem_size(), st);
  if (e == cudaSuccess && !non_blocking &&
      (self->device_type == shim::kDevCpu || src->device_type == shim::kDevCpu)) {
    e = cudaStreamSynchronize(st);
  }
  if (e != cudaSuccess) {
    shim_log(__func__, cudaGetErrorString(e));
    return kFail;
  }
  return kOk;
}

static AOTITorchError clone_impl(AtenTensorHandle self, bool keep_strides,
                                 AtenTensorHandle* out) {
  CHECK_H(self);
  const int64_t nd = static_cast<int64_t>(self->sizes.size());
  AOTITorchError err = aoti_torch_empty_strided(
      nd, self->sizes.data(), keep_strides ? self->strides.data() : nullptr,
      self->dtype, self->device_type, self->device_index, out);
  if (err != kOk) return err;
  err = aoti_torch_copy_(*out, self, 0);
  if (err != kOk) {
    shim::destroy_tensor(*out);
    *out = nullptr;
  }
  AOTI_TRACE("clone%s %s -> %s", keep_strides ? "_preserve_strides" : "",
             shim::describe(self).c_str(), shim::describe(*out).c_str());
  return err;
}
AOTI_SHIM AOTITorchError aoti_torch_clone(AtenTensorHandle self, AtenTensorHandle* out) {
  return clone_impl(self, false, out);
}
AOTI_SHIM AOTITorchError aoti_torch_clone_preserve_strides(AtenTensorHandle self,
                                                           AtenTensorHandle* out) {
  return clone_impl(self, true, out);
}

AOTI_SHIM AOTITorchError aoti_torch_zero_(AtenTensorHandle self) {
  CHECK_H(self);
  if (!self->is_contiguous()) {
    shim_log(__func__, "non-contiguous tensors are not supported");
    return kFail;
  }
  size_t n = static_cast<size_t>(self->numel()) * self->elem_size();
  if (self->device_type == shim::kDevCpu) {
    std::memset(self->data(), 0, n);
    return kOk;
  }
  cudaError_t e = cudaMemsetAsync(self->data(), 0, n, stream_for(self));
  return e == cudaSuccess ? kOk : kFail;
}

// ---- grad mode, diagnostics ---------------------------------------------------
static thread_local bool tl_grad_enabled = false;
AOTI_SHIM bool aoti_torch_grad_mode_is_enabled() { return tl_grad_enabled; }
AOTI_SHIM void aoti_torch_grad_mode_set_enabled(bool enabled) {
  AOTI_TRACE("grad_mode_set_enabled %d", int(enabled));
  tl_grad_enabled = enabled;
}

AOTI_SHIM void aoti_torch_warn(const char* func, const char* file, uint32_t line,
                               const char* msg) {
  std::fprintf(stderr, "[CudaBackend model] warning %s (%s:%u): %s\n",
               func ? func : "?", file ? file : "?", line, msg ? msg : "");
}

AOTI_SHIM void aoti_torch_check(bool cond, const char* func, const char* file,
                                uint32_t line, const char* msg) {
  if (cond) return;
  std::fprintf(stderr, "[CudaBackend model] check failed in %s (%s:%u): %s\n",
               func ? func : "?", file ? file : "?", line, msg ? msg : "");
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
  auto* g = new (std::nothrow) DeviceGuard();
  if (g == nullptr) return kFail;
  cudaGetDevice(&g->prev);
  if (cudaSetDevice(dev) != cudaSuccess) {
    delete g;
    shim_log(__func__, "cudaSetDevice failed");
    return kFail;
  }
  *out = g;
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_delete_cuda_guard(void* g) {
  auto* d = static_cast<DeviceGuard*>(g);
  if (d == nullptr) return kOk;
  cudaSetDevice(d->prev);
  delete d;
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_cuda_guard_set_index(void* /*g*/, int32_t dev) {
  return cudaSetDevice(dev) == cudaSuccess ? kOk : kFail;
}

AOTI_SHIM AOTITorchError aoti_torch_create_cuda_stream_guard(void* stream, int32_t dev,
                                                             void** out) {
  auto* g = new (std::nothrow) StreamGuard();
  if (g == nullptr) return kFail;
  g->dev = dev;
  g->prev_stream = shim::current_stream(dev);
  cudaGetDevice(&g->prev_dev);
  if (g->prev_dev != dev && cudaSetDevice(dev) != cudaSuccess) {
    delete g;
    shim_log(__func__, "cudaSetDevice failed");
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
  delete g;
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_current_cuda_stream(int32_t dev, void** out) {
  *out = shim::current_stream(dev);
  return kOk;
}
