// The AOTInductor C shim: tensor creation and lifetime, views, copies.
#include "shim_abi.h"
#include "output_placement.h"

#include <cstdlib>
#include <cstring>

using executorch::backends::cuda::aoti::TensorObj;
using executorch::backends::cuda::aoti::Storage;
namespace shim = executorch::backends::cuda::aoti;

// ---- creation and lifetime -------------------------------------------------
AOTI_SHIM AOTITorchError aoti_torch_empty_strided(int64_t ndim, const int64_t* sizes,
                                                  const int64_t* strides, int32_t dtype,
                                                  int32_t dev_type, int32_t dev_idx,
                                                  AtenTensorHandle* out) {
  size_t es = shim::dtype_size(dtype);
  if (es == 0 || out == nullptr || ndim < 0) {
    log_err(__func__, "bad dtype or arguments");
    return kFail;
  }
  size_t nbytes = shim::span_bytes(ndim, sizes, strides, es);
  if (dev_type == shim::kDevCuda) {
    // An output's allocation may go straight to the caller's buffer.
    uint32_t seq;
    *out = shim::ScopedPlacement::take(nbytes, ndim, sizes, strides, dtype, dev_idx, &seq);
    if (*out == nullptr) {
      *out = shim::make_owned_device(nbytes, ndim, sizes, strides, dtype, dev_idx,
                                     shim::current_stream(dev_idx));
      shim::ScopedPlacement::tag(*out, seq);
    }
    AOTI_TRACE("empty_strided ndim=%lld dt=%d dev=%d:%d strides=%s seq=%u -> %s", (long long)ndim,
               dtype, dev_type, dev_idx, strides ? "given" : "null", seq,
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
  log_err(__func__, "unsupported device type");
  return kFail;
}

AOTI_SHIM AOTITorchError aoti_torch_create_tensor_from_blob(
    void* data, int64_t ndim, const int64_t* sizes, const int64_t* strides, int64_t storage_offset,
    int32_t dtype, int32_t dev_type, int32_t dev_idx, AtenTensorHandle* out) {
  size_t es = shim::dtype_size(dtype);
  if (es == 0 || out == nullptr || ndim < 0) {
    log_err(__func__, "bad dtype or arguments");
    return kFail;
  }
  size_t nbytes =
      shim::span_bytes(ndim, sizes, strides, es) + static_cast<size_t>(storage_offset) * es;
  *out = shim::make_view(data, nbytes, ndim, sizes, strides, dtype, dev_type, dev_idx);
  if (*out == nullptr) return kFail;
  (*out)->offset = storage_offset;
  shim::record_blob_handle(*out);
  AOTI_TRACE("create_tensor_from_blob data=%p off=%lld dt=%d dev=%d:%d -> %s", data,
             (long long)storage_offset, dtype, dev_type, dev_idx, shim::describe(*out).c_str());
  return kOk;
}

AOTI_SHIM AOTITorchError aoti_torch_create_tensor_from_blob_v2(
    void* data, int64_t ndim, const int64_t* sizes, const int64_t* strides, int64_t storage_offset,
    int32_t dtype, int32_t dev_type, int32_t dev_idx, AtenTensorHandle* out, int32_t layout,
    const uint8_t* /*opaque*/, int64_t opaque_size) {
  AOTI_TRACE("create_tensor_from_blob_v2 layout=%d opaque_size=%lld out_slot=%p", layout,
             (long long)opaque_size, static_cast<void*>(out));
  if (layout != 0) {
    log_err(__func__, "only the strided layout is supported");
    return kFail;
  }
  return aoti_torch_create_tensor_from_blob(data, ndim, sizes, strides, storage_offset, dtype,
                                            dev_type, dev_idx, out);
}

AOTI_SHIM AOTITorchError aoti_torch_delete_tensor_object(AtenTensorHandle h) {
  AOTI_TRACE("delete_tensor_object %s", shim::describe(h).c_str());
  shim::destroy_tensor(h);
  return kOk;
}

AOTI_SHIM AOTITorchError aoti_torch_new_tensor_handle(AtenTensorHandle src, AtenTensorHandle* out) {
  AOTI_CHECK_HANDLE(src);
  *out = shim::alias(src);
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
  AOTI_CHECK_HANDLE(self);
  if (ndim < 0 || static_cast<size_t>(ndim) > shim::Dims::kMaxRank) {
    log_err(__func__, "too many dimensions");
    return kFail;
  }
  TensorObj* t = shim::alias(self);
  if (t == nullptr) return kFail;
  t->sizes.assign(sizes, sizes + ndim);
  t->strides.assign(strides, strides + ndim);
  t->offset = self->offset + offset_increment;
  *out = t;
  AOTI_TRACE("_reinterpret_tensor self=%s ndim=%lld off+=%lld -> %s", shim::describe(self).c_str(),
             (long long)ndim, (long long)offset_increment, shim::describe(t).c_str());
  return kOk;
}

AOTI_SHIM AOTITorchError aoti_torch_as_strided(AtenTensorHandle self, const int64_t* sizes,
                                               const int64_t* strides, AtenTensorHandle* out) {
  AOTI_CHECK_HANDLE(self);
  TensorObj* t = shim::alias(self);
  if (t == nullptr) return kFail;
  size_t n = self->sizes.size();
  t->sizes.assign(sizes, sizes + n);
  t->strides.assign(strides, strides + n);
  *out = t;
  AOTI_TRACE("as_strided self=%s -> %s", shim::describe(self).c_str(), shim::describe(t).c_str());
  return kOk;
}

static cudaStream_t stream_for(const TensorObj* t) { return shim::current_stream(t->device_index); }

AOTI_SHIM AOTITorchError aoti_torch_copy_(AtenTensorHandle self, AtenTensorHandle src,
                                          int32_t non_blocking) {
  AOTI_CHECK_HANDLE(self);
  AOTI_CHECK_HANDLE(src);
  AOTI_TRACE("copy_ self=%s src=%s nb=%d", shim::describe(self).c_str(),
             shim::describe(src).c_str(), non_blocking);
  if (self->dtype != src->dtype || self->sizes != src->sizes) {
    log_err(__func__, "dtype conversion and broadcasting are not supported");
    return kFail;
  }
  cudaStream_t st = stream_for(self->device_type == shim::kDevCuda ? self : src);
  const bool on_device = self->device_type == shim::kDevCuda && src->device_type == shim::kDevCuda;
  cudaError_t e = (on_device ? shim::device_strided_copy : shim::strided_copy)(
      self->data(), self->strides.data(), src->data(), src->strides.data(), self->sizes.data(),
      static_cast<int64_t>(self->sizes.size()), self->elem_size(), st);
  if (e == cudaSuccess && !non_blocking &&
      (self->device_type == shim::kDevCpu || src->device_type == shim::kDevCpu)) {
    e = cudaStreamSynchronize(st);
  }
  if (e != cudaSuccess) {
    log_err(__func__, cudaGetErrorString(e));
    return kFail;
  }
  return kOk;
}

static AOTITorchError clone_impl(AtenTensorHandle self, bool keep_strides, AtenTensorHandle* out) {
  AOTI_CHECK_HANDLE(self);
  const int64_t nd = static_cast<int64_t>(self->sizes.size());
  AOTITorchError err = aoti_torch_empty_strided(
      nd, self->sizes.data(), keep_strides ? self->strides.data() : nullptr, self->dtype,
      self->device_type, self->device_index, out);
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
  AOTI_CHECK_HANDLE(self);
  if (!self->is_contiguous()) {
    log_err(__func__, "non-contiguous tensors are not supported");
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
