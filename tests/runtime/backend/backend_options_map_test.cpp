// executorch/runtime/backend/backend_options_map.h: LoadBackendOptionsMap.
#include <executorch/runtime/backend/backend_options_map.h>

#include <cstring>
#include <string>

#include <gtest/gtest.h>

using executorch::runtime::BackendOption;
using executorch::runtime::BackendOptions;
using executorch::runtime::Error;
using executorch::runtime::LoadBackendOptionsMap;
using executorch::runtime::Span;

namespace {

// A backend's own typed options, the builder shape set_options(Builder&)
// accepts.
class ExampleBackendOptions {
 public:
  ExampleBackendOptions& setNumThreads(int n) {
    (void)options_.set_option("num_threads", n);
    return *this;
  }
  const char* backend_id() const { return "ExampleBackend"; }
  Span<BackendOption> view() { return options_.view(); }

 private:
  BackendOptions<2> options_;
};

} // namespace

TEST(LoadBackendOptionsMapTest, EmptyMap) {
  LoadBackendOptionsMap map;
  EXPECT_EQ(map.size(), 0u);
  EXPECT_FALSE(map.has_options("CoreMLBackend"));
  EXPECT_EQ(map.get_options("CoreMLBackend").size(), 0u);
  EXPECT_EQ(map.get_options(nullptr).size(), 0u);
  EXPECT_FALSE(map.has_options(nullptr));
}

TEST(LoadBackendOptionsMapTest, SetAndGetRoundTrip) {
  BackendOptions<4> coreml_opts;
  ASSERT_EQ(coreml_opts.set_option("compute_unit", "cpu_and_gpu"), Error::Ok);
  ASSERT_EQ(coreml_opts.set_option("num_threads", 4), Error::Ok);

  LoadBackendOptionsMap map;
  ASSERT_EQ(map.set_options("CoreMLBackend", coreml_opts.view()), Error::Ok);
  EXPECT_TRUE(map.has_options("CoreMLBackend"));
  EXPECT_FALSE(map.has_options("XnnpackBackend"));

  Span<const BackendOption> got = map.get_options("CoreMLBackend");
  ASSERT_EQ(got.size(), 2u);
  EXPECT_STREQ(got[0].key, "compute_unit");
  using Text = std::array<char, executorch::runtime::kMaxOptionValueLength>;
  EXPECT_STREQ(std::get<Text>(got[0].value).data(), "cpu_and_gpu");
  EXPECT_STREQ(got[1].key, "num_threads");
  EXPECT_EQ(std::get<int>(got[1].value), 4);
}

TEST(LoadBackendOptionsMapTest, OptionsAreBorrowedNotCopied) {
  BackendOptions<1> opts;
  ASSERT_EQ(opts.set_option("num_threads", 1), Error::Ok);
  LoadBackendOptionsMap map;
  ASSERT_EQ(map.set_options("B", opts.view()), Error::Ok);
  ASSERT_EQ(opts.set_option("num_threads", 9), Error::Ok);
  EXPECT_EQ(std::get<int>(map.get_options("B")[0].value), 9);
}

TEST(LoadBackendOptionsMapTest, BackendIdIsCopied) {
  BackendOptions<1> opts;
  LoadBackendOptionsMap map;
  std::string id = "Temporary";
  ASSERT_EQ(map.set_options(id.c_str(), opts.view()), Error::Ok);
  id = "Overwritten";
  EXPECT_TRUE(map.has_options("Temporary"));
  EXPECT_FALSE(map.has_options("Overwritten"));
}

TEST(LoadBackendOptionsMapTest, SettingABackendAgainReplacesItsOptions) {
  BackendOptions<1> first;
  BackendOptions<2> second;
  ASSERT_EQ(second.set_option("a", 1), Error::Ok);
  ASSERT_EQ(second.set_option("b", 2), Error::Ok);
  LoadBackendOptionsMap map;
  ASSERT_EQ(map.set_options("B", first.view()), Error::Ok);
  ASSERT_EQ(map.set_options("B", second.view()), Error::Ok);
  EXPECT_EQ(map.size(), 1u);
  EXPECT_EQ(map.get_options("B").size(), 2u);
}

TEST(LoadBackendOptionsMapTest, RejectsBadIdsAndAFullMap) {
  BackendOptions<1> opts;
  LoadBackendOptionsMap map;
  EXPECT_EQ(map.set_options(nullptr, opts.view()), Error::InvalidArgument);
  EXPECT_EQ(map.set_options("", opts.view()), Error::InvalidArgument);
  const std::string too_long(LoadBackendOptionsMap::kMaxBackendIdLength, 'x');
  EXPECT_EQ(map.set_options(too_long.c_str(), opts.view()), Error::InvalidArgument);
  EXPECT_EQ(map.size(), 0u);

  for (size_t i = 0; i < LoadBackendOptionsMap::kMaxBackends; ++i) {
    const std::string id = "Backend" + std::to_string(i);
    ASSERT_EQ(map.set_options(id.c_str(), opts.view()), Error::Ok);
  }
  EXPECT_EQ(map.set_options("OneTooMany", opts.view()), Error::InvalidArgument);
  // Upstream's capacity: eight backends, the ninth refused.
  EXPECT_EQ(LoadBackendOptionsMap::kMaxBackends, 8u);
  EXPECT_EQ(map.size(), 8u);
  // An existing entry can still be replaced.
  EXPECT_EQ(map.set_options("Backend0", opts.view()), Error::Ok);
}

TEST(LoadBackendOptionsMapTest, BuilderOverload) {
  ExampleBackendOptions example;
  example.setNumThreads(3);
  LoadBackendOptionsMap map;
  ASSERT_EQ(map.set_options(example), Error::Ok);
  Span<const BackendOption> got = map.get_options("ExampleBackend");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(std::get<int>(got[0].value), 3);
}

TEST(LoadBackendOptionsMapTest, EntryAtEnumeratesInInsertionOrder) {
  BackendOptions<1> a;
  BackendOptions<2> b;
  ASSERT_EQ(b.set_option("x", true), Error::Ok);
  LoadBackendOptionsMap map;
  ASSERT_EQ(map.set_options("First", a.view()), Error::Ok);
  ASSERT_EQ(map.set_options("Second", b.view()), Error::Ok);
  ASSERT_EQ(map.size(), 2u);

  const auto e0 = map.entry_at(0);
  const auto e1 = map.entry_at(1);
  EXPECT_STREQ(e0.backend_id, "First");
  EXPECT_EQ(e0.options.size(), 0u);
  EXPECT_STREQ(e1.backend_id, "Second");
  ASSERT_EQ(e1.options.size(), 1u);
  EXPECT_STREQ(e1.options[0].key, "x");

  const auto past_end = map.entry_at(2);
  EXPECT_EQ(past_end.backend_id, nullptr);
  EXPECT_EQ(past_end.options.size(), 0u);
}
