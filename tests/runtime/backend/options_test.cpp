// executorch/runtime/backend/options.h: BackendOptions as backends and
// applications use it (string-literal keys, typed get_option).
#include <executorch/runtime/backend/options.h>

#include <cstring>
#include <string>

#include <gtest/gtest.h>

using executorch::runtime::BackendOption;
using executorch::runtime::BackendOptions;
using executorch::runtime::Error;
using executorch::runtime::kMaxOptionValueLength;
using executorch::runtime::Span;

TEST(BackendOptionsTest, EmptyByDefault) {
  BackendOptions<4> opts;
  EXPECT_EQ(opts.view().size(), 0u);
  bool flag = false;
  EXPECT_EQ(opts.get_option("missing", flag), Error::NotFound);
}

TEST(BackendOptionsTest, SetAndGetEachType) {
  BackendOptions<4> opts;
  ASSERT_EQ(opts.set_option("use_fp16", true), Error::Ok);
  ASSERT_EQ(opts.set_option("num_threads", 4), Error::Ok);
  ASSERT_EQ(opts.set_option("compute_unit", "cpu_and_gpu"), Error::Ok);

  bool b = false;
  int i = 0;
  const char* s = nullptr;
  EXPECT_EQ(opts.get_option("use_fp16", b), Error::Ok);
  EXPECT_TRUE(b);
  EXPECT_EQ(opts.get_option("num_threads", i), Error::Ok);
  EXPECT_EQ(i, 4);
  EXPECT_EQ(opts.get_option("compute_unit", s), Error::Ok);
  ASSERT_NE(s, nullptr);
  EXPECT_STREQ(s, "cpu_and_gpu");
  // Explicit template argument, the way upstream's documentation spells it.
  EXPECT_EQ(opts.get_option<int>("num_threads", i), Error::Ok);
}

TEST(BackendOptionsTest, WrongTypeIsInvalidArgument) {
  BackendOptions<2> opts;
  ASSERT_EQ(opts.set_option("num_threads", 4), Error::Ok);
  bool b = false;
  const char* s = nullptr;
  EXPECT_EQ(opts.get_option("num_threads", b), Error::InvalidArgument);
  EXPECT_EQ(opts.get_option("num_threads", s), Error::InvalidArgument);
  EXPECT_EQ(s, nullptr);
}

TEST(BackendOptionsTest, SettingAKeyAgainOverwritesItAndItsType) {
  BackendOptions<2> opts;
  ASSERT_EQ(opts.set_option("flag", true), Error::Ok);
  ASSERT_EQ(opts.set_option("flag", 123), Error::Ok);
  EXPECT_EQ(opts.view().size(), 1u);
  int i = 0;
  EXPECT_EQ(opts.get_option("flag", i), Error::Ok);
  EXPECT_EQ(i, 123);
}

TEST(BackendOptionsTest, FullListRejectsNewKeysButUpdatesOldOnes) {
  BackendOptions<1> opts;
  ASSERT_EQ(opts.set_option("a", 1), Error::Ok);
  EXPECT_EQ(opts.set_option("b", 2), Error::InvalidArgument);
  EXPECT_EQ(opts.set_option("a", 3), Error::Ok);
  int i = 0;
  EXPECT_EQ(opts.get_option("a", i), Error::Ok);
  EXPECT_EQ(i, 3);
}

TEST(BackendOptionsTest, StringsAreCopiedAndTruncated) {
  BackendOptions<2> opts;
  char caller[16];
  std::strcpy(caller, "first");
  ASSERT_EQ(opts.set_option("s", static_cast<const char*>(caller)), Error::Ok);
  std::strcpy(caller, "changed");
  const char* s = nullptr;
  ASSERT_EQ(opts.get_option("s", s), Error::Ok);
  EXPECT_STREQ(s, "first");

  const std::string long_value(kMaxOptionValueLength + 10, 'x');
  ASSERT_EQ(opts.set_option("long", long_value.c_str()), Error::Ok);
  ASSERT_EQ(opts.get_option("long", s), Error::Ok);
  EXPECT_EQ(std::strlen(s), kMaxOptionValueLength - 1);
}

TEST(BackendOptionsTest, ViewIsMutableAndCopiesAreIndependent) {
  BackendOptions<2> opts;
  ASSERT_EQ(opts.set_option("n", 1), Error::Ok);
  BackendOptions<2> copy = opts;
  Span<BackendOption> view = opts.view();
  ASSERT_EQ(view.size(), 1u);
  EXPECT_STREQ(view[0].key, "n");
  view[0].value = 7;
  int i = 0;
  EXPECT_EQ(opts.get_option("n", i), Error::Ok);
  EXPECT_EQ(i, 7);
  EXPECT_EQ(copy.get_option("n", i), Error::Ok);
  EXPECT_EQ(i, 1);
}
