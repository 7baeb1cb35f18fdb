// Upstream's own XNNPACK payloads (executorch 1.5.1's exporter, see
// tests/data/xnnpack/README.md) parse into the graph that was lowered.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

#include "payload.h"
#include "payload_fixtures.h"

using executorch::runtime::Error;
using xnnpack_payload::ConstantSource;
using xnnpack_payload::Payload;
using xnnpack_payload::parse_payload;

namespace {

class PayloadTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

std::vector<std::string> node_names(const Payload& p) {
  std::vector<std::string> names;
  for (const auto& n : p.nodes) {
    names.emplace_back(n.type_name);
  }
  return names;
}

size_t count_constants(const Payload& p) {
  size_t n = 0;
  for (const auto& v : p.values) {
    n += v.constant_index != 0 ? 1 : 0;
  }
  return n;
}

TEST_F(PayloadTest, LinearReluAdd) {
  const auto blob = xnnpack_test::read_fixture("linear_relu_add.bin");
  auto p = parse_payload(blob.data(), blob.size());
  ASSERT_TRUE(p.ok()) << static_cast<int>(p.error());
  EXPECT_TRUE(p->has_header);
  EXPECT_EQ(p->identifier, "XN01");
  // The relu is fused into the linear's output clamp.
  EXPECT_EQ(node_names(*p), (std::vector<std::string>{"XNNFullyConnected", "XNNAdd"}));
  // x, y, weight, bias, the linear's output and the sum.
  EXPECT_EQ(p->values.size(), 6u);
  EXPECT_EQ(p->num_externs, 3u);
  EXPECT_EQ(p->input_ids.size(), 2u);
  EXPECT_EQ(p->output_ids.size(), 1u);
  EXPECT_EQ(count_constants(*p), 2u); // weight and bias
}

TEST_F(PayloadTest, Conv) {
  const auto blob = xnnpack_test::read_fixture("conv.bin");
  auto p = parse_payload(blob.data(), blob.size());
  ASSERT_TRUE(p.ok()) << static_cast<int>(p.error());
  EXPECT_EQ(p->identifier, "XN01");
  // NCHW in and out around XNNPACK's NHWC convolution.
  EXPECT_EQ(node_names(*p),
            (std::vector<std::string>{"XNNStaticTranspose", "XNNConv2d", "XNNStaticTranspose"}));
  // x, x as NHWC, weight, bias, the NHWC result and the output.
  EXPECT_EQ(p->values.size(), 6u);
  EXPECT_EQ(p->num_externs, 2u);
  EXPECT_EQ(p->input_ids.size(), 1u);
  EXPECT_EQ(p->output_ids.size(), 1u);
  EXPECT_EQ(count_constants(*p), 2u);
}

// Current exports keep constants in the program's named data, keyed by the
// SHA-256 of their bytes; the blob's own constant region is empty.
TEST_F(PayloadTest, ConstantsAreNamedData) {
  const auto blob = xnnpack_test::read_fixture("linear_relu_add.bin");
  auto p = parse_payload(blob.data(), blob.size());
  ASSERT_TRUE(p.ok());
  for (const auto& v : p->values) {
    if (v.constant_index == 0) {
      continue;
    }
    const auto& c = p->constants.at(v.constant_index);
    EXPECT_EQ(c.source, ConstantSource::kNamed);
    EXPECT_EQ(c.named_key.size(), 64u);
    EXPECT_EQ(c.size, 4u * (v.dims.size() == 2 ? v.dims[0] * v.dims[1] : v.dims.at(0)));
  }
}

} // namespace
