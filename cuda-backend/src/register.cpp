// Registers "CudaBackend" and a CUDA DeviceAllocator (for planned buffers the
// program puts on the GPU) once per load of libexecutorch_cuda_backend.so.1 and
// removes it again when the library is finalized. The library is linked with
// -z nodelete, so a dlclose never unmaps code the registry points at.
//
// Options answered here (BackendInterface::get_option / executorch::runtime::
// get_option("CudaBackend", ...)):
//   "caller_stream" -> string: "none" when no CallerStreamGuard is live on
//                      this thread, else the stream as "0x<hex>" ("0x0" for
//                      the legacy default stream). It shows which caller
//                      stream this backend sees (one state per process).
//   "cuda_graph_launches" -> int: CUDA-graph launches by every delegate of
//                      this process that runs with use_cuda_graph (see
//                      src/graph_replay.h); 0 when none does.
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <cuda_runtime_api.h>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/device_allocator.h>
#include <executorch/runtime/platform/log.h>

#include "aoti/copy_kernels.h"
#include "cuda_backend.h"
#include "graph_replay.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace {

using runtime::Backend;
using runtime::BackendOption;
using runtime::BackendOptionContext;
using runtime::Error;
using runtime::Span;

constexpr char kBackendName[] = "CudaBackend";

class RegisteredCudaBackend final : public CudaBackend {
 public:
  Error get_option(BackendOptionContext& context,
                   Span<BackendOption>& options) override {
    for (BackendOption& option : options) {
      if (std::strcmp(option.key, "caller_stream") == 0) {
        std::array<char, runtime::kMaxOptionValueLength> text{};
        const auto stream = extension::cuda::getCallerStream();
        if (stream.has_value()) {
          std::snprintf(text.data(), text.size(), "0x%" PRIxPTR,
                        reinterpret_cast<uintptr_t>(*stream));
        } else {
          std::snprintf(text.data(), text.size(), "none");
        }
        option.value = text;
      } else if (std::strcmp(option.key, "cuda_graph_launches") == 0) {
        option.value = static_cast<int>(graph_launches_total());
      }
    }
    return CudaBackend::get_option(context, options);
  }
};

RegisteredCudaBackend backend_instance;

// cudaMalloc/cudaFree and synchronous cudaMemcpy. Nothing touches CUDA until
// the first call, so loading the library on a machine without a GPU is free.
class CudaDeviceAllocator final : public runtime::DeviceAllocator {
 public:
  runtime::etensor::DeviceType device_type() const override {
    return runtime::etensor::DeviceType::CUDA;
  }
  // cudaMalloc returns 256-byte aligned memory; a stricter alignment is refused.
  runtime::Result<void*> allocate(size_t nbytes, runtime::etensor::DeviceIndex index,
                                  size_t alignment) override {
    ET_CHECK_OR_RETURN_ERROR(alignment != 0 && (alignment & (alignment - 1)) == 0 &&
                                 alignment <= 256,
                             InvalidArgument, "CUDA allocator: alignment %zu not supported",
                             alignment);
    ET_CHECK_OK_OR_RETURN_ERROR(use_device(index));
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, nbytes == 0 ? 1 : nbytes);
    if (e != cudaSuccess) {
      ET_LOG(Error, "CUDA allocator: cudaMalloc(%zu) on cuda:%d: %s", nbytes, int(index),
             cudaGetErrorString(e));
      return e == cudaErrorMemoryAllocation ? Error::MemoryAllocationFailed
                                            : Error::Internal;
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
      ET_LOG(Error, "CUDA allocator: no CUDA device cuda:%d (%d present)", int(index),
             count);
      return Error::InvalidArgument;
    }
    int current = -1;
    if (cudaGetDevice(&current) == cudaSuccess && current == int(index)) {
      return Error::Ok;
    }
    const cudaError_t e = cudaSetDevice(int(index));
    if (e != cudaSuccess) {
      ET_LOG(Error, "CUDA allocator: cudaSetDevice(%d): %s", int(index),
             cudaGetErrorString(e));
      return Error::Internal;
    }
    return Error::Ok;
  }
  static Error copy(void* dst, const void* src, size_t nbytes,
                    runtime::etensor::DeviceIndex index, cudaMemcpyKind kind,
                    const char* what) {
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

CudaDeviceAllocator allocator_instance;

class Registrar {
 public:
  Registrar() {
    register_copy_kernels();
    const Error err = runtime::register_backend(Backend{kBackendName, &backend_instance});
    registered_ = err == Error::Ok;
    if (!registered_) {
      // Another copy of this backend already holds the name: keep that one.
      ET_LOG(Error, "CudaBackend: registration failed (%s); keeping the one registered",
             runtime::to_string(err));
    }
    // A CUDA allocator registered by another copy of this library stays;
    // only the first registration succeeds (no abort on the duplicate).
    if (runtime::get_device_allocator(runtime::etensor::DeviceType::CUDA) == nullptr) {
      allocator_registered_ =
          runtime::register_device_allocator(&allocator_instance) == Error::Ok;
    }
  }
  ~Registrar() {
    if (allocator_registered_) {
      (void)runtime::unregister_device_allocator(&allocator_instance);
    }
    if (registered_) {
      (void)runtime::unregister_backend(Backend{kBackendName, &backend_instance});
    }
  }
  Registrar(const Registrar&) = delete;
  Registrar& operator=(const Registrar&) = delete;

 private:
  bool registered_ = false;
  bool allocator_registered_ = false;
};

Registrar registrar;

} // namespace
} // namespace cuda
} // namespace backends
} // namespace executorch
