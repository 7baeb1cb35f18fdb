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

// Upstream's dynamically quantized linear flow (torchao's
// Int8DynamicActivationIntxWeightConfig, make_payloads.py): each Linear's
// input converted to qdint8 (a scale and zero point per row, chosen at run
// time), a 4-bit or 8-bit quantized filter, fp32 outputs below 0.46.
// XNNPACK computes the integer dot products exactly; what may differ from
// upstream's newer XNNPACK is the fp32 arithmetic around them (the row
// scales and zero points, the dequantization, the bias), a few ulps, unless
// an activation of the hidden layer lands within an ulp of a rounding
// boundary of its quantization and moves one step, which changes an output
// by about a hidden row scale times a weight (~1e-3). The measured
// difference is printed; the tolerance is well above ulps and well below
// such a step.
constexpr float kQuantTolerance = 2e-5f;

// 8da4w: 4-bit weights in blocks of 32 input channels (qbint4, bf16 block
// scales), on 1x3x64 (rows = batch and token dims).
TEST_F(XnnpackBackendTest, Mlp8da4w) {
  run_model("mlp_8da4w.pte", {1, 3, 64}, {1, 3, 32},
            {0.239786f,    0.1174476f,   0.1216144f,   -0.196685f,    -0.03184102f, 0.1925915f,
             0.1326354f,   0.06380741f,  -0.01302498f, 0.2166917f,    -0.08464347f, 0.02518348f,
             -0.2475996f,  -0.3831351f,  0.02977522f,  -0.1683069f,   0.4018942f,   0.03992388f,
             0.2336975f,   -0.350266f,   0.1020121f,   -0.006213417f, 0.07207067f,  0.02804677f,
             -0.1338291f,  -0.1378644f,  0.1155113f,   0.03748f,      0.01999442f,  0.3841949f,
             0.2150299f,   -0.04503963f, -0.05208074f, 0.4171594f,    0.1354261f,   -0.3101365f,
             -0.153637f,   -0.3301944f,  -0.05850552f, 0.2608467f,    -0.1188144f,  -0.09952019f,
             0.0982517f,   -0.2790134f,  0.2744837f,   -0.07808261f,  -0.08674886f, -0.2965119f,
             0.1146522f,   0.1392189f,   -0.03409424f, -0.0213312f,   0.07771569f,  0.2387296f,
             0.06006323f,  0.1145601f,   -0.04491399f, 0.2138671f,    -0.1687702f,  -0.08077824f,
             -0.2571346f,  -0.02672771f, 0.3326009f,   -0.2590535f,   -0.161877f,   0.3804697f,
             0.2842117f,   0.1206558f,   0.2191735f,   0.1339552f,    -0.2042939f,  0.1763619f,
             -0.02304664f, -0.196058f,   0.03297484f,  -0.3963237f,   0.05594974f,  -0.03077227f,
             -0.2628714f,  -0.0787842f,  -0.01433262f, 0.2250834f,    0.01689166f,  -0.03619871f,
             0.2371674f,   0.05920054f,  0.2011954f,   0.2200602f,    -0.126474f,   0.09153245f,
             0.1557068f,   -0.1154597f,  0.1936292f,   0.3068398f,    0.1499574f,   -0.01707869f},
            kQuantTolerance);
}

// 4-bit weights per output channel: upstream exports them as blocks of a
// whole row (qbint4, groups of 64 and 128).
TEST_F(XnnpackBackendTest, Mlp8da4wPerChannel) {
  run_model("mlp_8da4w_pc.pte", {2, 64}, {2, 32},
            {0.2483128f,  0.1011957f,    0.1146479f,    -0.190718f,    -0.05556625f, 0.1893692f,
             0.1312008f,  0.06198814f,   -0.02075163f,  0.2150119f,    -0.08002026f, 0.06229592f,
             -0.2389593f, -0.3965704f,   0.03563478f,   -0.1603355f,   0.390963f,    0.03257758f,
             0.2472801f,  -0.3368307f,   0.1103133f,    -0.004431617f, 0.06268094f,  0.04608145f,
             -0.1142696f, -0.1260441f,   0.1229362f,    0.04856726f,   0.04197431f,  0.3331371f,
             0.2528378f,  -0.03641573f,  -0.05524551f,  0.4403702f,    0.1429793f,   -0.3067124f,
             -0.1830984f, -0.3388033f,   -0.0621878f,   0.2617719f,    -0.1543634f,  -0.1274587f,
             0.1134314f,  -0.2922203f,   0.2781818f,    -0.06915235f,  -0.08169052f, -0.3126558f,
             0.1115903f,  0.1461f,       -0.005120743f, -0.02993089f,  0.07633188f,  0.2268444f,
             0.05623085f, 0.09935462f,   -0.03601127f,  0.2216306f,    -0.1685739f,  -0.08770672f,
             -0.2362389f, -0.005286984f, 0.3521867f,    -0.2689389f},
            kQuantTolerance);
}

// 8da8w: 8-bit weights per output channel (qcint8, fp32 scales).
TEST_F(XnnpackBackendTest, Mlp8da8w) {
  run_model("mlp_8da8w.pte", {2, 64}, {2, 32},
            {0.2186896f,  0.1152281f,   0.1334838f,    -0.1961525f,  -0.0260477f,  0.2119963f,
             0.1490384f,  0.07558677f,  -0.01735585f,  0.2205734f,   -0.06619427f, 0.04421788f,
             -0.2358716f, -0.3545792f,  0.06443221f,   -0.142069f,   0.4075618f,   0.04218321f,
             0.2125f,     -0.3428782f,  0.1259713f,    -0.01486004f, 0.1026273f,   0.04903252f,
             -0.1204222f, -0.1386459f,  0.113194f,     0.01481745f,  0.05041306f,  0.3786878f,
             0.233119f,   -0.04850798f, -0.04126082f,  0.4541666f,   0.1360141f,   -0.2716917f,
             -0.1850189f, -0.3308132f,  -0.04639063f,  0.2466465f,   -0.1243441f,  -0.1056693f,
             0.1009853f,  -0.2942541f,  0.289097f,     -0.05535511f, -0.05151248f, -0.3085573f,
             0.136648f,   0.1547538f,   -0.008138081f, -0.02929012f, 0.09910579f,  0.2439747f,
             0.06072775f, 0.08208268f,  -0.05895359f,  0.1924952f,   -0.1713233f,  -0.08620634f,
             -0.2333851f, -0.02410102f, 0.3720534f,    -0.2538973f},
            kQuantTolerance);
}

// Statically quantized int8 (upstream's PT2E flow, XNNPACKQuantizer with
// its symmetric per-channel config): qint8 activations, qcint8 weights and
// qcint32 biases, requantized after every node. Both runtimes run the same
// XNNPACK integer kernels; an fp32 output is a qint8 value times its scale
// (cnn_qs8: 0.00514, mlp_qs8: 0.004636), so a rounding tie taken the other
// way in a requantization would show as one such step. Measured: none;
// the int8 outputs agree and only their fp32 products differ (4.5e-8).
// The tolerance is ulps of the outputs (< 0.6), far below a step.
constexpr float kStaticTolerance = 1e-6f;

// conv+relu, depthwise conv, residual add+relu on qint8; average and max
// pooling, global average pooling in fp32 (the quantizer leaves them
// unquantized); a qint8 linear classifier. 1x3x16x16.
TEST_F(XnnpackBackendTest, CnnStaticInt8) {
  run_model("cnn_qs8.pte", {1, 3, 16, 16}, {1, 10},
            {0.1593547f, 0.4472213f, 0.2878666f, 0.2878666f, 0.2107595f, 0.2467428f, 0.08224759f,
             -0.1850571f, -0.5911546f, 0.2827261f},
            kStaticTolerance);
}

// Linear(64, 128), relu (folded into the hidden quantization), Linear(128,
// 32), on 2x64.
TEST_F(XnnpackBackendTest, MlpStaticInt8) {
  run_model("mlp_qs8.pte", {2, 64}, {2, 32},
            {0.217895f,   0.1251737f,   0.1344458f,    -0.1947147f,  -0.02781638f, 0.2132589f,
             0.1529901f,  0.07417701f,  -0.01390819f,  0.222531f,    -0.06954095f, 0.04172457f,
             -0.2364392f, -0.3523408f,  0.06490488f,   -0.1390819f,  0.4126096f,   0.04636063f,
             0.2132589f,  -0.3430687f,  0.1298098f,    -0.01390819f, 0.1066295f,   0.04172457f,
             -0.1159016f, -0.1390819f,  0.1159016f,    0.009272126f, 0.04636063f,  0.3801572f,
             0.2364392f,  -0.05099669f, -0.04172457f,  0.4543342f,   0.1390819f,   -0.2735277f,
             -0.1854425f, -0.3337966f,  -0.04636063f,  0.2503474f,   -0.1251737f,  -0.1066295f,
             0.1019934f,  -0.292072f,   0.2874359f,    -0.05099669f, -0.04636063f, -0.3059802f,
             0.1344458f,  0.1576262f,   -0.009272126f, -0.02781638f, 0.09735733f,  0.2410753f,
             0.06026882f, 0.0880852f,   -0.05563276f,  0.1900786f,   -0.1668983f,  -0.0880852f,
             -0.2318032f, -0.02318032f, 0.3708851f,    -0.2503474f},
            kStaticTolerance);
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

// A bare graph of a dynamically quantized linear, as upstream lays it out:
// fp32 [2, 64] -> Convert -> qdint8 -> FullyConnected with a [32, 64]
// filter of `filter` (blockwise: groups of 32, bf16 scales; per-channel:
// fp32 scales; both in constants) -> fp32 [2, 32]; constants inline (the
// oldest layout, so that no named data is needed). `scale0` replaces the
// first scale's bits; `activation` the converted value's type and
// parameters (qdint8 per token, or a static qint8 per tensor).
struct QuantLinear {
  fb::XNNDatatype filter = fb::XNNDatatype::xnn_datatype_qbint4;
  uint32_t scale0 = 0; // 0: a valid scale
  bool static_activation = false;
  bool float_filter = false;
  int32_t nonbatch = 1; // of the qdint8 value

  bool blockwise() const { return filter == fb::XNNDatatype::xnn_datatype_qbint4; }

  std::vector<uint8_t> scale_bytes() const {
    std::vector<uint8_t> b;
    const uint32_t n = blockwise() ? 64 : 32;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t bits = i == 0 && scale0 != 0 ? scale0 : 0x3c23d70a; // 0.01f
      for (int k = blockwise() ? 2 : 0; k < 4; ++k) {                    // bf16: the high half
        b.push_back(static_cast<uint8_t>(bits >> (8 * k)));
      }
    }
    return b;
  }

  flatbuffers::Offset<fb::XValue> tensor(flatbuffers::FlatBufferBuilder& fbb,
                                         std::vector<uint32_t> dims, uint32_t constant,
                                         uint32_t ext, uint32_t flags, uint32_t id) const {
    auto t = fb::CreateXNNTensorValueDirect(fbb, fb::XNNDatatype::xnn_datatype_fp32, 2, &dims,
                                            constant, ext, flags, id);
    return fb::CreateXValue(fbb, fb::XValueUnion::XNNTensorValue, t.Union());
  }

  flatbuffers::Offset<fb::XValue> quantized(flatbuffers::FlatBufferBuilder& fbb,
                                            fb::XNNDatatype type, std::vector<uint32_t> dims,
                                            uint32_t constant, uint32_t id, fb::XNNQuantParams kind,
                                            flatbuffers::Offset<void> params) const {
    auto t = fb::CreateXNNTensorValueDirect(fbb, type, 2, &dims, constant, 0xffffffffu, 0, id);
    auto q = fb::CreateXNNQuantizedTensorValue(fbb, t, kind, params);
    return fb::CreateXValue(fbb, fb::XValueUnion::XNNQuantizedTensorValue, q.Union());
  }

  flatbuffers::Offset<fb::XValue> filter_value(flatbuffers::FlatBufferBuilder& fbb) const {
    if (float_filter) {
      return tensor(fbb, {32, 64}, 1, 0xffffffffu, 0, 2);
    }
    if (blockwise()) {
      auto q = fb::CreatePerChannelGroupQuantDirect(fbb, nullptr, 0, 32, 2, 64);
      return quantized(fbb, filter, {32, 64}, 1, 2, fb::XNNQuantParams::PerChannelGroupQuant,
                       q.Union());
    }
    auto q = fb::CreatePerChannelQuantDirect(fbb, nullptr, 0, 2, 32);
    return quantized(fbb, filter, {32, 64}, 1, 2, fb::XNNQuantParams::PerChannelQuant, q.Union());
  }

  std::vector<uint8_t> build() const {
    flatbuffers::FlatBufferBuilder fbb;
    const auto dyn = static_activation
                         ? quantized(fbb, fb::XNNDatatype::xnn_datatype_qint8, {2, 64}, 0, 1,
                                     fb::XNNQuantParams::PerTensorQuant,
                                     fb::CreatePerTensorQuant(fbb, 0.05f, 0).Union())
                         : quantized(fbb, fb::XNNDatatype::xnn_datatype_qdint8, {2, 64}, 0, 1,
                                     fb::XNNQuantParams::PerTokenDynamicQuant,
                                     fb::CreatePerTokenDynamicQuant(fbb, nonbatch).Union());
    std::vector<flatbuffers::Offset<fb::XValue>> values{
        tensor(fbb, {2, 64}, 0, 0, 1, 0), dyn, filter_value(fbb), tensor(fbb, {2, 32}, 0, 1, 2, 3)};
    // Filter bytes: alternating small weights; 4-bit rows of 32 bytes.
    const size_t filter_bytes = float_filter                                     ? 32 * 64 * 4
                                : filter == fb::XNNDatatype::xnn_datatype_qcint8 ? 32 * 64
                                                                                 : 32 * 32;
    std::vector<uint8_t> weights(filter_bytes, float_filter ? 0 : 0x79);
    const auto scales = scale_bytes();
    std::vector<flatbuffers::Offset<fb::Buffer>> buffers{fb::CreateBufferDirect(fbb, nullptr),
                                                         fb::CreateBufferDirect(fbb, &weights),
                                                         fb::CreateBufferDirect(fbb, &scales)};
    std::vector<flatbuffers::Offset<fb::XNode>> nodes{
        fb::CreateXNode(fbb, fb::XNodeUnion::XNNConvert,
                        fb::Create_XNNNode1x1(fbb, 0, 1, 0).Union(), 1),
        fb::CreateXNode(fbb, fb::XNodeUnion::XNNFullyConnected,
                        fb::CreateXNNFullyConnected(fbb, 1, 2, 0xffffffffu, 3, 0).Union(), 2)};
    const std::vector<uint32_t> inputs{0}, outputs{3};
    fbb.Finish(fb::CreateXNNGraphDirect(fbb, "1", &nodes, &values, 2, &inputs, &outputs, &buffers),
               "XN01");
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
  }
};

Error init_status(const QuantLinear& q) {
  auto blob = q.build();
  auto handle = init_backend(blob);
  if (handle.ok()) {
    executorch::runtime::get_backend_class("XnnpackBackend")->destroy(*handle);
    return Error::Ok;
  }
  return handle.error();
}

// Each filter type initializes, qcint4 included (the exporter writes 4-bit
// per-channel weights as whole-row blocks, so no program fixture has it).
TEST_F(XnnpackBackendTest, QuantizedLinearGraphsInitialize) {
  for (auto type : {fb::XNNDatatype::xnn_datatype_qbint4, fb::XNNDatatype::xnn_datatype_qcint4,
                    fb::XNNDatatype::xnn_datatype_qcint8}) {
    QuantLinear q;
    q.filter = type;
    EXPECT_EQ(init_status(q), Error::Ok) << fb::EnumNameXNNDatatype(type);
  }
}

// Scales in constants are checked before XNNPACK sees them: zero,
// negative, NaN, infinite and denormal scales fail with InvalidProgram.
TEST_F(XnnpackBackendTest, BadConstantScalesFailAtInit) {
  for (uint32_t bits : {0x80000000u, 0xbc23d70au, 0x7fc00000u, 0x7f800000u, 0x00010000u}) {
    for (auto type : {fb::XNNDatatype::xnn_datatype_qbint4, fb::XNNDatatype::xnn_datatype_qcint8}) {
      QuantLinear q;
      q.filter = type;
      q.scale0 = bits;
      EXPECT_EQ(init_status(q), Error::InvalidProgram)
          << fb::EnumNameXNNDatatype(type) << " " << std::hex << bits;
    }
  }
}

// A static int8 input to an fp32 output, a quantized input with an fp32
// filter and activations not quantized per row are not run: NotSupported
// at init, before XNNPACK is called.
TEST_F(XnnpackBackendTest, UnsupportedQuantizedGraphsFailAtInit) {
  QuantLinear q;
  q.static_activation = true;
  EXPECT_EQ(init_status(q), Error::NotSupported);
  q = QuantLinear();
  q.float_filter = true;
  EXPECT_EQ(init_status(q), Error::NotSupported);
  // Fully connected nodes read one scale per row: per-tensor (0) or
  // per-batch (2) parameters would leave them short.
  for (int32_t n : {0, 2}) {
    q = QuantLinear();
    q.nonbatch = n;
    EXPECT_EQ(init_status(q), Error::NotSupported) << n;
  }
}

// A bare statically quantized graph: fp32 [1, 4, 4, 2] (external 0) ->
// Convert -> qint8 a -> `node` -> qint8 b -> Convert -> fp32 (external 1),
// b of `out_scale` and `out_zero_point`, a of 0.05 and -3; `external_a`
// makes a a graph output too (external 2).
struct StaticGraph {
  fb::XNodeUnion node = fb::XNodeUnion::XNNMaxPooling2d;
  float out_scale = 0.05f;
  int32_t out_zero_point = -3;
  bool external_a = false;

  flatbuffers::Offset<fb::XValue> value(flatbuffers::FlatBufferBuilder& fbb, uint32_t id,
                                        std::vector<uint32_t> dims, float scale,
                                        int32_t zero_point) const {
    const bool out = id == 3 || (id == 1 && external_a);
    const uint32_t flags = id == 0 ? 1 : out ? 2 : 0;
    const uint32_t ext_id = id == 0 ? 0 : id == 3 ? 1 : out ? 2 : 0xffffffffu;
    const auto type =
        scale == 0 ? fb::XNNDatatype::xnn_datatype_fp32 : fb::XNNDatatype::xnn_datatype_qint8;
    auto t = fb::CreateXNNTensorValueDirect(fbb, type, 4, &dims, 0, ext_id, flags, id);
    if (scale == 0) {
      return fb::CreateXValue(fbb, fb::XValueUnion::XNNTensorValue, t.Union());
    }
    auto q =
        fb::CreateXNNQuantizedTensorValue(fbb, t, fb::XNNQuantParams::PerTensorQuant,
                                          fb::CreatePerTensorQuant(fbb, scale, zero_point).Union());
    return fb::CreateXValue(fbb, fb::XValueUnion::XNNQuantizedTensorValue, q.Union());
  }

  flatbuffers::Offset<fb::XNode> middle(flatbuffers::FlatBufferBuilder& fbb) const {
    if (node == fb::XNodeUnion::XNNMaxPooling2d) {
      return fb::CreateXNode(
          fbb, node, fb::Create_XNNPooling2D(fbb, 0, 0, 0, 0, 2, 2, 1, 1, 1, 1, 1, 2, 0).Union(),
          2);
    }
    if (node == fb::XNodeUnion::XNNStaticTranspose) {
      const std::vector<uint32_t> perm{0, 2, 1, 3};
      return fb::CreateXNode(fbb, node,
                             fb::CreateXNNStaticTransposeDirect(fbb, 4, &perm, 1, 2, 0).Union(), 2);
    }
    if (node == fb::XNodeUnion::XNNAdd) {
      return fb::CreateXNode(fbb, node, fb::Create_XNNNode2x1(fbb, 1, 1, 2, 0).Union(), 2);
    }
    return fb::CreateXNode(fbb, node, fb::Create_XNNNode1x1(fbb, 1, 2, 0).Union(), 2);
  }

  std::vector<uint8_t> build() const {
    flatbuffers::FlatBufferBuilder fbb;
    const bool pool = node == fb::XNodeUnion::XNNMaxPooling2d;
    const std::vector<uint32_t> in{1, 4, 4, 2}, out{1, pool ? 3u : 4u, pool ? 3u : 4u, 2};
    std::vector<flatbuffers::Offset<fb::XValue>> values{
        value(fbb, 0, in, 0, 0), value(fbb, 1, in, 0.05f, -3),
        value(fbb, 2, out, out_scale, out_zero_point), value(fbb, 3, out, 0, 0)};
    std::vector<flatbuffers::Offset<fb::XNode>> nodes{
        fb::CreateXNode(fbb, fb::XNodeUnion::XNNConvert,
                        fb::Create_XNNNode1x1(fbb, 0, 1, 0).Union(), 1),
        middle(fbb),
        fb::CreateXNode(fbb, fb::XNodeUnion::XNNConvert,
                        fb::Create_XNNNode1x1(fbb, 2, 3, 0).Union(), 3)};
    const std::vector<uint32_t> inputs{0};
    const std::vector<uint32_t> outputs =
        external_a ? std::vector<uint32_t>{1, 3} : std::vector<uint32_t>{3};
    fbb.Finish(
        fb::CreateXNNGraphDirect(fbb, "1", &nodes, &values, external_a ? 3 : 2, &inputs, &outputs),
        "XN01");
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
  }
};

Error init_status(const StaticGraph& g) {
  auto blob = g.build();
  auto handle = init_backend(blob);
  if (handle.ok()) {
    executorch::runtime::get_backend_class("XnnpackBackend")->destroy(*handle);
    return Error::Ok;
  }
  return handle.error();
}

// Max pooling and transpose move qint8 values unchanged: XNNPACK needs
// their output quantized as their input, checked first (InvalidProgram);
// an add requantizes, so it may change them, within XNNPACK's range of
// input over output scales, [2^-10, 2^8) (XNNPACK asserts outside it).
TEST_F(XnnpackBackendTest, StaticQuantizedNodesNeedMatchingParams) {
  for (auto node : {fb::XNodeUnion::XNNMaxPooling2d, fb::XNodeUnion::XNNStaticTranspose,
                    fb::XNodeUnion::XNNAdd}) {
    StaticGraph g;
    g.node = node;
    EXPECT_EQ(init_status(g), Error::Ok) << fb::EnumNameXNodeUnion(node);
    g.out_scale = 0.1f;
    const Error changed = node == fb::XNodeUnion::XNNAdd ? Error::Ok : Error::InvalidProgram;
    EXPECT_EQ(init_status(g), changed) << fb::EnumNameXNodeUnion(node);
    g.out_scale = 0.05f;
    g.out_zero_point = 4;
    EXPECT_EQ(init_status(g), changed) << fb::EnumNameXNodeUnion(node);
  }
  StaticGraph g;
  g.node = fb::XNodeUnion::XNNAdd;
  const std::pair<float, Error> cases[] = {{0.05f * 0x1.0p-8f, Error::InvalidProgram},
                                           {0.05f * 0x1.0p-7f, Error::Ok},
                                           {0.05f * 0x1.0p+10f, Error::Ok},
                                           {0.05f * 0x1.0p+11f, Error::InvalidProgram}};
  for (const auto& [out_scale, want] : cases) {
    g.out_scale = out_scale;
    EXPECT_EQ(init_status(g), want) << out_scale;
  }
}

// qint8 graph outputs (the backend passes fp32 only) and qint8 nodes of
// kinds not run on qint8 (here a sigmoid) are NotSupported at init.
TEST_F(XnnpackBackendTest, UnsupportedStaticGraphsFailAtInit) {
  StaticGraph g;
  g.external_a = true;
  EXPECT_EQ(init_status(g), Error::NotSupported);
  g = StaticGraph();
  g.node = fb::XNodeUnion::XNNSigmoid;
  EXPECT_EQ(init_status(g), Error::NotSupported);
}

// Every bit flip of the static graphs (scales, zero points, types, dims
// included): init succeeds or fails with an Error, never in XNNPACK.
TEST_F(XnnpackBackendTest, BitFlippedStaticGraphsInitOrFail) {
  auto* backend = executorch::runtime::get_backend_class("XnnpackBackend");
  for (auto node : {fb::XNodeUnion::XNNMaxPooling2d, fb::XNodeUnion::XNNAdd}) {
    StaticGraph g;
    g.node = node;
    const auto blob = g.build();
    size_t inits = 0;
    for (size_t i = 0; i < blob.size(); ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        auto b = blob;
        b[i] ^= static_cast<uint8_t>(1u << bit);
        auto h = init_backend(b);
        if (h.ok()) {
          ++inits;
          backend->destroy(*h);
        }
      }
    }
    std::printf("%s: %zu of %zu flips initialize\n", fb::EnumNameXNodeUnion(node), inits,
                blob.size() * 8);
    EXPECT_GT(inits, 0u); // flips of unused bytes and of values still valid
  }
}

// Every bit flip of the quantized linear graphs (their constants inline):
// init succeeds or fails with an Error; XNNPACK, which asserts on some
// quantization parameters, never sees a bad one.
TEST_F(XnnpackBackendTest, BitFlippedQuantizedGraphsInitOrFail) {
  auto* backend = executorch::runtime::get_backend_class("XnnpackBackend");
  for (auto type : {fb::XNNDatatype::xnn_datatype_qbint4, fb::XNNDatatype::xnn_datatype_qcint8}) {
    QuantLinear q;
    q.filter = type;
    const auto blob = q.build();
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
    std::printf("%s: %zu of %zu flips initialize\n", fb::EnumNameXNNDatatype(type), inits,
                blob.size() * 3);
    EXPECT_GT(inits, 0u) << fb::EnumNameXNNDatatype(type);
  }
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
