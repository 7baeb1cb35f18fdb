// The XnnpackBackend on upstream's own XNNPACK programs (tests/data/xnnpack/,
// written by executorch 1.5.1's exporter): loaded through Module with the
// backend linked in, run, and compared with what upstream's runtime gives
// on the same inputs (expected_outputs.py; it also checks those against
// torch eager, within 2.4e-7); and graphs the backend cannot run yet, which
// must fail at init with an Error, never at execute.
#include <cmath>
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
                   const std::vector<float>& expected) {
  ASSERT_TRUE(out.isTensor());
  const auto& t = out.toTensor();
  ASSERT_EQ(std::vector<SizesType>(t.sizes().begin(), t.sizes().end()), sizes);
  ASSERT_EQ(static_cast<size_t>(t.numel()), expected.size());
  const float* got = t.const_data_ptr<float>();
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(got[i], expected[i], kTolerance) << "element " << i;
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

// The same graph with a clamp (supported) initializes and is destroyed.
TEST_F(XnnpackBackendTest, ClampGraphInitializes) {
  auto blob = one_node_graph(fb::XNodeUnion::XNNClamp, fb::XNNDatatype::xnn_datatype_fp32);
  auto handle = init_backend(blob);
  ASSERT_TRUE(handle.ok()) << static_cast<int>(handle.error());
  executorch::runtime::get_backend_class("XnnpackBackend")->destroy(*handle);
}

// Node kinds and datatypes not supported yet fail at init, naming them.
TEST_F(XnnpackBackendTest, UnsupportedNodeFailsAtInit) {
  for (auto type :
       {fb::XNodeUnion::XNNSoftmax, fb::XNodeUnion::XNNSigmoid, fb::XNodeUnion::XNNGelu}) {
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

// A payload that does not parse fails at init too.
TEST_F(XnnpackBackendTest, BrokenPayloadFailsAtInit) {
  auto blob = one_node_graph(fb::XNodeUnion::XNNClamp, fb::XNNDatatype::xnn_datatype_fp32);
  blob.resize(blob.size() / 2);
  EXPECT_FALSE(init_backend(blob).ok());
}

} // namespace
