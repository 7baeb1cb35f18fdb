// executorch/extension/data_loader/shared_ptr_data_loader.h.
#include <executorch/extension/data_loader/shared_ptr_data_loader.h>

#include <cstring>
#include <memory>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

using executorch::extension::SharedPtrDataLoader;
using executorch::runtime::DataLoader;
using executorch::runtime::Error;

TEST(SharedPtrDataLoaderTest, ServesViewsAndKeepsTheDataAlive) {
  executorch::runtime::runtime_init();
  std::shared_ptr<void> data(new char[8]{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'},
                             [](void* p) { delete[] static_cast<char*>(p); });
  std::weak_ptr<void> watch = data;
  const DataLoader::SegmentInfo info(DataLoader::SegmentInfo::Type::Program);
  {
    SharedPtrDataLoader loader(data, 8);
    data.reset();
    EXPECT_FALSE(watch.expired());
    EXPECT_EQ(*loader.size(), 8u);
    auto buf = loader.load(2, 3, info);
    ASSERT_TRUE(buf.ok());
    EXPECT_EQ(std::memcmp(buf->data(), "cde", 3), 0);
    EXPECT_EQ(loader.load(8, 0, info)->size(), 0u);
    EXPECT_EQ(loader.load(6, 3, info).error(), Error::InvalidArgument);
    EXPECT_EQ(loader.load(SIZE_MAX, 2, info).error(), Error::InvalidArgument);
  }
  EXPECT_TRUE(watch.expired());
}

TEST(SharedPtrDataLoaderTest, LegacyAlias) {
  static_assert(
      std::is_same<torch::executor::util::SharedPtrDataLoader, SharedPtrDataLoader>::value,
      "torch::executor::util alias");
  std::shared_ptr<void> data(new char[1]{'x'}, [](void* p) { delete[] static_cast<char*>(p); });
  torch::executor::util::SharedPtrDataLoader loader(data, 1);
  EXPECT_EQ(*loader.size(), 1u);
}
