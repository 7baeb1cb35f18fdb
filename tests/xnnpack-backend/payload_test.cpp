// Upstream's own XNNPACK payloads (executorch 1.5.1's exporter, see
// tests/data/xnnpack/README.md) parse into the graph that was lowered.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

#include "payload.h"
#include "payload_fixtures.h"
#include "xnnpack_graph_generated.h"

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

// The node parameters the backend passes to XNNPACK (params.h).
TEST_F(PayloadTest, LinearParams) {
  const auto blob = xnnpack_test::read_fixture("linear_relu_add.bin");
  auto p = parse_payload(blob.data(), blob.size());
  ASSERT_TRUE(p.ok());
  const auto& fc = p->nodes.at(0);
  EXPECT_TRUE(fc.has_bias);
  EXPECT_EQ(fc.flags, 0u); // the weights are [out, in]
  // The fused relu: [0, +inf).
  EXPECT_EQ(fc.output_min, 0.0f);
  EXPECT_TRUE(std::isinf(fc.output_max) && fc.output_max > 0);
  const auto& add = p->nodes.at(1);
  EXPECT_TRUE(std::isinf(add.output_min) && add.output_min < 0);
  EXPECT_TRUE(std::isinf(add.output_max) && add.output_max > 0);
}

TEST_F(PayloadTest, ConvParams) {
  const auto blob = xnnpack_test::read_fixture("conv.bin");
  auto p = parse_payload(blob.data(), blob.size());
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->nodes.at(0).perm, (std::vector<uint32_t>{0, 2, 3, 1})); // NCHW -> NHWC
  EXPECT_EQ(p->nodes.at(2).perm, (std::vector<uint32_t>{0, 3, 1, 2})); // and back
  const auto& conv = p->nodes.at(1);
  const auto& c = conv.conv;
  EXPECT_TRUE(conv.has_bias);
  EXPECT_EQ(conv.flags, 0u);
  EXPECT_EQ(c.padding_top, 1u);
  EXPECT_EQ(c.padding_right, 1u);
  EXPECT_EQ(c.padding_bottom, 1u);
  EXPECT_EQ(c.padding_left, 1u);
  EXPECT_EQ(c.kernel_height, 3u);
  EXPECT_EQ(c.kernel_width, 3u);
  EXPECT_EQ(c.stride_height, 1u);
  EXPECT_EQ(c.stride_width, 1u);
  EXPECT_EQ(c.dilation_height, 1u);
  EXPECT_EQ(c.dilation_width, 1u);
  EXPECT_EQ(c.groups, 1u);
  EXPECT_EQ(c.group_input_channels, 2u);
  EXPECT_EQ(c.group_output_channels, 3u);
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

// The node kinds of each CNN fixture, by name (make_payloads.py), and the
// parameters read for the first node of some of them.
size_t count_kind(const Payload& p, const char* kind) {
  size_t n = 0;
  for (const auto& node : p.nodes) {
    n += std::string(node.type_name) == kind ? 1 : 0;
  }
  return n;
}

TEST_F(PayloadTest, CnnNodeKinds) {
  struct Case {
    const char* file;
    const char* kind;
    size_t count;
  };
  const Case cases[] = {{"pool_mix.bin", "XNNStaticConstantPad", 1},
                        {"pool_mix.bin", "XNNAvgPooling2d", 1},
                        {"pool_mix.bin", "XNNSigmoid", 1},
                        {"pool_mix.bin", "XNNConcatenate3", 1},
                        {"pool_mix.bin", "XNNSoftmax", 1},
                        {"mobilenet_v2.bin", "XNNGlobalAvgPooling2d", 1},
                        {"mobilenet_v2.bin", "XNNDepthwiseConv2d", 8},
                        {"mobilenet_v3_small.bin", "XNNHardswish", 19},
                        {"mobilenet_v3_small.bin", "XNNGlobalAvgPooling2d", 10},
                        {"resnet18.bin", "XNNMaxPooling2d", 1},
                        {"resnet18.bin", "XNNStaticReshape", 1},
                        {"squeezenet1_1.bin", "XNNMaxPooling2d", 3},
                        {"squeezenet1_1.bin", "XNNConcatenate2", 8}};
  for (const auto& c : cases) {
    const auto blob = xnnpack_test::read_fixture(c.file);
    auto p = parse_payload(blob.data(), blob.size());
    ASSERT_TRUE(p.ok()) << c.file << ": " << static_cast<int>(p.error());
    EXPECT_EQ(count_kind(*p, c.kind), c.count) << c.file << " " << c.kind;
  }
}

// resnet18's stem max pool: 3x3, stride 2, padding 1, with the KEEP_DIMS
// flag upstream's exporter sets; the reshape to 1x32 before its linear layer.
TEST_F(PayloadTest, ResNetPoolingParams) {
  const auto blob = xnnpack_test::read_fixture("resnet18.bin");
  auto p = parse_payload(blob.data(), blob.size());
  ASSERT_TRUE(p.ok());
  for (const auto& n : p->nodes) {
    if (std::string(n.type_name) == "XNNMaxPooling2d") {
      EXPECT_EQ(n.pool.pooling_height, 3u);
      EXPECT_EQ(n.pool.pooling_width, 3u);
      EXPECT_EQ(n.pool.stride_height, 2u);
      EXPECT_EQ(n.pool.padding_top, 1u);
      EXPECT_EQ(n.pool.padding_left, 1u);
      EXPECT_EQ(n.pool.dilation_height, 1u);
      EXPECT_EQ(n.flags, 0x40u);
    }
    if (std::string(n.type_name) == "XNNStaticReshape") {
      EXPECT_EQ(n.new_shape, (std::vector<uint32_t>{1, 32}));
    }
  }
}

// Upstream's dynamically quantized linear layers (make_payloads.py's
// QUANTIZED): per Linear, a Convert of its fp32 input to qdint8 (per-row
// parameters, chosen at run time) and a FullyConnected with a quantized
// filter whose scales are in named data (bf16 for blocks, fp32 per channel).
struct QuantFixture {
  const char* name;
  xnnpack_payload::fb::XNNDatatype filter;
  uint32_t group_up, group_down; // 0: per channel
  std::vector<uint32_t> in_dims;
};

TEST_F(PayloadTest, DynamicallyQuantizedLinear) {
  using T = xnnpack_payload::fb::XNNDatatype;
  using xnnpack_payload::QuantKind;
  const QuantFixture fixtures[] = {
      {"mlp_8da4w.bin", T::xnn_datatype_qbint4, 32, 32, {1, 3, 64}},
      {"mlp_8da4w_pc.bin", T::xnn_datatype_qbint4, 64, 128, {2, 64}}, // whole rows
      {"mlp_8da8w.bin", T::xnn_datatype_qcint8, 0, 0, {2, 64}}};
  for (const auto& f : fixtures) {
    const auto blob = xnnpack_test::read_fixture(f.name);
    auto p = parse_payload(blob.data(), blob.size());
    ASSERT_TRUE(p.ok()) << f.name << ": " << static_cast<int>(p.error());
    EXPECT_EQ(node_names(*p), (std::vector<std::string>{"XNNConvert", "XNNFullyConnected",
                                                        "XNNConvert", "XNNFullyConnected"}))
        << f.name;
    // x, its qdint8, up's filter and bias, the hidden fp32 and qdint8,
    // down's filter and bias, the output.
    ASSERT_EQ(p->values.size(), 9u) << f.name;
    const auto& v = p->values;
    EXPECT_EQ(v[0].dims, f.in_dims) << f.name;
    for (size_t dyn : {1u, 5u}) {
      EXPECT_EQ(v[dyn].quant, QuantKind::kPerTokenDynamic) << f.name;
      EXPECT_EQ(v[dyn].datatype, static_cast<int16_t>(T::xnn_datatype_qdint8)) << f.name;
      EXPECT_EQ(v[dyn].num_nonbatch_dims, 1u) << f.name;
      EXPECT_EQ(v[dyn].constant_index, 0u) << f.name;
    }
    const uint32_t groups[] = {f.group_up, f.group_down};
    const std::vector<uint32_t> filter_dims[] = {{128, 64}, {32, 128}};
    for (size_t i = 0; i < 2; ++i) {
      const auto& w = v[i == 0 ? 2 : 6];
      EXPECT_EQ(w.datatype, static_cast<int16_t>(f.filter)) << f.name;
      EXPECT_EQ(w.dims, filter_dims[i]) << f.name;
      EXPECT_EQ(w.quant, groups[i] != 0 ? QuantKind::kPerChannelGroup : QuantKind::kPerChannel);
      EXPECT_EQ(w.group_size, groups[i]) << f.name;
      EXPECT_EQ(w.channel_dim, 0u) << f.name;
      EXPECT_TRUE(w.scales.empty()) << f.name;
      const uint32_t rows = filter_dims[i][0];
      const uint32_t scales = groups[i] != 0 ? rows * (filter_dims[i][1] / groups[i]) : rows;
      EXPECT_EQ(w.num_scales, scales) << f.name;
      ASSERT_NE(w.scale_constant, 0u) << f.name;
      const auto& c = p->constants.at(w.scale_constant);
      EXPECT_EQ(c.source, ConstantSource::kNamed) << f.name;
      EXPECT_EQ(c.size, scales * (groups[i] != 0 ? 2u : 4u)) << f.name;
    }
    // The relu between the layers is the first FullyConnected's clamp.
    EXPECT_EQ(p->nodes[1].output_min, 0.0f) << f.name;
    EXPECT_TRUE(std::isinf(p->nodes[3].output_min)) << f.name;
  }
}

// Upstream's statically quantized programs (make_payloads.py's STATIC):
// qint8 activations per tensor between Converts from and to fp32, qcint8
// filters and qcint32 biases per output channel, scales in named data.
TEST_F(PayloadTest, StaticallyQuantizedLinear) {
  using T = xnnpack_payload::fb::XNNDatatype;
  using xnnpack_payload::QuantKind;
  const auto blob = xnnpack_test::read_fixture("mlp_qs8.bin");
  auto p = parse_payload(blob.data(), blob.size());
  ASSERT_TRUE(p.ok()) << static_cast<int>(p.error());
  EXPECT_EQ(node_names(*p), (std::vector<std::string>{"XNNConvert", "XNNFullyConnected",
                                                      "XNNFullyConnected", "XNNConvert"}));
  // x, its qint8, up's filter and bias, the hidden qint8, down's filter
  // and bias, the qint8 output and its fp32.
  ASSERT_EQ(p->values.size(), 9u);
  const auto& v = p->values;
  for (size_t a : {1u, 4u, 7u}) {
    EXPECT_EQ(v[a].quant, QuantKind::kPerTensor) << a;
    EXPECT_EQ(v[a].datatype, static_cast<int16_t>(T::xnn_datatype_qint8)) << a;
    EXPECT_GT(v[a].scale, 0.0f) << a;
    EXPECT_EQ(v[a].constant_index, 0u) << a;
  }
  EXPECT_EQ(v[4].zero_point, -128); // the relu, folded into the hidden range
  const uint32_t rows[] = {128, 32};
  for (size_t i = 0; i < 2; ++i) {
    const auto& w = v[i == 0 ? 2 : 5];
    const auto& b = v[i == 0 ? 3 : 6];
    EXPECT_EQ(w.datatype, static_cast<int16_t>(T::xnn_datatype_qcint8));
    EXPECT_EQ(b.datatype, static_cast<int16_t>(T::xnn_datatype_qcint32));
    EXPECT_EQ(b.dims, std::vector<uint32_t>{rows[i]});
    for (const auto* q : {&w, &b}) {
      EXPECT_EQ(q->quant, QuantKind::kPerChannel);
      EXPECT_EQ(q->channel_dim, 0u);
      EXPECT_EQ(q->num_scales, rows[i]);
      ASSERT_NE(q->scale_constant, 0u);
      EXPECT_EQ(p->constants.at(q->scale_constant).size, rows[i] * 4u);
    }
  }
}

// The CNN: its convolutions, the residual add and the classifier on qint8;
// the pools between them on fp32 (XNNPACKQuantizer leaves them so).
TEST_F(PayloadTest, StaticallyQuantizedCnn) {
  using T = xnnpack_payload::fb::XNNDatatype;
  const auto blob = xnnpack_test::read_fixture("cnn_qs8.bin");
  auto p = parse_payload(blob.data(), blob.size());
  ASSERT_TRUE(p.ok()) << static_cast<int>(p.error());
  EXPECT_EQ(node_names(*p),
            (std::vector<std::string>{"XNNConvert", "XNNStaticTranspose", "XNNConv2d",
                                      "XNNDepthwiseConv2d", "XNNAdd", "XNNConvert",
                                      "XNNAvgPooling2d", "XNNMaxPooling2d", "XNNGlobalAvgPooling2d",
                                      "XNNStaticTranspose", "XNNStaticReshape", "XNNConvert",
                                      "XNNFullyConnected", "XNNConvert"}));
  ASSERT_EQ(p->values.size(), 21u);
  const auto& v = p->values;
  // The filters: conv's [8, 3, 3, 3] along dim 0, the depthwise [1, 3, 3, 8]
  // along dim 3, the classifier's [10, 8] along dim 0.
  const size_t filters[] = {3, 6, 17}, biases[] = {5, 8, 18};
  const uint32_t dims[] = {0, 3, 0};
  for (size_t i = 0; i < 3; ++i) {
    const auto& w = v[filters[i]];
    EXPECT_EQ(w.datatype, static_cast<int16_t>(T::xnn_datatype_qcint8)) << i;
    EXPECT_EQ(w.channel_dim, dims[i]) << i;
    EXPECT_EQ(w.num_scales, w.dims[dims[i]]) << i;
    const auto& b = v[biases[i]];
    EXPECT_EQ(b.datatype, static_cast<int16_t>(T::xnn_datatype_qcint32)) << i;
    EXPECT_EQ(b.num_scales, w.dims[dims[i]]) << i;
  }
  for (size_t a : {1u, 2u, 4u, 7u, 9u, 16u, 19u}) {
    EXPECT_EQ(v[a].datatype, static_cast<int16_t>(T::xnn_datatype_qint8)) << a;
  }
}

} // namespace
