// build_info.h: the library names the source it was built from.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include <executorch/runtime/platform/build_info.h>

TEST(BuildInfoTest, NamesTheSourceTree) {
  const char* version = ::executorch::runtime::build_version();
  ASSERT_NE(version, nullptr);
  const std::string v(version);
  EXPECT_FALSE(v.empty());
  // vcs_tag replaced its placeholder (a git describe or the project version).
  EXPECT_EQ(v.find("VCS_TAG"), std::string::npos) << v;
  EXPECT_EQ(v.find_first_of(" \n\t"), std::string::npos) << v;
}
