// An executor runner in upstream's style (examples/portable/executor_runner):
// FileDataLoader -> Program -> planned memory from MethodMeta -> Method,
// inputs from prepare_input_tensors (all ones), outputs printed with
// evalue_edge_items. Usage: executor_runner MODEL.pte [EXPECTED_FIRST_OUTPUT]
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/evalue_util/print_evalue.h>
#include <executorch/extension/runner_util/inputs.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/runtime.h>

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

static uint8_t method_allocator_pool[1024U * 1024U];
static uint8_t temp_allocator_pool[64U * 1024U];

int main(int argc, char** argv) {
  executorch::runtime::runtime_init();
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL.pte [EXPECTED]\n", argv[0]);
    return 2;
  }
  Result<FileDataLoader> loader = FileDataLoader::from(argv[1]);
  ET_CHECK_MSG(loader.ok(), "FileDataLoader::from() failed: 0x%" PRIx32,
               static_cast<uint32_t>(loader.error()));
  auto owned_loader = std::make_unique<FileDataLoader>(std::move(loader.get()));

  Result<Program> program = Program::load(owned_loader.get());
  if (!program.ok()) {
    ET_LOG(Error, "Failed to parse model file %s", argv[1]);
    return 1;
  }
  ET_LOG(Info, "Model file %s is loaded.", argv[1]);

  const auto method_name_result = program->get_method_name(0);
  ET_CHECK_MSG(method_name_result.ok(), "Program has no methods");
  const char* method_name = *method_name_result;

  Result<MethodMeta> method_meta = program->method_meta(method_name);
  ET_CHECK_MSG(method_meta.ok(), "Failed to get method_meta for %s: 0x%" PRIx32, method_name,
               static_cast<uint32_t>(method_meta.error()));

  MemoryAllocator method_allocator{
      MemoryAllocator(sizeof(method_allocator_pool), method_allocator_pool)};
  MemoryAllocator temp_allocator{MemoryAllocator(sizeof(temp_allocator_pool), temp_allocator_pool)};

  std::vector<std::unique_ptr<uint8_t[]>> planned_buffers;
  std::vector<Span<uint8_t>> planned_spans;
  const size_t num_planned = method_meta->num_memory_planned_buffers();
  for (size_t id = 0; id < num_planned; ++id) {
    const size_t buffer_size =
        static_cast<size_t>(method_meta->memory_planned_buffer_size(id).get());
    ET_LOG(Info, "Setting up planned buffer %zu, size %zu.", id, buffer_size);
    planned_buffers.push_back(std::make_unique<uint8_t[]>(buffer_size));
    planned_spans.push_back({planned_buffers.back().get(), buffer_size});
  }
  HierarchicalAllocator planned_memory({planned_spans.data(), planned_spans.size()});
  MemoryManager memory_manager(&method_allocator, &planned_memory, &temp_allocator);
  if (memory_manager.has_device_memory()) {
    ET_LOG(Info, "Planned memory has device buffers");
  }

  Result<Method> method = program->load_method(method_name, &memory_manager);
  ET_CHECK_MSG(method.ok(), "Loading of method %s failed with status 0x%" PRIx32, method_name,
               static_cast<uint32_t>(method.error()));

  auto inputs = executorch::extension::prepare_input_tensors(*method);
  ET_CHECK_MSG(inputs.ok(), "Could not prepare inputs: 0x%" PRIx32,
               static_cast<uint32_t>(inputs.error()));

  Error status = method->execute();
  ET_CHECK_MSG(status == Error::Ok, "Execution of method %s failed with status 0x%" PRIx32,
               method_name, static_cast<uint32_t>(status));
  ET_LOG(Info, "Model executed successfully.");

  std::vector<EValue> outputs(method->outputs_size());
  status = method->get_outputs(outputs.data(), outputs.size());
  ET_CHECK(status == Error::Ok);
  std::cout << executorch::extension::evalue_edge_items(100);
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::cout << "Output " << i << ": " << outputs[i] << std::endl;
  }

  if (argc > 2) {
    const double expected = std::atof(argv[2]);
    if (outputs.empty() || !outputs[0].isTensor() ||
        std::fabs(outputs[0].toTensor().const_data_ptr<float>()[0] - expected) > 1e-6) {
      std::fprintf(stderr, "executor_runner: first output is not %g\n", expected);
      return 1;
    }
  }
  return 0;
}
