#include "cuda_backend.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <new>
#include <mutex>
#include <optional>
#include <string_view>

#include <cuda_runtime_api.h>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/runtime/platform/log.h>

#include "aoti/device_pool.h"
#include "aoti/model.h"
#include "aoti/shim_internal.h"
#include "graph_replay.h"
#include "method_list.h"
#include "run_model.h"
#include "shared_stream.h"

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

// The first compile spec named `key` that has a value, or nullptr.
const CompileSpec* find_compile_spec(ArrayRef<CompileSpec> compile_specs, const char* key) {
  for (size_t i = 0; i < compile_specs.size(); ++i) {
    const CompileSpec& spec = compile_specs[i];
    if (spec.key != nullptr && std::strcmp(spec.key, key) == 0 && spec.value.buffer != nullptr) {
      return &spec;
    }
  }
  return nullptr;
}

const char* method_name_from(const BackendInitContext& context, ArrayRef<CompileSpec> compile_specs,
                             std::string& storage) {
  const CompileSpec* spec = find_compile_spec(compile_specs, "method_name");
  if (spec == nullptr) return context.get_method_name();
  storage.assign(static_cast<const char*>(spec->value.buffer), spec->value.nbytes);
  // Some writers include the terminating NUL in the value.
  const size_t nul = storage.find('\0');
  if (nul != std::string::npos) {
    storage.resize(nul);
  }
  return storage.c_str();
}

// A boolean option: the runtime option `key` (bool, int or string) wins
// over the compile spec (bytes "1"/"true"/"0"/"false", or one byte 0/1),
// which wins over `fallback`.
Result<bool> bool_option(const BackendInitContext& context, ArrayRef<CompileSpec> compile_specs,
                         const char* key, bool fallback) {
  auto parse = [](std::string_view v) -> Result<bool> {
    if (v == "1" || v == "true" || v == std::string_view("\x01", 1)) return true;
    if (v == "0" || v == "false" || v == std::string_view("\x00", 1) || v.empty()) {
      return false;
    }
    return Error::InvalidArgument;
  };
  if (auto b = context.get_runtime_spec<bool>(key); b.ok()) return *b;
  if (auto i = context.get_runtime_spec<int>(key); i.ok()) return *i != 0;
  if (auto str = context.get_runtime_spec<const char*>(key); str.ok()) {
    Result<bool> r = parse(*str);
    ET_CHECK_OR_RETURN_ERROR(r.ok(), InvalidArgument,
                             "CudaBackend: runtime option %s='%s': expected true/false/1/0", key,
                             *str);
    return r;
  }
  const CompileSpec* spec = find_compile_spec(compile_specs, key);
  if (spec == nullptr) return fallback;
  std::string_view v(static_cast<const char*>(spec->value.buffer), spec->value.nbytes);
  if (v.size() > 1 && v.back() == '\0') v.remove_suffix(1);
  Result<bool> r = parse(v);
  ET_CHECK_OR_RETURN_ERROR(r.ok(), InvalidProgram,
                           "CudaBackend: compile spec %s has %zu bytes that are not "
                           "true/false/1/0",
                           key, v.size());
  return r;
}

// Whether `method`'s delegate runs as a CUDA graph: "use_cuda_graph" (a
// runtime option or compile spec) decides; else whether the method is in the
// runtime option "enable_cuda_graph_for_method", else in `default_list`
// (set_option's).
Result<bool> graph_option(const BackendInitContext& context, ArrayRef<CompileSpec> compile_specs,
                          const char* method, const std::string& default_list) {
  const char* key = "enable_cuda_graph_for_method";
  std::string_view list = default_list;
  Result<const char*> str = context.get_runtime_spec<const char*>(key);
  ET_CHECK_OR_RETURN_ERROR(str.ok() || str.error() == Error::NotFound, InvalidArgument,
                           "CudaBackend: runtime option %s must be a string of method names", key);
  if (str.ok()) {
    const auto text = method_list_text(*str, "runtime option enable_cuda_graph_for_method");
    if (!text.ok()) return text.error();
    list = *text;
  }
  const bool listed = method != nullptr && method_listed(list, method);
  return bool_option(context, compile_specs, "use_cuda_graph", listed);
}

std::atomic<size_t> g_live_delegates{0};

// What init() hands the runtime: the model, the shared stream it runs on
// (use_shared_cuda_stream) and, when asked for, its graph.
struct Delegate {
  std::shared_ptr<SharedStream> shared; // outlives the model's last work
  std::shared_ptr<aoti::LoadedModel> model;
  std::unique_ptr<GraphReplay> graph; // declared last, destroyed first
};

} // namespace

Result<CudaPayloadKeys> parse_cuda_payload(const void* data, size_t size, const char* method_name) {
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
                           "CudaBackend: processed bytes are null (%zu bytes)", size);
  const std::string_view text(static_cast<const char*>(data), size);
  const size_t newline = text.find('\n');
  ET_CHECK_OR_RETURN_ERROR(newline != std::string_view::npos, InvalidProgram,
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
    std::call_once(
        logged, [this] { ET_LOG(Error, "CudaBackend: no CUDA device: %s", unavailable_reason()); });
  }
  return available;
}

const char* CudaBackend::unavailable_reason() const { return probe_devices().reason; }

Result<DelegateHandle*> CudaBackend::init(BackendInitContext& context, FreeableBuffer* processed,
                                          ArrayRef<CompileSpec> compile_specs) const {
  ET_CHECK_OR_RETURN_ERROR(processed != nullptr, InvalidArgument,
                           "CudaBackend: no processed bytes");
  std::string method_storage;
  const char* method_name = method_name_from(context, compile_specs, method_storage);
  const void* bytes = nullptr;
  if (processed->size() != 0) {
    Result<const void*> data = processed->data_safe();
    ET_CHECK_OR_RETURN_ERROR(data.ok(), InvalidProgram,
                             "CudaBackend: processed bytes are not in memory");
    bytes = *data;
  }
  Result<CudaPayloadKeys> keys = parse_cuda_payload(bytes, processed->size(), method_name);
  if (!keys.ok()) {
    return keys.error();
  }
  // Options are checked before any device question, like the payload.
  Result<bool> graph = graph_option(context, compile_specs, method_name, graph_methods());
  if (!graph.ok()) return graph.error();
  Result<bool> share = bool_option(context, compile_specs, "weight_sharing_across_methods",
                                   weight_sharing_.load(std::memory_order_relaxed));
  if (!share.ok()) return share.error();
  Result<bool> one_stream = bool_option(context, compile_specs, "use_shared_cuda_stream",
                                        shared_stream_.load(std::memory_order_relaxed));
  if (!one_stream.ok()) return one_stream.error();
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
  Result<std::shared_ptr<aoti::LoadedModel>> model =
      aoti::LoadedModel::load(so->data(), so->size(), wdata, wsize, device.c_str(),
                              method_name != nullptr ? method_name : "forward", *share);
  // The weights now live on the GPU and the .so in a private mapping.
  so->Free();
  if (weights.ok()) weights->Free();
  processed->Free();
  if (!model.ok()) return model.error();
  std::shared_ptr<SharedStream> shared;
  if (*one_stream) {
    auto stream = SharedStream::acquire((*model)->device_index(), (*model)->label().c_str());
    if (!stream.ok()) return stream.error();
    shared = std::move(*stream);
  }
  std::unique_ptr<Delegate> delegate(new (std::nothrow) Delegate);
  if (delegate != nullptr) {
    delegate->shared = std::move(shared);
    delegate->model = std::move(*model);
    if (*graph) delegate->graph.reset(new (std::nothrow) GraphReplay(*delegate->model));
  }
  ET_CHECK_OR_RETURN_ERROR(delegate != nullptr && (!*graph || delegate->graph != nullptr),
                           MemoryAllocationFailed, "CudaBackend: no memory for the delegate");
  g_live_delegates.fetch_add(1, std::memory_order_relaxed);
  return static_cast<DelegateHandle*>(delegate.release());
}

namespace {

// Whether execute must wait for the stream before returning: host outputs
// are read as soon as it returns, and host inputs may be overwritten then.
// The latter matters only for page-locked inputs: a copy from pageable
// memory has been staged by the driver when cudaMemcpyAsync returns.
bool must_synchronize(const std::vector<IoTensor>& inputs, const std::vector<IoTensor>& outputs) {
  for (const IoTensor& t : outputs) {
    if (!t.on_device) return true;
  }
  for (const IoTensor& t : inputs) {
    if (t.on_device || t.nbytes == 0) continue;
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, t.data) != cudaSuccess) {
      (void)cudaGetLastError();
      return true;
    }
    if (a.type != cudaMemoryTypeUnregistered) return true;
  }
  return false;
}

} // namespace

Error CudaBackend::execute(BackendExecutionContext& /*context*/, DelegateHandle* handle,
                           Span<EValue*> args) const {
  auto* delegate = static_cast<Delegate*>(handle);
  ET_CHECK_OR_RETURN_ERROR(delegate != nullptr && delegate->model != nullptr, DelegateInvalidHandle,
                           "CudaBackend: execute on a null handle");
  const aoti::LoadedModel& model = *delegate->model;
  // Per thread, reused: their capacity stays, so an execute allocates
  // nothing here once warm.
  static thread_local std::vector<IoTensor> inputs, outputs;
  Error e = describe_args(model, args, inputs, outputs);
  if (e != Error::Ok) return e;
  e = check_device_tags(model, inputs, outputs);
  if (e != Error::Ok) return e;
  // A caller's stream, else the shared one, else the delegate's own.
  const auto caller = extension::cuda::getCallerStream();
  cudaStream_t stream = caller.has_value()            ? *caller
                        : delegate->shared != nullptr ? delegate->shared->get()
                                                      : model.own_stream();
  aoti::ScopedCurrentStream current(model.device_index(), stream);
  // The shim's temporaries on the caller's stream are kept for the next
  // execute on it, as on the delegate's own (device_pool.h).
  std::optional<aoti::ScopedCallerStreamCache> cache_caller;
  if (caller.has_value()) cache_caller.emplace(stream);
  bool synced = false;
  e = delegate->graph != nullptr ? delegate->graph->execute(inputs, outputs, stream, &synced)
                                 : run_model(model, inputs, outputs, stream);
  if (e != Error::Ok || synced) return e;
  if (must_synchronize(inputs, outputs)) {
    cudaError_t ce = cudaStreamSynchronize(stream);
    if (ce != cudaSuccess) {
      ET_LOG(Error, "CudaBackend[%s]: %s", model.label().c_str(), cudaGetErrorString(ce));
      return Error::Internal;
    }
  }
  return Error::Ok;
}

void CudaBackend::destroy(DelegateHandle* handle) const {
  if (handle == nullptr) return;
  delete static_cast<Delegate*>(handle);
  g_live_delegates.fetch_sub(1, std::memory_order_relaxed);
}

size_t live_delegate_count() { return g_live_delegates.load(std::memory_order_relaxed); }

} // namespace cuda
} // namespace backends
} // namespace executorch
