// The backend interface and the process-wide backend registry. The registry
// lives in libexecutorch.so.1 only: every backend library registers into the
// same table, however it was loaded.
#pragma once

#include <cstddef>

#include <executorch/runtime/backend/backend_execution_context.h>
#include <executorch/runtime/backend/backend_init_context.h>
#include <executorch/runtime/backend/backend_option_context.h>
#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/core/array_ref.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

struct SizedBuffer {
  void* buffer;
  size_t nbytes;
};

struct CompileSpec {
  const char* key;
  SizedBuffer value;
};

using DelegateHandle = void;

class EXECUTORCH_API BackendInterface {
 public:
  virtual ~BackendInterface() = 0;

  ET_NODISCARD virtual bool is_available() const = 0;

  // Builds the delegate's handle from its processed bytes; may call
  // processed->Free() once it no longer needs them.
  ET_NODISCARD virtual Result<DelegateHandle*> init(BackendInitContext& context,
                                                    FreeableBuffer* processed,
                                                    ArrayRef<CompileSpec> compile_specs) const = 0;

  // args: the delegate's inputs, then its outputs.
  ET_NODISCARD virtual Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                                     Span<EValue*> args) const = 0;

  ET_NODISCARD virtual Error set_option(BackendOptionContext& context,
                                        const Span<BackendOption>& backend_options);
  ET_NODISCARD virtual Error get_option(BackendOptionContext& context,
                                        Span<BackendOption>& backend_options);

  virtual void destroy(DelegateHandle* handle) const;
};

struct Backend {
  const char* name;
  BackendInterface* backend;
};

// Room for this many backends in the process.
constexpr size_t kMaxRegisteredBackends = 16;

// Adds a backend. A name already taken returns InvalidArgument and keeps the
// first; a full table returns Internal. The name must outlive registration.
ET_NODISCARD EXECUTORCH_API Error register_backend(const Backend& backend);

// Removes the entry whose name AND interface match (a backend library calls
// this when it is unloaded). NotFound if there is no such entry.
ET_NODISCARD EXECUTORCH_API Error unregister_backend(const Backend& backend);

// nullptr when no backend of that name is registered.
EXECUTORCH_API BackendInterface* get_backend_class(const char* name);
EXECUTORCH_API size_t get_num_registered_backends();
// InvalidArgument when index is out of range.
EXECUTORCH_API Result<const char*> get_backend_name(size_t index);

// Forward options to a registered backend; NotFound for an unknown name.
ET_NODISCARD EXECUTORCH_API Error set_option(const char* backend_name,
                                             const Span<BackendOption> backend_options);
ET_NODISCARD EXECUTORCH_API Error get_option(const char* backend_name,
                                             Span<BackendOption> backend_options);

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::ET_RUNTIME_NAMESPACE::Backend;
using ::executorch::ET_RUNTIME_NAMESPACE::BackendExecutionContext;
using ::executorch::ET_RUNTIME_NAMESPACE::BackendInitContext;
using ::executorch::ET_RUNTIME_NAMESPACE::BackendInterface;
using ::executorch::ET_RUNTIME_NAMESPACE::CompileSpec;
using ::executorch::ET_RUNTIME_NAMESPACE::DelegateHandle;
using ::executorch::ET_RUNTIME_NAMESPACE::get_backend_class;
using ::executorch::ET_RUNTIME_NAMESPACE::register_backend;
using ::executorch::ET_RUNTIME_NAMESPACE::SizedBuffer;
using PyTorchBackendInterface = ::executorch::ET_RUNTIME_NAMESPACE::BackendInterface;
} // namespace executor
} // namespace torch
