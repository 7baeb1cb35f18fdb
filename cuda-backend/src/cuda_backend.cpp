#include "cuda_backend.h"

#include <cstring>
#include <string_view>

#include <cuda_runtime_api.h>

#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace backends {
namespace cuda {

using runtime::ArrayRef;
using runtime::BackendExecutionContext;
using runtime::BackendInitContext;
using runtime::CompileSpec;
using runtime::DelegateHandle;
using runtime::Error;
using runtime::EValue;
using runtime::FreeableBuffer;
using runtime::Result;
using runtime::Span;

namespace {

struct DeviceProbe {
  bool available;
  const char* reason;
};

// Asked once, on first use: loading the library must not touch the driver.
const DeviceProbe& probe_devices() {
  static const DeviceProbe probe = [] {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
      return DeviceProbe{false, cudaGetErrorString(err)};
    }
    if (count <= 0) {
      return DeviceProbe{false, "the CUDA runtime reports 0 devices"};
    }
    return DeviceProbe{true, ""};
  }();
  return probe;
}

bool valid_key(std::string_view key) {
  if (key.empty() || key.size() > 4096) {
    return false;
  }
  for (char c : key) {
    if (c == '\0' || c == '\n' || c == '\r') {
      return false;
    }
  }
  return true;
}

const char* method_name_from(const BackendInitContext& context,
                             ArrayRef<CompileSpec> compile_specs,
                             std::string& storage) {
  for (size_t i = 0; i < compile_specs.size(); ++i) {
    const CompileSpec& spec = compile_specs[i];
    if (spec.key != nullptr && std::strcmp(spec.key, "method_name") == 0 &&
        spec.value.buffer != nullptr) {
      storage.assign(static_cast<const char*>(spec.value.buffer),
                     spec.value.nbytes);
      // Some writers include the terminating NUL in the value.
      const size_t nul = storage.find('\0');
      if (nul != std::string::npos) {
        storage.resize(nul);
      }
      return storage.c_str();
    }
  }
  return context.get_method_name();
}

} // namespace

Result<CudaPayloadKeys> parse_cuda_payload(const void* data, size_t size,
                                           const char* method_name) {
  CudaPayloadKeys keys;
  if (size == 0) {
    // 1.1 to 1.3: nothing in the processed bytes; keys follow the method.
    if (method_name != nullptr && method_name[0] != '\0') {
      keys.so_key = std::string(method_name) + "_so_blob";
      keys.weights_key = std::string(method_name) + "_weights_blob";
    } else {
      keys.so_key = "so_blob";
      keys.weights_key = "weights_blob";
    }
    return keys;
  }
  ET_CHECK_OR_RETURN_ERROR(data != nullptr, InvalidProgram,
                           "CudaBackend: processed bytes are null (%zu bytes)",
                           size);
  const std::string_view text(static_cast<const char*>(data), size);
  const size_t newline = text.find('\n');
  ET_CHECK_OR_RETURN_ERROR(
      newline != std::string_view::npos, InvalidProgram,
      "CudaBackend: processed bytes (%zu) hold no '\\n' between the .so key "
      "and the weights key",
      size);
  std::string_view so_key = text.substr(0, newline);
  std::string_view weights_key = text.substr(newline + 1);
  // Tolerate one trailing newline after the weights key.
  if (!weights_key.empty() && weights_key.back() == '\n') {
    weights_key.remove_suffix(1);
  }
  ET_CHECK_OR_RETURN_ERROR(valid_key(so_key), InvalidProgram,
                           "CudaBackend: bad .so key in processed bytes "
                           "(length %zu)",
                           so_key.size());
  ET_CHECK_OR_RETURN_ERROR(valid_key(weights_key), InvalidProgram,
                           "CudaBackend: bad weights key in processed bytes "
                           "(length %zu, one key per line, two lines)",
                           weights_key.size());
  keys.so_key.assign(so_key);
  keys.weights_key.assign(weights_key);
  return keys;
}

bool CudaBackend::is_available() const {
  return probe_devices().available;
}

const char* CudaBackend::unavailable_reason() const {
  return probe_devices().reason;
}

Result<DelegateHandle*> CudaBackend::init(
    BackendInitContext& context, FreeableBuffer* processed,
    ArrayRef<CompileSpec> compile_specs) const {
  ET_CHECK_OR_RETURN_ERROR(processed != nullptr, InvalidArgument,
                           "CudaBackend: no processed bytes");
  std::string method_storage;
  const char* method_name =
      method_name_from(context, compile_specs, method_storage);
  const void* bytes = nullptr;
  if (processed->size() != 0) {
    Result<const void*> data = processed->data_safe();
    ET_CHECK_OR_RETURN_ERROR(data.ok(), InvalidProgram,
                             "CudaBackend: processed bytes are not in memory");
    bytes = *data;
  }
  Result<CudaPayloadKeys> keys =
      parse_cuda_payload(bytes, processed->size(), method_name);
  if (!keys.ok()) {
    return keys.error();
  }
  if (!is_available()) {
    ET_LOG(Error, "CudaBackend: no CUDA device: %s", unavailable_reason());
    return Error::DelegateInvalidCompatibility;
  }
  ET_LOG(Error,
         "CudaBackend: payload (.so key '%s') is valid, but AOTInductor "
         "execution is not built into this library yet",
         keys->so_key.c_str());
  return Error::NotImplemented;
}

Error CudaBackend::execute(BackendExecutionContext& /*context*/,
                           DelegateHandle* /*handle*/,
                           Span<EValue*> /*args*/) const {
  ET_LOG(Error, "CudaBackend: execution is not built yet");
  return Error::NotImplemented;
}

void CudaBackend::destroy(DelegateHandle* /*handle*/) const {}

} // namespace cuda
} // namespace backends
} // namespace executorch
