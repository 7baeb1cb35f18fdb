// executorch/runtime/executor/program.h: the header check and the output
// flattening encoding, on an upstream-written program.
#include <gtest/gtest.h>

#include <cstring>

#include <executorch/runtime/platform/runtime.h>

#include "executor_test_util.h"

using namespace et_test;
using ::executorch::extension::BufferDataLoader;

class ProgramTest : public ::testing::Test {
 protected:
  void SetUp() override {
    executorch::runtime::runtime_init();
    bytes_ = read_file(conformance_path("add.pte"));
    ASSERT_FALSE(bytes_.empty());
  }
  std::vector<uint8_t> bytes_;
};

TEST_F(ProgramTest, HeaderCheckWithKMinHeadBytes) {
  static_assert(Program::kMinHeadBytes == 64, "as upstream");
  ASSERT_GE(bytes_.size(), Program::kMinHeadBytes);
  EXPECT_EQ(Program::check_header(bytes_.data(), Program::kMinHeadBytes),
            Program::CompatibleVersion);
  EXPECT_EQ(Program::check_header(bytes_.data(), Program::kMinHeadBytes),
            Program::HeaderStatus::CompatibleVersion);
  std::vector<uint8_t> other(bytes_.begin(), bytes_.begin() + Program::kMinHeadBytes);
  other[4] = 'X';
  EXPECT_EQ(Program::check_header(other.data(), other.size()), Program::NotPresent);
  EXPECT_EQ(Program::check_header(bytes_.data(), 2), Program::ShortData);
}

TEST_F(ProgramTest, OutputFlatteningEncoding) {
  BufferDataLoader loader(bytes_.data(), bytes_.size());
  auto program = Program::load(&loader);
  ASSERT_EQ(program.error(), Error::Ok);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  Result<const char*> encoding = program->get_output_flattening_encoding();
  Result<const char*> named = program->get_output_flattening_encoding("forward");
  Result<const char*> missing = program->get_output_flattening_encoding("backward");
#pragma GCC diagnostic pop
  ASSERT_TRUE(encoding.ok());
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(*encoding, *named);
  // One tensor output: the exporter writes a single leaf.
  EXPECT_STREQ(*encoding, "$");
  EXPECT_EQ(missing.error(), Error::InvalidArgument);
}
