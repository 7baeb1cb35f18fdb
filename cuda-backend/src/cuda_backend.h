// CudaBackend: the "CudaBackend" delegate (AOTInductor-compiled subgraphs):
// init loads the model .so and its weights, execute runs it on the caller's
// or the delegate's own stream, destroy frees both.
#pragma once

#include <atomic>
#include <mutex>
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

  // Diagnostics and settings (backend_options.cpp): "caller_stream",
  // "cuda_graph_launches", "live_delegates", "weight_sharing_across_methods",
  // "use_shared_cuda_stream", "enable_cuda_graph_for_method",
  // "shared_cuda_stream", "shared_stream_delegates", "live_tensor_handles",
  // "live_storages", "pool_reserved_kib", "pool_used_kib", "pool_cached_kib",
  // "outputs_in_place".
  runtime::Error get_option(runtime::BackendOptionContext& context,
                            runtime::Span<runtime::BackendOption>& options) override;

  // Defaults for the delegates initialized from now on (a runtime option at
  // load, or a compile spec, wins), as upstream's runners set them before
  // loading methods: "weight_sharing_across_methods" (bool; aoti/
  // shared_constants.h), "use_shared_cuda_stream" (bool; shared_stream.h),
  // "enable_cuda_graph_for_method" (string: the methods that run as
  // use_cuda_graph does, method_list.h). A value of another type is
  // InvalidArgument and changes nothing; an unknown key is logged, skipped.
  runtime::Error set_option(runtime::BackendOptionContext& context,
                            const runtime::Span<runtime::BackendOption>& options) override;

  // The CUDA runtime's message for why no device is usable ("" if one is).
  const char* unavailable_reason() const;

 private:
  std::string graph_methods() const;

  std::atomic<bool> weight_sharing_{false};
  std::atomic<bool> shared_stream_{false};
  mutable std::mutex graph_methods_mu_;
  std::string graph_methods_; // under graph_methods_mu_
};

} // namespace cuda
} // namespace backends
} // namespace executorch
