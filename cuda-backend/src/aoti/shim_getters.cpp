// The AOTInductor C shim: the dtype/device/layout constants (called from a
// model's static initializers at dlopen) and the tensor getters.
#include "shim_abi.h"

using executorch::backends::cuda::aoti::TensorObj;
using executorch::backends::cuda::aoti::Storage;
namespace shim = executorch::backends::cuda::aoti;

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
AOTI_SHIM size_t aoti_torch_dtype_element_size(int32_t dtype) { return shim::dtype_size(dtype); }

// ---- getters ----------------------------------------------------------------
AOTI_SHIM AOTITorchError aoti_torch_get_data_ptr(AtenTensorHandle h, void** out) {
  AOTI_CHECK_HANDLE(h);
  *out = h->data();
  AOTI_TRACE("get_data_ptr %s -> %p", shim::describe(h).c_str(), *out);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_sizes(AtenTensorHandle h, int64_t** out) {
  AOTI_CHECK_HANDLE(h);
  *out = h->sizes.data();
  AOTI_TRACE("get_sizes %s", shim::describe(h).c_str());
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_strides(AtenTensorHandle h, int64_t** out) {
  AOTI_CHECK_HANDLE(h);
  *out = h->strides.data();
  AOTI_TRACE("get_strides %s", shim::describe(h).c_str());
  return kOk;
}
static int64_t wrap_dim(const TensorObj* h, int64_t d) {
  int64_t n = static_cast<int64_t>(h->sizes.size());
  return d < 0 ? d + n : d;
}
AOTI_SHIM AOTITorchError aoti_torch_get_size(AtenTensorHandle h, int64_t d, int64_t* out) {
  AOTI_CHECK_HANDLE(h);
  d = wrap_dim(h, d);
  if (d < 0 || d >= static_cast<int64_t>(h->sizes.size())) return kFail;
  *out = h->sizes[static_cast<size_t>(d)];
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_stride(AtenTensorHandle h, int64_t d, int64_t* out) {
  AOTI_CHECK_HANDLE(h);
  d = wrap_dim(h, d);
  if (d < 0 || d >= static_cast<int64_t>(h->strides.size())) return kFail;
  *out = h->strides[static_cast<size_t>(d)];
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_dim(AtenTensorHandle h, int64_t* out) {
  AOTI_CHECK_HANDLE(h);
  *out = static_cast<int64_t>(h->sizes.size());
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_numel(AtenTensorHandle h, int64_t* out) {
  AOTI_CHECK_HANDLE(h);
  *out = h->numel();
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_storage_offset(AtenTensorHandle h, int64_t* out) {
  AOTI_CHECK_HANDLE(h);
  *out = h->offset;
  AOTI_TRACE("get_storage_offset %s -> %lld", shim::describe(h).c_str(), (long long)*out);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_storage_size(AtenTensorHandle h, int64_t* out) {
  AOTI_CHECK_HANDLE(h);
  *out = static_cast<int64_t>(h->storage->nbytes);
  AOTI_TRACE("get_storage_size %s -> %lld", shim::describe(h).c_str(), (long long)*out);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_dtype(AtenTensorHandle h, int32_t* out) {
  AOTI_CHECK_HANDLE(h);
  *out = h->dtype;
  AOTI_TRACE("get_dtype %s -> %d", shim::describe(h).c_str(), *out);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_device_type(AtenTensorHandle h, int32_t* out) {
  AOTI_CHECK_HANDLE(h);
  *out = h->device_type;
  AOTI_TRACE("get_device_type %s -> %d", shim::describe(h).c_str(), *out);
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_device_index(AtenTensorHandle h, int32_t* out) {
  AOTI_CHECK_HANDLE(h);
  *out = h->device_index;
  return kOk;
}
AOTI_SHIM AOTITorchError aoti_torch_get_layout(AtenTensorHandle h, int32_t* out) {
  AOTI_CHECK_HANDLE(h);
  *out = 0;
  return kOk;
}
