// Data loaders and MallocMemoryAllocator against real temporary files.
#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/data_loader/mmap_data_loader.h>
#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>
#include <executorch/runtime/platform/log.h>
#include <executorch/runtime/platform/runtime.h>

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using executorch::extension::BufferDataLoader;
using executorch::extension::FileDataLoader;
using executorch::extension::MallocMemoryAllocator;
using executorch::extension::MmapDataLoader;
using executorch::runtime::DataLoader;
using executorch::runtime::Error;
using executorch::runtime::FreeableBuffer;
using executorch::runtime::LogLevel;
using executorch::runtime::Result;

namespace {

std::string g_log;
void capture_log(LogLevel, const char*, const char*, size_t, const char* msg, size_t len) {
  g_log.append(msg, len);
  g_log.push_back('\n');
}

class DataLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    executorch::runtime::runtime_init();
    char tmpl[] = "/tmp/et_loader_test_XXXXXX";
    const int fd = ::mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    path_ = tmpl;
    bytes_.resize(10000);
    for (size_t i = 0; i < bytes_.size(); ++i) {
      bytes_[i] = static_cast<uint8_t>((i * 7 + 3) & 0xff);
    }
    ASSERT_EQ(::write(fd, bytes_.data(), bytes_.size()), static_cast<ssize_t>(bytes_.size()));
    ::close(fd);
  }
  void TearDown() override { std::remove(path_.c_str()); }

  std::string path_;
  std::vector<uint8_t> bytes_;
  const DataLoader::SegmentInfo info_{DataLoader::SegmentInfo::Type::Program};
};

bool maps_contain(const std::string& needle) {
  std::ifstream maps("/proc/self/maps");
  std::stringstream ss;
  ss << maps.rdbuf();
  return ss.str().find(needle) != std::string::npos;
}

TEST_F(DataLoaderTest, FileLoaderReadsAlignedCopies) {
  Result<FileDataLoader> loader = FileDataLoader::from(path_.c_str(), 256);
  ASSERT_TRUE(loader.ok());
  ASSERT_EQ(loader->size().get(), bytes_.size());

  Result<FreeableBuffer> a = loader->load(123, 4000, info_);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->size(), 4000u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a->data()) % 256, 0u);
  EXPECT_EQ(std::memcmp(a->data(), bytes_.data() + 123, 4000), 0);

  // Each load is its own copy.
  Result<FreeableBuffer> b = loader->load(123, 4000, info_);
  ASSERT_TRUE(b.ok());
  EXPECT_NE(a->data(), b->data());

  std::vector<uint8_t> into(100);
  ASSERT_EQ(loader->load_into(9900, 100, info_, into.data()), Error::Ok);
  EXPECT_EQ(std::memcmp(into.data(), bytes_.data() + 9900, 100), 0);
}

TEST_F(DataLoaderTest, FileLoaderRejectsOutOfRange) {
  auto loader = FileDataLoader::from(path_.c_str());
  ASSERT_TRUE(loader.ok());
  EXPECT_EQ(loader->load(10001, 0, info_).error(), Error::InvalidArgument);
  EXPECT_EQ(loader->load(9000, 1001, info_).error(), Error::InvalidArgument);
  EXPECT_EQ(loader->load(1, SIZE_MAX, info_).error(), Error::InvalidArgument);
  EXPECT_EQ(loader->load(SIZE_MAX, 2, info_).error(), Error::InvalidArgument);
  uint8_t buf[8];
  EXPECT_EQ(loader->load_into(9999, 2, info_, buf), Error::InvalidArgument);
  // The end of the file itself is fine.
  EXPECT_TRUE(loader->load(9000, 1000, info_).ok());
  EXPECT_TRUE(loader->load(10000, 0, info_).ok());
}

TEST_F(DataLoaderTest, FileLoaderMissingFileIsAccessFailedAndNamesIt) {
  g_log.clear();
  auto old = executorch::runtime::set_log_sink(capture_log);
  const std::string missing = path_ + ".does-not-exist";
  auto loader = FileDataLoader::from(missing.c_str());
  executorch::runtime::set_log_sink(old);
  EXPECT_EQ(loader.error(), Error::AccessFailed);
  EXPECT_NE(g_log.find(missing), std::string::npos) << g_log;
}

TEST_F(DataLoaderTest, FileLoaderRejectsBadAlignment) {
  EXPECT_EQ(FileDataLoader::from(path_.c_str(), 3).error(), Error::InvalidArgument);
}

TEST_F(DataLoaderTest, FileLoaderIsMoveConstructible) {
  auto loader = FileDataLoader::from(path_.c_str());
  ASSERT_TRUE(loader.ok());
  // executor_runner's pattern.
  auto owned = std::make_unique<FileDataLoader>(std::move(loader.get()));
  auto buf = owned->load(0, 16, info_);
  ASSERT_TRUE(buf.ok());
  EXPECT_EQ(std::memcmp(buf->data(), bytes_.data(), 16), 0);
}

TEST_F(DataLoaderTest, MmapLoaderIsZeroCopyIntoOneMapping) {
  auto loader = MmapDataLoader::from(path_.c_str(), MmapDataLoader::MlockConfig::NoMlock);
  ASSERT_TRUE(loader.ok());
  ASSERT_EQ(loader->size().get(), bytes_.size());
  auto whole = loader->load(0, bytes_.size(), info_);
  ASSERT_TRUE(whole.ok());
  const auto* base = static_cast<const uint8_t*>(whole->data());
  // The mapping starts on a page boundary.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(base) % ::sysconf(_SC_PAGESIZE), 0u);
  EXPECT_EQ(std::memcmp(base, bytes_.data(), bytes_.size()), 0);

  auto part = loader->load(4321, 77, info_);
  ASSERT_TRUE(part.ok());
  // Pointer inside the mapping at exactly the offset: nothing was copied.
  EXPECT_EQ(static_cast<const uint8_t*>(part->data()), base + 4321);
  EXPECT_TRUE(maps_contain(path_));
}

TEST_F(DataLoaderTest, MmapLoaderUnmapsOnDestruction) {
  {
    auto loader = MmapDataLoader::from(path_.c_str(), MmapDataLoader::MlockConfig::NoMlock);
    ASSERT_TRUE(loader.ok());
    ASSERT_TRUE(maps_contain(path_));
    // A moved-to loader keeps the one mapping.
    MmapDataLoader moved(std::move(loader.get()));
    EXPECT_TRUE(moved.load(0, 4, info_).ok());
  }
  EXPECT_FALSE(maps_contain(path_));
}

TEST_F(DataLoaderTest, MmapLoaderMlockConfigs) {
  for (auto cfg :
       {MmapDataLoader::MlockConfig::NoMlock, MmapDataLoader::MlockConfig::UseMlockIgnoreErrors,
        MmapDataLoader::MlockConfig::UseMadvise}) {
    auto loader = MmapDataLoader::from(path_.c_str(), cfg);
    ASSERT_TRUE(loader.ok());
    auto buf = loader->load(100, 200, info_);
    ASSERT_TRUE(buf.ok());
    EXPECT_EQ(std::memcmp(buf->data(), bytes_.data() + 100, 200), 0);
  }
  // UseMlock may be refused by RLIMIT_MEMLOCK; either a locked buffer or a
  // clean error, never a crash.
  auto loader = MmapDataLoader::from(path_.c_str());
  ASSERT_TRUE(loader.ok());
  auto buf = loader->load(0, 64, info_);
  if (buf.ok()) {
    EXPECT_EQ(std::memcmp(buf->data(), bytes_.data(), 64), 0);
  } else {
    EXPECT_EQ(buf.error(), Error::NotSupported);
  }
}

TEST_F(DataLoaderTest, MmapLoaderErrors) {
  auto loader = MmapDataLoader::from(path_.c_str(), MmapDataLoader::MlockConfig::NoMlock);
  ASSERT_TRUE(loader.ok());
  EXPECT_EQ(loader->load(9999, 2, info_).error(), Error::InvalidArgument);
  EXPECT_EQ(loader->load(SIZE_MAX, 1, info_).error(), Error::InvalidArgument);
  std::vector<uint8_t> into(50);
  ASSERT_EQ(loader->load_into(50, 50, info_, into.data()), Error::Ok);
  EXPECT_EQ(std::memcmp(into.data(), bytes_.data() + 50, 50), 0);

  g_log.clear();
  auto old = executorch::runtime::set_log_sink(capture_log);
  const std::string missing = path_ + ".nope";
  auto bad = MmapDataLoader::from(missing.c_str());
  executorch::runtime::set_log_sink(old);
  EXPECT_EQ(bad.error(), Error::AccessFailed);
  EXPECT_NE(g_log.find(missing), std::string::npos) << g_log;
}

TEST_F(DataLoaderTest, EmptyFile) {
  std::ofstream(path_, std::ios::trunc).close();
  auto f = FileDataLoader::from(path_.c_str());
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->size().get(), 0u);
  EXPECT_EQ(f->load(0, 1, info_).error(), Error::InvalidArgument);
  auto m = MmapDataLoader::from(path_.c_str());
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->size().get(), 0u);
  EXPECT_EQ(m->load(0, 1, info_).error(), Error::InvalidArgument);
}

TEST(BufferDataLoaderTest, ZeroCopyAndBounds) {
  std::vector<uint8_t> data(64);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i);
  Result<BufferDataLoader> r = BufferDataLoader(data.data(), data.size());
  ASSERT_TRUE(r.ok());
  const DataLoader::SegmentInfo info(DataLoader::SegmentInfo::Type::Constant);
  auto buf = r->load(8, 16, info);
  ASSERT_TRUE(buf.ok());
  EXPECT_EQ(buf->data(), data.data() + 8);
  EXPECT_EQ(r->size().get(), 64u);
  EXPECT_EQ(r->load(60, 5, info).error(), Error::InvalidArgument);
  EXPECT_EQ(r->load(65, 0, info).error(), Error::InvalidArgument);
  uint8_t out[4];
  ASSERT_EQ(r->load_into(60, 4, info, out), Error::Ok);
  EXPECT_EQ(out[3], 63);
}

TEST(MallocMemoryAllocatorTest, HonoursAlignmentAndResets) {
  MallocMemoryAllocator alloc;
  for (size_t align : {1u, 2u, 8u, 16u, 64u, 256u, 4096u}) {
    void* p = alloc.allocate(100, align);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u) << align;
    std::memset(p, 0xab, 100); // must be writable
  }
  EXPECT_EQ(alloc.allocate(16, 3), nullptr);
  EXPECT_EQ(alloc.allocate(16, 0), nullptr);
  int* list = alloc.allocateList<int>(1000);
  ASSERT_NE(list, nullptr);
  list[999] = 7;
  alloc.reset();
  // Still usable after a reset.
  EXPECT_NE(alloc.allocate(32), nullptr);
  // Through the base-class interface, as the runtime uses it.
  executorch::runtime::MemoryAllocator* base = &alloc;
  EXPECT_NE(base->allocate(8, 32), nullptr);
}

} // namespace

// Moved-from loaders answer with an Error, never touch the moved file.
TEST_F(DataLoaderTest, MovedFromLoadersReturnErrors) {
  uint8_t into[4];
  auto file = FileDataLoader::from(path_.c_str());
  ASSERT_TRUE(file.ok());
  FileDataLoader file_moved(std::move(file.get()));
  EXPECT_NE(file->size().error(), Error::Ok);
  EXPECT_NE(file->load(0, 4, info_).error(), Error::Ok);
  EXPECT_NE(file->load_into(0, 4, info_, into), Error::Ok);
  EXPECT_TRUE(file_moved.load(0, 4, info_).ok());

  auto mmap = MmapDataLoader::from(path_.c_str(), MmapDataLoader::MlockConfig::NoMlock);
  ASSERT_TRUE(mmap.ok());
  MmapDataLoader mmap_moved(std::move(mmap.get()));
  EXPECT_NE(mmap->size().error(), Error::Ok);
  EXPECT_NE(mmap->load(0, 4, info_).error(), Error::Ok);
  EXPECT_NE(mmap->load_into(0, 4, info_, into), Error::Ok);
  EXPECT_TRUE(mmap_moved.load(0, 4, info_).ok());
}
