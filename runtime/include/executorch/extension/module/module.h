// Module: a high-level owner of a program and its loaded methods. It opens
// the file (and any .ptd data files), allocates what each method needs and
// runs methods by name, so simple hosts need none of the lower-level setup.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include <executorch/runtime/backend/backend_options_map.h>
#include <executorch/runtime/core/data_loader.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/core/hierarchical_allocator.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

#ifndef ET_MODULE_NAMESPACE
#define ET_MODULE_NAMESPACE module
#endif

namespace executorch {
namespace extension {
namespace ET_MODULE_NAMESPACE {

using ::executorch::ET_RUNTIME_NAMESPACE::Method;
using ::executorch::ET_RUNTIME_NAMESPACE::MethodMeta;
using ::executorch::ET_RUNTIME_NAMESPACE::Program;
using ::executorch::runtime::EValue;
using ::executorch::runtime::Error;
using ::executorch::runtime::Result;

class EXECUTORCH_API Module {
 public:
  // How the program file (and data files) are read.
  enum class LoadMode {
    File,                     // read with FileDataLoader
    Mmap,                     // mmap, no locking
    MmapUseMlock,             // mmap + mlock; lock failures fail the load
    MmapUseMlockIgnoreErrors, // mmap + mlock; lock failures are ignored
    MmapUseMadvise,           // mmap + madvise(WILLNEED)
  };

  explicit Module(
      const std::string& file_path, const LoadMode load_mode = LoadMode::File,
      std::unique_ptr<::executorch::runtime::EventTracer> event_tracer = nullptr,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> memory_allocator = nullptr,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> temp_allocator = nullptr,
      bool share_memory_arenas = false);

  // data_map_path: a .ptd file holding tensors the program refers to by name.
  explicit Module(
      const std::string& file_path, const std::string& data_map_path,
      const LoadMode load_mode = LoadMode::File,
      std::unique_ptr<::executorch::runtime::EventTracer> event_tracer = nullptr,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> memory_allocator = nullptr,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> temp_allocator = nullptr,
      bool share_memory_arenas = false);

  // Several .ptd files, seen as one MergedDataMap: a key two files hold is
  // an error when the Module loads.
  explicit Module(
      const std::string& file_path, std::vector<std::string> data_files,
      const LoadMode load_mode = LoadMode::File,
      std::unique_ptr<::executorch::runtime::EventTracer> event_tracer = nullptr,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> memory_allocator = nullptr,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> temp_allocator = nullptr,
      bool share_memory_arenas = false);

  explicit Module(
      std::unique_ptr<::executorch::runtime::DataLoader> data_loader,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> memory_allocator = nullptr,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> temp_allocator = nullptr,
      std::unique_ptr<::executorch::runtime::EventTracer> event_tracer = nullptr,
      std::unique_ptr<::executorch::runtime::DataLoader> data_map_loader = nullptr,
      bool share_memory_arenas = false);

  // The program (and whatever loader it reads from) must stay valid.
  explicit Module(
      std::shared_ptr<Program> program,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> memory_allocator = nullptr,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> temp_allocator = nullptr,
      std::unique_ptr<::executorch::runtime::EventTracer> event_tracer = nullptr,
      std::unique_ptr<::executorch::runtime::DataLoader> data_map_loader = nullptr,
      bool share_memory_arenas = false);

  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  Module(Module&&) = delete;
  Module& operator=(Module&&) = delete;
  virtual ~Module();

  // Loads the program (and data files) unless already loaded.
  ET_NODISCARD virtual Error load(
      const Program::Verification verification = Program::Verification::Minimal);
  // Same, and keeps a deep copy of backend_options for every method load.
  ET_NODISCARD virtual Error load(
      const ::executorch::ET_RUNTIME_NAMESPACE::LoadBackendOptionsMap& backend_options,
      const Program::Verification verification = Program::Verification::Minimal);

  virtual bool is_loaded() const;
  std::shared_ptr<Program> program() const;

  // The most memory this Module allocates for planned buffers, all methods
  // together (MemoryBudget: EXECUTORCH_MEMORY_LIMIT, else physical memory).
  // A method whose buffers would pass it fails to load with
  // MemoryAllocationFailed. Applies to methods loaded after the call.
  void set_memory_limit(size_t bytes);
  size_t memory_limit() const;

  Result<size_t> num_methods();
  Result<std::unordered_set<std::string>> method_names();

  // planned_memory: the caller's arenas; when null the Module allocates
  // MethodMeta's planned buffers itself.
  ET_NODISCARD Error load_method(
      const std::string& method_name,
      ::executorch::runtime::HierarchicalAllocator* planned_memory = nullptr,
      ::executorch::runtime::EventTracer* event_tracer = nullptr,
      const ::executorch::ET_RUNTIME_NAMESPACE::LoadBackendOptionsMap* backend_options = nullptr,
      std::vector<::executorch::ET_RUNTIME_NAMESPACE::Kernel> kernel_registry = {});
  ET_DEPRECATED ET_NODISCARD Error load_method(const std::string& method_name,
                                               ::executorch::runtime::EventTracer* event_tracer) {
    return load_method(method_name, nullptr, event_tracer);
  }
  ET_NODISCARD Error load_forward(
      ::executorch::runtime::HierarchicalAllocator* planned_memory = nullptr,
      ::executorch::runtime::EventTracer* event_tracer = nullptr,
      const ::executorch::ET_RUNTIME_NAMESPACE::LoadBackendOptionsMap* backend_options = nullptr,
      std::vector<::executorch::ET_RUNTIME_NAMESPACE::Kernel> kernel_registry = {}) {
    return load_method("forward", planned_memory, event_tracer, backend_options,
                       std::move(kernel_registry));
  }

  // True when the method was loaded (and is now released).
  bool unload_method(const std::string& method_name);
  bool unload_forward() { return unload_method("forward"); }
  bool is_method_loaded(const std::string& method_name) const;

  Result<MethodMeta> method_meta(const std::string& method_name);

  // Loads the method if needed, sets inputs[i] (None entries keep what
  // set_input stored), runs it and returns every output. Outputs point into
  // method memory: valid until the next run, an unload or destruction.
  ET_NODISCARD virtual Result<std::vector<EValue>> execute(const std::string& method_name,
                                                           const std::vector<EValue>& input_values);
  ET_NODISCARD Result<std::vector<EValue>> execute(const std::string& method_name,
                                                   const EValue& input_value) {
    return execute(method_name, std::vector<EValue>{input_value});
  }
  ET_NODISCARD Result<std::vector<EValue>> execute(const std::string& method_name) {
    return execute(method_name, std::vector<EValue>{});
  }

  // First output only; InvalidArgument when the method has none.
  ET_NODISCARD Result<EValue> get(const std::string& method_name,
                                  const std::vector<EValue>& input_values);
  ET_NODISCARD Result<EValue> get(const std::string& method_name, const EValue& input_value) {
    return get(method_name, std::vector<EValue>{input_value});
  }
  ET_NODISCARD Result<EValue> get(const std::string& method_name) {
    return get(method_name, std::vector<EValue>{});
  }

  ET_NODISCARD Result<std::vector<EValue>> forward(const std::vector<EValue>& input_values) {
    return execute("forward", input_values);
  }
  ET_NODISCARD Result<std::vector<EValue>> forward(const EValue& input_value) {
    return execute("forward", input_value);
  }
  ET_NODISCARD Result<std::vector<EValue>> forward() { return execute("forward"); }

  // Stores an input for later runs (the value is shallow: a tensor's data
  // must stay alive until then).
  ET_NODISCARD Error set_input(const std::string& method_name, const EValue& input_value,
                               size_t input_index);
  ET_NODISCARD Error set_input(const EValue& input_value, size_t input_index) {
    return set_input("forward", input_value, input_index);
  }
  ET_NODISCARD Error set_inputs(const std::string& method_name,
                                const std::vector<EValue>& input_values);
  ET_NODISCARD Error set_inputs(const std::vector<EValue>& input_values) {
    return set_inputs("forward", input_values);
  }

  // Points a (tensor) output at caller storage.
  ET_NODISCARD Error set_output(const std::string& method_name, EValue output_value,
                                size_t output_index = 0);
  ET_NODISCARD Error set_output(EValue output_value, size_t output_index = 0) {
    return set_output("forward", std::move(output_value), output_index);
  }
  ET_NODISCARD Error set_outputs(const std::string& method_name,
                                 const std::vector<EValue>& output_values);
  ET_NODISCARD Error set_outputs(const std::vector<EValue>& output_values) {
    return set_outputs("forward", output_values);
  }

  ET_NODISCARD Result<std::vector<EValue>> get_outputs(const std::string& method_name);
  ET_NODISCARD Result<std::vector<EValue>> get_outputs() { return get_outputs("forward"); }
  ET_NODISCARD Result<EValue> get_output(const std::string& method_name, size_t output_index = 0);
  ET_NODISCARD Result<EValue> get_output(size_t output_index = 0) {
    return get_output("forward", output_index);
  }

  ::executorch::runtime::EventTracer* event_tracer() const;
  const ::executorch::ET_RUNTIME_NAMESPACE::LoadBackendOptionsMap& backend_options() const;

  // The loaded Method itself (loading it if needed).
  ET_DEPRECATED ET_NODISCARD Result<Method*> method(const std::string& method_name);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace ET_MODULE_NAMESPACE

using ET_MODULE_NAMESPACE::Module;

} // namespace extension
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::extension::ET_MODULE_NAMESPACE::Module;
} // namespace executor
} // namespace torch
