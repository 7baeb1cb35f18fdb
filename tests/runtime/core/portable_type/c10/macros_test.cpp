// c10/macros/Macros.h and torch/headeronly/macros/Macros.h.
#include <gtest/gtest.h>

#include <type_traits>

#include <c10/macros/Macros.h>
#include <torch/headeronly/macros/Macros.h>

namespace {
C10_HOST_DEVICE C10_ALWAYS_INLINE int twice(int x) { return 2 * x; }
C10_NODISCARD int answer() { return 42; }
struct NoCopy {
  NoCopy() = default;
  C10_DISABLE_COPY_AND_ASSIGN(NoCopy);
};
} // namespace

TEST(C10MacrosTest, ExpandToWorkingCode) {
  EXPECT_EQ(twice(21), answer());
  EXPECT_TRUE(C10_LIKELY(answer() == 42));
  EXPECT_FALSE(C10_UNLIKELY(answer() != 42));
  EXPECT_STREQ(C10_STRINGIZE(C10_CONCATENATE(ab, cd)), "abcd");
  static_assert(!std::is_copy_constructible<NoCopy>::value);
  // Two anonymous variables in one scope get distinct names.
  C10_UNUSED int C10_ANONYMOUS_VARIABLE(guard_) = 1;
  C10_UNUSED int C10_ANONYMOUS_VARIABLE(guard_) = 2;
}

C10_DIAGNOSTIC_PUSH_AND_IGNORED_IF_DEFINED("-Wshadow")
TEST(C10MacrosTest, DiagnosticPushPop) {
  int value = 1;
  {
    int value = 2; // would warn under -Wshadow
    EXPECT_EQ(value, 2);
  }
  EXPECT_EQ(value, 1);
}
C10_DIAGNOSTIC_POP()
