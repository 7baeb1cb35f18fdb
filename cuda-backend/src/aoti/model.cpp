#include "aoti/model.h"
#include "aoti/device_pool.h"
#include "aoti/missing_symbol.h"
#include "aoti/private_shim.h"
#include "aoti/tensor_obj.h"
#include "aoti/weights_check.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
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
      ET_LOG(Error, "CudaBackend: re-opening %s RTLD_GLOBAL failed: %s", info.dli_fname, dlerror());
      result = Error::Internal;
      return;
    }
    // Find the libcudart this library was linked with (any major version).
    Dl_info rt{};
    if (dladdr(reinterpret_cast<void*>(&cudaGetDeviceCount), &rt) != 0 && rt.dli_fname != nullptr) {
      if (dlopen(rt.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL) == nullptr) {
        ET_LOG(Error, "CudaBackend: re-opening %s RTLD_GLOBAL failed: %s", rt.dli_fname, dlerror());
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

bool bind_api(void* dl, ContainerApi& a, const char* label) {
  const bool ok =
      bind(dl, "AOTInductorModelContainerCreateWithDevice", &a.create_with_device, true, label) &&
      bind(dl, "AOTInductorModelContainerDelete", &a.destroy, true, label) &&
      bind(dl, "AOTInductorModelContainerRun", &a.run, true, label) &&
      bind(dl, "AOTInductorModelContainerGetNumInputs", &a.num_inputs, true, label) &&
      bind(dl, "AOTInductorModelContainerGetNumOutputs", &a.num_outputs, true, label);
  bind(dl, "AOTInductorModelContainerGetNumConstants", &a.num_constants, false, label);
  bind(dl, "AOTInductorModelContainerGetConstantName", &a.constant_name, false, label);
  bind(dl, "AOTInductorModelContainerGetConstantDtype", &a.constant_dtype, false, label);
  bind(dl, "AOTInductorModelContainerGetConstantDataSize", &a.constant_data_size, false, label);
  bind(dl, "AOTInductorModelContainerGetConstantFromFolded", &a.constant_from_folded, false, label);
  bind(dl, "AOTInductorModelContainerGetConstantOriginalFQN", &a.constant_original_fqn, false,
       label);
  bind(dl, "AOTInductorModelContainerUpdateUserManagedConstantBufferPairs",
       &a.update_user_managed_pairs, false, label);
  bind(dl, "AOTInductorModelUpdateConstantsFromBlob", &a.update_constants_from_blob, false, label);
  return ok;
}

bool write_all(int fd, const char* p, size_t left) {
  while (left > 0) {
    const ssize_t w = write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    left -= static_cast<size_t>(w);
  }
  return true;
}

// The dynamic loader matches an already loaded object by its NAME before it
// looks at the file: once an earlier model's memfd is closed, a new memfd
// can get the same descriptor number, and dlopen("/proc/self/fd/N") would
// silently hand back the EARLIER model's .so (its Run then fills our output
// slots with that model's tensors). Moves to a descriptor number whose path
// names no loaded object and writes that path; every descriptor used on the
// way is appended to `fds` (the caller keeps them open until the dlopen is
// done, so the numbers cannot come back meanwhile).
bool fresh_fd_path(std::vector<int>& fds, char (&path)[64], const char* label) {
  for (;;) {
    std::snprintf(path, sizeof(path), "/proc/self/fd/%d", fds.back());
    void* existing = dlopen(path, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    if (existing == nullptr) return true;
    dlclose(existing);
    const int next = fcntl(fds.back(), F_DUPFD_CLOEXEC, fds.back() + 1);
    if (next < 0 || fds.size() >= 64) {
      ET_LOG(Error, "CudaBackend[%s]: no free descriptor name for the model .so: %s", label,
             next < 0 ? std::strerror(errno) : "too many loaded models");
      if (next >= 0) close(next);
      return false;
    }
    fds.push_back(next);
  }
}

// Why the model .so did not load: a CUDA symbol the installed runtime or
// driver lacks (a model compiled against a newer CUDA) is an incompatibility
// named with the versions; anything else, the loader's message.
Error dlopen_error(const char* label) {
  const char* text = dlerror();
  const std::string symbol = undefined_symbol(text);
  int runtime = 0, driver = 0;
  if (!symbol.empty()) {
    (void)cudaRuntimeGetVersion(&runtime);
    (void)cudaDriverGetVersion(&driver);
  }
  const std::string why = explain_missing_cuda_symbol(symbol, runtime, driver);
  if (!why.empty()) {
    ET_LOG(Error, "CudaBackend[%s]: %s", label, why.c_str());
    return Error::DelegateInvalidCompatibility;
  }
  const std::string wanted = model_facing_name(symbol);
  if (wanted != symbol) {
    ET_LOG(Error,
           "CudaBackend[%s]: the model calls the shim function %s, which this backend does "
           "not provide",
           label, wanted.c_str());
    return Error::InvalidProgram;
  }
  ET_LOG(Error, "CudaBackend[%s]: dlopen of the model .so failed: %s", label,
         text != nullptr ? text : "unknown error");
  return Error::InvalidProgram;
}

// Renames the shim imports of the .so written to `fd` (private_shim.h), in
// place through a shared mapping of the file.
bool bind_shim_in_file(int fd, size_t size, const char* label) {
  void* map = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    ET_LOG(Error, "CudaBackend[%s]: mapping the model .so failed: %s", label, std::strerror(errno));
    return false;
  }
  size_t renamed = 0;
  std::string why;
  const bool ok = bind_shim_privately(static_cast<unsigned char*>(map), size, &renamed, &why);
  munmap(map, size);
  if (!ok) {
    ET_LOG(Error, "CudaBackend[%s]: cannot bind the model .so to this backend's shim: %s", label,
           why.c_str());
  }
  return ok;
}

// Writes the .so to an anonymous, never-named file (nothing in a shared
// directory to race on), binds its shim imports to this library and
// dlopens it RTLD_LOCAL|RTLD_NOW.
Result<void*> open_from_memory(const void* so, size_t so_size, const char* label) {
  const int fd = memfd_create("executorch_cuda_model", MFD_CLOEXEC);
  ET_CHECK_OR_RETURN_ERROR(fd >= 0, AccessFailed, "CudaBackend[%s]: memfd_create failed: %s", label,
                           std::strerror(errno));
  std::vector<int> fds{fd};
  auto close_all = [&fds] {
    for (int f : fds) close(f); // a mapping keeps the memory alive
  };
  if (!write_all(fd, static_cast<const char*>(so), so_size)) {
    ET_LOG(Error, "CudaBackend[%s]: writing the model to a memfd failed: %s", label,
           std::strerror(errno));
    close_all();
    return Error::AccessFailed;
  }
  if (!bind_shim_in_file(fd, so_size, label)) {
    close_all();
    return Error::InvalidProgram;
  }
  char path[64];
  if (!fresh_fd_path(fds, path, label)) {
    close_all();
    return Error::AccessFailed;
  }
  void* dl = dlopen(path, RTLD_LOCAL | RTLD_NOW);
  close_all();
  if (dl == nullptr) return dlopen_error(label);
  return dl;
}

} // namespace

Result<std::shared_ptr<LoadedModel>> LoadedModel::load(const void* so, size_t so_size,
                                                       const void* weights, size_t weights_size,
                                                       const char* device, const char* label,
                                                       bool share_constants) {
  ET_CHECK_OR_RETURN_ERROR(so != nullptr && so_size >= 64, InvalidProgram,
                           "CudaBackend[%s]: model .so blob is missing or too small (%zu bytes)",
                           label, so_size);
  ET_CHECK_OR_RETURN_ERROR(std::memcmp(so,
                                       "\x7f"
                                       "ELF",
                                       4) == 0,
                           InvalidProgram, "CudaBackend[%s]: model .so blob is not an ELF file",
                           label);
  Error err = promote_to_global_scope();
  if (err != Error::Ok) return err;
  Result<void*> dl = open_from_memory(so, so_size, label);
  if (!dl.ok()) return dl.error();
  std::shared_ptr<LoadedModel> m(new (std::nothrow) LoadedModel());
  if (m == nullptr) {
    dlclose(*dl);
    return Error::MemoryAllocationFailed;
  }
  m->dl_ = *dl;
  m->label_ = label;
  if (!bind_api(m->dl_, m->api_, label)) return Error::InvalidProgram;
  err = m->create_container(device);
  std::vector<ConstantInfo> table;
  if (err == Error::Ok) err = m->read_table(&table);
  if (err == Error::Ok) {
    err = share_constants ? m->load_shared(table, weights, weights_size, m)
                          : m->load_weights(table, weights, weights_size, nullptr);
  }
  if (err == Error::Ok) err = m->create_stream();
  if (err != Error::Ok) return err;
  pool_model_created(m->device_index_);
  m->pool_counted_ = true;
  return m;
}

Error LoadedModel::create_container(const char* device) {
  const char* label = label_.c_str();
  // Device index from "cuda:N".
  if (std::strncmp(device, "cuda:", 5) == 0) device_index_ = std::atoi(device + 5);
  const cudaError_t ce = cudaSetDevice(device_index_);
  ET_CHECK_OR_RETURN_ERROR(ce == cudaSuccess, DelegateInvalidCompatibility,
                           "CudaBackend[%s]: cudaSetDevice(%d): %s", label, device_index_,
                           cudaGetErrorString(ce));
  if (api_.create_with_device(&container_, 1, device, nullptr) != 0 || container_ == nullptr) {
    container_ = nullptr;
    ET_LOG(Error, "CudaBackend[%s]: AOTInductorModelContainerCreateWithDevice(%s) failed", label,
           device);
    return Error::InvalidProgram;
  }
  ET_CHECK_OR_RETURN_ERROR(
      api_.num_inputs(container_, &n_in_) == 0 && api_.num_outputs(container_, &n_out_) == 0,
      InvalidProgram, "CudaBackend[%s]: could not read the model's input/output counts", label);
  return Error::Ok;
}

// The container's constant table (empty for a model without constants).
Error LoadedModel::read_table(std::vector<ConstantInfo>* table) const {
  const char* label = label_.c_str();
  const ContainerApi& a = api_;
  size_t n = 0;
  if (a.num_constants == nullptr || a.num_constants(container_, &n) != 0 || n == 0) {
    return Error::Ok;
  }
  ET_CHECK_OR_RETURN_ERROR(a.constant_data_size != nullptr && a.constant_dtype != nullptr,
                           InvalidProgram,
                           "CudaBackend[%s]: the model .so does not export "
                           "AOTInductorModelContainerGetConstantDataSize/GetConstantDtype: its "
                           "weights blob cannot be checked",
                           label);
  table->resize(n);
  for (size_t i = 0; i < n; ++i) {
    ConstantInfo& info = (*table)[i];
    const char* name = nullptr;
    const char* fqn = nullptr;
    size_t bytes = 0;
    if (a.constant_name != nullptr && a.constant_name(container_, i, &name) == 0 &&
        name != nullptr) {
      info.name = name;
    } else {
      info.name = "#" + std::to_string(i);
    }
    if (a.constant_original_fqn != nullptr && a.constant_original_fqn(container_, i, &fqn) == 0 &&
        fqn != nullptr) {
      info.fqn = fqn;
    }
    const bool ok = a.constant_dtype(container_, i, &info.dtype) == 0 &&
                    a.constant_data_size(container_, i, &bytes) == 0 &&
                    (a.constant_from_folded == nullptr ||
                     a.constant_from_folded(container_, i, &info.from_folded) == 0);
    ET_CHECK_OR_RETURN_ERROR(ok, InvalidProgram,
                             "CudaBackend[%s]: the model could not describe its constant %zu "
                             "'%s'",
                             label, i, info.name.c_str());
    info.data_size = bytes;
  }
  return Error::Ok;
}

// Checks the blob against `table` and has the model load it; the handles
// the model makes for its constants go to `made` (when not null), one per
// constant that is not folded, in table order.
Error LoadedModel::load_weights(const std::vector<ConstantInfo>& table, const void* weights,
                                size_t weights_size, std::vector<TensorObj*>* made) {
  const char* label = label_.c_str();
  if (weights == nullptr || weights_size == 0) {
    ET_CHECK_OR_RETURN_ERROR(table.empty(), InvalidExternalData,
                             "CudaBackend[%s]: the model has %zu constants but no weights "
                             "blob was found",
                             label, table.size());
    return Error::Ok;
  }
  ET_CHECK_OR_RETURN_ERROR(api_.update_constants_from_blob != nullptr, InvalidProgram,
                           "CudaBackend[%s]: model has no "
                           "AOTInductorModelUpdateConstantsFromBlob",
                           label);
  // The model reads the blob by its own table and is given no size: check
  // the table against the blob first.
  const Error err = check_weights_blob(table, weights_size, label);
  if (err != Error::Ok) return err;
  std::vector<TensorObj*> recorded;
  AOTIError rc;
  {
    ScopedBlobRecorder recorder(&recorded);
    rc = api_.update_constants_from_blob(container_, static_cast<const uint8_t*>(weights));
  }
  ET_CHECK_OR_RETURN_ERROR(rc == 0, InvalidExternalData,
                           "CudaBackend[%s]: loading %zu bytes of weights failed", label,
                           weights_size);
  if (made != nullptr) *made = std::move(recorded);
  return Error::Ok;
}

// weight_sharing_across_methods: constants shared by another live model are
// used in place; the blob is loaded only when some constant is not, and
// then this model's constants are offered to the next ones.
Error LoadedModel::load_shared(const std::vector<ConstantInfo>& table, const void* weights,
                               size_t weights_size, const std::shared_ptr<const void>& self) {
  SharedConstants& shared = SharedConstants::instance();
  std::lock_guard<std::mutex> lk(shared.init_mutex());
  std::vector<SharedHit> hits;
  Error err = shared.lookup(table, &hits, label_.c_str());
  if (err != Error::Ok) return err;
  size_t in_blob = 0;
  for (const ConstantInfo& c : table) in_blob += c.from_folded ? 0 : 1;
  ET_LOG(Info, "CudaBackend[%s]: weight sharing: %zu of %zu constants already shared",
         label_.c_str(), hits.size(), in_blob);
  if (hits.size() < in_blob) {
    std::vector<TensorObj*> made;
    err = load_weights(table, weights, weights_size, &made);
    if (err != Error::Ok) return err;
    if (made.size() == in_blob) {
      // One handle per constant that is not folded: spread over the table.
      std::vector<TensorObj*> by_index(table.size(), nullptr);
      for (size_t i = 0, k = 0; i < table.size(); ++i) {
        if (!table[i].from_folded) by_index[i] = made[k++];
      }
      shared.publish(table, by_index, self);
    } else {
      ET_LOG(Info,
             "CudaBackend[%s]: %zu constant handles for %zu constants: not offered for "
             "sharing",
             label_.c_str(), made.size(), in_blob);
    }
  }
  return use_shared(table, hits);
}

// Points the container at the lenders' constants.
Error LoadedModel::use_shared(const std::vector<ConstantInfo>& table,
                              const std::vector<SharedHit>& hits) {
  if (hits.empty()) return Error::Ok;
  ET_CHECK_OR_RETURN_ERROR(api_.update_user_managed_pairs != nullptr, InvalidProgram,
                           "CudaBackend[%s]: weight_sharing_across_methods: the model .so does "
                           "not export AOTInductorModelContainerUpdateUserManagedConstant"
                           "BufferPairs (compile it with a newer torch, or turn the option off)",
                           label_.c_str());
  std::vector<ContainerApi::ConstantPair> pairs;
  pairs.reserve(hits.size());
  for (const SharedHit& h : hits) {
    pairs.push_back({table[h.index].name.c_str(), h.handle});
    lenders_.push_back(h.lender);
  }
  const AOTIError rc = api_.update_user_managed_pairs(container_, pairs.data(), pairs.size(),
                                                      /*use_inactive=*/false,
                                                      /*validate_full_update=*/false);
  ET_CHECK_OR_RETURN_ERROR(rc == 0, InvalidProgram,
                           "CudaBackend[%s]: weight_sharing_across_methods: the model refused "
                           "%zu shared constants",
                           label_.c_str(), pairs.size());
  return Error::Ok;
}

Error LoadedModel::create_stream() {
  // Blocking stream: ordered with the legacy default stream, which the
  // et_copy kernels use when no caller stream is set.
  const cudaError_t ce = cudaStreamCreate(&stream_);
  if (ce != cudaSuccess) {
    stream_ = nullptr;
    ET_LOG(Error, "CudaBackend[%s]: cudaStreamCreate: %s", label_.c_str(), cudaGetErrorString(ce));
    return Error::DelegateMemoryAllocationFailed;
  }
  // The shim's temporaries on this stream are reused without a round trip
  // through the pool (device_pool.h).
  pool_cache_stream(stream_, device_index_);
  return Error::Ok;
}

LoadedModel::~LoadedModel() {
  // Work from any stream (the caller's included) may still read the weights.
  if (container_ != nullptr) cudaDeviceSynchronize();
  if (container_ != nullptr && api_.destroy != nullptr) {
    api_.destroy(container_);
  }
  if (stream_ != nullptr) {
    // After the container: what it frees on this stream goes to the cache,
    // which is then emptied, before the stream goes.
    pool_forget_stream(stream_);
    cudaStreamDestroy(stream_);
  }
  if (dl_ != nullptr) dlclose(dl_);
  // After the synchronize above: the shim's pool may hand memory back.
  if (pool_counted_) pool_model_destroyed(device_index_);
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
