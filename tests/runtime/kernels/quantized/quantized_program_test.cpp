// A program written by upstream's exporter whose graph keeps
// quantized_decomposed ops outside any delegate (tests/data/quantized/):
// embedding_4bit.out (grouped scales, no zero points), quantize_per_tensor.out
// and dequantize_per_tensor.out, run through Module against the output
// PyTorch's eager reference gave at export time.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/platform/runtime.h>

#include <gtest/gtest.h>

#include "test_files.h"

#include <string>
#include <vector>

using executorch::extension::make_tensor_ptr;
using executorch::extension::Module;
using executorch::runtime::Error;

namespace {

std::string data_file(const char* name) {
  return et_test::data_path("ET_QUANTIZED_DATA_DIR", ET_QUANTIZED_DATA_DIR_DEFAULT, name);
}

using et_test::read_floats;

TEST(QuantizedProgram, Embedding4bitThenQuantizeDequantizeMatchesEager) {
  executorch::runtime::runtime_init();
  Module m(data_file("embedding_4bit_qdq.pte"));
  ASSERT_EQ(m.load(), Error::Ok);
  auto idx = make_tensor_ptr<int64_t>({2, 3}, {0, 3, 9, 7, 7, 1});
  auto out = m.forward(std::vector<executorch::runtime::EValue>{*idx});
  ASSERT_TRUE(out.ok()) << "error 0x" << std::hex << static_cast<uint32_t>(out.error());
  ASSERT_EQ(out->size(), 1u);
  const auto& t = (*out)[0].toTensor();
  ASSERT_EQ(t.dim(), 3);
  EXPECT_EQ(t.size(0), 2);
  EXPECT_EQ(t.size(1), 3);
  EXPECT_EQ(t.size(2), 8);
  const std::vector<float> want = read_floats(data_file("embedding_4bit_qdq.expected.bin"));
  ASSERT_EQ(want.size(), static_cast<size_t>(t.numel()));
  const float* got = t.const_data_ptr<float>();
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6) << i;
}

TEST(QuantizedProgram, OutOfRangeIndexFailsCleanly) {
  executorch::runtime::runtime_init();
  Module m(data_file("embedding_4bit_qdq.pte"));
  ASSERT_EQ(m.load(), Error::Ok);
  auto idx = make_tensor_ptr<int64_t>({2, 3}, {0, 3, 10, 7, 7, 1}); // 10 rows: 0..9
  auto out = m.forward(std::vector<executorch::runtime::EValue>{*idx});
  EXPECT_FALSE(out.ok());
}

} // namespace
