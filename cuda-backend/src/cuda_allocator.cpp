#include "cuda_allocator.h"

#include <cuda_runtime_api.h>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace {

using runtime::Error;

// cudaMalloc/cudaFree and synchronous cudaMemcpy.
class CudaDeviceAllocator final : public runtime::DeviceAllocator {
 public:
  runtime::etensor::DeviceType device_type() const override {
    return runtime::etensor::DeviceType::CUDA;
  }
  // cudaMalloc returns 256-byte aligned memory; a stricter alignment is refused.
  runtime::Result<void*> allocate(size_t nbytes, runtime::etensor::DeviceIndex index,
                                  size_t alignment) override {
    ET_CHECK_OR_RETURN_ERROR(
        alignment != 0 && (alignment & (alignment - 1)) == 0 && alignment <= 256, InvalidArgument,
        "CUDA allocator: alignment %zu not supported", alignment);
    ET_CHECK_OK_OR_RETURN_ERROR(use_device(index));
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, nbytes == 0 ? 1 : nbytes);
    if (e != cudaSuccess) {
      ET_LOG(Error, "CUDA allocator: cudaMalloc(%zu) on cuda:%d: %s", nbytes, int(index),
             cudaGetErrorString(e));
      return e == cudaErrorMemoryAllocation ? Error::MemoryAllocationFailed : Error::Internal;
    }
    return p;
  }
  void deallocate(void* ptr, runtime::etensor::DeviceIndex index) override {
    if (ptr == nullptr || use_device(index) != Error::Ok) {
      return;
    }
    const cudaError_t e = cudaFree(ptr);
    if (e != cudaSuccess) {
      ET_LOG(Error, "CUDA allocator: cudaFree: %s", cudaGetErrorString(e));
    }
  }
  Error copy_host_to_device(void* dst, const void* src, size_t nbytes,
                            runtime::etensor::DeviceIndex index) override {
    return copy(dst, src, nbytes, index, cudaMemcpyHostToDevice, "host to device");
  }
  Error copy_device_to_host(void* dst, const void* src, size_t nbytes,
                            runtime::etensor::DeviceIndex index) override {
    return copy(dst, src, nbytes, index, cudaMemcpyDeviceToHost, "device to host");
  }
  Error copy_device_to_device(void* dst, const void* src, size_t nbytes,
                              runtime::etensor::DeviceIndex index) override {
    return copy(dst, src, nbytes, index, cudaMemcpyDeviceToDevice, "device to device");
  }

 private:
  static Error use_device(runtime::etensor::DeviceIndex index) {
    int count = 0;
    const cudaError_t ce = cudaGetDeviceCount(&count);
    if (ce != cudaSuccess || count == 0) {
      ET_LOG(Error, "CUDA allocator: no CUDA device (%s)",
             ce != cudaSuccess ? cudaGetErrorString(ce) : "0 devices");
      return Error::NotFound;
    }
    if (index < 0 || int(index) >= count) {
      ET_LOG(Error, "CUDA allocator: no CUDA device cuda:%d (%d present)", int(index), count);
      return Error::InvalidArgument;
    }
    int current = -1;
    if (cudaGetDevice(&current) == cudaSuccess && current == int(index)) {
      return Error::Ok;
    }
    const cudaError_t e = cudaSetDevice(int(index));
    if (e != cudaSuccess) {
      ET_LOG(Error, "CUDA allocator: cudaSetDevice(%d): %s", int(index), cudaGetErrorString(e));
      return Error::Internal;
    }
    return Error::Ok;
  }
  static Error copy(void* dst, const void* src, size_t nbytes, runtime::etensor::DeviceIndex index,
                    cudaMemcpyKind kind, const char* what) {
    if (nbytes == 0) {
      return Error::Ok;
    }
    ET_CHECK_OR_RETURN_ERROR(dst != nullptr && src != nullptr, InvalidArgument,
                             "CUDA allocator: %s copy with a null pointer", what);
    ET_CHECK_OK_OR_RETURN_ERROR(use_device(index));
    const cudaError_t e = cudaMemcpy(dst, src, nbytes, kind);
    if (e != cudaSuccess) {
      ET_LOG(Error, "CUDA allocator: %s copy of %zu bytes: %s", what, nbytes,
             cudaGetErrorString(e));
      return Error::Internal;
    }
    return Error::Ok;
  }
};

} // namespace

runtime::DeviceAllocator& cuda_device_allocator() {
  static CudaDeviceAllocator instance;
  return instance;
}

} // namespace cuda
} // namespace backends
} // namespace executorch
