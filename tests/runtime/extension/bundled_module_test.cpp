// extension/module/bundled_module.h: BundledModule over bundles written here
// around tests/data/add.pte (from a file, from memory with and without a
// length), running test cases and verifying outputs with upstream's results
// and errors; and malformed bundles giving errors, never crashes.
#include <executorch/extension/module/bundled_module.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

#include "bundle_writer.h"

namespace {

using ::executorch::extension::ET_BUNDLED_MODULE_NAMESPACE::BundledModule;
using ::executorch::runtime::Error;
using ::executorch::runtime::EValue;
namespace bw = ::bundle_writer;

static_assert(std::is_same<::executorch::extension::BundledModule,
                           ::executorch::extension::bundled_module::BundledModule>::value,
              "older upstream code names it executorch::extension::BundledModule");
static_assert(std::is_base_of<::executorch::extension::Module, BundledModule>::value,
              "a BundledModule is a Module");

class BundledModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::executorch::runtime::runtime_init();
    program_ = bw::read_file(bw::conformance_path("add.pte"));
    ASSERT_FALSE(program_.empty());
    bw::Suite s;
    s.cases = {bw::add_case(1.0f, 1.0f, 2.0f), bw::add_case(3.5f, -1.25f, 2.25f),
               bw::add_case(1.0f, 2.0f, 3.001f)};
    bundle_ = bw::write(program_, {s});
    path_ = ::testing::TempDir() + "bundled_module_test_" + std::to_string(getpid()) + ".bpte";
    write(path_, bundle_);
  }
  void TearDown() override { std::remove(path_.c_str()); }

  static void write(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  }

  static float first(const EValue& v) { return v.toTensor().const_data_ptr<float>()[0]; }

  std::vector<uint8_t> program_;
  std::vector<uint8_t> bundle_;
  std::string path_;
};

TEST_F(BundledModuleTest, FromFileExecutesAndVerifies) {
  auto bm = BundledModule::from_file(path_);
  ASSERT_EQ(bm.error(), Error::Ok);
  EXPECT_FALSE((*bm)->Module::is_loaded());
  auto out = (*bm)->execute("forward", 0);
  ASSERT_EQ(out.error(), Error::Ok);
  EXPECT_TRUE((*bm)->Module::is_loaded());
  ASSERT_EQ(out->size(), 1u);
  EXPECT_FLOAT_EQ(first((*out)[0]), 2.0f);
  EXPECT_EQ((*bm)->verify_method_outputs("forward", 0), Error::Ok);

  auto out1 = (*bm)->execute("forward", 1);
  ASSERT_EQ(out1.error(), Error::Ok);
  EXPECT_FLOAT_EQ(first((*out1)[0]), 2.25f);
  EXPECT_EQ((*bm)->verify_method_outputs("forward", 1), Error::Ok);
  // The last run was case 1, not case 0.
  EXPECT_EQ((*bm)->verify_method_outputs("forward", 0), Error::NotFound);
}

TEST_F(BundledModuleTest, ToleranceDecidesAMismatch) {
  auto bm = BundledModule::from_file(path_);
  ASSERT_EQ(bm.error(), Error::Ok);
  ASSERT_EQ((*bm)->execute("forward", 2).error(), Error::Ok);
  EXPECT_EQ((*bm)->verify_method_outputs("forward", 2), Error::NotFound);
  EXPECT_EQ((*bm)->verify_method_outputs("forward", 2, 1e-3, 1e-5), Error::Ok);
  EXPECT_EQ((*bm)->verify_method_outputs("forward", 2, 0, 1e-2), Error::Ok);
}

TEST_F(BundledModuleTest, ModuleExecuteStaysAvailable) {
  auto bm = BundledModule::from_file(path_);
  ASSERT_EQ(bm.error(), Error::Ok);
  auto names = (*bm)->method_names();
  ASSERT_EQ(names.error(), Error::Ok);
  EXPECT_EQ(names->count("forward"), 1u);
  // Module's own execute (no test case): the inputs set by the bundle stay.
  ASSERT_EQ((*bm)->execute("forward", 1).error(), Error::Ok);
  auto again = (*bm)->execute("forward", std::vector<EValue>{EValue(), EValue()});
  ASSERT_EQ(again.error(), Error::Ok);
  EXPECT_FLOAT_EQ(first((*again)[0]), 2.25f);
}

TEST_F(BundledModuleTest, FromMemoryWithAndWithoutLength) {
  BundledModule unsized(bundle_.data());
  ASSERT_EQ(unsized.execute("forward", 0).error(), Error::Ok);
  EXPECT_EQ(unsized.verify_method_outputs("forward", 0), Error::Ok);

  BundledModule sized(bundle_.data(), bundle_.size());
  ASSERT_EQ(sized.execute("forward", 1).error(), Error::Ok);
  EXPECT_EQ(sized.verify_method_outputs("forward", 1), Error::Ok);
}

TEST_F(BundledModuleTest, MissingFile) {
  auto bm = BundledModule::from_file("/nonexistent/dir/file.bpte");
  EXPECT_EQ(bm.error(), Error::AccessFailed);
}

TEST_F(BundledModuleTest, PlainProgramIsNotABundle) {
  // As upstream: the file loads; using it as a bundle is InvalidArgument.
  auto bm = BundledModule::from_file(bw::conformance_path("add.pte"));
  ASSERT_EQ(bm.error(), Error::Ok);
  EXPECT_EQ((*bm)->execute("forward", 0).error(), Error::InvalidArgument);
  EXPECT_FALSE((*bm)->Module::is_loaded());
  EXPECT_EQ((*bm)->verify_method_outputs("forward", 0), Error::InvalidArgument);

  BundledModule from_memory(program_.data(), program_.size());
  EXPECT_EQ(from_memory.execute("forward", 0).error(), Error::InvalidArgument);
}

TEST_F(BundledModuleTest, UnknownMethodAndIndex) {
  auto bm = BundledModule::from_file(path_);
  ASSERT_EQ(bm.error(), Error::Ok);
  EXPECT_EQ((*bm)->execute("non_existent_method", 0).error(), Error::InvalidArgument);
  EXPECT_EQ((*bm)->execute("forward", 10000).error(), Error::InvalidArgument);
  ASSERT_EQ((*bm)->execute("forward", 0).error(), Error::Ok);
  EXPECT_EQ((*bm)->verify_method_outputs("non_existent_method", 0), Error::InvalidArgument);
  EXPECT_EQ((*bm)->verify_method_outputs("forward", 10000), Error::InvalidArgument);
}

TEST_F(BundledModuleTest, WrongInputCountAndType) {
  bw::Case one_input{{bw::floats({1}, {1.0f})}, {bw::floats({1}, {2.0f})}};
  auto int_input = bw::add_case(1.0f, 1.0f, 2.0f);
  int_input.inputs[0] = bw::int_value(1);
  bw::Suite s;
  s.cases = {one_input, int_input};
  auto bundle = bw::write(program_, {s});
  BundledModule bm(bundle.data(), bundle.size());
  EXPECT_EQ(bm.execute("forward", 0).error(), Error::InvalidArgument);
  EXPECT_EQ(bm.execute("forward", 1).error(), Error::NotSupported);
}

TEST_F(BundledModuleTest, TruncatedFilesFailCleanly) {
  for (size_t len = 0; len < bundle_.size(); len += 7) {
    std::vector<uint8_t> prefix(bundle_.begin(), bundle_.begin() + static_cast<ptrdiff_t>(len));
    write(path_, prefix);
    auto bm = BundledModule::from_file(path_);
    ASSERT_EQ(bm.error(), Error::Ok) << len; // reading the file works
    auto out = (*bm)->execute("forward", 0);
    EXPECT_NE(out.error(), Error::Ok) << len;
    EXPECT_NE((*bm)->verify_method_outputs("forward", 0), Error::Ok) << len;
  }
  // A prefix with the identifier but not the rest is a malformed bundle.
  std::vector<uint8_t> head(bundle_.begin(), bundle_.begin() + 64);
  BundledModule bm(head.data(), head.size());
  EXPECT_EQ(bm.execute("forward", 0).error(), Error::InvalidProgram);
}

TEST_F(BundledModuleTest, CorruptedFilesNeverCrash) {
  size_t still_ok = 0;
  for (size_t pos = 0; pos < bundle_.size(); ++pos) {
    std::vector<uint8_t> bad = bundle_;
    bad[pos] ^= static_cast<uint8_t>(0x5a);
    BundledModule bm(bad.data(), bad.size());
    auto out = bm.execute("forward", static_cast<size_t>(pos % 3));
    if (out.ok() && bm.verify_method_outputs("forward", pos % 3, 1e-3, 1e-5) == Error::Ok) {
      ++still_ok;
    }
  }
  EXPECT_GT(still_ok, 0u);
  EXPECT_LT(still_ok, bundle_.size());
}

// Written by upstream's own Python (executorch.devtools.bundled_program) at
// upstream commit cff6f4dd32 with torch 2.11: forward(x: float[2,3]) =
// x * 2 + 1, two test cases (tests/data/README.md).
TEST_F(BundledModuleTest, UpstreamWrittenBundle) {
  const std::string path = bw::conformance_path("mul_add_bundled.bpte");
  ASSERT_TRUE(std::ifstream(path).good()) << path << " is missing";
  auto bm = BundledModule::from_file(path);
  ASSERT_EQ(bm.error(), Error::Ok);
  const std::vector<std::vector<float>> inputs = {{1, 2, 3, 4, 5, 6},
                                                  {-1.5f, 0, 0.25f, 10, -3, 7.5f}};
  for (size_t idx = 0; idx < inputs.size(); ++idx) {
    auto out = (*bm)->execute("forward", idx);
    ASSERT_EQ(out.error(), Error::Ok) << idx;
    ASSERT_EQ(out->size(), 1u);
    const auto& t = (*out)[0].toTensor();
    ASSERT_EQ(t.numel(), 6);
    for (size_t i = 0; i < 6; ++i) {
      EXPECT_FLOAT_EQ(t.const_data_ptr<float>()[i], inputs[idx][i] * 2 + 1) << idx << " " << i;
    }
    EXPECT_EQ((*bm)->verify_method_outputs("forward", idx), Error::Ok) << idx;
  }
  EXPECT_EQ((*bm)->execute("forward", 2).error(), Error::InvalidArgument);
}

} // namespace
