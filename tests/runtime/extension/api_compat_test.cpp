// The spellings upstream users write must compile and name the same things:
// namespace aliases, legacy torch::executor names and overload choices.
#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/data_loader/mmap_data_loader.h>
#include <executorch/extension/evalue_util/print_evalue.h>
#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>
#include <executorch/extension/module/module.h>
#include <executorch/extension/runner_util/inputs.h>
#include <executorch/extension/tensor/tensor.h>

#include <gtest/gtest.h>

#include <memory>
#include <type_traits>
#include <vector>

namespace ext = executorch::extension;

static_assert(std::is_same<ext::Module, ext::module::Module>::value, "");
static_assert(std::is_same<torch::executor::Module, ext::Module>::value, "");
static_assert(std::is_same<torch::executor::util::FileDataLoader, ext::FileDataLoader>::value, "");
static_assert(std::is_same<torch::executor::util::MmapDataLoader, ext::MmapDataLoader>::value, "");
static_assert(std::is_same<torch::executor::util::BufferDataLoader, ext::BufferDataLoader>::value,
              "");
static_assert(
    std::is_same<torch::executor::util::MallocMemoryAllocator, ext::MallocMemoryAllocator>::value,
    "");
static_assert(std::is_same<torch::executor::util::BufferCleanup, ext::BufferCleanup>::value, "");
static_assert(std::is_move_constructible<ext::FileDataLoader>::value, "");
static_assert(std::is_move_constructible<ext::MmapDataLoader>::value, "");
static_assert(!std::is_copy_constructible<ext::FileDataLoader>::value, "");
static_assert(!std::is_copy_constructible<ext::Module>::value, "");
static_assert(!std::is_move_constructible<ext::Module>::value, "");
static_assert(std::has_virtual_destructor<ext::Module>::value, "");
static_assert(std::is_same<ext::TensorPtr, std::shared_ptr<executorch::aten::Tensor>>::value, "");
static_assert(std::is_move_constructible<ext::BufferCleanup>::value &&
                  !std::is_copy_constructible<ext::BufferCleanup>::value,
              "");
static_assert(!std::is_copy_constructible<ext::TensorPtrMaker>::value, "");

namespace {

TEST(ApiCompatTest, OverloadsResolveAsUpstream) {
  std::vector<float> a = {1, 2, 3, 4};
  // float* -> void*: the raw overload, a view of a.
  auto t = ext::make_tensor_ptr({2, 2}, a.data());
  EXPECT_EQ(t->const_data_ptr(), a.data());
  // Braced data: an owning copy.
  auto u = ext::make_tensor_ptr({2, 2}, {1.f, 2.f, 3.f, 4.f});
  EXPECT_NE(u->const_data_ptr(), a.data());
  ext::TensorPtr via_maker = ext::for_blob(a.data(), {4}).type(executorch::aten::ScalarType::Float);
  EXPECT_EQ(via_maker->numel(), 4);

  // Module calls must pick the std::vector<EValue> / const EValue& overloads.
  ext::Module m("/nonexistent.pte", ext::Module::LoadMode::MmapUseMlock);
  EXPECT_FALSE(m.forward({t, u}).ok());
  EXPECT_FALSE(m.forward(t).ok());
  EXPECT_FALSE(m.execute("forward", t).ok());
  EXPECT_FALSE(m.get("forward").ok());
  EXPECT_EQ(m.load(), executorch::runtime::Error::AccessFailed);
}

} // namespace
