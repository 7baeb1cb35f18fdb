// CudaBackend: the "CudaBackend" delegate (AOTInductor-compiled subgraphs):
// init loads the model .so and its weights, execute runs it on the caller's
// or the delegate's own stream, destroy frees both.
#pragma once

#include <atomic>
#include <string>

#include <executorch/runtime/backend/interface.h>

namespace executorch {
namespace backends {
namespace cuda {

// Where init() finds the model .so and its weights in the named data map.
struct CudaPayloadKeys {
  std::string so_key;
  std::string weights_key;
};

// Parses a CudaBackend payload. Processed bytes "<so_key>\n<weights_key>"
// (1.4 and later), or, when they are empty, the 1.1-1.3 keys
// "<method>_so_blob"/"<method>_weights_blob" (or "so_blob"/"weights_blob"
// when no method name is known). InvalidProgram names what was wrong.
runtime::Result<CudaPayloadKeys> parse_cuda_payload(const void* data, size_t size,
                                                    const char* method_name);

// Delegates initialized and not yet destroyed, in this process (a
// diagnostic: a program with two CUDA partitions makes two).
size_t live_delegate_count();

class CudaBackend : public runtime::BackendInterface {
 public:
  // True when the CUDA runtime reports at least one device. The first call
  // asks cudaGetDeviceCount (never at load time); errors mean "false".
  bool is_available() const override;

  runtime::Result<runtime::DelegateHandle*> init(
      runtime::BackendInitContext& context, runtime::FreeableBuffer* processed,
      runtime::ArrayRef<runtime::CompileSpec> compile_specs) const override;

  runtime::Error execute(runtime::BackendExecutionContext& context, runtime::DelegateHandle* handle,
                         runtime::Span<runtime::EValue*> args) const override;

  void destroy(runtime::DelegateHandle* handle) const override;

  // Diagnostics (backend_options.cpp): "caller_stream", "cuda_graph_launches",
  // "live_delegates", "weight_sharing_across_methods", "live_tensor_handles",
  // "live_storages", "pool_reserved_kib", "pool_used_kib", "pool_cached_kib".
  runtime::Error get_option(runtime::BackendOptionContext& context,
                            runtime::Span<runtime::BackendOption>& options) override;

  // "weight_sharing_across_methods" (bool): the default for delegates
  // initialized from now on (a runtime option at load wins), as upstream's
  // runners set it before loading the methods of an LLM (aoti/
  // shared_constants.h). Other keys are left alone.
  runtime::Error set_option(runtime::BackendOptionContext& context,
                            const runtime::Span<runtime::BackendOption>& options) override;

  // The CUDA runtime's message for why no device is usable ("" if one is).
  const char* unavailable_reason() const;

 private:
  std::atomic<bool> weight_sharing_{false};
};

} // namespace cuda
} // namespace backends
} // namespace executorch
