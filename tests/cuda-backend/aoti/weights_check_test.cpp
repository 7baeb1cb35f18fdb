// check_weights_blob: the size and dtype checks made before a weights blob
// is handed to AOTInductorModelUpdateConstantsFromBlob (which gets no size).
// No GPU needed: the check is plain arithmetic on the model's constant table.
#include <string>
#include <vector>

#include <executorch/runtime/platform/log.h>

#include <gtest/gtest.h>

#include "error_log.h"

#include "aoti/dtype.h"
#include "aoti/weights_check.h"

using executorch::backends::cuda::aoti::check_weights_blob;
using executorch::backends::cuda::aoti::ConstantInfo;
using executorch::runtime::Error;
using executorch::runtime::LogLevel;
namespace aoti = executorch::backends::cuda::aoti;

namespace {

class WeightsCheck : public ::testing::Test {
 protected:
  // The one error line the check logged ("" when none or several).
  static std::string only_line() { return et_test::ErrorLog::only_line(); }

 private:
  et_test::ErrorLog log_;
};

// An MLP's table: fc1 [128,64] + bias, fc2 [32,128] + bias, float32.
std::vector<ConstantInfo> mlp_table() {
  return {{"fc1_weight", aoti::kDtF32, 128 * 64 * 4, false, ""},
          {"fc1_bias", aoti::kDtF32, 128 * 4, false, ""},
          {"fc2_weight", aoti::kDtF32, 32 * 128 * 4, false, ""},
          {"fc2_bias", aoti::kDtF32, 32 * 4, false, ""}};
}
constexpr size_t kMlpBytes = (128 * 64 + 128 + 32 * 128 + 32) * 4;

TEST_F(WeightsCheck, ExactBlobPasses) {
  EXPECT_EQ(check_weights_blob(mlp_table(), kMlpBytes, "mlp"), Error::Ok);
  EXPECT_TRUE(et_test::error_lines().empty());
}

TEST_F(WeightsCheck, NoConstantsAndEmptyBlobPasses) {
  EXPECT_EQ(check_weights_blob({}, 0, "none"), Error::Ok);
}

TEST_F(WeightsCheck, ShortBlobNamesTheFirstConstantThatDoesNotFit) {
  // A smaller model's blob: fc1_weight fits, fc1_bias runs past the end.
  const size_t blob = 128 * 64 * 4 + 100;
  EXPECT_EQ(check_weights_blob(mlp_table(), blob, "mlp"), Error::InvalidExternalData);
  const std::string line = only_line();
  EXPECT_NE(line.find("'fc1_bias'"), std::string::npos) << line;
  EXPECT_NE(line.find("offset 32768"), std::string::npos) << line;
  EXPECT_NE(line.find(std::to_string(blob) + "-byte weights blob"), std::string::npos) << line;
  EXPECT_NE(line.find("mlp"), std::string::npos) << line;
}

TEST_F(WeightsCheck, EmptyBlobNamesTheFirstConstant) {
  EXPECT_EQ(check_weights_blob(mlp_table(), 1, "mlp"), Error::InvalidExternalData);
  EXPECT_NE(only_line().find("'fc1_weight'"), std::string::npos) << only_line();
}

TEST_F(WeightsCheck, LongBlobIsRejectedWithBothSizes) {
  EXPECT_EQ(check_weights_blob(mlp_table(), kMlpBytes + 4, "mlp"), Error::InvalidExternalData);
  const std::string line = only_line();
  EXPECT_NE(line.find(std::to_string(kMlpBytes + 4) + " bytes"), std::string::npos) << line;
  EXPECT_NE(line.find("take " + std::to_string(kMlpBytes)), std::string::npos) << line;
}

TEST_F(WeightsCheck, PaddedLayoutPasses) {
  // Constants padded to 64 bytes each (a model with CPU constants).
  std::vector<ConstantInfo> t = {{"a", aoti::kDtF32, 12, false, ""},
                                 {"b", aoti::kDtI64, 72, false, ""},
                                 {"c", aoti::kDtBF16, 2, false, ""}};
  EXPECT_EQ(check_weights_blob(t, 64 + 128 + 64, "padded"), Error::Ok);
  EXPECT_EQ(check_weights_blob(t, 12 + 72 + 2, "packed"), Error::Ok);
  EXPECT_EQ(check_weights_blob(t, 64 + 128 + 63, "off by one"), Error::InvalidExternalData);
}

TEST_F(WeightsCheck, FoldedConstantsAreNotInTheBlob) {
  std::vector<ConstantInfo> t = mlp_table();
  t.insert(t.begin() + 1, ConstantInfo{"folded", aoti::kDtF32, 1 << 20, true, ""});
  EXPECT_EQ(check_weights_blob(t, kMlpBytes, "mlp"), Error::Ok);
}

TEST_F(WeightsCheck, UnknownDtypeIsNamed) {
  std::vector<ConstantInfo> t = mlp_table();
  t[2].dtype = 99;
  EXPECT_EQ(check_weights_blob(t, kMlpBytes, "mlp"), Error::InvalidExternalData);
  const std::string line = only_line();
  EXPECT_NE(line.find("'fc2_weight'"), std::string::npos) << line;
  EXPECT_NE(line.find("dtype 99"), std::string::npos) << line;
}

TEST_F(WeightsCheck, PartialElementIsNamed) {
  std::vector<ConstantInfo> t = {{"half_a_float", aoti::kDtF32, 6, false, ""}};
  EXPECT_EQ(check_weights_blob(t, 6, "odd"), Error::InvalidExternalData);
  EXPECT_NE(only_line().find("'half_a_float'"), std::string::npos) << only_line();
}

TEST_F(WeightsCheck, HugeSizesDoNotWrap) {
  // Offsets that would wrap a 64-bit sum must fail, not pass as small.
  std::vector<ConstantInfo> t = {{"big", aoti::kDtU8, ~uint64_t{0} - 7, false, ""},
                                 {"wrap", aoti::kDtU8, 16, false, ""}};
  EXPECT_EQ(check_weights_blob(t, 8, "huge"), Error::InvalidExternalData);
  EXPECT_NE(only_line().find("'big'"), std::string::npos) << only_line();
}

TEST_F(WeightsCheck, ZeroSizeConstantsPass) {
  std::vector<ConstantInfo> t = {{"empty", aoti::kDtF32, 0, false, ""},
                                 {"one", aoti::kDtF32, 4, false, ""}};
  EXPECT_EQ(check_weights_blob(t, 4, "zeros"), Error::Ok);
}

} // namespace
