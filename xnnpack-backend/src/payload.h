// A validated description of upstream ExecuTorch's XNNPACK delegate payload
// (the `processed` blob of a "XnnpackBackend" delegate): the XH00 header, the
// XN00/XN01 FlatBuffer graph and where each constant lies. parse_payload()
// reads untrusted bytes: every offset, size, index and id is checked before
// it is used, and nothing of the input is kept except pointers to constant
// bytes inside it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <executorch/runtime/core/result.h>

namespace xnnpack_payload {

// XNNPACK's "no value" id (XNN_INVALID_VALUE_ID), e.g. a missing bias.
constexpr uint32_t kInvalidValueId = 0xFFFFFFFFu;
// XNNPACK's XNN_MAX_TENSOR_DIMS: no value or shape has more dimensions.
constexpr uint32_t kMaxDims = 6;
// The header's value of a constant's offset that means "in named data".
constexpr uint64_t kNamedDataOffset = UINT64_MAX;

enum class QuantKind { kNone, kPerChannel, kPerTensor, kPerTokenDynamic, kPerChannelGroup };

struct Value {
  uint32_t id = 0; // the id nodes and the graph's input/output lists use
  uint32_t external_id = kInvalidValueId;
  uint32_t flags = 0;
  int16_t datatype = 0;    // xnn_datatype
  int16_t dq_datatype = 0; // 0 unless quantized at run time
  std::vector<uint32_t> dims;
  uint32_t constant_index = 0; // 0: not a constant
  QuantKind quant = QuantKind::kNone;
  // The quantization (quant.h checks each against the dims and type).
  int32_t zero_point = 0;         // kPerTensor
  float scale = 0;                // kPerTensor
  uint32_t channel_dim = 0;       // kPerChannel, kPerChannelGroup
  uint32_t group_size = 0;        // kPerChannelGroup: elements per scale
  uint32_t num_nonbatch_dims = 0; // kPerTokenDynamic
  std::vector<float> scales;      // inline scales (fp32)
  uint32_t scale_constant = 0;    // the constant holding the scales; 0: inline
  uint32_t num_scales = 0;        // the scales that constant holds
};

// The geometry of a convolution node (Conv2d, DepthwiseConv2d,
// ConvTranspose2d), as XNNPACK's xnn_define_* take it.
struct ConvParams {
  uint32_t padding_top = 0, padding_right = 0, padding_bottom = 0, padding_left = 0;
  uint32_t kernel_height = 0, kernel_width = 0;
  uint32_t stride_height = 0, stride_width = 0; // the schema's subsampling_*
  uint32_t dilation_height = 0, dilation_width = 0;
  uint32_t groups = 0, group_input_channels = 0, group_output_channels = 0;
  uint32_t adjustment_height = 0, adjustment_width = 0; // transposed only
};

// The window of a pooling node (AvgPooling2d, MaxPooling2d).
struct PoolParams {
  uint32_t padding_top = 0, padding_right = 0, padding_bottom = 0, padding_left = 0;
  uint32_t pooling_height = 0, pooling_width = 0;
  uint32_t stride_height = 0, stride_width = 0;
  uint32_t dilation_height = 1, dilation_width = 1; // max pooling only
};

struct Node {
  uint8_t type = 0;              // the XNodeUnion tag
  const char* type_name = "";    // its name in the schema, e.g. "XNNAdd"
  std::vector<uint32_t> inputs;  // value ids (a missing bias is left out)
  std::vector<uint32_t> outputs; // value ids
  uint32_t debug_handle = 0;
  // The parameters (params.h): the node's flags, its output clamp (-inf,
  // +inf without one; never NaN, min <= max), and what its kind has.
  uint32_t flags = 0;
  float output_min = 0;
  float output_max = 0;
  bool has_bias = false;                             // fully connected and convolutions
  ConvParams conv;                                   // convolutions
  std::vector<uint32_t> perm;                        // XNNStaticTranspose: a permutation of 0..n-1
  PoolParams pool;                                   // AvgPooling2d, MaxPooling2d
  uint32_t axis = 0;                                 // XNNConcatenate*: < the output's rank
  std::vector<uint32_t> new_shape;                   // XNNStaticReshape (a 0: the one inferred dim)
  std::vector<uint32_t> pre_paddings, post_paddings; // XNNStaticConstantPad
  float padding_value = 0;                           // XNNStaticConstantPad
};

enum class ConstantSource { kInline, kRegion, kNamed };

struct Constant {
  ConstantSource source = ConstantSource::kInline;
  const uint8_t* data = nullptr; // in the blob; null for kNamed
  uint64_t size = 0;
  std::string named_key; // kNamed only
};

struct Payload {
  bool has_header = false; // false: a bare FlatBuffer (oldest format)
  std::string identifier;  // "XN00" or "XN01"
  uint32_t num_externs = 0;
  std::vector<Value> values;
  std::vector<Node> nodes;
  std::vector<uint32_t> input_ids;
  std::vector<uint32_t> output_ids;
  std::vector<Constant> constants; // index 0 is the reserved "not constant"
  // A copy of the FlatBuffer when the blob's was not 8-byte aligned (inline
  // constants then point into it).
  std::vector<uint64_t> aligned_copy;
};

// Parses and checks `size` bytes at `data`; the constant pointers of the
// result point into them. Errors: InvalidProgram for a malformed payload,
// NotSupported for an unknown node or datatype.
executorch::runtime::Result<Payload> parse_payload(const void* data, size_t size);

} // namespace xnnpack_payload
