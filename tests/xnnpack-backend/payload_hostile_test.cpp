// Hostile payloads: cut, corrupted or hand-built graphs that name what does
// not exist. The reader must answer with an Error, never read out of bounds
// (the suite runs under ASan in CI).
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <executorch/runtime/platform/runtime.h>

#include "payload.h"
#include "payload_fixtures.h"
#include "xnnpack_graph_generated.h"

using executorch::runtime::Error;
using xnnpack_payload::parse_payload;
namespace fb = xnnpack_payload::fb;

namespace {

class HostileTest : public ::testing::Test {
 protected:
  void SetUp() override { executorch::runtime::runtime_init(); }
};

void put_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (size_t i = 0; i < 4; ++i) {
    b.at(at + i) = static_cast<uint8_t>(v >> (8 * i));
  }
}

// Each prefix is copied to a buffer of its own size, so ASan sees any read
// past the end.
TEST_F(HostileTest, EveryTruncationFails) {
  for (const char* name : {"linear_relu_add.bin", "conv.bin", "pool_mix.bin", "mlp_8da4w.bin"}) {
    const auto blob = xnnpack_test::read_fixture(name);
    ASSERT_FALSE(blob.empty());
    for (size_t n = 0; n < blob.size(); ++n) {
      std::vector<uint8_t> cut(blob.begin(), blob.begin() + n);
      EXPECT_FALSE(parse_payload(cut.data(), cut.size()).ok()) << name << " cut to " << n;
    }
  }
}

TEST_F(HostileTest, NullData) { EXPECT_FALSE(parse_payload(nullptr, 0).ok()); }

// Header fields (offset in the header) set to values that point outside the
// blob or overlap the header.
TEST_F(HostileTest, HeaderOffsetsOutOfBounds) {
  const auto blob = xnnpack_test::read_fixture("linear_relu_add.bin");
  const uint32_t bad[] = {0, 1, 29, 0x7fffffff, 0xffffffff, static_cast<uint32_t>(blob.size()) + 1};
  for (size_t field : {10u, 14u, 18u}) {
    for (uint32_t v : bad) {
      auto b = blob;
      put_u32(b, field, v);
      EXPECT_FALSE(parse_payload(b.data(), b.size()).ok()) << field << "=" << v;
    }
  }
  auto b = blob;
  put_u32(b, 22, 0xffffffff); // constant size, low half
  put_u32(b, 26, 0xffffffff); // and high half
  EXPECT_FALSE(parse_payload(b.data(), b.size()).ok());
  b = blob;
  b[8] = 4; // header length below 30
  b[9] = 0;
  EXPECT_FALSE(parse_payload(b.data(), b.size()).ok());
}

TEST_F(HostileTest, BadIdentifiers) {
  const auto blob = xnnpack_test::read_fixture("conv.bin");
  for (const char* id : {"XN02", "XNxx", "\0\0\0\0", "PT00"}) {
    auto b = blob;
    std::memcpy(&b[32 + 4], id, 4);
    EXPECT_FALSE(parse_payload(b.data(), b.size()).ok()) << id;
  }
  auto b = blob;
  std::memcpy(&b[32 + 4], "XN00", 4); // the runtime schema's: accepted
  EXPECT_TRUE(parse_payload(b.data(), b.size()).ok());
}

// Every single-bit flip of a real payload either parses or fails cleanly.
// (squeezenet1_1.bin: pooling, concatenation and reshape parameters.)
TEST_F(HostileTest, BitFlipsNeverCrash) {
  for (const char* name : {"linear_relu_add.bin", "pool_mix.bin", "squeezenet1_1.bin",
                           "mlp_8da4w.bin", "mlp_8da8w.bin", "cnn_qs8.bin", "mlp_qs8.bin"}) {
    const auto blob = xnnpack_test::read_fixture(name);
    ASSERT_FALSE(blob.empty()) << name;
    for (size_t i = 0; i < blob.size(); ++i) {
      for (int bit = 0; bit < 8; bit += 3) {
        auto b = blob;
        b[i] ^= static_cast<uint8_t>(1u << bit);
        (void)parse_payload(b.data(), b.size());
      }
    }
  }
}

// A graph built here: one fp32 value (id 0) of dims {2, 3} and the given
// node, constant table and input list; bare (no header) unless `region`.
// Every value is flagged an external input (values 1, 2, ... also an
// output), so that nodes may read any and what they write counts as used.
struct Graph {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::XNode>> nodes;
  std::vector<flatbuffers::Offset<fb::ConstantDataOffset>> constants;
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers; // inline (oldest)
  uint32_t constant_idx = 0;
  std::vector<uint32_t> inputs{0};
  std::vector<uint32_t> dims{2, 3};
  std::vector<std::vector<uint32_t>> more; // the dims of values 1, 2, ...
  uint32_t num_externs = 1;
  uint32_t more_flags = 3; // of values 1, 2, ...: external input and output

  void add_1x1(uint32_t in, uint32_t out) {
    auto t = fb::Create_XNNNode1x1(fbb, in, out, 0);
    nodes.push_back(fb::CreateXNode(fbb, fb::XNodeUnion::XNNSigmoid, t.Union()));
  }
  void add_constant(uint64_t offset, uint64_t size, const char* key = nullptr) {
    constants.push_back(fb::CreateConstantDataOffsetDirect(fbb, offset, size, key));
  }
  std::vector<uint8_t> finish(const char* identifier = "XN01") {
    auto tensor = fb::CreateXNNTensorValueDirect(fbb, fb::XNNDatatype::xnn_datatype_fp32,
                                                 static_cast<uint32_t>(dims.size()), &dims,
                                                 constant_idx, 0, 1, 0);
    std::vector<flatbuffers::Offset<fb::XValue>> values{
        fb::CreateXValue(fbb, fb::XValueUnion::XNNTensorValue, tensor.Union())};
    for (uint32_t i = 0; i < more.size(); ++i) {
      auto t = fb::CreateXNNTensorValueDirect(fbb, fb::XNNDatatype::xnn_datatype_fp32,
                                              static_cast<uint32_t>(more[i].size()), &more[i], 0,
                                              0xffffffffu, more_flags, i + 1);
      values.push_back(fb::CreateXValue(fbb, fb::XValueUnion::XNNTensorValue, t.Union()));
    }
    std::vector<uint32_t> outputs;
    auto g = fb::CreateXNNGraphDirect(fbb, "1", &nodes, &values, num_externs, &inputs, &outputs,
                                      buffers.empty() ? nullptr : &buffers, nullptr, &constants);
    fbb.Finish(g, identifier);
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
  }
};

TEST_F(HostileTest, BuiltGraphParses) {
  Graph g;
  g.add_1x1(0, 0);
  const auto b = g.finish();
  auto p = parse_payload(b.data(), b.size());
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p->has_header);
  ASSERT_EQ(p->nodes.size(), 1u);
  EXPECT_STREQ(p->nodes[0].type_name, "XNNSigmoid");
}

TEST_F(HostileTest, BuiltGraphWrongIdentifier) {
  Graph g;
  g.add_1x1(0, 0);
  const auto b = g.finish("ABCD");
  EXPECT_FALSE(parse_payload(b.data(), b.size()).ok());
}

TEST_F(HostileTest, NodeNamesMissingValue) {
  for (uint32_t id : {1u, 7u, 0xfffffffeu, 0xffffffffu}) {
    Graph g;
    g.add_1x1(0, id);
    const auto b = g.finish();
    EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram) << id;
  }
}

// Nodes in order read only inputs, constants and what earlier nodes wrote;
// every external output is written and every value written is used
// (XNNPACK aborts on an output nothing writes, and on some dead nodes).
TEST_F(HostileTest, DataflowOrder) {
  struct Case {
    std::vector<std::pair<uint32_t, uint32_t>> nodes; // sigmoid in -> out
    uint32_t more_flags;
    Error want;
  };
  const Case cases[] = {
      {{{0, 1}, {1, 2}}, 0x2, Error::Ok},           {{{1, 2}, {0, 1}}, 0x2, Error::InvalidProgram},
      {{{0, 1}}, 0x2, Error::InvalidProgram},       {{}, 0x2, Error::InvalidProgram},
      {{{0, 1}, {1, 2}}, 0, Error::InvalidProgram}, {{{0, 1}, {0, 2}}, 0x2, Error::Ok}};
  for (const auto& c : cases) {
    Graph g;
    g.more = {{2, 3}, {2, 3}};
    g.more_flags = c.more_flags;
    for (const auto& io : c.nodes) {
      g.add_1x1(io.first, io.second);
    }
    const auto b = g.finish();
    auto p = parse_payload(b.data(), b.size());
    EXPECT_EQ(p.ok() ? Error::Ok : p.error(), c.want)
        << c.nodes.size() << " nodes, flags " << c.more_flags;
  }
}

// More external values than values: XNNPACK would allocate them all.
TEST_F(HostileTest, TooManyExterns) {
  for (uint32_t n : {2u, 0x10000u, 0xffffffffu}) {
    Graph g;
    g.num_externs = n;
    const auto b = g.finish();
    EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram) << n;
  }
}

TEST_F(HostileTest, InputListNamesMissingValue) {
  Graph g;
  g.inputs = {3};
  const auto b = g.finish();
  EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram);
}

TEST_F(HostileTest, ConstantIndexOutOfRange) {
  Graph g;
  g.add_constant(0, 0);
  g.constant_idx = 1; // only index 0 exists
  const auto b = g.finish();
  EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram);
}

TEST_F(HostileTest, ConstantOutsideRegion) {
  Graph g; // bare: the constant region is empty
  g.add_constant(0, 0);
  g.add_constant(0, 24);
  g.constant_idx = 1;
  const auto b = g.finish();
  EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram);
}

TEST_F(HostileTest, NamedConstantSizeMustMatchDims) {
  for (uint64_t size : {0ull, 23ull, 25ull, 0xffffffffffffffffull}) {
    Graph g;
    g.add_constant(0, 0);
    g.add_constant(UINT64_MAX, size, "k");
    g.constant_idx = 1;
    const auto b = g.finish();
    EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram) << size;
  }
  Graph g;
  g.add_constant(0, 0);
  g.add_constant(UINT64_MAX, 24, "k"); // 2 x 3 fp32
  g.constant_idx = 1;
  const auto b = g.finish();
  EXPECT_TRUE(parse_payload(b.data(), b.size()).ok());
}

TEST_F(HostileTest, NamedConstantWithoutKey) {
  Graph g;
  g.add_constant(0, 0);
  g.add_constant(UINT64_MAX, 24);
  const auto b = g.finish();
  EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram);
}

// The oldest payloads: no header, XN00, constants inline in the graph.
TEST_F(HostileTest, InlineConstantBuffers) {
  for (size_t bytes : {24u, 20u}) {
    Graph g;
    std::vector<uint8_t> storage(bytes, 0x5a);
    g.buffers = {fb::CreateBuffer(g.fbb), fb::CreateBufferDirect(g.fbb, &storage)};
    g.constant_idx = 1;
    const auto b = g.finish("XN00");
    auto p = parse_payload(b.data(), b.size());
    if (bytes != 24) {
      EXPECT_EQ(p.error(), Error::InvalidProgram);
      continue;
    }
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->identifier, "XN00");
    ASSERT_EQ(p->constants.size(), 2u);
    EXPECT_EQ(p->constants[1].source, xnnpack_payload::ConstantSource::kInline);
    ASSERT_EQ(p->constants[1].size, 24u);
    EXPECT_EQ(p->constants[1].data[23], 0x5a);
  }
}

TEST_F(HostileTest, DimsOverflowAndTooMany) {
  Graph big;
  big.dims = {0xffffffffu, 0xffffffffu, 0xffffffffu};
  big.add_constant(0, 0);
  big.add_constant(UINT64_MAX, 4, "k");
  big.constant_idx = 1;
  auto b = big.finish();
  EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram);
  Graph many;
  many.dims = {1, 1, 1, 1, 1, 1, 1};
  b = many.finish();
  EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram);
}

TEST_F(HostileTest, UnknownNodeType) {
  Graph g;
  auto t = fb::Create_XNNNode1x1(g.fbb, 0, 0, 0);
  g.nodes.push_back(fb::CreateXNode(g.fbb, static_cast<fb::XNodeUnion>(200), t.Union()));
  const auto b = g.finish();
  EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::NotSupported);
}

TEST_F(HostileTest, NodeTypeWithoutTable) {
  Graph g;
  g.nodes.push_back(fb::CreateXNode(g.fbb, fb::XNodeUnion::XNNAdd, 0));
  const auto b = g.finish();
  EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram);
}

// Node parameters (params.h) that XNNPACK must never see.
TEST_F(HostileTest, BadOutputRange) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float ranges[][2] = {{nan, 1}, {0, nan}, {1, 0}};
  for (const auto& r : ranges) {
    Graph g;
    auto t = fb::Create_XNNNode1x1(g.fbb, 0, 0, 0);
    auto mm = fb::CreateOutputMinMax(g.fbb, r[0], r[1]);
    g.nodes.push_back(fb::CreateXNode(g.fbb, fb::XNodeUnion::XNNClamp, t.Union(), 0, mm));
    const auto b = g.finish();
    EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram) << r[0] << r[1];
  }
  Graph g;
  auto t = fb::Create_XNNNode1x1(g.fbb, 0, 0, 0);
  auto mm = fb::CreateOutputMinMax(g.fbb, -1, 1);
  g.nodes.push_back(fb::CreateXNode(g.fbb, fb::XNodeUnion::XNNClamp, t.Union(), 0, mm));
  const auto b = g.finish();
  auto p = parse_payload(b.data(), b.size());
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->nodes[0].output_min, -1.0f);
  EXPECT_EQ(p->nodes[0].output_max, 1.0f);
}

TEST_F(HostileTest, UnknownFlags) {
  Graph g;
  auto t = fb::Create_XNNNode2x1(g.fbb, 0, 0, 0, 0x10);
  g.nodes.push_back(fb::CreateXNode(g.fbb, fb::XNodeUnion::XNNAdd, t.Union()));
  const auto b = g.finish();
  EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram);
}

TEST_F(HostileTest, BadPermutations) {
  // Value 0 is 2x3: {0, 1} maps it to itself, {1, 0} would need a 3x2 output.
  const std::vector<std::vector<uint32_t>> perms{{0, 0}, {0, 2}, {1, 0}, {0}, {7, 1}};
  for (const auto& perm : perms) {
    Graph g;
    auto t = fb::CreateXNNStaticTransposeDirect(g.fbb, static_cast<uint32_t>(perm.size()), &perm, 0,
                                                0, 0);
    g.nodes.push_back(fb::CreateXNode(g.fbb, fb::XNodeUnion::XNNStaticTranspose, t.Union()));
    const auto b = g.finish();
    EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram) << perm.size();
  }
  Graph g;
  const std::vector<uint32_t> identity{0, 1};
  auto t = fb::CreateXNNStaticTransposeDirect(g.fbb, 2, &identity, 0, 0, 0);
  g.nodes.push_back(fb::CreateXNode(g.fbb, fb::XNodeUnion::XNNStaticTranspose, t.Union()));
  const auto b = g.finish();
  EXPECT_TRUE(parse_payload(b.data(), b.size()).ok());
}

// Convolutions: zero sizes, overflowing products, adjustments, and shapes
// that do not match the geometry (value 0 is 2-d, not NHWC).
TEST_F(HostileTest, BadConvolutions) {
  struct Case {
    uint32_t kernel, stride, dilation, groups, in_ch, out_ch, adjust;
  };
  const Case cases[] = {{0, 1, 1, 1, 1, 1, 0},
                        {3, 0, 1, 1, 1, 1, 0},
                        {3, 1, 0, 1, 1, 1, 0},
                        {3, 1, 1, 0, 1, 1, 0},
                        {3, 1, 1, 1, 0, 1, 0},
                        {3, 1, 1, 1, 1, 0, 0},
                        {3, 1, 1, 0x10000, 0x10000, 1, 0},
                        {3, 1, 0x80000000u, 1, 1, 1, 0},
                        {3, 1, 1, 1, 1, 1, 1},
                        {3, 1, 1, 1, 1, 1, 0}};
  for (const auto& c : cases) {
    Graph g;
    auto t = fb::Create_XNNNodeConv(g.fbb, 1, 1, 1, 1, c.kernel, c.kernel, c.stride, c.stride,
                                    c.dilation, c.dilation, c.in_ch, c.out_ch, c.groups, c.adjust,
                                    0, 0, 0, 0xffffffffu, 0, 0);
    g.nodes.push_back(fb::CreateXNode(g.fbb, fb::XNodeUnion::XNNConv2d, t.Union()));
    const auto b = g.finish();
    EXPECT_EQ(parse_payload(b.data(), b.size()).error(), Error::InvalidProgram)
        << c.kernel << " " << c.stride << " " << c.dilation << " " << c.groups;
  }
}

// Parses a one-node graph: Error::Ok or what parse_payload answered.
Error parse_status(Graph& g, fb::XNodeUnion type, flatbuffers::Offset<void> table) {
  g.nodes.push_back(fb::CreateXNode(g.fbb, type, table, 5));
  const auto b = g.finish();
  auto p = parse_payload(b.data(), b.size());
  return p.ok() ? Error::Ok : p.error();
}

// Pooling windows: zero or one-element windows, zero strides and
// dilations, overflowing dilated windows, padding as large as the window,
// a padded input smaller than it, flags, and shapes off the input's
// (value 0 is 1x4x4x2, value 1 1x2x2x2, value 2 1x2x2x3, value 3 2x3).
TEST_F(HostileTest, BadPooling) {
  struct Case {
    uint32_t pad, pool_h, pool_w, stride, dilation, out, flags;
  };
  const Case bad[] = {
      {0, 0, 2, 2, 1, 1, 0},   {0, 2, 0, 2, 1, 1, 0}, {0, 1, 1, 1, 1, 1, 0},
      {0, 2, 2, 0, 1, 1, 0},   {0, 2, 2, 2, 0, 1, 0}, {0, 3, 3, 1, 0x80000000u, 1, 0},
      {2, 2, 2, 2, 1, 1, 0},   {0, 5, 5, 1, 1, 1, 0}, {0, 2, 2, 2, 1, 1, 0x10},
      {1, 2, 2, 2, 1, 1, 0x4}, {0, 2, 2, 2, 1, 2, 0}, {0, 2, 2, 2, 1, 3, 0}};
  for (auto type : {fb::XNodeUnion::XNNMaxPooling2d, fb::XNodeUnion::XNNAvgPooling2d}) {
    for (const auto& c : bad) {
      Graph g;
      g.dims = {1, 4, 4, 2};
      g.more = {{1, 2, 2, 2}, {1, 2, 2, 3}, {2, 3}};
      auto t =
          fb::Create_XNNPooling2D(g.fbb, c.pad, c.pad, c.pad, c.pad, c.pool_h, c.pool_w, c.stride,
                                  c.stride, c.dilation, c.dilation, 0, c.out, c.flags);
      const Error e = parse_status(g, type, t.Union());
      // Average pooling has no dilation: those cases are valid for it.
      const bool dilation_only = type == fb::XNodeUnion::XNNAvgPooling2d && c.dilation != 1;
      if (!dilation_only) {
        EXPECT_EQ(e, Error::InvalidProgram)
            << fb::EnumNameXNodeUnion(type) << " pad " << c.pad << " pool " << c.pool_h << "x"
            << c.pool_w << " stride " << c.stride << " dilation " << c.dilation;
      }
    }
    // The window upstream's exporter writes for MaxPool2d(2) (with its
    // KEEP_DIMS flag), and one padded 3x3/2 as resnet's.
    for (uint32_t pad : {0u, 1u}) {
      Graph g;
      g.dims = {1, 4, 4, 2};
      g.more = {{1, 2, 2, 2}};
      auto t = fb::Create_XNNPooling2D(g.fbb, pad, pad, pad, pad, 2 + pad, 2 + pad, 2, 2, 1, 1, 0,
                                       1, 0x40);
      EXPECT_EQ(parse_status(g, type, t.Union()), Error::Ok) << fb::EnumNameXNodeUnion(type);
    }
  }
}

// Global average pooling: the output must be the input with its two
// spatial dims set to 1 (KEEP_DIMS) or dropped; at least 3 dims.
TEST_F(HostileTest, BadGlobalPooling) {
  struct Case {
    std::vector<uint32_t> in, out;
    uint32_t flags;
    Error want;
  };
  const Case cases[] = {{{1, 4, 4, 2}, {1, 1, 1, 2}, 0x40, Error::Ok},
                        {{1, 4, 4, 2}, {1, 2}, 0, Error::Ok},
                        {{1, 4, 4, 2}, {1, 1, 1, 3}, 0x40, Error::InvalidProgram},
                        {{1, 4, 4, 2}, {1, 2, 2, 2}, 0x40, Error::InvalidProgram},
                        {{1, 4, 4, 2}, {1, 1, 1, 2}, 0, Error::InvalidProgram},
                        {{1, 4, 4, 2}, {1, 1, 1, 2}, 0x44, Error::InvalidProgram},
                        {{4, 2}, {1, 2}, 0x40, Error::InvalidProgram}};
  for (const auto& c : cases) {
    Graph g;
    g.dims = c.in;
    g.more = {c.out};
    auto t = fb::Create_XNNNode1x1(g.fbb, 0, 1, c.flags);
    EXPECT_EQ(parse_status(g, fb::XNodeUnion::XNNGlobalAvgPooling2d, t.Union()), c.want)
        << c.in.size() << " -> " << c.out.size() << " flags " << c.flags;
  }
}

// Concatenations: the axis below the rank, every input of the output's rank
// and its dims off the axis, sizes along the axis adding up
// (value 0 is 2x3, 1 2x4, 2 2x7, 3 3x3, 4 2x3x1, 5 2x10).
TEST_F(HostileTest, BadConcatenation) {
  struct Case {
    fb::XNodeUnion type;
    uint32_t axis, in1, in2, in3, out, flags;
    Error want;
  };
  const auto c2 = fb::XNodeUnion::XNNConcatenate2;
  const auto c3 = fb::XNodeUnion::XNNConcatenate3;
  const Case cases[] = {{c2, 1, 0, 1, 0, 2, 0, Error::Ok},
                        {c3, 1, 0, 1, 0, 5, 0, Error::Ok},
                        {c2, 2, 0, 1, 0, 2, 0, Error::InvalidProgram},
                        {c2, 0xffffffffu, 0, 1, 0, 2, 0, Error::InvalidProgram},
                        {c2, 0, 0, 1, 0, 2, 0, Error::InvalidProgram},
                        {c2, 1, 0, 0, 0, 2, 0, Error::InvalidProgram},
                        {c2, 1, 0, 3, 0, 2, 0, Error::InvalidProgram},
                        {c2, 1, 0, 4, 0, 2, 0, Error::InvalidProgram},
                        {c3, 1, 0, 1, 1, 5, 0, Error::InvalidProgram},
                        {c2, 1, 0, 1, 0, 2, 0x1, Error::InvalidProgram}};
  for (const auto& c : cases) {
    Graph g;
    g.more = {{2, 4}, {2, 7}, {3, 3}, {2, 3, 1}, {2, 10}};
    auto t = fb::Create_XNNCat(g.fbb, c.axis, c.in1, c.in2, c.in3, 0, c.out, c.flags, 0);
    EXPECT_EQ(parse_status(g, c.type, t.Union()), c.want)
        << fb::EnumNameXNodeUnion(c.type) << " axis " << c.axis << " " << c.in1 << "," << c.in2
        << "," << c.in3 << " -> " << c.out;
  }
}

// Reshapes: the element count kept, at most one inferred (0) dim that
// divides it, the output's dims new_shape's (value 0 is 2x3, 1 3x2, 2 6).
TEST_F(HostileTest, BadReshape) {
  struct Case {
    std::vector<uint32_t> shape;
    uint32_t out, flags;
    Error want;
  };
  const Case cases[] = {{{3, 2}, 1, 0, Error::Ok},
                        {{0, 2}, 1, 0, Error::Ok},
                        {{6}, 2, 0, Error::Ok},
                        {{0}, 2, 0, Error::Ok},
                        {{0, 0}, 1, 0, Error::InvalidProgram},
                        {{4, 0}, 1, 0, Error::InvalidProgram},
                        {{4, 2}, 1, 0, Error::InvalidProgram},
                        {{3, 2}, 2, 0, Error::InvalidProgram},
                        {{6}, 1, 0, Error::InvalidProgram},
                        {{0xffffffffu, 0xffffffffu, 0xffffffffu}, 1, 0, Error::InvalidProgram},
                        {{0xffffffffu, 0xffffffffu, 0}, 1, 0, Error::InvalidProgram},
                        {{3, 2}, 1, 0x1, Error::InvalidProgram}};
  for (const auto& c : cases) {
    Graph g;
    g.more = {{3, 2}, {6}};
    auto t = fb::CreateXNNStaticReshapeDirect(g.fbb, static_cast<uint32_t>(c.shape.size()),
                                              &c.shape, 0, c.out, c.flags);
    EXPECT_EQ(parse_status(g, fb::XNodeUnion::XNNStaticReshape, t.Union()), c.want)
        << c.shape.size() << " dims -> " << c.out;
  }
  Graph g; // num_dims that is not the list's length
  const std::vector<uint32_t> shape{3, 2};
  auto t = fb::CreateXNNStaticReshapeDirect(g.fbb, 3, &shape, 0, 0, 0);
  EXPECT_EQ(parse_status(g, fb::XNodeUnion::XNNStaticReshape, t.Union()), Error::InvalidProgram);
}

// Constant pads: one padding per dim of the input and output, which must
// be the input padded (value 0 is 2x3, value 1 4x5).
TEST_F(HostileTest, BadConstantPad) {
  struct Case {
    std::vector<uint32_t> pre, post;
    uint32_t flags;
    Error want;
  };
  const Case cases[] = {{{1, 1}, {1, 1}, 0, Error::Ok},
                        {{2, 0}, {0, 2}, 0, Error::Ok},
                        {{1}, {1}, 0, Error::InvalidProgram},
                        {{1, 1}, {1}, 0, Error::InvalidProgram},
                        {{1, 1}, {1, 2}, 0, Error::InvalidProgram},
                        {{0xffffffffu, 1}, {0xffffffffu, 1}, 0, Error::InvalidProgram},
                        {{1, 1, 0, 0, 0, 0, 0}, {1, 1, 0, 0, 0, 0, 0}, 0, Error::InvalidProgram},
                        {{1, 1}, {1, 1}, 0x1, Error::InvalidProgram}};
  for (const auto& c : cases) {
    Graph g;
    g.more = {{4, 5}};
    auto t = fb::CreateXNNStaticConstantPadDirect(g.fbb, &c.pre, &c.post, 0.5f, 0, 1, c.flags);
    EXPECT_EQ(parse_status(g, fb::XNodeUnion::XNNStaticConstantPad, t.Union()), c.want)
        << c.pre.size() << "/" << c.post.size();
  }
}

// Element-wise hardswish, sigmoid and softmax: the output has the input's
// shape, softmax needs at least one dim, no flags (value 1 is 3x2).
TEST_F(HostileTest, BadElementwiseUnary) {
  for (auto type :
       {fb::XNodeUnion::XNNHardswish, fb::XNodeUnion::XNNSigmoid, fb::XNodeUnion::XNNSoftmax}) {
    for (uint32_t flags : {0u, 0x1u}) {
      Graph g;
      g.more = {{3, 2}};
      auto t = fb::Create_XNNNode1x1(g.fbb, 0, flags == 0 ? 1 : 0, flags);
      EXPECT_EQ(parse_status(g, type, t.Union()), Error::InvalidProgram)
          << fb::EnumNameXNodeUnion(type) << " flags " << flags;
    }
    Graph g;
    g.dims = {};
    auto t = fb::Create_XNNNode1x1(g.fbb, 0, 0, 0);
    EXPECT_EQ(parse_status(g, type, t.Union()),
              type == fb::XNodeUnion::XNNSoftmax ? Error::InvalidProgram : Error::Ok)
        << fb::EnumNameXNodeUnion(type) << " on a scalar";
  }
}

// The FlatBuffer of a header payload misaligned inside the caller's buffer
// is still read (from an aligned copy).
TEST_F(HostileTest, MisalignedBlob) {
  const auto blob = xnnpack_test::read_fixture("conv.bin");
  std::vector<uint8_t> shifted(blob.size() + 1);
  std::memcpy(shifted.data() + 1, blob.data(), blob.size());
  EXPECT_TRUE(parse_payload(shifted.data() + 1, blob.size()).ok());
}

// A dynamically quantized linear graph built here, as upstream's exporter
// lays it out: fp32 input 0 [2, 64] -> Convert -> qdint8 value 1 ->
// FullyConnected with the quantized filter 2 (named constant 1, scales
// inline or in named constant 2) -> fp32 output 3 [2, 32].
struct QuantGraph {
  fb::XNNDatatype filter_type = fb::XNNDatatype::xnn_datatype_qbint4;
  fb::XNNQuantParams params = fb::XNNQuantParams::PerChannelGroupQuant;
  std::vector<uint32_t> filter_dims{32, 64};
  uint32_t filter_constant = 1;
  uint64_t filter_bytes = 32 * 32;
  int32_t channel_dim = 0;
  int32_t group_size = 32;
  std::vector<float> scales = std::vector<float>(64, 0.01f); // inline
  uint32_t scale_buffer = 0;
  uint32_t num_scales = 0;
  uint64_t scale_bytes = 0;
  fb::XNNDatatype dyn_type = fb::XNNDatatype::xnn_datatype_qdint8;
  fb::XNNQuantParams dyn_params = fb::XNNQuantParams::PerTokenDynamicQuant;
  std::vector<uint32_t> dyn_dims{2, 64};
  int32_t nonbatch = 1;
  uint32_t dyn_flags = 0;
  float tensor_scale = 0.5f; // dyn_params PerTensorQuant
  int32_t zero_point = 0;
  uint32_t fc_flags = 0;

  flatbuffers::Offset<fb::XValue> fp32(flatbuffers::FlatBufferBuilder& fbb,
                                       std::vector<uint32_t> dims, uint32_t ext, uint32_t flags,
                                       uint32_t id) {
    auto t = fb::CreateXNNTensorValueDirect(fbb, fb::XNNDatatype::xnn_datatype_fp32,
                                            static_cast<uint32_t>(dims.size()), &dims, 0, ext,
                                            flags, id);
    return fb::CreateXValue(fbb, fb::XValueUnion::XNNTensorValue, t.Union());
  }
  flatbuffers::Offset<fb::XValue> quantized(flatbuffers::FlatBufferBuilder& fbb,
                                            fb::XNNDatatype type, std::vector<uint32_t> dims,
                                            uint32_t constant, uint32_t flags, uint32_t id,
                                            fb::XNNQuantParams kind) {
    auto t = fb::CreateXNNTensorValueDirect(fbb, type, static_cast<uint32_t>(dims.size()), &dims,
                                            constant, 0xffffffffu, flags, id);
    flatbuffers::Offset<void> q;
    switch (kind) {
      case fb::XNNQuantParams::PerChannelGroupQuant:
        q = fb::CreatePerChannelGroupQuantDirect(fbb, &scales, channel_dim, group_size,
                                                 scale_buffer, num_scales)
                .Union();
        break;
      case fb::XNNQuantParams::PerChannelQuant:
        q = fb::CreatePerChannelQuantDirect(fbb, &scales, channel_dim, scale_buffer, num_scales)
                .Union();
        break;
      case fb::XNNQuantParams::PerTensorQuant:
        q = fb::CreatePerTensorQuant(fbb, tensor_scale, zero_point).Union();
        break;
      default:
        q = fb::CreatePerTokenDynamicQuant(fbb, nonbatch).Union();
        break;
    }
    auto v = fb::CreateXNNQuantizedTensorValue(fbb, t, kind, q);
    return fb::CreateXValue(fbb, fb::XValueUnion::XNNQuantizedTensorValue, v.Union());
  }
  Error parse() {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fb::XValue>> values{
        fp32(fbb, {2, 64}, 0, 1, 0),
        quantized(fbb, dyn_type, dyn_dims, 0, dyn_flags, 1, dyn_params),
        quantized(fbb, filter_type, filter_dims, filter_constant, 0, 2, params),
        fp32(fbb, {2, 32}, 1, 2, 3)};
    std::vector<flatbuffers::Offset<fb::ConstantDataOffset>> constants{
        fb::CreateConstantDataOffsetDirect(fbb, 0, 0, nullptr),
        fb::CreateConstantDataOffsetDirect(fbb, UINT64_MAX, filter_bytes, "w"),
        fb::CreateConstantDataOffsetDirect(fbb, UINT64_MAX, scale_bytes, "s")};
    std::vector<flatbuffers::Offset<fb::XNode>> nodes{
        fb::CreateXNode(fbb, fb::XNodeUnion::XNNConvert,
                        fb::Create_XNNNode1x1(fbb, 0, 1, 0).Union(), 1),
        fb::CreateXNode(fbb, fb::XNodeUnion::XNNFullyConnected,
                        fb::CreateXNNFullyConnected(fbb, 1, 2, 0xffffffffu, 3, fc_flags).Union(),
                        2)};
    std::vector<uint32_t> inputs{0};
    std::vector<uint32_t> outputs{3};
    auto g = fb::CreateXNNGraphDirect(fbb, "1", &nodes, &values, 2, &inputs, &outputs, nullptr,
                                      nullptr, &constants);
    fbb.Finish(g, "XN01");
    auto p = parse_payload(fbb.GetBufferPointer(), fbb.GetSize());
    return p.ok() ? Error::Ok : p.error();
  }
};

// Per-channel quantization of a filter, scales inline or in a constant.
QuantGraph per_channel(fb::XNNDatatype type, bool scale_constant) {
  QuantGraph g;
  g.filter_type = type;
  g.params = fb::XNNQuantParams::PerChannelQuant;
  g.filter_bytes = type == fb::XNNDatatype::xnn_datatype_qcint4 ? 32 * 32 : 32 * 64;
  g.scales = std::vector<float>(32, 0.02f);
  if (scale_constant) {
    g.scales.clear();
    g.scale_buffer = 2;
    g.num_scales = 32;
    g.scale_bytes = 32 * 4;
  }
  return g;
}

// Blockwise (qbint4, group 32) with 64 bf16 scales in a constant.
QuantGraph blockwise_constant() {
  QuantGraph g;
  g.scales.clear();
  g.scale_buffer = 2;
  g.num_scales = 64;
  g.scale_bytes = 64 * 2;
  return g;
}

TEST_F(HostileTest, QuantizedLinearGraphsParse) {
  EXPECT_EQ(QuantGraph().parse(), Error::Ok);
  EXPECT_EQ(blockwise_constant().parse(), Error::Ok);
  for (auto type : {fb::XNNDatatype::xnn_datatype_qcint8, fb::XNNDatatype::xnn_datatype_qcint4}) {
    EXPECT_EQ(per_channel(type, false).parse(), Error::Ok) << fb::EnumNameXNNDatatype(type);
    EXPECT_EQ(per_channel(type, true).parse(), Error::Ok) << fb::EnumNameXNNDatatype(type);
  }
}

// Block sizes and scale counts that would have XNNPACK read past the
// scales, divide by zero or reject the filter only when packing it.
TEST_F(HostileTest, BadBlockwiseQuantization) {
  struct Case {
    const char* what;
    void (*change)(QuantGraph&);
  };
  const Case cases[] = {
      {"group 0", [](QuantGraph& g) { g.group_size = 0; }},
      {"group 16", [](QuantGraph& g) { g.group_size = 16; }},
      {"group 96 (does not divide 64)", [](QuantGraph& g) { g.group_size = 96; }},
      {"group -32", [](QuantGraph& g) { g.group_size = -32; }},
      {"63 inline scales", [](QuantGraph& g) { g.scales.resize(63, 0.01f); }},
      {"65 inline scales", [](QuantGraph& g) { g.scales.resize(65, 0.01f); }},
      {"a zero scale", [](QuantGraph& g) { g.scales[5] = 0; }},
      {"a negative scale", [](QuantGraph& g) { g.scales[0] = -0.01f; }},
      {"a NaN scale",
       [](QuantGraph& g) { g.scales[63] = std::numeric_limits<float>::quiet_NaN(); }},
      {"an infinite scale",
       [](QuantGraph& g) { g.scales[1] = std::numeric_limits<float>::infinity(); }},
      {"a denormal scale", [](QuantGraph& g) { g.scales[2] = 1e-40f; }},
      {"num_scales 63", [](QuantGraph& g) { g = blockwise_constant(), g.num_scales = 63; }},
      {"a scale constant of 127 bytes",
       [](QuantGraph& g) { g = blockwise_constant(), g.scale_bytes = 127; }},
      {"a scale constant of fp32 scales",
       [](QuantGraph& g) { g = blockwise_constant(), g.scale_bytes = 256; }},
      {"scales inline and in a constant",
       [](QuantGraph& g) { g.scale_buffer = 2, g.num_scales = 64, g.scale_bytes = 128; }},
      {"scale constant 3 of 3",
       [](QuantGraph& g) { g = blockwise_constant(), g.scale_buffer = 3; }},
      {"channel dim 1", [](QuantGraph& g) { g.channel_dim = 1; }},
      {"channel dim -1", [](QuantGraph& g) { g.channel_dim = -1; }},
      {"a 3-d filter",
       [](QuantGraph& g) {
         g.filter_dims = {32, 64, 1};
       }},
      {"transposed weights",
       [](QuantGraph& g) {
         g.filter_dims = {64, 32}, g.fc_flags = 1;
       }},
      {"on qcint4", [](QuantGraph& g) { g.filter_type = fb::XNNDatatype::xnn_datatype_qcint4; }},
      {"not a constant", [](QuantGraph& g) { g.filter_constant = 0; }},
      {"filter bytes 1023", [](QuantGraph& g) { g.filter_bytes = 1023; }},
  };
  for (const auto& c : cases) {
    QuantGraph g;
    c.change(g);
    EXPECT_EQ(g.parse(), Error::InvalidProgram) << c.what;
  }
}

TEST_F(HostileTest, BadPerChannelQuantization) {
  using T = fb::XNNDatatype;
  struct Case {
    const char* what;
    void (*change)(QuantGraph&);
  };
  const Case cases[] = {
      {"31 scales", [](QuantGraph& g) { g.scales.resize(31); }},
      {"33 scales", [](QuantGraph& g) { g.scales.resize(33, 0.02f); }},
      {"a zero scale", [](QuantGraph& g) { g.scales[31] = 0; }},
      {"a NaN scale", [](QuantGraph& g) { g.scales[0] = std::numeric_limits<float>::quiet_NaN(); }},
      {"channel dim 2 of 2", [](QuantGraph& g) { g.channel_dim = 2; }},
      {"channel dim -1", [](QuantGraph& g) { g.channel_dim = -1; }},
      {"scales along the input channels",
       [](QuantGraph& g) { g.channel_dim = 1, g.scales.resize(64, 0.02f); }},
      {"num_scales 31",
       [](QuantGraph& g) { g = per_channel(T::xnn_datatype_qcint8, true), g.num_scales = 31; }},
      {"a scale constant of 124 bytes",
       [](QuantGraph& g) { g = per_channel(T::xnn_datatype_qcint8, true), g.scale_bytes = 124; }},
      {"on qbint4",
       [](QuantGraph& g) { g.filter_type = T::xnn_datatype_qbint4, g.filter_bytes = 1024; }},
      {"on qint8", [](QuantGraph& g) { g.filter_type = T::xnn_datatype_qint8; }},
      {"filter bytes 2047", [](QuantGraph& g) { g.filter_bytes = 2047; }},
      {"not a constant", [](QuantGraph& g) { g.filter_constant = 0; }},
  };
  for (const auto& c : cases) {
    QuantGraph g = per_channel(T::xnn_datatype_qcint8, false);
    c.change(g);
    EXPECT_EQ(g.parse(), Error::InvalidProgram) << c.what;
  }
}

// The dynamically quantized activation and its Convert node.
TEST_F(HostileTest, BadDynamicQuantization) {
  using T = fb::XNNDatatype;
  struct Case {
    const char* what;
    void (*change)(QuantGraph&);
  };
  const Case cases[] = {
      {"num_nonbatch_dims 3 of 2", [](QuantGraph& g) { g.nonbatch = 3; }},
      {"num_nonbatch_dims -1", [](QuantGraph& g) { g.nonbatch = -1; }},
      {"qint8", [](QuantGraph& g) { g.dyn_type = T::xnn_datatype_qint8; }},
      {"fp32", [](QuantGraph& g) { g.dyn_type = T::xnn_datatype_fp32; }},
      {"external", [](QuantGraph& g) { g.dyn_flags = 1; }},
      {"a convert that reshapes",
       [](QuantGraph& g) {
         g.dyn_dims = {1, 128};
       }},
      {"per-tensor zero point 200",
       [](QuantGraph& g) {
         g.dyn_type = T::xnn_datatype_qint8, g.dyn_params = fb::XNNQuantParams::PerTensorQuant,
         g.zero_point = 200;
       }},
      {"per-tensor scale 0",
       [](QuantGraph& g) {
         g.dyn_type = T::xnn_datatype_qint8, g.dyn_params = fb::XNNQuantParams::PerTensorQuant,
         g.tensor_scale = 0;
       }},
  };
  for (const auto& c : cases) {
    QuantGraph g;
    c.change(g);
    EXPECT_EQ(g.parse(), Error::InvalidProgram) << c.what;
  }
  QuantGraph g; // static per-tensor parameters: read (BadStaticQuantization checks them)
  g.dyn_type = T::xnn_datatype_qint8;
  g.dyn_params = fb::XNNQuantParams::PerTensorQuant;
  g.zero_point = -3;
  EXPECT_EQ(g.parse(), Error::Ok);
}

// Statically quantized values: a qint8 activation per tensor (zero point
// in [-128, 127], a positive normal scale), a qint32 one (zero point 0),
// and qcint32 biases per channel (one scale per channel, a constant).
TEST_F(HostileTest, BadStaticQuantization) {
  using T = fb::XNNDatatype;
  struct Case {
    const char* what;
    void (*change)(QuantGraph&);
  };
  const Case cases[] = {
      {"zero point -129", [](QuantGraph& g) { g.zero_point = -129; }},
      {"zero point 128", [](QuantGraph& g) { g.zero_point = 128; }},
      {"scale -0.5", [](QuantGraph& g) { g.tensor_scale = -0.5f; }},
      {"a NaN scale",
       [](QuantGraph& g) { g.tensor_scale = std::numeric_limits<float>::quiet_NaN(); }},
      {"an infinite scale",
       [](QuantGraph& g) { g.tensor_scale = std::numeric_limits<float>::infinity(); }},
      {"a denormal scale", [](QuantGraph& g) { g.tensor_scale = 1e-40f; }},
      {"qint32 with zero point 1",
       [](QuantGraph& g) { g.dyn_type = T::xnn_datatype_qint32, g.zero_point = 1; }},
      {"per-tensor qcint8", [](QuantGraph& g) { g.dyn_type = T::xnn_datatype_qcint8; }},
      {"per-tensor fp32", [](QuantGraph& g) { g.dyn_type = T::xnn_datatype_fp32; }},
      {"qcint32 with 31 scales",
       [](QuantGraph& g) { g.filter_type = T::xnn_datatype_qcint32, g.scales.resize(31); }},
      {"qcint32 with a zero scale",
       [](QuantGraph& g) { g.filter_type = T::xnn_datatype_qcint32, g.scales[3] = 0; }},
      {"qcint32 along dim 2 of 2",
       [](QuantGraph& g) { g.filter_type = T::xnn_datatype_qcint32, g.channel_dim = 2; }},
      {"qcint32 not a constant",
       [](QuantGraph& g) { g.filter_type = T::xnn_datatype_qcint32, g.filter_constant = 0; }},
      {"qcint32 of 8191 bytes",
       [](QuantGraph& g) {
         g.filter_type = T::xnn_datatype_qcint32, g.filter_bytes = 32 * 64 * 4 - 1;
       }},
  };
  for (const auto& c : cases) {
    QuantGraph g = per_channel(T::xnn_datatype_qcint8, false);
    g.dyn_type = T::xnn_datatype_qint8;
    g.dyn_params = fb::XNNQuantParams::PerTensorQuant;
    ASSERT_EQ(g.parse(), Error::Ok);
    c.change(g);
    EXPECT_EQ(g.parse(), Error::InvalidProgram) << c.what;
  }
  QuantGraph g = per_channel(T::xnn_datatype_qcint8, false); // qcint32 of the right size reads
  g.filter_type = T::xnn_datatype_qcint32;
  g.filter_bytes = 32 * 64 * 4;
  EXPECT_EQ(g.parse(), Error::Ok);
}

} // namespace
