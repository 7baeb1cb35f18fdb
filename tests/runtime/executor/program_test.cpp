// executorch/runtime/executor/program.h: the header check and the output
// flattening encoding, on an upstream-written program.
#include <gtest/gtest.h>

#include <cstring>

#include <executorch/runtime/platform/runtime.h>

#include "executor_test_util.h"
#include "pte_writer.h"

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

// A moved-from Program answers with an Error; the new one works.
TEST_F(ProgramTest, MovedFromProgramReturnsErrors) {
  BufferDataLoader loader(bytes_.data(), bytes_.size());
  auto program = Program::load(&loader);
  ASSERT_EQ(program.error(), Error::Ok);
  Program moved(std::move(*program));
  const Program& old = *program;
  EXPECT_EQ(old.num_methods(), 0u);
  EXPECT_EQ(old.get_method_name(0).error(), Error::InvalidState);
  EXPECT_EQ(old.method_meta("forward").error(), Error::InvalidState);
  EXPECT_EQ(old.get_constant_buffer_data(0, 4).error(), Error::InvalidState);
  EXPECT_EQ(old.get_named_data_map().error(), Error::InvalidState);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(old.get_output_flattening_encoding().error(), Error::InvalidState);
#pragma GCC diagnostic pop
  MemoryAllocator method_alloc(0, nullptr);
  MemoryManager manager(&method_alloc);
  EXPECT_EQ(old.load_method("forward", &manager).error(), Error::InvalidState);
  EXPECT_EQ(moved.num_methods(), 1u);
  EXPECT_TRUE(moved.method_meta("forward").ok());
}

// Program::LoadSegment: the bytes of a segment of the program's table.
TEST_F(ProgramTest, LoadSegment) {
  using namespace ptewriter;
  MethodDesc m;
  m.name = "forward";
  ProgramDesc p;
  p.methods = {m};
  const std::vector<float> w{1, 2, 3, 4};
  p.add_constant_segment({bytes_of(w)});
  const std::vector<uint8_t> bytes = serialize(p);
  BufferDataLoader loader(bytes.data(), bytes.size());
  auto program = Program::load(&loader);
  ASSERT_EQ(program.error(), Error::Ok);
  const DataLoader::SegmentInfo first(DataLoader::SegmentInfo::Type::Constant, 0);
  auto seg = program->LoadSegment(first);
  ASSERT_EQ(seg.error(), Error::Ok);
  // The constant segment holds the tensor (at its offset 0 or after padding).
  const auto* data = static_cast<const uint8_t*>(seg->data());
  const std::vector<uint8_t> want = bytes_of(w);
  bool found = false;
  for (size_t at = 0; at + want.size() <= seg->size() && !found; ++at) {
    found = std::memcmp(data + at, want.data(), want.size()) == 0;
  }
  EXPECT_TRUE(found);
  const DataLoader::SegmentInfo past(DataLoader::SegmentInfo::Type::Constant, 1);
  EXPECT_EQ(program->LoadSegment(past).error(), Error::NotFound);
  // Without a segment table: NotFound.
  ProgramDesc bare;
  bare.methods = {m};
  const std::vector<uint8_t> bare_bytes = serialize(bare);
  BufferDataLoader bare_loader(bare_bytes.data(), bare_bytes.size());
  auto no_segments = Program::load(&bare_loader);
  ASSERT_EQ(no_segments.error(), Error::Ok);
  EXPECT_EQ(no_segments->LoadSegment(first).error(), Error::NotFound);
}

namespace executorch {
namespace runtime {
namespace testing {
// Upstream's tests reach TensorInfo::create through this friend.
class TensorInfoTestFriend {
 public:
  static Result<TensorInfo> create(Span<const int32_t> sizes, Span<const uint8_t> dim_order,
                                   ScalarType dtype, bool planned, std::string_view name) {
    return TensorInfo::create(sizes, dim_order, dtype, planned, name);
  }
};
} // namespace testing
} // namespace runtime
} // namespace executorch

TEST(TensorInfoCreate, ComputesNbytesAndRefusesBadShapes) {
  using executorch::runtime::testing::TensorInfoTestFriend;
  const int32_t sizes[] = {2, 3};
  const uint8_t order[] = {0, 1};
  auto info = TensorInfoTestFriend::create({sizes, 2}, {order, 2}, ScalarType::Float, true, "w");
  ASSERT_EQ(info.error(), Error::Ok);
  EXPECT_EQ(info->nbytes(), 24u);
  EXPECT_EQ(info->sizes().size(), 2u);
  EXPECT_TRUE(info->is_memory_planned());
  EXPECT_EQ(info->name(), "w");
  const int32_t negative[] = {-1, 3};
  EXPECT_EQ(
      TensorInfoTestFriend::create({negative, 2}, {order, 2}, ScalarType::Float, false, "").error(),
      Error::InvalidArgument);
  const int32_t huge[] = {1 << 30, 1 << 30, 1 << 30};
  const uint8_t order3[] = {0, 1, 2};
  EXPECT_EQ(
      TensorInfoTestFriend::create({huge, 3}, {order3, 3}, ScalarType::Double, false, "").error(),
      Error::InvalidArgument);
  EXPECT_EQ(
      TensorInfoTestFriend::create({sizes, 2}, {order3, 3}, ScalarType::Float, false, "").error(),
      Error::InvalidArgument);
}
