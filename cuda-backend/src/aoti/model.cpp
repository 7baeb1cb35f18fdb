#include "aoti/model.h"
#include "aoti/device_pool.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

using runtime::Error;
using runtime::Result;

namespace {

// The model .so leaves the CUDA runtime and the aoti_torch_* shim undefined
// and is opened RTLD_LOCAL: both must be in the global scope first. This
// library may itself have been dlopen'ed RTLD_LOCAL, so re-open it (and the
// libcudart it links) with RTLD_NOLOAD|RTLD_GLOBAL once.
Error promote_to_global_scope() {
  static std::once_flag once;
  static Error result = Error::Ok;
  std::call_once(once, [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&promote_to_global_scope), &info) == 0 ||
        info.dli_fname == nullptr) {
      ET_LOG(Error, "CudaBackend: dladdr could not name this library");
      result = Error::Internal;
      return;
    }
    void* self = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
    if (self == nullptr) {
      ET_LOG(Error, "CudaBackend: re-opening %s RTLD_GLOBAL failed: %s", info.dli_fname,
             dlerror());
      result = Error::Internal;
      return;
    }
    // Find the libcudart this library was linked with (any major version).
    Dl_info rt{};
    if (dladdr(reinterpret_cast<void*>(&cudaGetDeviceCount), &rt) != 0 &&
        rt.dli_fname != nullptr) {
      if (dlopen(rt.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL) == nullptr) {
        ET_LOG(Error, "CudaBackend: re-opening %s RTLD_GLOBAL failed: %s", rt.dli_fname,
               dlerror());
        result = Error::Internal;
      }
    } else {
      ET_LOG(Error, "CudaBackend: cannot locate the CUDA runtime library");
      result = Error::Internal;
    }
  });
  return result;
}

template <typename F>
bool bind(void* dl, const char* name, F* out, bool required, const char* label) {
  *out = reinterpret_cast<F>(dlsym(dl, name));
  if (*out == nullptr && required) {
    ET_LOG(Error, "CudaBackend[%s]: the model .so does not export %s", label, name);
    return false;
  }
  return true;
}

} // namespace

Result<LoadedModel*> LoadedModel::load(const void* so, size_t so_size, const void* weights,
                                       size_t weights_size, const char* device,
                                       const char* label) {
  ET_CHECK_OR_RETURN_ERROR(so != nullptr && so_size >= 64, InvalidProgram,
                           "CudaBackend[%s]: model .so blob is missing or too small (%zu bytes)",
                           label, so_size);
  ET_CHECK_OR_RETURN_ERROR(std::memcmp(so, "\x7f" "ELF", 4) == 0, InvalidProgram,
                           "CudaBackend[%s]: model .so blob is not an ELF file", label);
  Error err = promote_to_global_scope();
  if (err != Error::Ok) return err;

  // An anonymous, never-named file: nothing in a shared directory to race on.
  int fd = memfd_create("executorch_cuda_model", MFD_CLOEXEC);
  ET_CHECK_OR_RETURN_ERROR(fd >= 0, AccessFailed, "CudaBackend[%s]: memfd_create failed: %s",
                           label, std::strerror(errno));
  const char* p = static_cast<const char*>(so);
  size_t left = so_size;
  while (left > 0) {
    ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      ET_LOG(Error, "CudaBackend[%s]: writing the model to a memfd failed: %s", label,
             std::strerror(errno));
      close(fd);
      return Error::AccessFailed;
    }
    p += w;
    left -= static_cast<size_t>(w);
  }
  // The dynamic loader matches an already loaded object by its NAME before it
  // looks at the file: once an earlier model's memfd is closed, this memfd
  // can get the same descriptor number, and dlopen("/proc/self/fd/N") would
  // silently hand back the EARLIER model's .so (its Run then fills our
  // output slots with that model's tensors). Move to a descriptor number
  // whose path names no loaded object; keep the superseded descriptors open
  // until the load is done so the numbers cannot come back meanwhile.
  char path[64];
  std::vector<int> fds{fd};
  for (;;) {
    std::snprintf(path, sizeof(path), "/proc/self/fd/%d", fds.back());
    void* existing = dlopen(path, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    if (existing == nullptr) break;
    dlclose(existing);
    const int next = fcntl(fds.back(), F_DUPFD_CLOEXEC, fds.back() + 1);
    if (next < 0 || fds.size() >= 64) {
      ET_LOG(Error, "CudaBackend[%s]: no free descriptor name for the model .so: %s", label,
             next < 0 ? std::strerror(errno) : "too many loaded models");
      if (next >= 0) close(next);
      for (int f : fds) close(f);
      return Error::AccessFailed;
    }
    fds.push_back(next);
  }
  void* dl = dlopen(path, RTLD_LOCAL | RTLD_NOW);
  for (int f : fds) close(f);  // the mapping keeps the memory alive
  if (dl == nullptr) {
    ET_LOG(Error, "CudaBackend[%s]: dlopen of the model .so failed: %s", label, dlerror());
    return Error::InvalidProgram;
  }

  auto* m = new (std::nothrow) LoadedModel();
  if (m == nullptr) {
    dlclose(dl);
    return Error::MemoryAllocationFailed;
  }
  m->dl_ = dl;
  m->label_ = label;
  ContainerApi& a = m->api_;
  bool ok = bind(dl, "AOTInductorModelContainerCreateWithDevice", &a.create_with_device, true,
                 label) &&
            bind(dl, "AOTInductorModelContainerDelete", &a.destroy, true, label) &&
            bind(dl, "AOTInductorModelContainerRun", &a.run, true, label) &&
            bind(dl, "AOTInductorModelContainerGetNumInputs", &a.num_inputs, true, label) &&
            bind(dl, "AOTInductorModelContainerGetNumOutputs", &a.num_outputs, true, label);
  bind(dl, "AOTInductorModelContainerGetNumConstants", &a.num_constants, false, label);
  bind(dl, "AOTInductorModelUpdateConstantsFromBlob", &a.update_constants_from_blob, false,
       label);
  if (!ok) {
    delete m;
    return Error::InvalidProgram;
  }
  // Device index from "cuda:N".
  if (std::strncmp(device, "cuda:", 5) == 0) m->device_index_ = std::atoi(device + 5);
  cudaError_t ce = cudaSetDevice(m->device_index_);
  if (ce != cudaSuccess) {
    ET_LOG(Error, "CudaBackend[%s]: cudaSetDevice(%d): %s", label, m->device_index_,
           cudaGetErrorString(ce));
    delete m;
    return Error::DelegateInvalidCompatibility;
  }
  if (a.create_with_device(&m->container_, 1, device, nullptr) != 0 ||
      m->container_ == nullptr) {
    ET_LOG(Error, "CudaBackend[%s]: AOTInductorModelContainerCreateWithDevice(%s) failed",
           label, device);
    m->container_ = nullptr;
    delete m;
    return Error::InvalidProgram;
  }
  if (a.num_inputs(m->container_, &m->n_in_) != 0 ||
      a.num_outputs(m->container_, &m->n_out_) != 0) {
    ET_LOG(Error, "CudaBackend[%s]: could not read the model's input/output counts", label);
    delete m;
    return Error::InvalidProgram;
  }
  size_t n_const = 0;
  if (a.num_constants != nullptr && a.num_constants(m->container_, &n_const) != 0) {
    n_const = 0;
  }
  if (weights != nullptr && weights_size > 0) {
    if (a.update_constants_from_blob == nullptr) {
      ET_LOG(Error, "CudaBackend[%s]: model has no AOTInductorModelUpdateConstantsFromBlob",
             label);
      delete m;
      return Error::InvalidProgram;
    }
    if (a.update_constants_from_blob(m->container_,
                                     static_cast<const uint8_t*>(weights)) != 0) {
      ET_LOG(Error, "CudaBackend[%s]: loading %zu bytes of weights failed", label,
             weights_size);
      delete m;
      return Error::InvalidExternalData;
    }
  } else if (n_const > 0) {
    ET_LOG(Error, "CudaBackend[%s]: the model has %zu constants but no weights blob was found",
           label, n_const);
    delete m;
    return Error::InvalidExternalData;
  }
  // Blocking stream: ordered with the legacy default stream, which the
  // et_copy kernels use when no caller stream is set.
  ce = cudaStreamCreate(&m->stream_);
  if (ce != cudaSuccess) {
    ET_LOG(Error, "CudaBackend[%s]: cudaStreamCreate: %s", label, cudaGetErrorString(ce));
    m->stream_ = nullptr;
    delete m;
    return Error::DelegateMemoryAllocationFailed;
  }
  pool_model_created(m->device_index_);
  m->pool_counted_ = true;
  return m;
}

LoadedModel::~LoadedModel() {
  // Work from any stream (the caller's included) may still read the weights.
  if (container_ != nullptr) cudaDeviceSynchronize();
  if (stream_ != nullptr) {
    cudaStreamDestroy(stream_);
  }
  if (container_ != nullptr && api_.destroy != nullptr) {
    api_.destroy(container_);
  }
  if (dl_ != nullptr) dlclose(dl_);
  // After the synchronize above: the shim's pool may hand memory back.
  if (pool_counted_) pool_model_destroyed(device_index_);
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
