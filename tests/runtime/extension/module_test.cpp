// Module (and prepare_input_tensors) against the upstream-exported add.pte:
// forward(a: float[1], b: float[1]) = a + b.
#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>
#include <executorch/extension/module/module.h>
#include <executorch/extension/runner_util/inputs.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/platform/runtime.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using executorch::aten::ScalarType;
using executorch::extension::FileDataLoader;
using executorch::extension::from_blob;
using executorch::extension::make_tensor_ptr;
using executorch::extension::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::Program;

namespace {

std::string conformance(const char* name) {
  const char* dir = std::getenv("ET_CONFORMANCE_DIR");
  return std::string(dir != nullptr ? dir : ET_CONFORMANCE_DIR_DEFAULT) + "/" + name;
}

class ModuleTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { executorch::runtime::runtime_init(); }
  std::string add_ = conformance("add.pte");
};

float run_add(Module& m, float a, float b) {
  auto ta = make_tensor_ptr({1}, {a});
  auto tb = make_tensor_ptr({1}, {b});
  auto out = m.forward({ta, tb});
  EXPECT_TRUE(out.ok()) << "error 0x" << std::hex << (uint32_t)out.error();
  if (!out.ok()) return -1e30f;
  EXPECT_EQ(out->size(), 1u);
  return (*out)[0].toTensor().const_data_ptr<float>()[0];
}

TEST_F(ModuleTest, LoadsAndDescribesTheProgram) {
  Module m(add_);
  EXPECT_FALSE(m.is_loaded());
  ASSERT_EQ(m.load(), Error::Ok);
  EXPECT_TRUE(m.is_loaded());
  ASSERT_NE(m.program(), nullptr);
  EXPECT_EQ(m.num_methods().get(), 1u);
  auto names = m.method_names();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->count("forward"), 1u);
  auto meta = m.method_meta("forward");
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->num_inputs(), 2u);
  EXPECT_EQ(meta->num_outputs(), 1u);
  EXPECT_EQ(meta->num_memory_planned_buffers(), 1u);
  EXPECT_EQ(meta->memory_planned_buffer_size(0).get(), 48);
  EXPECT_FALSE(m.method_meta("nope").ok());
}

TEST_F(ModuleTest, MissingFileFailsToLoad) {
  Module m(add_ + ".missing");
  EXPECT_EQ(m.load(), Error::AccessFailed);
  EXPECT_FALSE(m.is_loaded());
  EXPECT_FALSE(m.forward().ok());
}

TEST_F(ModuleTest, LoadMethodAllocatesPlannedMemory) {
  Module m(add_);
  EXPECT_FALSE(m.is_method_loaded("forward"));
  ASSERT_EQ(m.load_method("forward"), Error::Ok);
  EXPECT_TRUE(m.is_method_loaded("forward"));
  EXPECT_NE(m.load_method("missing"), Error::Ok);
  EXPECT_TRUE(m.unload_method("forward"));
  EXPECT_FALSE(m.unload_method("forward"));
  EXPECT_FALSE(m.is_method_loaded("forward"));
}

TEST_F(ModuleTest, ForwardAdds) {
  Module m(add_);
  EXPECT_EQ(run_add(m, 3.5f, -1.25f), 2.25f);
  EXPECT_EQ(run_add(m, 1.f, 1.f), 2.f);
}

TEST_F(ModuleTest, EveryLoadModeRuns) {
  for (auto mode : {Module::LoadMode::File, Module::LoadMode::Mmap,
                    Module::LoadMode::MmapUseMlockIgnoreErrors, Module::LoadMode::MmapUseMadvise}) {
    Module m(add_, mode);
    EXPECT_EQ(run_add(m, 3.5f, -1.25f), 2.25f) << static_cast<int>(mode);
  }
}

TEST_F(ModuleTest, LoaderAndProgramConstructors) {
  auto loader = FileDataLoader::from(add_.c_str());
  ASSERT_TRUE(loader.ok());
  Module from_loader(std::make_unique<FileDataLoader>(std::move(loader.get())));
  EXPECT_EQ(run_add(from_loader, 3.5f, -1.25f), 2.25f);

  std::ifstream f(add_, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  executorch::extension::BufferDataLoader buf(bytes.data(), bytes.size());
  auto program = Program::load(&buf);
  ASSERT_TRUE(program.ok());
  Module from_program(std::make_shared<Program>(std::move(program.get())));
  EXPECT_TRUE(from_program.is_loaded());
  EXPECT_EQ(run_add(from_program, 3.5f, -1.25f), 2.25f);

  Module shared(add_, Module::LoadMode::File, nullptr, nullptr, nullptr,
                /*share_memory_arenas=*/true);
  EXPECT_EQ(run_add(shared, 3.5f, -1.25f), 2.25f);
}

std::string models(const char* rel) { return std::string(ET_MODELS_DIR_DEFAULT) + "/" + rel; }

bool exists(const std::string& path) { return std::ifstream(path).good(); }

// .ptd data maps are opened and parsed by load(); add.pte refers to no
// named data, so any valid .ptd file serves.
TEST_F(ModuleTest, DataMapFiles) {
  const std::string ptd = models("cuda/mlp/aoti_cuda_blob.ptd");
  const std::string ptd2 = models("cuda/conv/aoti_cuda_blob.ptd");
  if (!exists(ptd) || !exists(ptd2)) {
    GTEST_SKIP() << "no .ptd fixtures under " << ET_MODELS_DIR_DEFAULT;
  }
  Module with_map(add_, ptd);
  ASSERT_EQ(with_map.load(), Error::Ok);
  EXPECT_EQ(run_add(with_map, 3.5f, -1.25f), 2.25f);

  Module two(add_, std::vector<std::string>{ptd, ptd2}, Module::LoadMode::Mmap);
  ASSERT_EQ(two.load(), Error::Ok);
  EXPECT_EQ(run_add(two, 1.f, 2.f), 3.f);

  Module missing(add_, ptd + ".missing");
  EXPECT_EQ(missing.load(), Error::AccessFailed);
  EXPECT_FALSE(missing.is_loaded());

  // A .pte is not a .ptd.
  Module not_a_map(add_, add_);
  EXPECT_NE(not_a_map.load(), Error::Ok);

  auto pte_loader = FileDataLoader::from(add_.c_str());
  auto ptd_loader = FileDataLoader::from(ptd.c_str());
  ASSERT_TRUE(pte_loader.ok() && ptd_loader.ok());
  Module via_loaders(std::make_unique<FileDataLoader>(std::move(pte_loader.get())), nullptr,
                     nullptr, nullptr,
                     std::make_unique<FileDataLoader>(std::move(ptd_loader.get())));
  ASSERT_EQ(via_loaders.load(), Error::Ok);
  EXPECT_EQ(run_add(via_loaders, 3.5f, -1.25f), 2.25f);
}

// A backend that is only registered, so load options have an owner.
class OptionsOnlyBackend final : public executorch::runtime::BackendInterface {
 public:
  bool is_available() const override { return true; }
  executorch::runtime::Result<executorch::runtime::DelegateHandle*> init(
      executorch::runtime::BackendInitContext&, executorch::runtime::FreeableBuffer*,
      executorch::runtime::ArrayRef<executorch::runtime::CompileSpec>) const override {
    return Error::NotSupported;
  }
  Error execute(executorch::runtime::BackendExecutionContext&, executorch::runtime::DelegateHandle*,
                executorch::runtime::Span<EValue*>) const override {
    return Error::NotSupported;
  }
};

TEST_F(ModuleTest, LoadKeepsADeepCopyOfBackendOptions) {
  static OptionsOnlyBackend backend;
  static const auto registered = executorch::runtime::register_backend(
      executorch::runtime::Backend{"ExtModuleTestBackend", &backend});
  ASSERT_EQ(registered, Error::Ok);

  executorch::runtime::BackendOption opts[1];
  std::strcpy(opts[0].key, "threads");
  opts[0].value = 4;
  executorch::runtime::LoadBackendOptionsMap map;
  ASSERT_EQ(map.set_options("ExtModuleTestBackend", {opts, 1}), Error::Ok);

  Module m(add_);
  ASSERT_EQ(m.load(map), Error::Ok);
  opts[0].value = 8; // the caller's storage changes; the Module's copy must not
  auto kept = m.backend_options().get_options("ExtModuleTestBackend");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_STREQ(kept[0].key, "threads");
  EXPECT_EQ(std::get<int>(kept[0].value), 4);
  EXPECT_NE(kept.data(), opts);
  // Methods still load and run with the options in place.
  EXPECT_EQ(run_add(m, 3.5f, -1.25f), 2.25f);
}

// As upstream: every entry is kept for backend_options(), whether or not a
// backend of that name is registered; the caller's map may go away.
TEST_F(ModuleTest, LoadKeepsOptionsOfUnregisteredBackends) {
  Module m(add_);
  EXPECT_EQ(m.backend_options().size(), 0u);
  {
    executorch::runtime::BackendOption opts[2];
    std::strcpy(opts[0].key, "num_threads");
    opts[0].value = 8;
    std::strcpy(opts[1].key, "enable_profiling");
    opts[1].value = true;
    executorch::runtime::LoadBackendOptionsMap map;
    ASSERT_EQ(map.set_options("NotRegisteredBackend", {opts, 2}), Error::Ok);
    ASSERT_EQ(m.load(map), Error::Ok);
  }
  const auto& kept = m.backend_options();
  ASSERT_EQ(kept.size(), 1u);
  const auto entry = kept.entry_at(0);
  EXPECT_STREQ(entry.backend_id, "NotRegisteredBackend");
  ASSERT_EQ(entry.options.size(), 2u);
  EXPECT_STREQ(entry.options[0].key, "num_threads");
  EXPECT_EQ(std::get<int>(entry.options[0].value), 8);
  EXPECT_STREQ(entry.options[1].key, "enable_profiling");
  EXPECT_EQ(std::get<bool>(entry.options[1].value), true);
  EXPECT_EQ(run_add(m, 3.5f, -1.25f), 2.25f);
}

TEST_F(ModuleTest, PresetInputsGetAndOutputs) {
  Module m(add_);
  float a = 3.5f, b = -1.25f;
  auto ta = from_blob(&a, {1});
  auto tb = from_blob(&b, {1});
  ASSERT_EQ(m.set_input(ta, 0), Error::Ok);
  ASSERT_EQ(m.set_input("forward", tb, 1), Error::Ok);
  EXPECT_EQ(m.set_input(ta, 2), Error::InvalidArgument);
  auto out = m.get("forward");
  ASSERT_TRUE(out.ok()) << (uint32_t)out.error();
  EXPECT_EQ(out->toTensor().const_data_ptr<float>()[0], 2.25f);

  ASSERT_EQ(m.set_inputs({ta, ta}), Error::Ok);
  EXPECT_EQ(m.set_inputs({ta}), Error::InvalidArgument);
  auto again = m.forward();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)[0].toTensor().const_data_ptr<float>()[0], 7.f);

  auto outs = m.get_outputs();
  ASSERT_TRUE(outs.ok());
  EXPECT_EQ((*outs)[0].toTensor().const_data_ptr<float>()[0], 7.f);
  auto o0 = m.get_output(0);
  ASSERT_TRUE(o0.ok());
  EXPECT_EQ(o0->toTensor().const_data_ptr<float>()[0], 7.f);
  EXPECT_EQ(m.get_output(1).error(), Error::InvalidArgument);

  // One argument overrides the first stored input only.
  float c = 1.f;
  auto single = m.forward(from_blob(&c, {1}));
  ASSERT_TRUE(single.ok());
  EXPECT_EQ((*single)[0].toTensor().const_data_ptr<float>()[0], 4.5f);
  EXPECT_EQ(m.set_output(EValue(int64_t(1))), Error::InvalidArgument);
}

TEST_F(ModuleTest, WrongInputsAreRejected) {
  Module m(add_);
  auto wrong_shape = make_tensor_ptr({2}, {1.f, 2.f});
  auto ok = make_tensor_ptr({1}, {1.f});
  EXPECT_FALSE(m.forward({wrong_shape, ok}).ok());
  EXPECT_FALSE(m.forward({ok, ok, ok}).ok());
}

TEST_F(ModuleTest, PrepareInputTensorsFillsOnes) {
  Module m(add_);
  ASSERT_EQ(m.load_method("forward"), Error::Ok);
  auto meta = m.method_meta("forward");
  ASSERT_TRUE(meta.ok());
  // Through Program/Method directly, as executor_runner does.
  auto loader = FileDataLoader::from(add_.c_str());
  ASSERT_TRUE(loader.ok());
  auto program = Program::load(&loader.get());
  ASSERT_TRUE(program.ok());
  std::vector<uint8_t> arena(48);
  executorch::runtime::Span<uint8_t> spans[] = {{arena.data(), arena.size()}};
  executorch::runtime::HierarchicalAllocator planned({spans, 1});
  executorch::extension::MallocMemoryAllocator method_alloc;
  executorch::runtime::MemoryManager mm(&method_alloc, &planned);
  auto loaded = program->load_method("forward", &mm);
  ASSERT_TRUE(loaded.ok()) << (uint32_t)loaded.error();
  {
    auto cleanup = executorch::extension::prepare_input_tensors(*loaded);
    ASSERT_TRUE(cleanup.ok()) << (uint32_t)cleanup.error();
    ASSERT_EQ(loaded->execute(), Error::Ok);
    EXPECT_EQ(loaded->get_output(0).toTensor().const_data_ptr<float>()[0], 2.f);
  }
  float a = 3.5f, b = -1.25f;
  std::vector<std::pair<char*, size_t>> bufs = {{reinterpret_cast<char*>(&a), 4},
                                                {reinterpret_cast<char*>(&b), 4}};
  auto cleanup = torch::executor::util::prepare_input_tensors(*loaded, {}, bufs);
  ASSERT_TRUE(cleanup.ok());
  ASSERT_EQ(loaded->execute(), Error::Ok);
  EXPECT_EQ(loaded->get_output(0).toTensor().const_data_ptr<float>()[0], 2.25f);
  bufs[0].second = 3;
  EXPECT_EQ(executorch::extension::prepare_input_tensors(*loaded, {}, bufs).error(),
            Error::InvalidArgument);
}

} // namespace
