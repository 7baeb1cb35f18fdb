// extension/runner_util/inputs.h: prepare_input_tensors on upstream's test
// programs (tests/data/upstream-programs): ModuleAdd (tensor, tensor, double
// alpha) and ModuleIntBool (tensor, int, bool).
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/runner_util/inputs.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/runtime.h>

#include <gtest/gtest.h>

#include "test_files.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using executorch::extension::BufferCleanup;
using executorch::extension::FileDataLoader;
using executorch::extension::prepare_input_tensors;
using executorch::runtime::Error;
using executorch::runtime::HierarchicalAllocator;
using executorch::runtime::MemoryAllocator;
using executorch::runtime::MemoryManager;
using executorch::runtime::Method;
using executorch::runtime::Program;
using executorch::runtime::Result;
using executorch::runtime::Span;

namespace {

std::string data(const std::string& name) {
  return et_test::data_path("ET_UPSTREAM_PROGRAMS_DIR", ET_UPSTREAM_PROGRAMS_DIR_DEFAULT, name);
}

// One program's "forward", loaded into zero-filled planned buffers.
struct LoadedForward {
  explicit LoadedForward(const std::string& path) {
    executorch::runtime::runtime_init();
    auto l = FileDataLoader::from(path.c_str());
    if (!l.ok()) return;
    loader = std::make_unique<FileDataLoader>(std::move(l.get()));
    auto p = Program::load(loader.get());
    if (!p.ok()) return;
    program.emplace(std::move(p.get()));
    auto meta = program->method_meta("forward");
    if (!meta.ok()) return;
    for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
      const size_t n = static_cast<size_t>(meta->memory_planned_buffer_size(i).get());
      buffers.push_back(std::make_unique<uint8_t[]>(n));
      spans.emplace_back(buffers.back().get(), n);
    }
    planned =
        std::make_unique<HierarchicalAllocator>(Span<Span<uint8_t>>(spans.data(), spans.size()));
    pool.assign(256 * 1024, 0);
    allocator = std::make_unique<MemoryAllocator>(pool.size(), pool.data());
    manager = std::make_unique<MemoryManager>(allocator.get(), planned.get());
    auto m = program->load_method("forward", manager.get());
    if (m.ok()) method.emplace(std::move(m.get()));
  }

  std::unique_ptr<FileDataLoader> loader;
  std::optional<Program> program;
  std::vector<std::unique_ptr<uint8_t[]>> buffers;
  std::vector<Span<uint8_t>> spans;
  std::unique_ptr<HierarchicalAllocator> planned;
  std::vector<uint8_t> pool;
  std::unique_ptr<MemoryAllocator> allocator;
  std::unique_ptr<MemoryManager> manager;
  std::optional<Method> method;
};

using Buffers = std::vector<std::pair<char*, size_t>>;

TEST(PrepareInputTensors, WithoutBuffersScalarsKeepTheirTracedValueAndTheMethodRuns) {
  LoadedForward f(data("ModuleAdd.pte"));
  ASSERT_TRUE(f.method.has_value());
  Result<BufferCleanup> cleanup = prepare_input_tensors(*f.method);
  ASSERT_EQ(cleanup.error(), Error::Ok);
  // Every input is set (tensors to ones, alpha to its traced 1.0): it runs.
  ASSERT_EQ(f.method->execute(), Error::Ok);
  EXPECT_FLOAT_EQ(f.method->get_output(0).toTensor().const_data_ptr<float>()[0], 2.0f);
}

TEST(PrepareInputTensors, ScalarFromAnExactSizeBuffer) {
  LoadedForward f(data("ModuleAdd.pte"));
  ASSERT_TRUE(f.method.has_value());
  auto meta = f.method->method_meta();
  std::vector<char> a(meta.input_tensor_meta(0)->nbytes()), b(meta.input_tensor_meta(1)->nbytes());
  double alpha = 1.0;
  Buffers buffers = {
      {a.data(), a.size()}, {b.data(), b.size()}, {reinterpret_cast<char*>(&alpha), sizeof alpha}};
  Result<BufferCleanup> cleanup = prepare_input_tensors(*f.method, {}, buffers);
  ASSERT_EQ(cleanup.error(), Error::Ok);
  EXPECT_EQ(f.method->execute(), Error::Ok);
  // Another value than the traced one is refused by set_input.
  alpha = 2.0;
  EXPECT_EQ(prepare_input_tensors(*f.method, {}, buffers).error(), Error::InvalidArgument);
}

TEST(PrepareInputTensors, ScalarBufferOfTheWrongSizeIsRefused) {
  LoadedForward f(data("ModuleAdd.pte"));
  ASSERT_TRUE(f.method.has_value());
  auto meta = f.method->method_meta();
  std::vector<char> a(meta.input_tensor_meta(0)->nbytes()), b(meta.input_tensor_meta(1)->nbytes());
  char big[16] = {};
  const double alpha = 1.0;
  std::memcpy(big, &alpha, sizeof alpha);
  Buffers buffers = {{a.data(), a.size()}, {b.data(), b.size()}, {big, sizeof big}};
  EXPECT_EQ(prepare_input_tensors(*f.method, {}, buffers).error(), Error::InvalidArgument);
  buffers[2].second = 4;
  EXPECT_EQ(prepare_input_tensors(*f.method, {}, buffers).error(), Error::InvalidArgument);
}

TEST(PrepareInputTensors, IntAndBoolBuffersMustHaveTheirExactSize) {
  LoadedForward f(data("ModuleIntBool.pte"));
  ASSERT_TRUE(f.method.has_value());
  auto meta = f.method->method_meta();
  std::vector<char> x(meta.input_tensor_meta(0)->nbytes());
  int64_t y = 1;
  bool z = true;
  char big[16] = {};
  std::memcpy(big, &y, sizeof y);
  Buffers ok = {{x.data(), x.size()},
                {reinterpret_cast<char*>(&y), sizeof y},
                {reinterpret_cast<char*>(&z), sizeof z}};
  EXPECT_EQ(prepare_input_tensors(*f.method, {}, ok).error(), Error::Ok);
  Buffers big_int = ok;
  big_int[1] = {big, sizeof big};
  EXPECT_EQ(prepare_input_tensors(*f.method, {}, big_int).error(), Error::InvalidArgument);
  Buffers big_bool = ok;
  big_bool[2] = {big, 8};
  EXPECT_EQ(prepare_input_tensors(*f.method, {}, big_bool).error(), Error::InvalidArgument);
}

} // namespace
