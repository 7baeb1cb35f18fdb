// native_code_policy.h: which backends carry native code, the API switch
// and EXECUTORCH_REFUSE_NATIVE_CODE (read at each call).
#include <cstdlib>

#include <gtest/gtest.h>

#include <executorch/runtime/backend/native_code_policy.h>

using namespace ::executorch::runtime;

namespace {

class NativeCodePolicy : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("EXECUTORCH_REFUSE_NATIVE_CODE");
    set_refuse_native_code(false);
  }
  void TearDown() override { SetUp(); }
};

TEST_F(NativeCodePolicy, OnlyCudaBackendCarriesNativeCode) {
  EXPECT_TRUE(backend_runs_native_code("CudaBackend"));
  EXPECT_STREQ(backend_native_code_description("CudaBackend"),
               "runs a shared object from the program when it is loaded");
  for (const char* id : {"XnnpackBackend", "cudabackend", "CudaBackend2", "", "Cuda"}) {
    EXPECT_FALSE(backend_runs_native_code(id)) << id;
    EXPECT_EQ(backend_native_code_description(id), nullptr) << id;
  }
  EXPECT_FALSE(backend_runs_native_code(nullptr));
  EXPECT_EQ(backend_native_code_description(nullptr), nullptr);
}

TEST_F(NativeCodePolicy, OffByDefaultAndSetByApi) {
  EXPECT_FALSE(refuses_native_code());
  set_refuse_native_code(true);
  EXPECT_TRUE(refuses_native_code());
  set_refuse_native_code(false);
  EXPECT_FALSE(refuses_native_code());
}

TEST_F(NativeCodePolicy, EnvironmentRefusesUnlessEmptyOrZero) {
  for (const char* v : {"1", "yes", "true", "2"}) {
    setenv("EXECUTORCH_REFUSE_NATIVE_CODE", v, 1);
    EXPECT_TRUE(refuses_native_code()) << v;
  }
  for (const char* v : {"", "0"}) {
    setenv("EXECUTORCH_REFUSE_NATIVE_CODE", v, 1);
    EXPECT_FALSE(refuses_native_code()) << v;
  }
}

TEST_F(NativeCodePolicy, ApplicationCannotLiftTheEnvironmentsRefusal) {
  setenv("EXECUTORCH_REFUSE_NATIVE_CODE", "1", 1);
  set_refuse_native_code(false);
  EXPECT_TRUE(refuses_native_code());
  unsetenv("EXECUTORCH_REFUSE_NATIVE_CODE");
  EXPECT_FALSE(refuses_native_code());
}

} // namespace
