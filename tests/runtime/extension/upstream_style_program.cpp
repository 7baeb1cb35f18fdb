// Written the way the upstream "running a model in C++" tutorial does it:
// FileDataLoader -> Program -> MethodMeta planned buffers -> MemoryManager
// -> Method. Runs add.pte and checks 3.5 + -1.25 = 2.25. Only public headers.
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/runtime.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::aten::TensorImpl;
using executorch::extension::FileDataLoader;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::HierarchicalAllocator;
using executorch::runtime::MemoryAllocator;
using executorch::runtime::MemoryManager;
using executorch::runtime::Method;
using executorch::runtime::MethodMeta;
using executorch::runtime::Program;
using executorch::runtime::Result;
using executorch::runtime::Span;

static uint8_t method_allocator_pool[4 * 1024U * 1024U];

int main(int argc, char** argv) {
  executorch::runtime::runtime_init();

  std::string path;
  if (argc > 1) {
    path = argv[1];
  } else {
    const char* dir = std::getenv("ET_CONFORMANCE_DIR");
    path = std::string(dir ? dir : ET_CONFORMANCE_DIR_DEFAULT) + "/add.pte";
  }

  Result<FileDataLoader> loader = FileDataLoader::from(path.c_str());
  if (!loader.ok()) {
    ET_LOG(Error, "FileDataLoader::from() failed: 0x%" PRIx32, (uint32_t)loader.error());
    return 1;
  }
  // executor_runner keeps the loader on the heap.
  auto owned_loader = std::make_unique<FileDataLoader>(std::move(loader.get()));

  Result<Program> program = Program::load(owned_loader.get());
  if (!program.ok()) {
    ET_LOG(Error, "Failed to parse model file %s", path.c_str());
    return 1;
  }

  const char* method_name = nullptr;
  {
    const auto method_name_result = program->get_method_name(0);
    ET_CHECK_MSG(method_name_result.ok(), "Program has no methods");
    method_name = *method_name_result;
  }

  Result<MethodMeta> method_meta = program->method_meta(method_name);
  ET_CHECK_MSG(method_meta.ok(), "Failed to get method_meta for %s: 0x%" PRIx32, method_name,
               (uint32_t)method_meta.error());

  MemoryAllocator method_allocator{
      MemoryAllocator(sizeof(method_allocator_pool), method_allocator_pool)};

  std::vector<std::unique_ptr<uint8_t[]>> planned_buffers;
  std::vector<Span<uint8_t>> planned_spans;
  size_t num_memory_planned_buffers = method_meta->num_memory_planned_buffers();
  for (size_t id = 0; id < num_memory_planned_buffers; ++id) {
    size_t buffer_size = static_cast<size_t>(method_meta->memory_planned_buffer_size(id).get());
    planned_buffers.push_back(std::make_unique<uint8_t[]>(buffer_size));
    planned_spans.push_back({planned_buffers.back().get(), buffer_size});
  }
  HierarchicalAllocator planned_memory({planned_spans.data(), planned_spans.size()});

  MemoryManager memory_manager(&method_allocator, &planned_memory);

  Result<Method> method = program->load_method(method_name, &memory_manager);
  if (!method.ok()) {
    ET_LOG(Error, "Loading of method %s failed with status 0x%" PRIx32, method_name,
           (uint32_t)method.error());
    return 1;
  }

  float a_data[1] = {3.5f};
  float b_data[1] = {-1.25f};
  Tensor::SizesType sizes[] = {1};
  Tensor::DimOrderType dim_order[] = {0};
  TensorImpl a_impl(ScalarType::Float, 1, sizes, a_data, dim_order);
  TensorImpl b_impl(ScalarType::Float, 1, sizes, b_data, dim_order);
  Error status = method->set_input(EValue(Tensor(&a_impl)), 0);
  ET_CHECK_MSG(status == Error::Ok, "set_input 0 failed: 0x%" PRIx32, (uint32_t)status);
  status = method->set_input(EValue(Tensor(&b_impl)), 1);
  ET_CHECK_MSG(status == Error::Ok, "set_input 1 failed: 0x%" PRIx32, (uint32_t)status);

  status = method->execute();
  if (status != Error::Ok) {
    ET_LOG(Error, "Execution of method %s failed with status 0x%" PRIx32, method_name,
           (uint32_t)status);
    return 1;
  }

  const EValue& output = method->get_output(0);
  if (!output.isTensor()) {
    ET_LOG(Error, "Output 0 is not a tensor");
    return 1;
  }
  const float got = output.toTensor().const_data_ptr<float>()[0];
  std::printf("%s: 3.5 + -1.25 = %g\n", method_name, static_cast<double>(got));
  return got == 2.25f ? 0 : 1;
}
