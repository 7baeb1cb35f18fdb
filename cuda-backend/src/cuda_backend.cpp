#include "cuda_backend.h"

#include <cstring>
#include <string_view>

#include <mutex>

#include <cuda_runtime_api.h>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/runtime/platform/log.h>

#include "aoti/model.h"
#include "aoti/shim_internal.h"

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
  const bool available = probe_devices().available;
  if (!available) {
    // Once per process: the runtime's own line ("not available") does not
    // say why, and a tool shows the first error line.
    static std::once_flag logged;
    std::call_once(logged, [this] {
      ET_LOG(Error, "CudaBackend: no CUDA device: %s", unavailable_reason());
    });
  }
  return available;
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
  const runtime::NamedDataMap* ndm = context.get_named_data_map();
  ET_CHECK_OR_RETURN_ERROR(ndm != nullptr, InvalidExternalData,
                           "CudaBackend: no named data map (the .so key '%s' cannot be "
                           "resolved; pass the .ptd file)",
                           keys->so_key.c_str());
  std::string device = "cuda:0";
  for (size_t i = 0; i < compile_specs.size(); ++i) {
    const CompileSpec& spec = compile_specs[i];
    if (spec.key != nullptr && std::strcmp(spec.key, "target_device") == 0 &&
        spec.value.buffer != nullptr && spec.value.nbytes > 0 && spec.value.nbytes < 64) {
      std::string v(static_cast<const char*>(spec.value.buffer), spec.value.nbytes);
      v.resize(std::strlen(v.c_str()));
      if (v.rfind("cuda", 0) == 0) device = v;
    }
  }
  Result<FreeableBuffer> so = ndm->get_data(keys->so_key);
  if (!so.ok()) {
    ET_LOG(Error, "CudaBackend: named data '%s' (the model .so) not found: error 0x%x",
           keys->so_key.c_str(), static_cast<unsigned>(so.error()));
    return Error::InvalidExternalData;
  }
  Result<FreeableBuffer> weights = ndm->get_data(keys->weights_key);
  const void* wdata = nullptr;
  size_t wsize = 0;
  if (weights.ok()) {
    wdata = weights->data();
    wsize = weights->size();
  } else {
    ET_LOG(Info, "CudaBackend: no weights under '%s' (fine for a model without constants)",
           keys->weights_key.c_str());
  }
  Result<aoti::LoadedModel*> model = aoti::LoadedModel::load(
      so->data(), so->size(), wdata, wsize, device.c_str(),
      method_name != nullptr ? method_name : "forward");
  // The weights now live on the GPU and the .so in a private mapping.
  so->Free();
  if (weights.ok()) weights->Free();
  processed->Free();
  if (!model.ok()) return model.error();
  return static_cast<DelegateHandle*>(*model);
}

namespace {

using aoti::TensorObj;

// Shapes of an ExecuTorch tensor as int64 sizes and element strides.
void shape_of(const exec_aten::Tensor& t, std::vector<int64_t>& sizes,
              std::vector<int64_t>& strides) {
  const size_t nd = static_cast<size_t>(t.dim());
  sizes.resize(nd);
  strides.resize(nd);
  auto st = t.strides();
  int64_t s = 1;
  for (size_t i = nd; i-- > 0;) {
    sizes[i] = t.sizes()[i];
    strides[i] = (st.size() == nd && st.data() != nullptr) ? st[i] : s;
    s *= sizes[i];
  }
}

bool is_device(const exec_aten::Tensor& t) {
  return t.device_type() == runtime::etensor::DeviceType::CUDA;
}

struct HandleSet {
  std::vector<TensorObj*> handles;
  void drop() {
    // Outputs may repeat a handle: delete each once.
    for (size_t i = 0; i < handles.size(); ++i) {
      if (handles[i] == nullptr) continue;
      for (size_t j = i + 1; j < handles.size(); ++j) {
        if (handles[j] == handles[i]) handles[j] = nullptr;
      }
      aoti::destroy_tensor(handles[i]);
      handles[i] = nullptr;
    }
  }
  ~HandleSet() { drop(); }
};

} // namespace

Error CudaBackend::execute(BackendExecutionContext& /*context*/, DelegateHandle* handle,
                           Span<EValue*> args) const {
  auto* model = static_cast<aoti::LoadedModel*>(handle);
  ET_CHECK_OR_RETURN_ERROR(model != nullptr, DelegateInvalidHandle,
                           "CudaBackend: execute on a null handle");
  const size_t n_in = model->num_inputs(), n_out = model->num_outputs();
  ET_CHECK_OR_RETURN_ERROR(args.size() == n_in + n_out, InvalidArgument,
                           "CudaBackend[%s]: %zu arguments, the model takes %zu inputs and "
                           "%zu outputs",
                           model->label().c_str(), args.size(), n_in, n_out);
  for (size_t i = 0; i < args.size(); ++i) {
    ET_CHECK_OR_RETURN_ERROR(args[i] != nullptr && args[i]->isTensor(), InvalidArgument,
                             "CudaBackend[%s]: argument %zu is not a tensor",
                             model->label().c_str(), i);
  }
  const auto caller = extension::cuda::getCallerStream();
  cudaStream_t stream = caller.has_value() ? *caller : model->own_stream();
  const int dev = model->device_index();
  aoti::ScopedCurrentStream current(dev, stream);
  bool host_io = false;

  std::vector<int64_t> sizes, strides;
  // Fresh input handles every call: the model steals and deletes them.
  HandleSet inputs;
  inputs.handles.assign(n_in, nullptr);
  for (size_t i = 0; i < n_in; ++i) {
    const exec_aten::Tensor& t = args[i]->toTensor();
    shape_of(t, sizes, strides);
    const int32_t dtype = static_cast<int32_t>(t.scalar_type());
    ET_CHECK_OR_RETURN_ERROR(aoti::dtype_size(dtype) != 0, InvalidArgument,
                             "CudaBackend[%s]: input %zu has an unsupported dtype %d",
                             model->label().c_str(), i, dtype);
    TensorObj* h;
    if (is_device(t)) {
      h = aoti::make_view(t.mutable_data_ptr(), t.nbytes(), static_cast<int64_t>(sizes.size()),
                          sizes.data(), strides.data(), dtype, aoti::kDevCuda, dev);
    } else {
      // Host input (1.1-1.3 programs): stage a device copy, freed
      // stream-ordered when the model drops the handle.
      host_io = true;
      h = aoti::make_owned_device(t.nbytes(), static_cast<int64_t>(sizes.size()),
                                  sizes.data(), strides.data(), dtype, dev, stream);
      if (h != nullptr && t.nbytes() > 0) {
        cudaError_t ce = cudaMemcpyAsync(h->data(), t.const_data_ptr(), t.nbytes(),
                                         cudaMemcpyHostToDevice, stream);
        if (ce != cudaSuccess) {
          aoti::destroy_tensor(h);
          ET_LOG(Error, "CudaBackend[%s]: copying input %zu to the GPU: %s",
                 model->label().c_str(), i, cudaGetErrorString(ce));
          return Error::Internal;
        }
      }
    }
    ET_CHECK_OR_RETURN_ERROR(h != nullptr, MemoryAllocationFailed,
                             "CudaBackend[%s]: no memory for input %zu",
                             model->label().c_str(), i);
    inputs.handles[i] = h;
  }
  HandleSet outputs;
  outputs.handles.assign(n_out, nullptr);
  for (size_t i = 0; i < n_in; ++i) {
    AOTI_TRACE("execute[%s] input %zu %s", model->label().c_str(), i,
               aoti::describe(inputs.handles[i]).c_str());
  }
  AOTI_TRACE("execute[%s] Run(n_in=%zu, n_out=%zu, stream=%p)", model->label().c_str(), n_in,
             n_out, static_cast<void*>(stream));
  const int32_t rc = model->api().run(model->container(), inputs.handles.data(), n_in,
                                      outputs.handles.data(), n_out, stream, nullptr);
  // The model took ownership of every input handle (it deletes them during
  // Run, whether or not it nulls the slots): never delete them here.
  for (size_t i = 0; i < n_in; ++i) {
    AOTI_TRACE("execute[%s] after Run: input slot %zu = %p", model->label().c_str(), i,
               static_cast<void*>(inputs.handles[i]));
  }
  for (size_t j = 0; j < n_out; ++j) {
    AOTI_TRACE("execute[%s] Run rc=%d output %zu %s", model->label().c_str(), rc, j,
               aoti::describe(outputs.handles[j]).c_str());
  }
  for (auto& h : inputs.handles) h = nullptr;
  if (rc != 0) {
    ET_LOG(Error, "CudaBackend[%s]: AOTInductorModelContainerRun failed (%d)",
           model->label().c_str(), rc);
    return Error::Internal;
  }
  for (size_t j = 0; j < n_out; ++j) {
    TensorObj* h = outputs.handles[j];
    exec_aten::Tensor& t = args[n_in + j]->toTensor();
    ET_CHECK_OR_RETURN_ERROR(h != nullptr, Internal,
                             "CudaBackend[%s]: the model produced no output %zu",
                             model->label().c_str(), j);
    ET_CHECK_OR_RETURN_ERROR(
        h->numel() == t.numel() && static_cast<int32_t>(t.scalar_type()) == h->dtype,
        InvalidArgument,
        "CudaBackend[%s]: output %zu is %lld elements of dtype %d; the program planned %zd "
        "of dtype %d",
        model->label().c_str(), j, static_cast<long long>(h->numel()), h->dtype, t.numel(),
        static_cast<int>(t.scalar_type()));
    if (h->data() == t.mutable_data_ptr() && is_device(t)) continue;
    shape_of(t, sizes, strides);
    if (!is_device(t)) host_io = true;
    // Copy into the planned buffer (contiguous in the program's layout).
    cudaError_t ce = aoti::strided_copy(
        static_cast<char*>(t.mutable_data_ptr()), strides.data(), h->data(),
        h->sizes.size() == sizes.size() ? h->strides.data() : strides.data(), sizes.data(),
        static_cast<int64_t>(sizes.size()), h->elem_size(), stream);
    if (ce != cudaSuccess) {
      ET_LOG(Error, "CudaBackend[%s]: copying output %zu: %s", model->label().c_str(), j,
             cudaGetErrorString(ce));
      return Error::Internal;
    }
  }
  outputs.drop();
  if (host_io) {
    // Host outputs are read as soon as execute returns.
    cudaError_t ce = cudaStreamSynchronize(stream);
    if (ce != cudaSuccess) {
      ET_LOG(Error, "CudaBackend[%s]: %s", model->label().c_str(), cudaGetErrorString(ce));
      return Error::Internal;
    }
  }
  return Error::Ok;
}

void CudaBackend::destroy(DelegateHandle* handle) const {
  delete static_cast<aoti::LoadedModel*>(handle);
}

} // namespace cuda
} // namespace backends
} // namespace executorch
