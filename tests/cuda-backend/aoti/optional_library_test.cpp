// open_optional_library / resolve_optional_symbol: what the backend says when
// cuBLAS or cuDNN is missing or lacks an entry point. libc stands in for a
// library that is there.
#include <gtest/gtest.h>

#include <string>

#include "aoti/optional_library.h"

namespace aoti = executorch::backends::cuda::aoti;

namespace {

TEST(OptionalLibrary, MissingLibrarySaysWhatNeedsItAndWhy) {
  char why[512] = {0};
  EXPECT_EQ(aoti::open_optional_library("libexecutorch_absent.so.7", "cuFoo is needed for bar", why,
                                        sizeof why),
            nullptr);
  const std::string text = why;
  EXPECT_EQ(text.rfind("cuFoo is needed for bar but libexecutorch_absent.so.7 could not be "
                       "loaded (",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("libexecutorch_absent.so.7: cannot open"), std::string::npos) << text;
}

TEST(OptionalLibrary, MissingSymbolIsNamedPresentOneResolves) {
  char why[512] = {0};
  void* lib = aoti::open_optional_library("libc.so.6", "libc is needed", why, sizeof why);
  ASSERT_NE(lib, nullptr) << why;
  EXPECT_NE(aoti::resolve_optional_symbol(lib, "libc.so.6", "strlen", "", why, sizeof why),
            nullptr);
  EXPECT_STREQ(why, "") << "a resolved symbol leaves why alone";
  EXPECT_EQ(aoti::resolve_optional_symbol(lib, "libc.so.6", "cudnnNoSuchCall", " (v9 expected)",
                                          why, sizeof why),
            nullptr);
  EXPECT_STREQ(why, "libc.so.6 lacks the symbol cudnnNoSuchCall (v9 expected)");
}

} // namespace
