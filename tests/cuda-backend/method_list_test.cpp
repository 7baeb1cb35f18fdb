// The method list of "enable_cuda_graph_for_method": which methods it names
// (commas, spaces trimmed, empty entries skipped) and which lists are
// refused, with the offending byte named, without a GPU.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <executorch/runtime/platform/log.h>

#include <gtest/gtest.h>

#include "error_log.h"

#include "method_list.h"

using executorch::backends::cuda::check_method_list;
using executorch::backends::cuda::method_listed;
using executorch::runtime::Error;
using executorch::runtime::LogLevel;

namespace {

TEST(MethodList, NamesEachEntry) {
  EXPECT_TRUE(method_listed("decode", "decode"));
  EXPECT_TRUE(method_listed("prefill,decode", "decode"));
  EXPECT_TRUE(method_listed("prefill,decode", "prefill"));
  EXPECT_TRUE(method_listed(" prefill , decode ", "decode"));
  EXPECT_TRUE(method_listed(",,decode,", "decode"));
}

TEST(MethodList, NamesNothingElse) {
  EXPECT_FALSE(method_listed("", "decode"));
  EXPECT_FALSE(method_listed(" , ,", "decode"));
  EXPECT_FALSE(method_listed("decode_from_embedding", "decode"));
  EXPECT_FALSE(method_listed("decode", "decode_from_embedding"));
  EXPECT_FALSE(method_listed("prefill,decode", "prefill,decode"));
  EXPECT_FALSE(method_listed("Decode", "decode"));
  // An empty method name is never listed, even by an empty entry.
  EXPECT_FALSE(method_listed("decode,,", ""));
  EXPECT_FALSE(method_listed("", ""));
}

TEST(MethodList, RefusesControlCharacters) {
  auto log = std::make_unique<et_test::ErrorLog>();
  EXPECT_EQ(check_method_list("prefill, decode", "set_option"), Error::Ok);
  EXPECT_EQ(check_method_list("", "set_option"), Error::Ok);
  EXPECT_EQ(check_method_list("d\xc3\xa9"
                              "code",
                              "set_option"),
            Error::Ok); // UTF-8 is a name
  EXPECT_TRUE(et_test::error_lines().empty());
  EXPECT_EQ(check_method_list("decode\nprefill", "set_option"), Error::InvalidArgument);
  EXPECT_EQ(check_method_list("decode,\tprefill", "runtime option"), Error::InvalidArgument);
  EXPECT_EQ(check_method_list(std::string_view("ab\0c", 4), "x"), Error::InvalidArgument);
  EXPECT_EQ(check_method_list("a\x7f", "x"), Error::InvalidArgument);
  log.reset();
  ASSERT_EQ(et_test::error_lines().size(), 4u);
  EXPECT_NE(et_test::error_lines()[0].find("set_option"), std::string::npos)
      << et_test::error_lines()[0];
  EXPECT_NE(et_test::error_lines()[0].find("byte 6"), std::string::npos)
      << et_test::error_lines()[0];
  EXPECT_NE(et_test::error_lines()[0].find("0x0a"), std::string::npos) << et_test::error_lines()[0];
  EXPECT_NE(et_test::error_lines()[1].find("runtime option"), std::string::npos)
      << et_test::error_lines()[1];
  EXPECT_NE(et_test::error_lines()[1].find("byte 7"), std::string::npos)
      << et_test::error_lines()[1];
  EXPECT_NE(et_test::error_lines()[2].find("0x00"), std::string::npos) << et_test::error_lines()[2];
}

} // namespace
