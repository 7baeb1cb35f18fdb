// MergedDataMap: one rule for every merge (several .ptd files in Module and
// executorch-run, a method's data beside the program's own): a key belongs
// to the one map that lists it, two maps listing one key is an error, a key
// no map lists is NotFound.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/extension/named_data_map/merged_data_map.h>
#include <executorch/runtime/executor/merged_data_map.h>
#include <executorch/runtime/platform/runtime.h>

#include "pte_writer.h"

namespace {

using ::executorch::extension::BufferDataLoader;
using ::executorch::extension::FlatTensorDataMap;
using ::executorch::extension::merged_data_map::MergedDataMap;
using ::executorch::runtime::Error;
using ::executorch::runtime::NamedDataMap;
using namespace ptewriter;

// A .ptd with one float per key (value = position + base).
struct Ptd {
  Ptd(std::vector<std::string> keys, float base) {
    std::vector<NamedTensorDesc> named;
    for (size_t i = 0; i < keys.size(); ++i) {
      named.push_back(
          {keys[i], int8_t(Dtype::Float), {1}, {}, bytes_of(std::vector<float>{base + float(i)})});
    }
    bytes = serialize_flat_tensor(named);
    loader = std::make_unique<BufferDataLoader>(bytes.data(), bytes.size());
    auto m = FlatTensorDataMap::load(loader.get());
    EXPECT_EQ(m.error(), Error::Ok);
    map = std::make_unique<FlatTensorDataMap>(std::move(*m));
  }
  std::vector<uint8_t> bytes;
  std::unique_ptr<BufferDataLoader> loader;
  std::unique_ptr<FlatTensorDataMap> map;
};

float value_of(const NamedDataMap& m, const char* key) {
  float v = -1;
  EXPECT_EQ(m.load_data_into(key, &v, sizeof(v)), Error::Ok) << key;
  return v;
}

class MergedDataMapTest : public ::testing::Test {
 protected:
  void SetUp() override { ::executorch::runtime::runtime_init(); }
};

TEST_F(MergedDataMapTest, EachKeyComesFromTheMapThatListsIt) {
  Ptd a({"w", "b"}, 10), b({"x"}, 20);
  const NamedDataMap* maps[] = {a.map.get(), nullptr, b.map.get()};
  auto merged = MergedDataMap::load(maps);
  ASSERT_EQ(merged.error(), Error::Ok);
  EXPECT_EQ(merged->get_num_keys().get(), 3u);
  EXPECT_EQ(value_of(*merged, "w"), 10.0f);
  EXPECT_EQ(value_of(*merged, "b"), 11.0f);
  EXPECT_EQ(value_of(*merged, "x"), 20.0f);
  EXPECT_EQ(merged->get_tensor_layout("x")->nbytes(), 4u);
  auto data = merged->get_data("b");
  ASSERT_TRUE(data.ok());
  float v = 0;
  std::memcpy(&v, data->data(), sizeof(v));
  EXPECT_EQ(v, 11.0f);
  EXPECT_STREQ(merged->get_key(2).get(), "x");
  EXPECT_EQ(merged->get_key(3).error(), Error::InvalidArgument);
}

TEST_F(MergedDataMapTest, AKeyNoMapListsIsNotFound) {
  Ptd a({"w"}, 1), b({"x"}, 2);
  const NamedDataMap* maps[] = {a.map.get(), b.map.get()};
  auto merged = MergedDataMap::load(maps);
  ASSERT_EQ(merged.error(), Error::Ok);
  EXPECT_EQ(merged->get_tensor_layout("nope").error(), Error::NotFound);
  EXPECT_EQ(merged->get_data("nope").error(), Error::NotFound);
  float v = 0;
  EXPECT_EQ(merged->load_data_into("nope", &v, sizeof(v)), Error::NotFound);
  // A prefix of a key is not the key.
  EXPECT_EQ(merged->get_data("").error(), Error::NotFound);
}

TEST_F(MergedDataMapTest, AKeyInTwoMapsIsAnError) {
  Ptd a({"w", "shared"}, 1), b({"shared"}, 2);
  const NamedDataMap* maps[] = {a.map.get(), b.map.get()};
  EXPECT_EQ(MergedDataMap::load(maps).error(), Error::InvalidArgument);
}

TEST_F(MergedDataMapTest, NothingToMergeIsAnError) {
  Ptd empty({}, 0);
  const NamedDataMap* maps[] = {nullptr, empty.map.get()};
  EXPECT_EQ(MergedDataMap::load(maps).error(), Error::InvalidArgument);
}

} // namespace

// A moved-from FlatTensorDataMap answers with an Error; the new one keeps
// the data (and outlives nothing it points into).
TEST_F(MergedDataMapTest, MovedFromFlatTensorDataMapReturnsErrors) {
  Ptd a({"w"}, 10);
  FlatTensorDataMap moved(std::move(*a.map));
  const FlatTensorDataMap& old = *a.map;
  EXPECT_EQ(old.get_num_keys().error(), Error::InvalidState);
  EXPECT_EQ(old.get_key(0).error(), Error::InvalidState);
  EXPECT_EQ(old.get_tensor_layout("w").error(), Error::InvalidState);
  EXPECT_EQ(old.get_data("w").error(), Error::InvalidState);
  float v = 0;
  EXPECT_EQ(old.load_data_into("w", &v, sizeof(v)), Error::InvalidState);
  EXPECT_EQ(value_of(moved, "w"), 10.0f);
}

// executorch/runtime/executor/merged_data_map.h: upstream's fixed-size
// MergedDataMap<N>, the same rules.
TEST_F(MergedDataMapTest, RuntimeMergedDataMapOfN) {
  using RuntimeMerged = ::executorch::runtime::MergedDataMap<3>;
  Ptd a({"w", "b"}, 10), b({"x"}, 20);
  const NamedDataMap* maps[3] = {a.map.get(), nullptr, b.map.get()};
  auto merged = RuntimeMerged::load(maps, 3);
  ASSERT_EQ(merged.error(), Error::Ok);
  EXPECT_EQ(*merged->get_num_keys(), 3u);
  EXPECT_STREQ(*merged->get_key(0), "w");
  EXPECT_STREQ(*merged->get_key(2), "x");
  EXPECT_EQ(merged->get_key(3).error(), Error::InvalidArgument);
  EXPECT_EQ(value_of(*merged, "b"), 11.0f);
  EXPECT_EQ(value_of(*merged, "x"), 20.0f);
  EXPECT_TRUE(merged->get_data("x").ok());
  EXPECT_EQ(merged->get_tensor_layout("x")->nbytes(), sizeof(float));
  EXPECT_EQ(merged->get_data("nope").error(), Error::NotFound);
  EXPECT_EQ(merged->get_tensor_layout("nope").error(), Error::NotFound);
  float v = 0;
  EXPECT_EQ(merged->load_data_into("nope", &v, sizeof(v)), Error::NotFound);

  Ptd dup({"x"}, 30);
  const NamedDataMap* clash[3] = {b.map.get(), dup.map.get(), nullptr};
  EXPECT_EQ(RuntimeMerged::load(clash, 2).error(), Error::InvalidArgument);
  const NamedDataMap* none[3] = {nullptr, nullptr, nullptr};
  EXPECT_EQ(RuntimeMerged::load(none, 3).error(), Error::InvalidArgument);
  EXPECT_EQ(RuntimeMerged::load(maps, 4).error(), Error::InvalidArgument);
}

// Upstream's two-map form: both maps required, keys from either.
TEST_F(MergedDataMapTest, InternalTwoMapForm) {
  using TwoMaps = ::executorch::runtime::internal::MergedDataMap;
  Ptd a({"w", "b"}, 10), b({"x"}, 20), dup({"x"}, 30);
  EXPECT_EQ(TwoMaps::load(nullptr, nullptr).error(), Error::InvalidArgument);
  EXPECT_EQ(TwoMaps::load(a.map.get(), nullptr).error(), Error::InvalidArgument);
  EXPECT_EQ(TwoMaps::load(b.map.get(), dup.map.get()).error(), Error::InvalidArgument);
  auto merged = TwoMaps::load(a.map.get(), b.map.get());
  ASSERT_EQ(merged.error(), Error::Ok);
  EXPECT_EQ(*merged->get_num_keys(), 3u);
  EXPECT_STREQ(*merged->get_key(2), "x");
  EXPECT_EQ(value_of(*merged, "w"), 10.0f);
  EXPECT_EQ(value_of(*merged, "x"), 20.0f);
  EXPECT_EQ(merged->get_tensor_layout("x")->nbytes(), sizeof(float));
  EXPECT_TRUE(merged->get_data("b").ok());
  EXPECT_EQ(merged->get_data("nope").error(), Error::NotFound);
}
