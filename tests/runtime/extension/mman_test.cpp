// executorch/extension/data_loader/mman.h: the page size, a file's size and
// the read-ahead hints upstream's loaders use.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include <executorch/extension/data_loader/mman.h>

namespace {

TEST(MmanTest, PageSizeIsAPowerOfTwo) {
  const size_t page = get_os_page_size();
  EXPECT_GE(page, 4096u);
  EXPECT_EQ(page & (page - 1), 0u);
}

TEST(MmanTest, FileStatAndMapping) {
  char path[] = "/tmp/et_mman_test_XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string text(10000, 'x');
  ASSERT_EQ(::write(fd, text.data(), text.size()), ssize_t(text.size()));
  size_t size = 0;
  ASSERT_EQ(get_file_stat(fd, &size), 0);
  EXPECT_EQ(size, text.size());
  fcntl_rdadvise_apple(fd, size);
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, get_mmap_offset(0));
  ASSERT_NE(p, MAP_FAILED);
  madvise_pages_willneed_sequential(p, size);
  EXPECT_EQ(static_cast<const char*>(p)[9999], 'x');
  ::munmap(p, size);
  ::close(fd);
  ::unlink(path);
  size_t untouched = 7;
  EXPECT_LT(get_file_stat(-1, &untouched), 0);
  EXPECT_EQ(untouched, 7u);
}

} // namespace
