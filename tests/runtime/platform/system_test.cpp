// system.h: the shared-object lookup (with ET_USE_LIBDL, as upstream builds
// it where libdl exists).
#define ET_USE_LIBDL 1
#include <gtest/gtest.h>

#include <string>

#include <executorch/runtime/platform/runtime.h>
#include <executorch/runtime/platform/system.h>

TEST(SystemTest, NamesTheLibraryHoldingASymbol) {
  const std::string name = et_pal_get_shared_library_name(
      reinterpret_cast<const void*>(&::executorch::runtime::runtime_init));
  EXPECT_NE(name.find("libexecutorch.so"), std::string::npos) << name;
}

TEST(SystemTest, UnknownAddress) {
  int on_stack = 0;
  EXPECT_STREQ(et_pal_get_shared_library_name(&on_stack), DYNAMIC_LIBRARY_NOT_FOUND);
}
