// cgroup_cpu_limit (runtime/src/extension/threadpool/cpu_quota.h) over fake
// cgroup trees: v2 at the process's own cgroup and at the root, "max", v1,
// nothing readable.
#include "extension/threadpool/cpu_quota.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

using executorch::extension::cpuinfo::cgroup_cpu_limit;

namespace {

class FakeCgroup : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/et_cgroup_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
  }
  void TearDown() override {
    const std::string cmd = "rm -rf '" + root_ + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
  }
  void write(const std::string& rel, const std::string& text) {
    for (size_t p = 0; (p = rel.find('/', p)) != std::string::npos; ++p) {
      ::mkdir((root_ + "/" + rel.substr(0, p)).c_str(), 0755);
    }
    std::ofstream(root_ + "/" + rel) << text;
  }
  uint32_t limit(const std::string& self_cgroup) {
    write("self_cgroup", self_cgroup);
    return cgroup_cpu_limit(root_ + "/fs", root_ + "/self_cgroup");
  }
  std::string root_;
};

TEST_F(FakeCgroup, V2OwnCgroupQuotaRoundsUp) {
  write("fs/app.slice/cpu.max", "150000 100000\n");
  write("fs/cpu.max", "max 100000\n");
  EXPECT_EQ(limit("0::/app.slice\n"), 2u);
}

TEST_F(FakeCgroup, V2RootWhenTheCgroupNamespaceHidesThePath) {
  write("fs/cpu.max", "400000 100000\n");
  EXPECT_EQ(limit("0::/\n"), 4u);
}

TEST_F(FakeCgroup, V2MaxMeansNoLimit) {
  write("fs/cpu.max", "max 100000\n");
  EXPECT_EQ(limit("0::/\n"), 0u);
}

TEST_F(FakeCgroup, V1Quota) {
  write("fs/cpu/cpu.cfs_quota_us", "50000\n");
  write("fs/cpu/cpu.cfs_period_us", "100000\n");
  EXPECT_EQ(limit("12:cpu,cpuacct:/\n"), 1u);
  write("fs/cpu/cpu.cfs_quota_us", "-1\n");
  EXPECT_EQ(limit("12:cpu,cpuacct:/\n"), 0u);
}

TEST_F(FakeCgroup, NothingReadableIsNoLimit) {
  EXPECT_EQ(limit(""), 0u);
  write("fs/cpu.max", "garbage\n");
  EXPECT_EQ(limit("0::/\n"), 0u);
}

} // namespace
