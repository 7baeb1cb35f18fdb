// BundledModule: a Module over the program inside a bundled program (.bpte),
// which can also run a method on one of the file's test inputs and check the
// outputs against the file's references (devtools/bundled_program).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <executorch/extension/module/module.h>
#include <executorch/runtime/platform/compiler.h>
#include <executorch/runtime/platform/export.h>

#define ET_BUNDLED_MODULE_NAMESPACE bundled_module

namespace executorch {
namespace extension {

using ET_MODULE_NAMESPACE::Module;

namespace ET_BUNDLED_MODULE_NAMESPACE {

class EXECUTORCH_API BundledModule : public Module {
 public:
  // Over a bundled program in memory that must stay valid while the module
  // lives. Without a length the buffer is read as one complete bundled
  // program; prefer the overload below for bytes of unknown origin.
  explicit BundledModule(
      const void* bundled_program_ptr,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> memory_allocator = nullptr,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> temp_allocator = nullptr,
      std::unique_ptr<::executorch::runtime::EventTracer> event_tracer = nullptr,
      std::unique_ptr<::executorch::runtime::DataLoader> data_map_loader = nullptr);

  // Same, verified within `bundled_program_size` bytes (not in upstream).
  BundledModule(const void* bundled_program_ptr, size_t bundled_program_size,
                std::unique_ptr<::executorch::runtime::MemoryAllocator> memory_allocator = nullptr,
                std::unique_ptr<::executorch::runtime::MemoryAllocator> temp_allocator = nullptr,
                std::unique_ptr<::executorch::runtime::EventTracer> event_tracer = nullptr,
                std::unique_ptr<::executorch::runtime::DataLoader> data_map_loader = nullptr);

  BundledModule(const BundledModule&) = delete;
  BundledModule& operator=(const BundledModule&) = delete;
  BundledModule(BundledModule&&) = delete;
  BundledModule& operator=(BundledModule&&) = delete;
  ~BundledModule() override;

  // Reads the whole file into memory the module owns. Only reading the file
  // can fail here; a file that is not a (valid) bundled program makes
  // execute() and verify_method_outputs() fail.
  ET_NODISCARD static ::executorch::runtime::Result<std::unique_ptr<BundledModule>> from_file(
      const std::string& file_path,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> memory_allocator = nullptr,
      std::unique_ptr<::executorch::runtime::MemoryAllocator> temp_allocator = nullptr,
      std::unique_ptr<::executorch::runtime::EventTracer> event_tracer = nullptr,
      std::unique_ptr<::executorch::runtime::DataLoader> data_map_loader = nullptr);

  using Module::execute;

  // Loads the method if needed, sets its inputs from test case
  // `testset_idx`, runs it and returns its outputs (valid until the next
  // run). InvalidArgument when the bytes are not a bundled program, the
  // method does not exist or has no such test case.
  ET_NODISCARD ::executorch::runtime::Result<std::vector<::executorch::runtime::EValue>> execute(
      const std::string& method_name, const size_t testset_idx);

  // Compares the method's outputs (of its last run) with the expected
  // outputs of test case `testset_idx`; see
  // bundled_program::verify_method_outputs. NotFound on a mismatch.
  ET_NODISCARD ::executorch::runtime::Error verify_method_outputs(const std::string& method_name,
                                                                  const size_t testset_idx,
                                                                  double rtol = 1e-5,
                                                                  double atol = 1e-8);

 private:
  BundledModule(const uint8_t* bytes, size_t size, std::unique_ptr<uint8_t[]> owned,
                std::unique_ptr<::executorch::runtime::MemoryAllocator> memory_allocator,
                std::unique_ptr<::executorch::runtime::MemoryAllocator> temp_allocator,
                std::unique_ptr<::executorch::runtime::EventTracer> event_tracer,
                std::unique_ptr<::executorch::runtime::DataLoader> data_map_loader);

  const void* bundled_program_ptr_;
  size_t bundled_program_size_; // SIZE_MAX: not known (the unsized constructor)
  // Ok, or why the bytes cannot be used (checked once, at construction).
  ::executorch::runtime::Error bundle_status_;
};

} // namespace ET_BUNDLED_MODULE_NAMESPACE

// Where older upstream code finds it.
using ET_BUNDLED_MODULE_NAMESPACE::BundledModule;

} // namespace extension
} // namespace executorch
