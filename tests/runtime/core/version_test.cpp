// executorch/runtime/core/version.h: the version macros agree with each
// other and compare as upstream documents.
#include <executorch/runtime/core/version.h>

#include <string>

#include <gtest/gtest.h>

TEST(VersionTest, StringMatchesTheNumbers) {
  const std::string expected = std::to_string(ET_VERSION_MAJOR) + "." +
                               std::to_string(ET_VERSION_MINOR) + "." +
                               std::to_string(ET_VERSION_PATCH);
  EXPECT_EQ(std::string(ET_VERSION), expected);
}

TEST(VersionTest, CodeOrdersVersions) {
  static_assert(
      ET_VERSION_CODE == ET_VERSION_CHECK(ET_VERSION_MAJOR, ET_VERSION_MINOR, ET_VERSION_PATCH),
      "code and check agree");
  static_assert(ET_VERSION_CHECK(1, 2, 0) > ET_VERSION_CHECK(1, 1, 9), "minor before patch");
  static_assert(ET_VERSION_CHECK(2, 0, 0) > ET_VERSION_CHECK(1, 255, 255), "major first");
#if ET_VERSION_CODE >= ET_VERSION_CHECK(1, 0, 0)
  constexpr bool preprocessor_compares = true;
#else
  constexpr bool preprocessor_compares = false;
#endif
  EXPECT_TRUE(preprocessor_compares);
}
