// The C ABI this backend exports to AOTInductor models compiled with
// link_libtorch=False: every aoti_torch_* entry point, declared once. Every
// shim source file and every test that calls the shim includes this header,
// so a definition or a call that drifts from it fails to compile instead of
// being silent undefined behaviour across extern "C".
//
// Conventions (those of PyTorch's C shim): 0 = success, 1 = failure; a
// returned tensor is a new handle owned by the caller (delete it with
// aoti_torch_delete_tensor_object); an optional tensor argument is a
// pointer to a handle (NULL = none); bools are int32; int lists are a
// pointer and a length; dtype and device codes are c10's (aoti/dtype.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "aoti/shim_symbols.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {
struct TensorObj;
} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch

// Opaque to models and tests; the shim's tensor object (aoti/shim_internal.h).
typedef executorch::backends::cuda::aoti::TensorObj* AtenTensorHandle;
typedef int32_t AOTITorchError;

// Exported with default visibility, as aoti_et_sh_* (shim_symbols.h): a
// model opened RTLD_LOCAL, its references renamed (private_shim.h), resolves
// them from the global scope.
#define AOTI_SHIM_API __attribute__((visibility("default")))

extern "C" {

// ---- constants (called from a model's static initializers) -----------------
AOTI_SHIM_API int32_t aoti_torch_dtype_uint8();
AOTI_SHIM_API int32_t aoti_torch_dtype_int8();
AOTI_SHIM_API int32_t aoti_torch_dtype_int16();
AOTI_SHIM_API int32_t aoti_torch_dtype_int32();
AOTI_SHIM_API int32_t aoti_torch_dtype_int64();
AOTI_SHIM_API int32_t aoti_torch_dtype_float16();
AOTI_SHIM_API int32_t aoti_torch_dtype_float32();
AOTI_SHIM_API int32_t aoti_torch_dtype_float64();
AOTI_SHIM_API int32_t aoti_torch_dtype_bool();
AOTI_SHIM_API int32_t aoti_torch_dtype_bfloat16();
AOTI_SHIM_API int32_t aoti_torch_dtype_float8_e5m2();
AOTI_SHIM_API int32_t aoti_torch_dtype_float8_e4m3fn();
AOTI_SHIM_API int32_t aoti_torch_dtype_uint16();
AOTI_SHIM_API int32_t aoti_torch_dtype_uint32();
AOTI_SHIM_API int32_t aoti_torch_dtype_uint64();
AOTI_SHIM_API int32_t aoti_torch_device_type_cpu();
AOTI_SHIM_API int32_t aoti_torch_device_type_cuda();
AOTI_SHIM_API int32_t aoti_torch_layout_strided();
AOTI_SHIM_API int32_t aoti_torch_memory_format_contiguous_format();
AOTI_SHIM_API size_t aoti_torch_dtype_element_size(int32_t dtype);

// ---- getters (pointers returned are valid for the handle's life) ----------
AOTI_SHIM_API AOTITorchError aoti_torch_get_data_ptr(AtenTensorHandle h, void** out);
AOTI_SHIM_API AOTITorchError aoti_torch_get_sizes(AtenTensorHandle h, int64_t** out);
AOTI_SHIM_API AOTITorchError aoti_torch_get_strides(AtenTensorHandle h, int64_t** out);
AOTI_SHIM_API AOTITorchError aoti_torch_get_size(AtenTensorHandle h, int64_t dim, int64_t* out);
AOTI_SHIM_API AOTITorchError aoti_torch_get_stride(AtenTensorHandle h, int64_t dim, int64_t* out);
AOTI_SHIM_API AOTITorchError aoti_torch_get_dim(AtenTensorHandle h, int64_t* out);
AOTI_SHIM_API AOTITorchError aoti_torch_get_numel(AtenTensorHandle h, int64_t* out);
// In elements.
AOTI_SHIM_API AOTITorchError aoti_torch_get_storage_offset(AtenTensorHandle h, int64_t* out);
// In bytes.
AOTI_SHIM_API AOTITorchError aoti_torch_get_storage_size(AtenTensorHandle h, int64_t* out);
AOTI_SHIM_API AOTITorchError aoti_torch_get_dtype(AtenTensorHandle h, int32_t* out);
AOTI_SHIM_API AOTITorchError aoti_torch_get_device_type(AtenTensorHandle h, int32_t* out);
AOTI_SHIM_API AOTITorchError aoti_torch_get_device_index(AtenTensorHandle h, int32_t* out);
AOTI_SHIM_API AOTITorchError aoti_torch_get_layout(AtenTensorHandle h, int32_t* out);

// ---- creation and lifetime ---------------------------------------------------
// strides may be NULL (contiguous). Device memory is stream-ordered on the
// calling thread's current stream.
AOTI_SHIM_API AOTITorchError aoti_torch_empty_strided(int64_t ndim, const int64_t* sizes,
                                                      const int64_t* strides, int32_t dtype,
                                                      int32_t device_type, int32_t device_index,
                                                      AtenTensorHandle* out);
// A view of caller memory; the shim never frees it.
AOTI_SHIM_API AOTITorchError aoti_torch_create_tensor_from_blob(
    void* data, int64_t ndim, const int64_t* sizes, const int64_t* strides, int64_t storage_offset,
    int32_t dtype, int32_t device_type, int32_t device_index, AtenTensorHandle* out);
AOTI_SHIM_API AOTITorchError aoti_torch_create_tensor_from_blob_v2(
    void* data, int64_t ndim, const int64_t* sizes, const int64_t* strides, int64_t storage_offset,
    int32_t dtype, int32_t device_type, int32_t device_index, AtenTensorHandle* out, int32_t layout,
    const uint8_t* opaque_metadata, int64_t opaque_metadata_size);
AOTI_SHIM_API AOTITorchError aoti_torch_delete_tensor_object(AtenTensorHandle h);
// A new handle sharing src's storage and view.
AOTI_SHIM_API AOTITorchError aoti_torch_new_tensor_handle(AtenTensorHandle src,
                                                          AtenTensorHandle* out);
AOTI_SHIM_API AOTITorchError aoti_torch_assign_tensors_out(AtenTensorHandle src,
                                                           AtenTensorHandle* out);

// ---- views and copies ----------------------------------------------------------
// offset_increment (elements) is added to self's storage offset.
AOTI_SHIM_API AOTITorchError aoti_torch__reinterpret_tensor(AtenTensorHandle self, int64_t ndim,
                                                            const int64_t* sizes,
                                                            const int64_t* strides,
                                                            int64_t offset_increment,
                                                            AtenTensorHandle* out);
AOTI_SHIM_API AOTITorchError aoti_torch_as_strided(AtenTensorHandle self, const int64_t* sizes,
                                                   const int64_t* strides, AtenTensorHandle* out);
AOTI_SHIM_API AOTITorchError aoti_torch_copy_(AtenTensorHandle self, AtenTensorHandle src,
                                              int32_t non_blocking);
AOTI_SHIM_API AOTITorchError aoti_torch_clone(AtenTensorHandle self, AtenTensorHandle* out);
AOTI_SHIM_API AOTITorchError aoti_torch_clone_preserve_strides(AtenTensorHandle self,
                                                               AtenTensorHandle* out);
AOTI_SHIM_API AOTITorchError aoti_torch_zero_(AtenTensorHandle self);

// ---- grad mode and diagnostics ---------------------------------------------------
AOTI_SHIM_API bool aoti_torch_grad_mode_is_enabled();
AOTI_SHIM_API void aoti_torch_grad_mode_set_enabled(bool enabled);
AOTI_SHIM_API void aoti_torch_warn(const char* func, const char* file, uint32_t line,
                                   const char* msg);
// Does not return when cond is false.
AOTI_SHIM_API void aoti_torch_check(bool cond, const char* func, const char* file, uint32_t line,
                                    const char* msg);

// ---- device and stream guards -----------------------------------------------------
AOTI_SHIM_API AOTITorchError aoti_torch_create_cuda_guard(int32_t device_index, void** out_guard);
AOTI_SHIM_API AOTITorchError aoti_torch_delete_cuda_guard(void* guard);
AOTI_SHIM_API AOTITorchError aoti_torch_cuda_guard_set_index(void* guard, int32_t device_index);
// Makes `stream` the calling thread's current stream on the device until the
// guard is deleted.
AOTI_SHIM_API AOTITorchError aoti_torch_create_cuda_stream_guard(void* stream, int32_t device_index,
                                                                 void** out_guard);
AOTI_SHIM_API AOTITorchError aoti_torch_delete_cuda_stream_guard(void* guard);
AOTI_SHIM_API AOTITorchError aoti_torch_get_current_cuda_stream(int32_t device_index,
                                                                void** out_stream);

// ---- fallback operators (on the current stream) -----------------------------------
AOTI_SHIM_API AOTITorchError aoti_torch_cuda_mm_out(AtenTensorHandle out, AtenTensorHandle self,
                                                    AtenTensorHandle mat2);
AOTI_SHIM_API AOTITorchError aoti_torch_cuda_bmm_out(AtenTensorHandle out, AtenTensorHandle self,
                                                     AtenTensorHandle mat2);
AOTI_SHIM_API AOTITorchError aoti_torch_cuda_addmm_out(AtenTensorHandle out, AtenTensorHandle self,
                                                       AtenTensorHandle mat1, AtenTensorHandle mat2,
                                                       double beta, double alpha);
AOTI_SHIM_API AOTITorchError aoti_torch_cuda_convolution(
    AtenTensorHandle input, AtenTensorHandle weight, AtenTensorHandle* bias, const int64_t* stride,
    int64_t stride_len, const int64_t* padding, int64_t padding_len, const int64_t* dilation,
    int64_t dilation_len, int32_t transposed, const int64_t* output_padding,
    int64_t output_padding_len, int64_t groups, AtenTensorHandle* ret0);
AOTI_SHIM_API AOTITorchError aoti_torch_cuda__scaled_dot_product_flash_attention(
    AtenTensorHandle query, AtenTensorHandle key, AtenTensorHandle value, double dropout_p,
    int32_t is_causal, int32_t return_debug_mask, double* scale, AtenTensorHandle* ret0,
    AtenTensorHandle* ret1, AtenTensorHandle* ret2, AtenTensorHandle* ret3, int64_t* ret4,
    int64_t* ret5, AtenTensorHandle* ret6, AtenTensorHandle* ret7, AtenTensorHandle* ret8);
AOTI_SHIM_API AOTITorchError aoti_torch_cuda__scaled_dot_product_efficient_attention(
    AtenTensorHandle query, AtenTensorHandle key, AtenTensorHandle value,
    AtenTensorHandle* attn_bias, int32_t compute_log_sumexp, double dropout_p, int32_t is_causal,
    double* scale, AtenTensorHandle* ret0, AtenTensorHandle* ret1, AtenTensorHandle* ret2,
    AtenTensorHandle* ret3);
AOTI_SHIM_API AOTITorchError aoti_torch_cuda__scaled_dot_product_cudnn_attention(
    AtenTensorHandle query, AtenTensorHandle key, AtenTensorHandle value,
    AtenTensorHandle* attn_bias, int32_t compute_log_sumexp, double dropout_p, int32_t is_causal,
    int32_t return_debug_mask, double* scale, AtenTensorHandle* ret0, AtenTensorHandle* ret1,
    AtenTensorHandle* ret2, AtenTensorHandle* ret3, int64_t* ret4, int64_t* ret5,
    AtenTensorHandle* ret6, AtenTensorHandle* ret7, AtenTensorHandle* ret8);

} // extern "C"
