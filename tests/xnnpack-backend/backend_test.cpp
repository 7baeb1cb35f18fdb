// The XnnpackBackend on upstream's own XNNPACK programs (tests/data/xnnpack/,
// written by executorch 1.5.1's exporter): loaded through Module with the
// backend linked in, run, and compared with what upstream's runtime gives
// on the same inputs (expected_outputs.py; it also checks those against
// torch eager, within 2.4e-7), from two-node graphs to narrow torchvision
// CNNs; and graphs the backend cannot run yet, which must fail at init with
// an Error, never at execute.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr_maker.h>
#include <executorch/runtime/backend/backend_init_context.h>
#include <executorch/runtime/backend/backend_plugins.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/platform/runtime.h>

#include "xnnpack_graph_generated.h"

using executorch::aten::SizesType;
using executorch::extension::make_tensor_ptr;
using executorch::extension::Module;
using executorch::runtime::BackendInitContext;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::FreeableBuffer;
using executorch::runtime::MemoryAllocator;
namespace fb = xnnpack_payload::fb;

namespace {

class XnnpackBackendTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

std::string fixture(const char* name) { return std::string(XNNPACK_DATA_DIR) + "/" + name; }

// The inputs expected_outputs.py builds: ((i * 7) % 11) * 0.25 - 1.25.
std::vector<float> pattern(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = static_cast<float>((i * 7) % 11) * 0.25f - 1.25f;
  }
  return v;
}

// fp32 sums of a few products, in another order than upstream's kernels:
// a few ulps of the outputs' magnitude (< 2).
constexpr float kTolerance = 2e-6f;

void expect_output(const EValue& out, const std::vector<SizesType>& sizes,
                   const std::vector<float>& expected, float tolerance = kTolerance) {
  ASSERT_TRUE(out.isTensor());
  const auto& t = out.toTensor();
  ASSERT_EQ(std::vector<SizesType>(t.sizes().begin(), t.sizes().end()), sizes);
  ASSERT_EQ(static_cast<size_t>(t.numel()), expected.size());
  const float* got = t.const_data_ptr<float>();
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(got[i], expected[i], tolerance) << "element " << i;
  }
}

TEST_F(XnnpackBackendTest, Registered) {
  auto* backend = executorch::runtime::get_backend_class("XnnpackBackend");
  ASSERT_NE(backend, nullptr);
  EXPECT_TRUE(backend->is_available());
}

// Loading the library again, by path or by SONAME, as the plugin loader
// does, registers nothing twice: the backend is the one already linked.
TEST_F(XnnpackBackendTest, PluginLoadKeepsOneRegistration) {
  auto* before = executorch::runtime::get_backend_class("XnnpackBackend");
  ASSERT_NE(before, nullptr);
  EXPECT_EQ(executorch::runtime::load_backend_plugin(XNNPACK_BACKEND_PATH), Error::Ok);
  EXPECT_EQ(executorch::runtime::load_backend_plugin("libexecutorch_xnnpack_backend.so.1"),
            Error::Ok);
  EXPECT_EQ(executorch::runtime::get_backend_class("XnnpackBackend"), before);
}

// relu(Linear(4, 3)(x)) + y: a fully connected node with its output clamped
// at 0, then an add.
TEST_F(XnnpackBackendTest, LinearReluAdd) {
  Module m(fixture("linear_relu_add.pte"));
  auto x = make_tensor_ptr<float>({2, 4}, pattern(8));
  auto y = make_tensor_ptr<float>({2, 3}, pattern(6));
  for (int run = 0; run < 2; ++run) { // a second run reuses the set-up runtime
    auto out = m.forward(std::vector<EValue>{*x, *y});
    ASSERT_TRUE(out.ok()) << static_cast<int>(out.error());
    ASSERT_EQ(out->size(), 1u);
    expect_output((*out)[0], {2, 3}, {-1.25f, 0.977129f, -0.5f, 1.25f, 0.25f, -0.75f});
  }
}

// Conv2d(2, 3, 3, padding=1) on 1x2x5x5: transposes to NHWC and back around
// the convolution.
TEST_F(XnnpackBackendTest, Conv) {
  Module m(fixture("conv.pte"));
  auto x = make_tensor_ptr<float>({1, 2, 5, 5}, pattern(50));
  auto out = m.forward(std::vector<EValue>{*x});
  ASSERT_TRUE(out.ok()) << static_cast<int>(out.error());
  ASSERT_EQ(out->size(), 1u);
  expect_output((*out)[0], {1, 3, 5, 5},
                {-0.06449516f, 0.2664301f,   -0.01796209f, -0.09064747f, -0.1261552f, 0.1265033f,
                 0.4916373f,   -0.333069f,   0.4432857f,   0.8811823f,   -0.2730353f, 0.1138451f,
                 0.5811581f,   -0.2396158f,  -0.1784572f,  0.4949529f,   0.05325707f, 0.4916373f,
                 -0.333069f,   0.3776808f,   0.2681141f,   -0.4371448f,  0.2632055f,  0.3649716f,
                 0.1244833f,   0.4202324f,   -0.3516121f,  -0.1403599f,  0.2770865f,  0.1118578f,
                 -0.7401599f,  -0.3330634f,  -0.03087845f, -0.1664212f,  -0.6313954f, -0.3067856f,
                 0.5472308f,   -0.6493205f,  0.2367951f,   0.4652378f,   -0.2187784f, -0.6246979f,
                 -0.3330634f,  -0.03087845f, -0.2897483f,  -0.07124183f, -0.3127964f, 0.3629023f,
                 -0.7429401f,  0.150412f,    -0.07985774f, -0.7002118f,  0.397522f,   -0.02526831f,
                 -0.365773f,   0.3160509f,   0.2211522f,   0.1896247f,   0.5785785f,  -0.5546761f,
                 0.3335832f,   0.4581167f,   -1.244034f,   0.1873784f,   0.632546f,   -0.1884512f,
                 0.5868312f,   0.2211522f,   0.1896247f,   0.7485888f,   -0.1626224f, 0.2917257f,
                 0.5230672f,   -0.8219317f,  -0.2830349f});
}

// Runs fixture `name` (one input of `in_sizes`) twice, compares each output
// with `expected` within `tolerance`, and returns the largest difference.
float run_model(const char* name, const std::vector<SizesType>& in_sizes,
                const std::vector<SizesType>& out_sizes, const std::vector<float>& expected,
                float tolerance) {
  Module m(fixture(name));
  size_t n = 1;
  for (SizesType d : in_sizes) {
    n *= static_cast<size_t>(d);
  }
  auto x = make_tensor_ptr<float>(in_sizes, pattern(n));
  float worst = 0;
  for (int run = 0; run < 2; ++run) {
    auto out = m.forward(std::vector<EValue>{*x});
    EXPECT_TRUE(out.ok()) << name << ": " << static_cast<int>(out.error());
    if (!out.ok() || out->size() != 1) {
      ADD_FAILURE() << name << " gave no single output";
      return INFINITY;
    }
    expect_output((*out)[0], out_sizes, expected, tolerance);
    const auto& t = (*out)[0].toTensor();
    for (size_t i = 0; i < expected.size() && i < static_cast<size_t>(t.numel()); ++i) {
      worst = std::max(worst, std::fabs(t.const_data_ptr<float>()[i] - expected[i]));
    }
  }
  std::printf("%s: max |ours - upstream| = %g\n", name, static_cast<double>(worst));
  return worst;
}

// Sums of hundreds of products through a dozen layers, in another order
// than upstream's kernels (here within 6e-8); the logits are below 0.35.
constexpr float kModelTolerance = 1e-6f;

// Constant pad, average pooling, sigmoid, a three-input concatenation,
// reshape and softmax (and a mul and a sub), on 1x2x6x6.
TEST_F(XnnpackBackendTest, PoolMix) {
  run_model("pool_mix.pte", {1, 2, 6, 6}, {1, 96},
            {0.009642431f, 0.01010196f,  0.01104423f,  0.009947203f, 0.01104423f,  0.009345859f,
             0.009492987f, 0.009947203f, 0.009793929f, 0.01025791f,  0.008785108f, 0.01041472f,
             0.009793929f, 0.01041472f,  0.009642431f, 0.01010196f,  0.01120056f,  0.009793929f,
             0.01072967f,  0.009793929f, 0.01072967f,  0.008785108f, 0.008920722f, 0.01135584f,
             0.009492987f, 0.009642431f, 0.009793929f, 0.01010196f,  0.009642431f, 0.01010196f,
             0.01104423f,  0.009947203f, 0.01614795f,  0.01772376f,  0.02118436f,  0.01718488f,
             0.02118436f,  0.01516991f,  0.01565129f,  0.01718488f,  0.01665936f,  0.01827518f,
             0.01340413f,  0.01883819f,  0.01665936f,  0.01883819f,  0.01614795f,  0.01772376f,
             0.02178833f,  0.01665936f,  0.01999479f,  0.01665936f,  0.01999479f,  0.01340413f,
             0.01382115f,  0.02239664f,  0.01565129f,  0.01614795f,  0.01665936f,  0.01772376f,
             0.01614795f,  0.01772376f,  0.02118436f,  0.01718488f,  0.003547252f, 0.003716305f,
             0.004062945f, 0.003659372f, 0.004062945f, 0.00343815f,  0.003492275f, 0.003659372f,
             0.003602986f, 0.003773673f, 0.00323186f,  0.003831361f, 0.003602986f, 0.003831361f,
             0.003547252f, 0.003716305f, 0.004120457f, 0.003602986f, 0.003947224f, 0.003602986f,
             0.003947224f, 0.00323186f,  0.00328175f,  0.00417758f,  0.003492275f, 0.003547252f,
             0.003602986f, 0.003716305f, 0.003547252f, 0.003716305f, 0.004062945f, 0.003659372f},
            kTolerance);
}

// The narrow torchvision CNNs of make_payloads.py, wholly in one delegate
// (mobilenet_v3_small also runs upstream's dtype copies of its scalar
// constants on the portable kernels), 10 logits each.
TEST_F(XnnpackBackendTest, MobileNetV2) {
  run_model("mobilenet_v2.pte", {1, 3, 64, 64}, {1, 10},
            {-0.1452926f, -0.167614f, -0.1343717f, 0.3124841f, 0.09294093f, -0.05606153f,
             -0.06636202f, 0.06678244f, 0.2372221f, -0.1247344f},
            kModelTolerance);
}

// Hardswish, squeeze-and-excitation (global average pooling, hardsigmoid as
// add, clamp, div, and a multiply).
TEST_F(XnnpackBackendTest, MobileNetV3Small) {
  run_model("mobilenet_v3_small.pte", {1, 3, 64, 64}, {1, 10},
            {-0.1424461f, 0.1006478f, 0.04221483f, 0.1016421f, -0.04487303f, -0.004134517f,
             0.1357031f, 0.02183221f, 0.07539802f, 0.03846808f},
            kModelTolerance);
}

// Max pooling (3x3/2, padding 1), residual adds, global average pooling.
TEST_F(XnnpackBackendTest, ResNet18) {
  run_model("resnet18.pte", {1, 3, 32, 32}, {1, 10},
            {0.01686415f, -0.03336497f, -0.2206554f, -0.02960067f, 0.1049793f, 0.1620026f,
             -0.129365f, 0.1945006f, 0.1422687f, 0.03833317f},
            kModelTolerance);
}

// Unpadded max pooling and the Fire modules' two-input concatenations.
TEST_F(XnnpackBackendTest, SqueezeNet11) {
  run_model("squeezenet1_1.pte", {1, 3, 64, 64}, {1, 10},
            {0.1264505f, 0.0f, 0.0f, 0.0007640646f, 0.0f, 0.1710759f, 0.0f, 0.01989446f, 0.0f,
             0.01751311f},
            kModelTolerance);
}

// A wrong input shape is refused at execute with an Error.
TEST_F(XnnpackBackendTest, WrongInputShapeFails) {
  Module m(fixture("linear_relu_add.pte"));
  auto x = make_tensor_ptr<float>({2, 5}, pattern(10));
  auto y = make_tensor_ptr<float>({2, 3}, pattern(6));
  auto out = m.forward(std::vector<EValue>{*x, *y});
  EXPECT_FALSE(out.ok());
}

// A bare XN01 graph: in (external 0) -> node -> out (external 1), fp32 2x3.
std::vector<uint8_t> one_node_graph(fb::XNodeUnion type, fb::XNNDatatype dtype) {
  flatbuffers::FlatBufferBuilder fbb;
  const std::vector<uint32_t> dims{2, 3};
  std::vector<flatbuffers::Offset<fb::XValue>> values;
  for (uint32_t id : {0u, 1u}) {
    auto t = fb::CreateXNNTensorValueDirect(fbb, dtype, 2, &dims, 0, id, id == 0 ? 1u : 2u, id);
    values.push_back(fb::CreateXValue(fbb, fb::XValueUnion::XNNTensorValue, t.Union()));
  }
  auto node = fb::Create_XNNNode1x1(fbb, 0, 1, 0);
  std::vector<flatbuffers::Offset<fb::XNode>> nodes{fb::CreateXNode(fbb, type, node.Union(), 7)};
  const std::vector<uint32_t> inputs{0}, outputs{1};
  fbb.Finish(fb::CreateXNNGraphDirect(fbb, "1", &nodes, &values, 2, &inputs, &outputs), "XN01");
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

executorch::runtime::Result<void*> init_backend(std::vector<uint8_t>& blob) {
  auto* backend = executorch::runtime::get_backend_class("XnnpackBackend");
  EXPECT_NE(backend, nullptr);
  static uint8_t pool[4096];
  MemoryAllocator allocator(sizeof(pool), pool);
  BackendInitContext context(&allocator);
  FreeableBuffer processed(blob.data(), blob.size(), nullptr);
  return backend->init(context, &processed, {});
}

// The same graph with a supported one-operand node initializes and is
// destroyed (hardswish appears in no program fixture alone of its graph).
TEST_F(XnnpackBackendTest, OneOperandGraphsInitialize) {
  for (auto type : {fb::XNodeUnion::XNNClamp, fb::XNodeUnion::XNNHardswish,
                    fb::XNodeUnion::XNNSigmoid, fb::XNodeUnion::XNNSoftmax}) {
    auto blob = one_node_graph(type, fb::XNNDatatype::xnn_datatype_fp32);
    auto handle = init_backend(blob);
    ASSERT_TRUE(handle.ok()) << fb::EnumNameXNodeUnion(type) << ": "
                             << static_cast<int>(handle.error());
    executorch::runtime::get_backend_class("XnnpackBackend")->destroy(*handle);
  }
}

// Node kinds and datatypes not supported yet fail at init, naming them.
TEST_F(XnnpackBackendTest, UnsupportedNodeFailsAtInit) {
  for (auto type : {fb::XNodeUnion::XNNGelu, fb::XNodeUnion::XNNFloor, fb::XNodeUnion::XNNNegate}) {
    auto blob = one_node_graph(type, fb::XNNDatatype::xnn_datatype_fp32);
    auto handle = init_backend(blob);
    ASSERT_FALSE(handle.ok()) << fb::EnumNameXNodeUnion(type);
    EXPECT_EQ(handle.error(), Error::NotSupported) << fb::EnumNameXNodeUnion(type);
  }
  auto blob = one_node_graph(fb::XNodeUnion::XNNClamp, fb::XNNDatatype::xnn_datatype_fp16);
  auto handle = init_backend(blob);
  ASSERT_FALSE(handle.ok());
  EXPECT_EQ(handle.error(), Error::NotSupported);
}

// Every single-bit flip of pool_mix's payload (no weights, so it needs no
// named data) that the reader lets through reaches XNNPACK: init then
// succeeds or fails with an Error, never crashes.
TEST_F(XnnpackBackendTest, BitFlippedPayloadsInitOrFail) {
  std::vector<uint8_t> blob;
  {
    FILE* f = std::fopen(fixture("pool_mix.bin").c_str(), "rb");
    ASSERT_NE(f, nullptr);
    uint8_t buf[4096];
    blob.assign(buf, buf + std::fread(buf, 1, sizeof(buf), f));
    std::fclose(f);
  }
  auto intact = blob;
  auto handle = init_backend(intact);
  ASSERT_TRUE(handle.ok()) << static_cast<int>(handle.error());
  auto* backend = executorch::runtime::get_backend_class("XnnpackBackend");
  backend->destroy(*handle);
  size_t inits = 0;
  for (size_t i = 0; i < blob.size(); ++i) {
    for (int bit = 0; bit < 8; bit += 3) {
      auto b = blob;
      b[i] ^= static_cast<uint8_t>(1u << bit);
      auto h = init_backend(b);
      if (h.ok()) {
        ++inits;
        backend->destroy(*h);
      }
    }
  }
  EXPECT_GT(inits, 0u); // flips of unused bytes and of values still valid
}

// A payload that does not parse fails at init too.
TEST_F(XnnpackBackendTest, BrokenPayloadFailsAtInit) {
  auto blob = one_node_graph(fb::XNodeUnion::XNNClamp, fb::XNNDatatype::xnn_datatype_fp32);
  blob.resize(blob.size() / 2);
  EXPECT_FALSE(init_backend(blob).ok());
}

} // namespace
