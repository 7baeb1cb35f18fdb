// BundledModule: Module reads the program stored inside the bundle through a
// loader that also owns the bundle's bytes when from_file read them, so the
// bytes live exactly as long as the program and methods made from them.
#include <executorch/extension/module/bundled_module.h>

#include <cstring>
#include <utility>

#include <executorch/devtools/bundled_program/bundled_program.h>
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/runtime/platform/log.h>

#include "bundled_program_internal.h"

namespace executorch {
namespace extension {
namespace ET_BUNDLED_MODULE_NAMESPACE {

using ::executorch::runtime::DataLoader;
using ::executorch::runtime::Error;
using ::executorch::runtime::EValue;
using ::executorch::runtime::EventTracer;
using ::executorch::runtime::FreeableBuffer;
using ::executorch::runtime::MemoryAllocator;
using ::executorch::runtime::Result;
namespace bp = ::executorch::bundled_program::internal;

namespace {

// Serves the program bytes inside a bundle (none when the bundle is not
// usable: loading the program then fails cleanly).
class BundleProgramLoader final : public DataLoader {
 public:
  BundleProgramLoader(std::unique_ptr<uint8_t[]> owned, const uint8_t* program, size_t size)
      : owned_(std::move(owned)), program_(program), size_(size) {}

  ET_NODISCARD Result<FreeableBuffer> load(size_t offset, size_t size,
                                           const SegmentInfo& segment_info) const override {
    (void)segment_info;
    ET_CHECK_OK_OR_RETURN_ERROR(check_range(offset, size));
    return FreeableBuffer(program_ + offset, size, /*free_fn=*/nullptr);
  }

  ET_NODISCARD Error load_into(size_t offset, size_t size, const SegmentInfo& segment_info,
                               void* buffer) const override {
    (void)segment_info;
    ET_CHECK_OR_RETURN_ERROR(buffer != nullptr || size == 0, InvalidArgument,
                             "Bundled program loader: null destination buffer");
    ET_CHECK_OK_OR_RETURN_ERROR(check_range(offset, size));
    if (size != 0) {
      std::memcpy(buffer, program_ + offset, size);
    }
    return Error::Ok;
  }

  ET_NODISCARD Result<size_t> size() const override { return size_; }

 private:
  Error check_range(size_t offset, size_t size) const {
    ET_CHECK_OR_RETURN_ERROR(
        offset <= size_ && size <= size_ - offset, InvalidArgument,
        "Bundled program loader: range [%zu, +%zu) is outside the %zu-byte program", offset, size,
        size_);
    return Error::Ok;
  }

  std::unique_ptr<uint8_t[]> owned_; // the whole bundle, when from_file read it
  const uint8_t* program_;
  size_t size_;
};

// Ok when the bundle can be used; else the error execute() and
// verify_method_outputs() report (upstream answers InvalidArgument for bytes
// that are not a bundled program).
Error bundle_status(const void* bytes, size_t size) {
  auto bundle = bp::verified_bundle(bytes, size);
  if (!bundle.ok()) {
    return bundle.error() == Error::NotSupported ? Error::InvalidArgument : bundle.error();
  }
  const auto* program = (*bundle)->program();
  ET_CHECK_OR_RETURN_ERROR(program != nullptr && program->size() > 0, InvalidProgram,
                           "Bundled program holds no program");
  return Error::Ok;
}

std::unique_ptr<DataLoader> program_loader(const void* bytes, size_t size,
                                           std::unique_ptr<uint8_t[]> owned) {
  const uint8_t* program = nullptr;
  size_t program_size = 0;
  if (bundle_status(bytes, size) == Error::Ok) {
    const auto* p = bundled_program_flatbuffer::GetBundledProgram(bytes)->program();
    program = p->data();
    program_size = p->size();
  }
  return std::make_unique<BundleProgramLoader>(std::move(owned), program, program_size);
}

} // namespace

BundledModule::BundledModule(const void* bundled_program_ptr,
                             std::unique_ptr<MemoryAllocator> memory_allocator,
                             std::unique_ptr<MemoryAllocator> temp_allocator,
                             std::unique_ptr<EventTracer> event_tracer,
                             std::unique_ptr<DataLoader> data_map_loader)
    : BundledModule(static_cast<const uint8_t*>(bundled_program_ptr), bp::kUnknownSize, nullptr,
                    std::move(memory_allocator), std::move(temp_allocator), std::move(event_tracer),
                    std::move(data_map_loader)) {}

BundledModule::BundledModule(const void* bundled_program_ptr, size_t bundled_program_size,
                             std::unique_ptr<MemoryAllocator> memory_allocator,
                             std::unique_ptr<MemoryAllocator> temp_allocator,
                             std::unique_ptr<EventTracer> event_tracer,
                             std::unique_ptr<DataLoader> data_map_loader)
    : BundledModule(static_cast<const uint8_t*>(bundled_program_ptr), bundled_program_size, nullptr,
                    std::move(memory_allocator), std::move(temp_allocator), std::move(event_tracer),
                    std::move(data_map_loader)) {}

BundledModule::BundledModule(const uint8_t* bytes, size_t size, std::unique_ptr<uint8_t[]> owned,
                             std::unique_ptr<MemoryAllocator> memory_allocator,
                             std::unique_ptr<MemoryAllocator> temp_allocator,
                             std::unique_ptr<EventTracer> event_tracer,
                             std::unique_ptr<DataLoader> data_map_loader)
    : Module(program_loader(bytes, size, std::move(owned)), std::move(memory_allocator),
             std::move(temp_allocator), std::move(event_tracer), std::move(data_map_loader)),
      bundled_program_ptr_(bytes),
      bundled_program_size_(size),
      bundle_status_(bundle_status(bytes, size)) {}

BundledModule::~BundledModule() = default;

Result<std::unique_ptr<BundledModule>> BundledModule::from_file(
    const std::string& file_path, std::unique_ptr<MemoryAllocator> memory_allocator,
    std::unique_ptr<MemoryAllocator> temp_allocator, std::unique_ptr<EventTracer> event_tracer,
    std::unique_ptr<DataLoader> data_map_loader) {
  auto loader = FileDataLoader::from(file_path.c_str());
  if (!loader.ok()) {
    return loader.error();
  }
  auto size = loader->size();
  if (!size.ok()) {
    return size.error();
  }
  // new[] gives the alignment of max_align_t (16), enough for the reader.
  std::unique_ptr<uint8_t[]> owned(new (std::nothrow) uint8_t[*size == 0 ? 1 : *size]);
  ET_CHECK_OR_RETURN_ERROR(owned != nullptr, MemoryAllocationFailed,
                           "Cannot allocate %zu bytes for bundled program %s", *size,
                           file_path.c_str());
  if (*size != 0) {
    const Error read = loader->load_into(
        0, *size, DataLoader::SegmentInfo(DataLoader::SegmentInfo::Type::Program), owned.get());
    ET_CHECK_OK_OR_RETURN_ERROR(read, "Cannot read bundled program %s", file_path.c_str());
  }
  const uint8_t* bytes = owned.get();
  return std::unique_ptr<BundledModule>(new BundledModule(
      bytes, *size, std::move(owned), std::move(memory_allocator), std::move(temp_allocator),
      std::move(event_tracer), std::move(data_map_loader)));
}

// The Method under method_name, loaded if needed.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static Result<::executorch::ET_RUNTIME_NAMESPACE::Method*> loaded_method(Module& m,
                                                                         const std::string& name) {
  return m.method(name);
}
#pragma GCC diagnostic pop

Result<std::vector<EValue>> BundledModule::execute(const std::string& method_name,
                                                   const size_t testset_idx) {
  if (bundle_status_ != Error::Ok) {
    ET_LOG(Error, "BundledModule: the buffer is not a usable bundled program");
    return bundle_status_;
  }
  auto method = loaded_method(*this, method_name);
  ET_CHECK_OK_OR_RETURN_ERROR(method.error());
  ET_CHECK_OK_OR_RETURN_ERROR(
      bp::load_bundled_input(**method, bundled_program_ptr_, bundled_program_size_, testset_idx));
  ET_CHECK_OK_OR_RETURN_ERROR((*method)->execute());
  std::vector<EValue> outputs((*method)->outputs_size());
  ET_CHECK_OK_OR_RETURN_ERROR((*method)->get_outputs(outputs.data(), outputs.size()));
  return outputs;
}

Error BundledModule::verify_method_outputs(const std::string& method_name, const size_t testset_idx,
                                           double rtol, double atol) {
  if (bundle_status_ != Error::Ok) {
    ET_LOG(Error, "BundledModule: the buffer is not a usable bundled program");
    return bundle_status_;
  }
  auto method = loaded_method(*this, method_name);
  ET_CHECK_OK_OR_RETURN_ERROR(method.error());
  return bp::verify_method_outputs(**method, bundled_program_ptr_, bundled_program_size_,
                                   testset_idx, rtol, atol);
}

} // namespace ET_BUNDLED_MODULE_NAMESPACE
} // namespace extension
} // namespace executorch
