// c10/util/irange.h, as kernels loop with it.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include <c10/util/irange.h>

TEST(IrangeTest, CountsFromZero) {
  std::vector<int> seen;
  for (const auto i : c10::irange(4)) {
    seen.push_back(i);
  }
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3}));
  for (const auto i : c10::irange(size_t(3))) {
    static_assert(std::is_same<std::remove_const_t<decltype(i)>, size_t>::value);
  }
}

TEST(IrangeTest, BeginEndInTheEndsType) {
  std::vector<int64_t> seen;
  for (const auto i : c10::irange(2, int64_t(5))) {
    static_assert(std::is_same<std::remove_const_t<decltype(i)>, int64_t>::value);
    seen.push_back(i);
  }
  EXPECT_EQ(seen, (std::vector<int64_t>{2, 3, 4}));
}

TEST(IrangeTest, EmptyWhenEndIsNotAfterBegin) {
  int n = 0;
  for (const auto i : c10::irange(0)) n += i + 1;
  for (const auto i : c10::irange(-3)) n += i + 1;
  for (const auto i : c10::irange(5, 2)) n += i + 1;
  EXPECT_EQ(n, 0);
  const auto r = c10::irange(3, 3);
  EXPECT_TRUE(r.begin() == r.end());
}
