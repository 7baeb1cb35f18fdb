// "XnnpackBackend": upstream's XNNPACK delegate on the system XNNPACK. init
// reads the payload (payload.h), builds an XNNPACK runtime from it
// (subgraph.h) on the process's thread pool; execute reshapes the external
// inputs to the arguments' shapes, resizes the outputs to what XNNPACK
// derives, and runs it.
#pragma once

#include <executorch/runtime/backend/interface.h>

namespace xnnpack_backend {

class XnnpackBackend final : public executorch::runtime::BackendInterface {
 public:
  // False when xnn_initialize fails (e.g. a CPU without SSE2).
  bool is_available() const override;

  executorch::runtime::Result<executorch::runtime::DelegateHandle*> init(
      executorch::runtime::BackendInitContext& context,
      executorch::runtime::FreeableBuffer* processed,
      executorch::runtime::ArrayRef<executorch::runtime::CompileSpec> compile_specs) const override;

  // args: upstream's convention, the argument at index i is the value with
  // external id i (inputs first, then outputs).
  executorch::runtime::Error execute(
      executorch::runtime::BackendExecutionContext& context,
      executorch::runtime::DelegateHandle* handle,
      executorch::runtime::Span<executorch::runtime::EValue*> args) const override;

  void destroy(executorch::runtime::DelegateHandle* handle) const override;
};

} // namespace xnnpack_backend
