// executorch/extension/flat_tensor/serialize/flat_tensor_header.h: the
// header of a .ptd the test writer made, and malformed heads.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/flat_tensor/serialize/flat_tensor_header.h>
#include <executorch/runtime/platform/runtime.h>

#include "pte_writer.h"

namespace {

using ::executorch::extension::FlatTensorHeader;
using ::executorch::runtime::Error;
using namespace ptewriter;

uint64_t le64(const std::vector<uint8_t>& b, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | b[at + size_t(i)];
  return v;
}

std::vector<uint8_t> ptd() {
  return serialize_flat_tensor(
      {{"w", int8_t(Dtype::Float), {4}, {}, bytes_of(std::vector<float>{1, 2, 3, 4})}});
}

class FlatTensorHeaderTest : public ::testing::Test {
 protected:
  void SetUp() override { ::executorch::runtime::runtime_init(); }
};

TEST_F(FlatTensorHeaderTest, ConstantsAreUpstreams) {
  static_assert(FlatTensorHeader::kNumHeadBytes == 64, "");
  static_assert(FlatTensorHeader::kHeaderOffset == 8, "");
  static_assert(FlatTensorHeader::kHeaderExpectedLength == 40, "");
  EXPECT_EQ(std::memcmp(FlatTensorHeader::kMagic, "FH01", FlatTensorHeader::kMagicSize), 0);
}

TEST_F(FlatTensorHeaderTest, ParsesAWrittenFile) {
  const std::vector<uint8_t> b = ptd();
  ASSERT_GE(b.size(), FlatTensorHeader::kNumHeadBytes);
  auto h = FlatTensorHeader::Parse(b.data(), b.size());
  ASSERT_EQ(h.error(), Error::Ok);
  EXPECT_EQ(h->flatbuffer_offset, le64(b, 16));
  EXPECT_EQ(h->flatbuffer_size, le64(b, 24));
  EXPECT_EQ(h->segment_base_offset, le64(b, 32));
  EXPECT_EQ(h->segment_data_size, le64(b, 40));
  // The segment data holds the tensor, inside the file.
  EXPECT_GE(h->segment_data_size, 16u);
  EXPECT_LE(h->segment_base_offset + h->segment_data_size, b.size());
}

TEST_F(FlatTensorHeaderTest, ShortOrNullHeadIsInvalidArgument) {
  const std::vector<uint8_t> b = ptd();
  EXPECT_EQ(FlatTensorHeader::Parse(b.data(), 63).error(), Error::InvalidArgument);
  EXPECT_EQ(FlatTensorHeader::Parse(nullptr, 64).error(), Error::InvalidArgument);
}

TEST_F(FlatTensorHeaderTest, NoMagicIsNotFound) {
  std::vector<uint8_t> b = ptd();
  b[8] = 'X';
  EXPECT_EQ(FlatTensorHeader::Parse(b.data(), b.size()).error(), Error::NotFound);
}

TEST_F(FlatTensorHeaderTest, ShortLengthIsInvalidExternalData) {
  std::vector<uint8_t> b = ptd();
  b[12] = 39;
  b[13] = b[14] = b[15] = 0;
  EXPECT_EQ(FlatTensorHeader::Parse(b.data(), b.size()).error(), Error::InvalidExternalData);
  b[12] = 48; // longer than known: the extra fields are ignored
  EXPECT_EQ(FlatTensorHeader::Parse(b.data(), b.size()).error(), Error::Ok);
}

} // namespace
