// devtools/bundled_program/bundled_program.h: finding the program in a
// bundled program, feeding a method the bundled inputs and checking its
// outputs, with upstream's names and its torch::executor spellings; and
// hostile bundles (truncated, corrupted, inconsistent) giving errors.
#include <executorch/devtools/bundled_program/bundled_program.h>

#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/module/module.h>
#include <executorch/runtime/platform/runtime.h>

#include "bundle_writer.h"

namespace {

using ::executorch::extension::BufferDataLoader;
using ::executorch::extension::Module;
using ::executorch::runtime::Error;
using ::executorch::runtime::Method;
using ::executorch::runtime::Result;
namespace bp = ::executorch::bundled_program;
namespace bw = ::bundle_writer;

class BundledProgramTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::executorch::runtime::runtime_init();
    program_ = bw::read_file(bw::conformance_path("add.pte"));
    ASSERT_FALSE(program_.empty());
  }

  std::vector<uint8_t> good_bundle() const {
    bw::Suite s;
    s.cases = {bw::add_case(1.0f, 1.0f, 2.0f), bw::add_case(3.5f, -1.25f, 2.25f)};
    return bw::write(program_, {s});
  }

  // A Module over the program stored in `bundle`, and its forward method.
  Method* forward_of(std::vector<uint8_t>& bundle) {
    const void* data = nullptr;
    size_t len = 0;
    EXPECT_EQ(bp::get_program_data(bundle.data(), bundle.size(), &data, &len), Error::Ok);
    module_ = std::make_unique<Module>(std::make_unique<BufferDataLoader>(data, len));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    Result<Method*> m = module_->method("forward");
#pragma GCC diagnostic pop
    EXPECT_EQ(m.error(), Error::Ok);
    return m.ok() ? *m : nullptr;
  }

  std::vector<uint8_t> program_;
  std::unique_ptr<Module> module_;
};

TEST_F(BundledProgramTest, IsBundledProgram) {
  auto bundle = good_bundle();
  EXPECT_TRUE(bp::is_bundled_program(bundle.data(), bundle.size()));
  EXPECT_FALSE(bp::is_bundled_program(program_.data(), program_.size()));
  EXPECT_FALSE(bp::is_bundled_program(bundle.data(), 7));
  EXPECT_FALSE(bp::is_bundled_program(nullptr, 64));
  EXPECT_TRUE(torch::executor::bundled_program::IsBundledProgram(bundle.data()));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_TRUE(bp::is_bundled_program(bundle.data()));
#pragma GCC diagnostic pop
  // The identifier is upstream's.
  EXPECT_EQ(std::memcmp(bundle.data() + 4, "BP08", 4), 0);
}

TEST_F(BundledProgramTest, GetProgramDataReturnsTheStoredProgram) {
  auto bundle = good_bundle();
  const void* data = nullptr;
  size_t len = 0;
  ASSERT_EQ(bp::get_program_data(bundle.data(), bundle.size(), &data, &len), Error::Ok);
  ASSERT_EQ(len, program_.size());
  EXPECT_EQ(std::memcmp(data, program_.data(), len), 0);
  // 32-byte aligned within the file, as upstream's writer places it.
  EXPECT_EQ((static_cast<const uint8_t*>(data) - bundle.data()) % 32, 0);

  EXPECT_EQ(
      torch::executor::bundled_program::GetProgramData(bundle.data(), bundle.size(), &data, &len),
      Error::Ok);
  // A plain .pte is not a bundled program.
  EXPECT_EQ(bp::get_program_data(program_.data(), program_.size(), &data, &len),
            Error::NotSupported);
  EXPECT_EQ(bp::get_program_data(bundle.data(), bundle.size(), nullptr, &len),
            Error::InvalidArgument);
}

TEST_F(BundledProgramTest, RunsEveryTestCaseAndVerifies) {
  auto bundle = good_bundle();
  Method* m = forward_of(bundle);
  ASSERT_NE(m, nullptr);
  for (size_t idx : {0u, 1u}) {
    ASSERT_EQ(bp::load_bundled_input(*m, bundle.data(), idx), Error::Ok);
    ASSERT_EQ(m->execute(), Error::Ok);
    EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), idx), Error::Ok);
  }
  // The outputs of case 1 are not those of case 0.
  EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), 0), Error::NotFound);
  EXPECT_FLOAT_EQ(m->get_output(0).toTensor().const_data_ptr<float>()[0], 2.25f);

  // The legacy spellings.
  namespace legacy = torch::executor::bundled_program;
  ASSERT_EQ(legacy::LoadBundledInput(*m, bundle.data(), 0), Error::Ok);
  ASSERT_EQ(m->execute(), Error::Ok);
  EXPECT_EQ(legacy::VerifyResultWithBundledExpectedOutput(*m, bundle.data(), 0), Error::Ok);
}

TEST_F(BundledProgramTest, WrongExpectedOutputAndTolerances) {
  bw::Suite s;
  s.cases = {bw::add_case(1.0f, 1.0f, 2.001f), bw::add_case(1.0f, 1.0f, 3.0f)};
  auto bundle = bw::write(program_, {s});
  Method* m = forward_of(bundle);
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(bp::load_bundled_input(*m, bundle.data(), 0), Error::Ok);
  ASSERT_EQ(m->execute(), Error::Ok);
  // 2.0 vs 2.001: outside the defaults, inside atol 1e-2 or rtol 1e-3.
  EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), 0), Error::NotFound);
  EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), 0, 0, 1e-2), Error::Ok);
  EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), 0, 1e-3, 0), Error::Ok);
  EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), 0, 0, 0), Error::NotFound);
  EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), 1, 1e-3, 1e-3), Error::NotFound);
}

TEST_F(BundledProgramTest, ExactComparisonAndNonFiniteValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  bw::Suite s;
  s.cases = {bw::add_case(inf, 1.0f, inf), bw::add_case(nan, 1.0f, nan),
             bw::add_case(inf, 1.0f, -inf), bw::add_case(nan, 1.0f, 0.0f)};
  auto bundle = bw::write(program_, {s});
  Method* m = forward_of(bundle);
  ASSERT_NE(m, nullptr);
  const Error want[] = {Error::Ok, Error::Ok, Error::NotFound, Error::NotFound};
  for (size_t idx = 0; idx < 4; ++idx) {
    ASSERT_EQ(bp::load_bundled_input(*m, bundle.data(), idx), Error::Ok);
    ASSERT_EQ(m->execute(), Error::Ok);
    EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), idx, 0, 0), want[idx]) << idx;
  }
}

TEST_F(BundledProgramTest, BadIndexMethodAndCounts) {
  bw::Suite s;
  s.cases = {bw::add_case(1.0f, 1.0f, 2.0f)};
  // Case 1: one input only. Case 2: two expected outputs. Case 3: no
  // expected outputs (profiling only).
  bw::Case one_input{{bw::floats({1}, {1.0f})}, {bw::floats({1}, {2.0f})}};
  bw::Case two_outputs = bw::add_case(1.0f, 1.0f, 2.0f);
  two_outputs.expected.push_back(bw::floats({1}, {2.0f}));
  bw::Case no_outputs = bw::add_case(1.0f, 1.0f, 2.0f);
  no_outputs.expected.clear();
  s.cases.push_back(one_input);
  s.cases.push_back(two_outputs);
  s.cases.push_back(no_outputs);
  bw::Suite other;
  other.method = "backward";
  other.cases = {bw::add_case(1.0f, 1.0f, 2.0f)};
  auto bundle = bw::write(program_, {other, s});
  Method* m = forward_of(bundle);
  ASSERT_NE(m, nullptr);

  EXPECT_EQ(bp::load_bundled_input(*m, bundle.data(), 4), Error::InvalidArgument);
  EXPECT_EQ(bp::load_bundled_input(*m, bundle.data(), SIZE_MAX), Error::InvalidArgument);
  EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), 10000), Error::InvalidArgument);
  EXPECT_EQ(bp::load_bundled_input(*m, bundle.data(), 1), Error::InvalidArgument);
  ASSERT_EQ(bp::load_bundled_input(*m, bundle.data(), 0), Error::Ok);
  ASSERT_EQ(m->execute(), Error::Ok);
  EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), 2), Error::InvalidArgument);
  EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), 3), Error::InvalidArgument);

  // No suite for the method at all.
  auto only_other = bw::write(program_, {other});
  EXPECT_EQ(bp::load_bundled_input(*m, only_other.data(), 0), Error::InvalidArgument);
  EXPECT_EQ(bp::verify_method_outputs(*m, only_other.data(), 0), Error::InvalidArgument);
  // Not a bundled program.
  EXPECT_EQ(bp::load_bundled_input(*m, program_.data(), 0), Error::NotSupported);
  EXPECT_EQ(bp::verify_method_outputs(*m, program_.data(), 0), Error::NotSupported);
}

TEST_F(BundledProgramTest, WrongInputTypesAreRejected) {
  auto int_input = bw::add_case(1.0f, 1.0f, 2.0f);
  int_input.inputs[1] = bw::int_value(1);
  auto int_tensor = bw::add_case(1.0f, 1.0f, 2.0f);
  int_tensor.inputs[0].dtype = 3; // Int: same bytes, wrong dtype
  auto wrong_shape = bw::add_case(1.0f, 1.0f, 2.0f);
  wrong_shape.inputs[0] = bw::floats({2}, {1.0f, 2.0f});
  auto none_value = bw::add_case(1.0f, 1.0f, 2.0f);
  none_value.inputs[0] = bw::Value();
  auto int_output = bw::add_case(1.0f, 1.0f, 2.0f);
  int_output.expected[0] = bw::int_value(2);
  auto double_output = bw::add_case(1.0f, 1.0f, 2.0f);
  double_output.expected[0].dtype = 7; // Double, 4 bytes of data
  bw::Suite s;
  s.cases = {int_input, int_tensor, wrong_shape, none_value, int_output, double_output};
  auto bundle = bw::write(program_, {s});
  Method* m = forward_of(bundle);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(bp::load_bundled_input(*m, bundle.data(), 0), Error::NotSupported);
  EXPECT_EQ(bp::load_bundled_input(*m, bundle.data(), 1), Error::NotSupported);
  EXPECT_EQ(bp::load_bundled_input(*m, bundle.data(), 2), Error::NotSupported);
  EXPECT_EQ(bp::load_bundled_input(*m, bundle.data(), 3), Error::NotSupported);
  ASSERT_EQ(bp::load_bundled_input(*m, bundle.data(), 4), Error::Ok);
  ASSERT_EQ(m->execute(), Error::Ok);
  EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), 4), Error::NotSupported);
  EXPECT_EQ(bp::verify_method_outputs(*m, bundle.data(), 5), Error::InvalidProgram);
}

TEST_F(BundledProgramTest, InconsistentBundledTensorsAreRejected) {
  std::vector<bw::Case> cases;
  auto short_data = bw::add_case(1.0f, 1.0f, 2.0f);
  short_data.inputs[0].data.resize(2);
  cases.push_back(short_data);
  auto negative = bw::add_case(1.0f, 1.0f, 2.0f);
  negative.inputs[0].sizes = {-1};
  cases.push_back(negative);
  auto huge = bw::add_case(1.0f, 1.0f, 2.0f);
  huge.inputs[0].sizes = {1 << 30, 1 << 30, 1 << 30};
  huge.inputs[0].dim_order = {0, 1, 2};
  cases.push_back(huge);
  auto bad_order = bw::add_case(1.0f, 1.0f, 2.0f);
  bad_order.inputs[0].dim_order = {3};
  cases.push_back(bad_order);
  auto bad_dtype = bw::add_case(1.0f, 1.0f, 2.0f);
  bad_dtype.inputs[0].dtype = 99;
  cases.push_back(bad_dtype);
  auto deep = bw::add_case(1.0f, 1.0f, 2.0f);
  deep.inputs[0].sizes.assign(17, 1);
  deep.inputs[0].dim_order.clear();
  for (uint8_t i = 0; i < 17; ++i) deep.inputs[0].dim_order.push_back(i);
  cases.push_back(deep);
  bw::Suite s;
  s.cases = cases;
  auto bundle = bw::write(program_, {s});
  Method* m = forward_of(bundle);
  ASSERT_NE(m, nullptr);
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(bp::load_bundled_input(*m, bundle.data(), i), Error::InvalidProgram) << i;
  }
}

TEST_F(BundledProgramTest, EveryTruncationIsAnError) {
  const auto bundle = good_bundle();
  for (size_t len = 0; len < bundle.size(); ++len) {
    std::vector<uint8_t> prefix(bundle.begin(), bundle.begin() + static_cast<ptrdiff_t>(len));
    const void* data = nullptr;
    size_t n = 0;
    // Empty vectors still need a valid (non-null) pointer.
    prefix.reserve(1);
    EXPECT_NE(bp::get_program_data(prefix.data(), len, &data, &n), Error::Ok) << len;
  }
}

TEST_F(BundledProgramTest, CorruptedBytesNeverCrash) {
  const auto bundle = good_bundle();
  size_t ok = 0;
  for (size_t pos = 0; pos < bundle.size(); ++pos) {
    for (uint8_t flip : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
      std::vector<uint8_t> bad = bundle;
      bad[pos] ^= flip;
      const void* data = nullptr;
      size_t n = 0;
      if (bp::get_program_data(bad.data(), bad.size(), &data, &n) != Error::Ok) {
        continue;
      }
      Module module(std::make_unique<BufferDataLoader>(data, n));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
      Result<Method*> m = module.method("forward");
#pragma GCC diagnostic pop
      if (!m.ok()) {
        continue;
      }
      if (bp::load_bundled_input(**m, bad.data(), 1) == Error::Ok && (*m)->execute() == Error::Ok &&
          bp::verify_method_outputs(**m, bad.data(), 1) == Error::Ok) {
        ++ok;
      }
    }
  }
  // Flips in padding or in an unused test case leave the bundle usable.
  EXPECT_GT(ok, 0u);
}

} // namespace
