// executorch/extension/data_loader/file_descriptor_data_loader.h.
#include <executorch/extension/data_loader/file_descriptor_data_loader.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

using executorch::extension::FileDescriptorDataLoader;
using executorch::runtime::DataLoader;
using executorch::runtime::Error;

namespace {

// A temporary file holding "0123456789abcdef", opened read-only.
class FileDescriptorDataLoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    executorch::runtime::runtime_init();
    char path[] = "/tmp/et-fd-loader-XXXXXX";
    const int fd = ::mkstemp(path);
    ASSERT_GE(fd, 0);
    path_ = path;
    ASSERT_EQ(::write(fd, kData, sizeof(kData) - 1), ssize_t(sizeof(kData) - 1));
    ::close(fd);
  }
  void TearDown() override { ::unlink(path_.c_str()); }

  std::string open_uri() {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    EXPECT_GE(fd, 0);
    return "fd:///" + std::to_string(fd);
  }

  static constexpr char kData[] = "0123456789abcdef";
  std::string path_;
  const DataLoader::SegmentInfo info_{DataLoader::SegmentInfo::Type::Program};
};

bool fd_is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1; }

} // namespace

TEST_F(FileDescriptorDataLoaderTest, LoadsRangesAligned) {
  auto loader = FileDescriptorDataLoader::fromFileDescriptorUri(open_uri().c_str(), 64);
  ASSERT_TRUE(loader.ok());
  EXPECT_EQ(*loader->size(), 16u);
  auto buf = loader->load(4, 6, info_);
  ASSERT_TRUE(buf.ok());
  EXPECT_EQ(buf->size(), 6u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(buf->data()) % 64, 0u);
  EXPECT_EQ(std::memcmp(buf->data(), "456789", 6), 0);
  char into[4] = {};
  EXPECT_EQ(loader->load_into(12, 4, info_, into), Error::Ok);
  EXPECT_EQ(std::memcmp(into, "cdef", 4), 0);
  EXPECT_EQ(loader->load(0, 0, info_)->size(), 0u);
}

TEST_F(FileDescriptorDataLoaderTest, RejectsRangesOutsideTheFile) {
  auto loader = FileDescriptorDataLoader::fromFileDescriptorUri(open_uri().c_str());
  ASSERT_TRUE(loader.ok());
  EXPECT_EQ(loader->load(10, 7, info_).error(), Error::InvalidArgument);
  EXPECT_EQ(loader->load(SIZE_MAX, 2, info_).error(), Error::InvalidArgument);
  char into[4];
  EXPECT_EQ(loader->load_into(15, 2, info_, into), Error::InvalidArgument);
  EXPECT_EQ(loader->load_into(0, 2, info_, nullptr), Error::InvalidArgument);
}

TEST_F(FileDescriptorDataLoaderTest, RejectsBadUrisAndAlignment) {
  for (const char* uri : {"", "fd://3", "file:///tmp/x", "fd:///", "fd:///-1", "fd:///3x",
                          "fd:///99999999999999999999"}) {
    EXPECT_EQ(FileDescriptorDataLoader::fromFileDescriptorUri(uri).error(), Error::InvalidArgument)
        << uri;
  }
  EXPECT_EQ(FileDescriptorDataLoader::fromFileDescriptorUri(nullptr).error(),
            Error::InvalidArgument);
  const std::string uri = open_uri();
  EXPECT_EQ(FileDescriptorDataLoader::fromFileDescriptorUri(uri.c_str(), 3).error(),
            Error::InvalidArgument);
  ::close(std::atoi(uri.c_str() + 6));
}

TEST_F(FileDescriptorDataLoaderTest, AClosedDescriptorIsAccessFailed) {
  const std::string uri = open_uri();
  ::close(std::atoi(uri.c_str() + 6));
  EXPECT_EQ(FileDescriptorDataLoader::fromFileDescriptorUri(uri.c_str()).error(),
            Error::AccessFailed);
}

TEST_F(FileDescriptorDataLoaderTest, OwnsAndClosesTheDescriptor) {
  const std::string uri = open_uri();
  const int fd = std::atoi(uri.c_str() + 6);
  {
    auto loader = FileDescriptorDataLoader::fromFileDescriptorUri(uri.c_str());
    ASSERT_TRUE(loader.ok());
    FileDescriptorDataLoader moved(std::move(*loader));
    EXPECT_EQ(loader->size().error(), Error::InvalidState);
    EXPECT_EQ(*moved.size(), 16u);
    EXPECT_TRUE(fd_is_open(fd));
  }
  EXPECT_FALSE(fd_is_open(fd));
}
