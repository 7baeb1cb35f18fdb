// executorch/extension/flat_tensor/serialize/serialize.h: save_ptd writes a
// .ptd that FlatTensorDataMap reads back, header and layout included.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/extension/flat_tensor/serialize/flat_tensor_header.h>
#include <executorch/extension/flat_tensor/serialize/serialize.h>
#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/platform/runtime.h>

namespace {

using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::extension::BufferDataLoader;
using ::executorch::extension::FileDataLoader;
using ::executorch::extension::FlatTensorDataMap;
using ::executorch::extension::FlatTensorHeader;
using ::executorch::extension::make_tensor_ptr;
using ::executorch::extension::flat_tensor::save_ptd;
using ::executorch::runtime::Error;

class FlatTensorSerializeTest : public ::testing::Test {
 protected:
  void SetUp() override { ::executorch::runtime::runtime_init(); }
};

void expect_readable(const std::string& bytes) {
  auto header = FlatTensorHeader::Parse(bytes.data(), bytes.size());
  ASSERT_EQ(header.error(), Error::Ok);
  EXPECT_EQ(header->segment_base_offset % 16, 0u);
  // bias (4 bytes, padded to 16) then weight (2x3 floats, last: not padded).
  EXPECT_EQ(header->segment_data_size, 16u + 24u);
  EXPECT_EQ(header->segment_base_offset + header->segment_data_size, bytes.size());

  BufferDataLoader loader(bytes.data(), bytes.size());
  auto map = FlatTensorDataMap::load(&loader);
  ASSERT_EQ(map.error(), Error::Ok);
  EXPECT_EQ(*map->get_num_keys(), 2u);
  EXPECT_STREQ(*map->get_key(0), "linear.bias");
  auto layout = map->get_tensor_layout("linear.weight");
  ASSERT_EQ(layout.error(), Error::Ok);
  EXPECT_EQ(layout->scalar_type(), ScalarType::Float);
  ASSERT_EQ(layout->sizes().size(), 2u);
  EXPECT_EQ(layout->sizes()[0], 2);
  EXPECT_EQ(layout->sizes()[1], 3);
  EXPECT_EQ(layout->dim_order()[1], 1);
  float w[6] = {};
  ASSERT_EQ(map->load_data_into("linear.weight", w, sizeof(w)), Error::Ok);
  EXPECT_EQ(w[5], 6.0f);
  float bias = 0;
  ASSERT_EQ(map->load_data_into("linear.bias", &bias, sizeof(bias)), Error::Ok);
  EXPECT_EQ(bias, 2.0f);
}

TEST_F(FlatTensorSerializeTest, RoundTripsThroughAStream) {
  std::vector<float> weight{1, 2, 3, 4, 5, 6};
  float bias = 2.0f;
  auto w = make_tensor_ptr({2, 3}, weight.data());
  auto b = make_tensor_ptr({1}, &bias);
  const std::map<std::string, Tensor> tensors{{"linear.weight", *w}, {"linear.bias", *b}};
  std::ostringstream out;
  ASSERT_EQ(save_ptd(out, tensors, 16), Error::Ok);
  const std::string bytes = out.str();
  ASSERT_GE(bytes.size(), 64u);
  EXPECT_EQ(std::memcmp(bytes.data() + 4, "FT01", 4), 0);
  EXPECT_EQ(std::memcmp(bytes.data() + 8, "FH01", 4), 0);
  expect_readable(bytes);
}

TEST_F(FlatTensorSerializeTest, WritesAFile) {
  std::vector<float> weight{1, 2, 3, 4, 5, 6};
  float bias = 2.0f;
  auto w = make_tensor_ptr({2, 3}, weight.data());
  auto b = make_tensor_ptr({1}, &bias);
  const std::map<std::string, Tensor> tensors{{"linear.weight", *w}, {"linear.bias", *b}};
  char path[] = "/tmp/et_save_ptd_XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  ASSERT_EQ(save_ptd(std::string(path), tensors, 16), Error::Ok);
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  std::remove(path);
  expect_readable(bytes);
  EXPECT_EQ(save_ptd(std::string("/nonexistent-dir/x.ptd"), tensors, 16), Error::AccessFailed);
}

TEST_F(FlatTensorSerializeTest, RefusesBadAlignmentAndMissingData) {
  float bias = 2.0f;
  auto b = make_tensor_ptr({1}, &bias);
  std::map<std::string, Tensor> tensors{{"b", *b}};
  std::ostringstream out;
  EXPECT_EQ(save_ptd(out, tensors, 0), Error::InvalidArgument);
  EXPECT_EQ(save_ptd(out, tensors, 24), Error::InvalidArgument);
  auto empty = make_tensor_ptr({4}, static_cast<float*>(nullptr));
  tensors.emplace("x", *empty);
  EXPECT_EQ(save_ptd(out, tensors, 16), Error::InvalidArgument);
}

} // namespace
