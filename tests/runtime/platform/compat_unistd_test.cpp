// compat_unistd.h: the POSIX file calls the data loaders use.
#include <gtest/gtest.h>

#include <fcntl.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <executorch/runtime/platform/compat_unistd.h>

TEST(CompatUnistdTest, OpenPreadClose) {
  char path[] = "/tmp/compat_unistd_testXXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string text = "0123456789";
  ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  char buf[4] = {};
  EXPECT_EQ(pread(fd, buf, 3, 4), 3);
  EXPECT_EQ(std::string(buf), "456");
  EXPECT_EQ(close(fd), 0);
  EXPECT_EQ(unlink(path), 0);
}
