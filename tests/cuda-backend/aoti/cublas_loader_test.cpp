// cuBLAS loaded on first use (no NEEDED entry): the library the backend was
// built against opens, and every entry point the shim calls resolves. Needs
// no GPU: opening libcublas and looking up symbols touches no device.
#include <gtest/gtest.h>

#include "aoti/cublas_loader.h"

namespace aoti = executorch::backends::cuda::aoti;

namespace {

TEST(CublasLoader, ResolvesEveryEntryPointOnce) {
  const char* why = nullptr;
  const aoti::CublasApi* api = aoti::cublas_api(&why);
  if (api == nullptr) {
    // A toolkit found at build time whose libraries the loader cannot see
    // (no ld.so.conf entry): what the backend reports at the first matmul.
    ASSERT_NE(why, nullptr);
    GTEST_SKIP() << why;
  }
#define AOTI_EXPECT_RESOLVED(name, type) EXPECT_NE(api->name, nullptr) << #name;
  AOTI_CUBLAS_FUNCTIONS(AOTI_EXPECT_RESOLVED)
#undef AOTI_EXPECT_RESOLVED
  // Loaded once: the same table every call.
  EXPECT_EQ(aoti::cublas_api(nullptr), api);
}

} // namespace
