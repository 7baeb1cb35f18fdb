// Program: a loaded .pte file. Cheap to load (the FlatBuffer is verified and
// validated, constants stay in the loader's memory); methods are loaded from
// it with caller-supplied memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/backend/backend_options_map.h>
#include <executorch/runtime/core/data_loader.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/executor/memory_manager.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/method_meta.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/assert.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

namespace internal {
struct ProgramState;
} // namespace internal

class EXECUTORCH_API Program final {
 public:
  // Both levels verify the same way: a file is untrusted, so every load
  // runs the FlatBuffers Verifier over the whole program and then the
  // semantic validation (indices in range, sizes bounded and overflow-free,
  // segments inside the file). The two names are kept for upstream's API.
  enum class Verification : uint8_t {
    Minimal,
    InternalConsistency,
  };

  // Unscoped, as upstream: Program::CompatibleVersion and
  // Program::HeaderStatus::CompatibleVersion both name a value.
  enum HeaderStatus {
    CompatibleVersion,
    IncompatibleVersion,
    NotPresent,
    ShortData,
  };

  // The loader must outlive the Program.
  ET_NODISCARD static Result<Program> load(DataLoader* loader,
                                           Verification verification = Verification::Minimal);
  ET_DEPRECATED ET_NODISCARD static Result<Program> Load(
      DataLoader* loader, Verification verification = Verification::Minimal) {
    return load(loader, verification);
  }

  Program(Program&& rhs) noexcept;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  Program& operator=(Program&&) = delete;
  ~Program();

  size_t num_methods() const;
  Result<const char*> get_method_name(size_t method_index) const;
  Result<MethodMeta> method_meta(const char* method_name) const;

  // Builds an executable Method: resolves every operator and initializes
  // every delegate. named_data_map supplies external tensors (.ptd);
  // kernel_registry holds method-scoped kernels that win over the registry.
  Result<Method> load_method(const char* method_name, MemoryManager* memory_manager,
                             EventTracer* event_tracer = nullptr,
                             const NamedDataMap* named_data_map = nullptr,
                             const LoadBackendOptionsMap* backend_options = nullptr,
                             Span<const Kernel> kernel_registry = {}) const;

  // nbytes of constant buffer buffer_idx (either constant storage form).
  Result<const void*> get_constant_buffer_data(size_t buffer_idx, size_t nbytes) const;
  // The program's own named data (Program.named_data), if any.
  Result<const NamedDataMap*> get_named_data_map() const;

  // The bytes of entry segment_info.segment_index of the program's segment
  // table, loaded through the program's DataLoader with segment_info (whose
  // other fields the loader may use). NotFound when the program has no
  // segments or the index is out of range; the loader's error otherwise.
  ET_NODISCARD Result<FreeableBuffer> LoadSegment(
      const DataLoader::SegmentInfo& segment_info) const;

  // The pytree encoding of the method's outputs (ContainerMetadata's
  // encoded_out_str). InvalidArgument for an unknown method, InvalidProgram
  // when the plan has none.
  ET_DEPRECATED Result<const char*> get_output_flattening_encoding(
      const char* method_name = "forward") const;

  // How many bytes check_header() is meant to see (it needs only 8).
  static constexpr size_t kMinHeadBytes = 64;
  // Whether data starts like an ExecuTorch program this runtime reads.
  static HeaderStatus check_header(const void* data, size_t size);

  // Internal state; opaque to users.
  const internal::ProgramState* internal_state() const { return state_; }

 private:
  explicit Program(internal::ProgramState* state) : state_(state) {}
  internal::ProgramState* state_;
};

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::ET_RUNTIME_NAMESPACE::Program;
} // namespace executor
} // namespace torch
