// What init says when a model .so needs a CUDA symbol the installed runtime
// or driver lacks (a model compiled against a newer CUDA), from the
// loader's message, without a GPU.
#include <string>

#include <gtest/gtest.h>

#include "aoti/missing_symbol.h"

namespace aoti = executorch::backends::cuda::aoti;

namespace {

TEST(MissingSymbol, FindsTheSymbolInTheLoadersMessage) {
  EXPECT_EQ(aoti::undefined_symbol("/proc/self/fd/7: undefined symbol: cudaStreamGetDevice"),
            "cudaStreamGetDevice");
  EXPECT_EQ(aoti::undefined_symbol(
                "/proc/self/fd/7: undefined symbol: cuTensorMapEncodeTiled, version libcuda.so.1"),
            "cuTensorMapEncodeTiled");
  EXPECT_EQ(aoti::undefined_symbol("libfoo.so: cannot open shared object file"), "");
  EXPECT_EQ(aoti::undefined_symbol(nullptr), "");
}

TEST(MissingSymbol, RuntimeSymbolWithAKnownMinimum) {
  const std::string s = aoti::explain_missing_cuda_symbol("cudaStreamGetDevice", 11080, 12040);
  EXPECT_NE(s.find("CUDA runtime symbol cudaStreamGetDevice"), std::string::npos) << s;
  EXPECT_NE(s.find("libcudart 11.8 lacks"), std::string::npos) << s;
  EXPECT_NE(s.find("needs CUDA 12.8 or newer"), std::string::npos) << s;
}

TEST(MissingSymbol, DriverSymbolNamesTheDriverVersion) {
  const std::string s = aoti::explain_missing_cuda_symbol("cuTensorMapEncodeTiled", 13000, 11040);
  EXPECT_NE(s.find("CUDA driver symbol cuTensorMapEncodeTiled"), std::string::npos) << s;
  EXPECT_NE(s.find("11.4 lacks"), std::string::npos) << s;
  EXPECT_NE(s.find("needs CUDA 12.0 or newer"), std::string::npos) << s;
}

TEST(MissingSymbol, UnknownCudaSymbolStillExplained) {
  const std::string s = aoti::explain_missing_cuda_symbol("cudaSomethingFromTheFuture", 12040, 0);
  EXPECT_NE(s.find("libcudart 12.4 lacks"), std::string::npos) << s;
  EXPECT_NE(s.find("compiled against a newer CUDA"), std::string::npos) << s;
}

TEST(MissingSymbol, OtherSymbolsAreNotCudas) {
  EXPECT_EQ(aoti::explain_missing_cuda_symbol("aoti_torch_cuda_frobnicate", 13000, 13000), "");
  EXPECT_EQ(aoti::explain_missing_cuda_symbol("cudnnCreate", 13000, 13000), "");
  EXPECT_EQ(aoti::explain_missing_cuda_symbol("curl_easy_init", 13000, 13000), "");
  EXPECT_EQ(aoti::explain_missing_cuda_symbol("", 13000, 13000), "");
}

TEST(MissingSymbol, VersionText) {
  EXPECT_EQ(aoti::cuda_version_text(13000), "13.0");
  EXPECT_EQ(aoti::cuda_version_text(11080), "11.8");
  EXPECT_EQ(aoti::cuda_version_text(12090), "12.9");
}

} // namespace
