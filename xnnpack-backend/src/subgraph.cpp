#include "subgraph.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include <executorch/runtime/platform/log.h>

#include "quant.h"
#include "values.h"
#include "xnnpack_graph_generated.h"

namespace xnnpack_backend {

using executorch::runtime::Error;
using executorch::runtime::FreeableBuffer;
using executorch::runtime::NamedDataMap;
using executorch::runtime::Result;
using xnnpack_payload::Constant;
using xnnpack_payload::ConstantSource;
using xnnpack_payload::Node;
using xnnpack_payload::Payload;
using xnnpack_payload::QuantKind;
using xnnpack_payload::Value;
using xnnpack_payload::ValueIndex;
using xnnpack_payload::is_type;
using xnnpack_payload::value_of;
using XNodeUnion = xnnpack_payload::fb::XNodeUnion;
using XNNDatatype = xnnpack_payload::fb::XNNDatatype;

namespace {

struct SubgraphDeleter {
  void operator()(xnn_subgraph_t s) const { xnn_delete_subgraph(s); }
};
using SubgraphPtr = std::unique_ptr<xnn_subgraph, SubgraphDeleter>;

// The payload's value ids and the ids XNNPACK gave them, sorted.
using IdMap = std::vector<std::pair<uint32_t, uint32_t>>;

uint32_t remap(const IdMap& ids, uint32_t id) {
  const auto it = std::lower_bound(ids.begin(), ids.end(), std::make_pair(id, 0u));
  return it != ids.end() && it->first == id ? it->second : XNN_INVALID_VALUE_ID;
}

bool is_binary(XNodeUnion t, xnn_binary_operator& op) {
  switch (t) {
    case XNodeUnion::XNNAdd:
      op = xnn_binary_add;
      return true;
    case XNodeUnion::XNNSubtract:
      op = xnn_binary_subtract;
      return true;
    case XNodeUnion::XNNMultiply:
      op = xnn_binary_multiply;
      return true;
    case XNodeUnion::XNNDiv:
      op = xnn_binary_divide;
      return true;
    case XNodeUnion::XNNMinimum:
      op = xnn_binary_minimum;
      return true;
    case XNodeUnion::XNNMaximum:
      op = xnn_binary_maximum;
      return true;
    default:
      return false;
  }
}

bool node_supported(XNodeUnion t) {
  xnn_binary_operator op;
  switch (t) {
    case XNodeUnion::XNNFullyConnected:
    case XNodeUnion::XNNConv2d:
    case XNodeUnion::XNNDepthwiseConv2d:
    case XNodeUnion::XNNClamp:
    case XNodeUnion::XNNStaticTranspose:
    case XNodeUnion::XNNGlobalAvgPooling2d:
    case XNodeUnion::XNNAvgPooling2d:
    case XNodeUnion::XNNMaxPooling2d:
    case XNodeUnion::XNNStaticReshape:
    case XNodeUnion::XNNConcatenate2:
    case XNodeUnion::XNNConcatenate3:
    case XNodeUnion::XNNConcatenate4:
    case XNodeUnion::XNNConcatenate5:
    case XNodeUnion::XNNHardswish:
    case XNodeUnion::XNNSigmoid:
    case XNodeUnion::XNNSoftmax:
    case XNodeUnion::XNNStaticConstantPad:
    case XNodeUnion::XNNConvert:
      return true;
    default:
      return is_binary(t, op);
  }
}

// What a value is to the builder: fp32, an activation XNNPACK quantizes at
// run time (qdint8), a per-channel or blockwise quantized filter, a
// statically quantized qint8 activation, a per-channel qcint32 bias, or
// something not supported yet.
enum class Operand { kFloat, kDynamic, kFilter, kStatic, kBias, kUnsupported };

// A qint8 value per tensor is an activation between two nodes: the backend
// passes only fp32 in and out, and upstream's static flow writes per-tensor
// quantized weights only with its per-tensor config.
Operand per_tensor_operand(const Value& v) {
  const bool inner =
      v.constant_index == 0 &&
      (v.flags & (XNN_VALUE_FLAG_EXTERNAL_INPUT | XNN_VALUE_FLAG_EXTERNAL_OUTPUT)) == 0;
  return inner && is_type(v, XNNDatatype::xnn_datatype_qint8) ? Operand::kStatic
                                                              : Operand::kUnsupported;
}

Operand operand_of(const Value& v) {
  if (v.dq_datatype != static_cast<int16_t>(XNNDatatype::xnn_datatype_invalid)) {
    return Operand::kUnsupported; // the oldest dynamic quantization flow
  }
  const auto t = static_cast<XNNDatatype>(v.datatype);
  switch (v.quant) {
    case QuantKind::kNone:
      return t == XNNDatatype::xnn_datatype_fp32 ? Operand::kFloat : Operand::kUnsupported;
    case QuantKind::kPerTokenDynamic:
      // qdint8 (the reader has checked); one scale per row, as fully
      // connected nodes read them: what upstream's exporter writes.
      return v.num_nonbatch_dims == 1 ? Operand::kDynamic : Operand::kUnsupported;
    case QuantKind::kPerTensor:
      return per_tensor_operand(v);
    case QuantKind::kPerChannel:
      if (is_type(v, XNNDatatype::xnn_datatype_qcint32)) {
        return Operand::kBias;
      }
      // 4-bit rows of an odd length: how XNNPACK packs their last half
      // byte is not checked here; upstream writes none (blockwise instead).
      return t == XNNDatatype::xnn_datatype_qcint8 ||
                     (t == XNNDatatype::xnn_datatype_qcint4 && v.dims.back() % 2 == 0)
                 ? Operand::kFilter
                 : Operand::kUnsupported;
    case QuantKind::kPerChannelGroup: // the reader has checked: qbint4
      return Operand::kFilter;
    default:
      return Operand::kUnsupported;
  }
}

// Why operand_of(v) is kUnsupported, for the log.
const char* unsupported_why(const Value& v) {
  if (v.dq_datatype != static_cast<int16_t>(XNNDatatype::xnn_datatype_invalid)) {
    return "quantized at run time through dq_datatype (upstream's oldest flow)";
  }
  switch (v.quant) {
    case QuantKind::kNone:
      return "not fp32 and without quantization parameters";
    case QuantKind::kPerTokenDynamic:
      return "quantized at run time, but not per row (num_nonbatch_dims is not 1)";
    case QuantKind::kPerChannel:
      return "per channel, but not qcint8, qcint32 or qcint4 with rows of an even length";
    case QuantKind::kPerTensor:
      return "statically quantized per tensor, but not a qint8 value between two nodes "
             "(a constant, a graph input or output, or another type)";
    default:
      return "quantized";
  }
}

Operand operand(const ValueIndex& index, uint32_t id) { return operand_of(value_of(index, id)); }

bool convert_supported(const ValueIndex& index, const Node& n) {
  const Operand in = operand(index, n.inputs[0]);
  const Operand out = operand(index, n.outputs[0]);
  return (in == Operand::kFloat && (out == Operand::kDynamic || out == Operand::kStatic)) ||
         (in == Operand::kStatic && out == Operand::kFloat);
}

// Statically quantized convolution or fully connected, as upstream's
// per-channel config writes it: qint8 input and output, a qcint8 filter
// quantized along its output channels (dim `out_dim`), and a qcint32 bias
// of one scale per output channel, or none.
bool static_weighted_supported(const ValueIndex& index, const Node& n, uint32_t out_dim) {
  const Value& filter = value_of(index, n.inputs[1]);
  if (operand(index, n.inputs[0]) != Operand::kStatic ||
      operand(index, n.outputs[0]) != Operand::kStatic ||
      !is_type(filter, XNNDatatype::xnn_datatype_qcint8) || filter.channel_dim != out_dim) {
    return false;
  }
  if (!n.has_bias) {
    return true;
  }
  const Value& bias = value_of(index, n.inputs[2]);
  return operand_of(bias) == Operand::kBias && bias.dims.size() == 1 &&
         bias.dims[0] == filter.dims[out_dim]; // the reader: out_dim < rank
}

// The node kinds defined on qint8 values alone.
bool static_kind(XNodeUnion t) {
  return t == XNodeUnion::XNNAdd || t == XNodeUnion::XNNStaticTranspose ||
         t == XNodeUnion::XNNStaticReshape || t == XNodeUnion::XNNMaxPooling2d;
}

bool all_static(const ValueIndex& index, const Node& n) {
  const auto is_static = [&](uint32_t id) { return operand(index, id) == Operand::kStatic; };
  return std::all_of(n.inputs.begin(), n.inputs.end(), is_static) &&
         std::all_of(n.outputs.begin(), n.outputs.end(), is_static);
}

// Nodes on statically quantized operands: convolutions and fully connected
// (filter quantized along dim 0, a depthwise one's along dim 3), and the
// kinds of static_kind.
bool static_supported(const ValueIndex& index, const Node& n) {
  const auto t = static_cast<XNodeUnion>(n.type);
  const bool transposed = (n.flags & XNN_FLAG_TRANSPOSE_WEIGHTS) != 0;
  switch (t) {
    case XNodeUnion::XNNConv2d:
      return static_weighted_supported(index, n, 0);
    case XNodeUnion::XNNDepthwiseConv2d:
      return static_weighted_supported(index, n, 3);
    case XNodeUnion::XNNFullyConnected:
      return static_weighted_supported(index, n, transposed ? 1 : 0);
    default:
      return static_kind(t) && all_static(index, n);
  }
}

// XNNPACK's qint8 add asserts that each input's scale over the output's
// is in [2^-10, 2^8).
Error check_add_scales(const ValueIndex& index, const Node& n, size_t i) {
  const Value& out = value_of(index, n.outputs[0]);
  for (const uint32_t id : n.inputs) {
    const float ratio = value_of(index, id).scale / out.scale;
    if (!(ratio >= 0x1.0p-10f && ratio < 0x1.0p+8f)) {
      ET_LOG(Error,
             "XnnpackBackend: node %zu (%s, debug handle %u): input %u's scale over the output's "
             "is %g, outside XNNPACK's [2^-10, 2^8)",
             i, n.type_name, n.debug_handle, id, static_cast<double>(ratio));
      return Error::InvalidProgram;
    }
  }
  return Error::Ok;
}

// The quantization XNNPACK needs of qint8 nodes: an add's scales
// (check_add_scales); transpose, reshape and max pooling move qint8 values
// without requantizing them, so their output quantized as their input.
Error check_static_params(const ValueIndex& index, const Node& n, size_t i) {
  const auto t = static_cast<XNodeUnion>(n.type);
  if (!static_kind(t) || operand(index, n.inputs[0]) != Operand::kStatic) {
    return Error::Ok;
  }
  if (t == XNodeUnion::XNNAdd) {
    return check_add_scales(index, n, i);
  }
  const Value& in = value_of(index, n.inputs[0]);
  const Value& out = value_of(index, n.outputs[0]);
  if (in.scale == out.scale && in.zero_point == out.zero_point) {
    return Error::Ok;
  }
  ET_LOG(Error,
         "XnnpackBackend: node %zu (%s, debug handle %u) has output scale %g, zero point %d; its "
         "input's are %g, %d: XNNPACK needs them equal here",
         i, n.type_name, n.debug_handle, static_cast<double>(out.scale), out.zero_point,
         static_cast<double>(in.scale), in.zero_point);
  return Error::InvalidProgram;
}

// The operand types each node kind is defined for: statically quantized
// ones (static_supported); fully connected on fp32, or on a dynamically
// quantized input with a quantized filter (fp32 bias and output); converts
// from fp32 to qdint8 or qint8 and from qint8 to fp32; every other kind on
// fp32.
bool operands_supported(const ValueIndex& index, const Node& n) {
  const auto t = static_cast<XNodeUnion>(n.type);
  if (t == XNodeUnion::XNNConvert) {
    return convert_supported(index, n);
  }
  if (operand(index, n.inputs[0]) == Operand::kStatic) {
    return static_supported(index, n);
  }
  size_t first_float = 0;
  if (t == XNodeUnion::XNNFullyConnected && operand(index, n.inputs[0]) == Operand::kDynamic) {
    if (operand(index, n.inputs[1]) != Operand::kFilter) {
      return false;
    }
    first_float = 2; // the bias, if any
  }
  for (size_t i = first_float; i < n.inputs.size(); ++i) {
    if (operand(index, n.inputs[i]) != Operand::kFloat) {
      return false;
    }
  }
  return operand(index, n.outputs[0]) == Operand::kFloat;
}

// Upstream's exporter's fp32 -> bf16 of inline block scales: scaled up by
// about 2^-8 then truncated, which rounds to nearest.
uint16_t to_bf16(float f) {
  const float adjusted = f * 1.00389105f;
  uint32_t bits;
  std::memcpy(&bits, &adjusted, sizeof bits);
  return static_cast<uint16_t>(bits >> 16);
}

Error bad_scale(const Value& v, size_t i, size_t n, float scale) {
  ET_LOG(Error, "XnnpackBackend: value %u's scale %zu of %zu is %g, not positive and normal", v.id,
         i, n, static_cast<double>(scale));
  return Error::InvalidProgram;
}

// Per-channel scales, fp32, from the payload or their constant.
Error channel_scales(const Value& v, const std::vector<const void*>& data,
                     std::vector<float>& out) {
  if (v.scale_constant == 0) {
    out = v.scales;
  } else {
    out.resize(v.num_scales); // the reader has matched it to the constant's size
    std::memcpy(out.data(), data[v.scale_constant], out.size() * sizeof(float));
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (!xnnpack_payload::valid_scale(out[i])) {
      return bad_scale(v, i, out.size(), out[i]);
    }
  }
  return Error::Ok;
}

// Blockwise scales as XNNPACK takes them, bf16: a constant's as they are,
// inline fp32 ones converted.
Error block_scales(const Value& v, const std::vector<const void*>& data,
                   std::vector<uint16_t>& out) {
  if (v.scale_constant == 0) {
    out.resize(v.scales.size());
    std::transform(v.scales.begin(), v.scales.end(), out.begin(), to_bf16);
  } else {
    out.resize(v.num_scales);
    std::memcpy(out.data(), data[v.scale_constant], out.size() * sizeof(uint16_t));
  }
  for (size_t i = 0; i < out.size(); ++i) {
    const float f = xnnpack_payload::bf16_to_float(out[i]);
    if (!xnnpack_payload::valid_scale(f)) {
      return bad_scale(v, i, out.size(), f);
    }
  }
  return Error::Ok;
}

// The scales a quantized filter needs, kept in `store` (XNNPACK reads them
// when it packs the filter); null for other values.
Error prepare_scales(const Value& v, const std::vector<const void*>& data, ConstantStore& store,
                     const void*& scales) {
  scales = nullptr;
  if (v.quant == QuantKind::kPerChannel) {
    store.scales.emplace_back();
    const Error e = channel_scales(v, data, store.scales.back());
    scales = store.scales.back().data();
    return e;
  }
  if (v.quant == QuantKind::kPerChannelGroup) {
    store.bf16_scales.emplace_back();
    const Error e = block_scales(v, data, store.bf16_scales.back());
    scales = store.bf16_scales.back().data();
    return e;
  }
  return Error::Ok;
}

// XNNPACK's datatype of a filter's payload datatype: the payload's enum
// numbers differ from this XNNPACK's (qbint4: 10 there, 12 here).
xnn_datatype xnn_type(int16_t payload_type) {
  switch (static_cast<XNNDatatype>(payload_type)) {
    case XNNDatatype::xnn_datatype_qint8:
      return xnn_datatype_qint8;
    case XNNDatatype::xnn_datatype_qcint8:
      return xnn_datatype_qcint8;
    case XNNDatatype::xnn_datatype_qcint32:
      return xnn_datatype_qcint32;
    case XNNDatatype::xnn_datatype_qcint4:
      return xnn_datatype_qcint4;
    case XNNDatatype::xnn_datatype_qbint4:
      return xnn_datatype_qbint4;
    default:
      return xnn_datatype_fp32; // operand_of has ruled out the rest
  }
}

// One value: fp32, dynamically quantized (never external, so XNNPACK gives
// it an internal id), a qint8 activation, or a per-channel or blockwise filter (upstream's
// zero point: 8 for the 4-bit types, whose nibbles are unsigned, else 0).
xnn_status define_value(xnn_subgraph_t sg, const Value& v, const void* data, const void* scales,
                        uint32_t& id) {
  size_t dims[xnnpack_payload::kMaxDims];
  std::copy(v.dims.begin(), v.dims.end(), dims);
  const xnn_datatype type = xnn_type(v.datatype);
  const int32_t zero_point = type == xnn_datatype_qcint4 || type == xnn_datatype_qbint4 ? 8 : 0;
  switch (v.quant) {
    case QuantKind::kPerTokenDynamic:
      return xnn_define_dynamically_quantized_tensor_value(sg, xnn_datatype_qdint8, v.dims.size(),
                                                           v.num_nonbatch_dims, dims,
                                                           XNN_INVALID_VALUE_ID, 0, &id);
    case QuantKind::kPerTensor:
      return xnn_define_quantized_tensor_value(sg, type, v.zero_point, v.scale, v.dims.size(), dims,
                                               data, v.external_id, v.flags, &id);
    case QuantKind::kPerChannel:
      return xnn_define_channelwise_quantized_tensor_value_v2(
          sg, type, zero_point, static_cast<const float*>(scales), v.dims.size(), v.channel_dim,
          dims, data, v.external_id, v.flags, &id);
    case QuantKind::kPerChannelGroup:
      return xnn_define_blockwise_quantized_tensor_value(
          sg, type, zero_point, static_cast<const uint16_t*>(scales), v.dims.size(), v.channel_dim,
          v.group_size, dims, data, v.external_id, v.flags, &id);
    default:
      return xnn_define_tensor_value(sg, xnn_datatype_fp32, v.dims.size(), dims, data,
                                     v.external_id, v.flags, &id);
  }
}

Error define_values(xnn_subgraph_t sg, const Payload& p, const std::vector<const void*>& data,
                    IdMap& ids, Compiled& out) {
  ids.reserve(p.values.size());
  for (const Value& v : p.values) {
    const bool external =
        (v.flags & (XNN_VALUE_FLAG_EXTERNAL_INPUT | XNN_VALUE_FLAG_EXTERNAL_OUTPUT)) != 0;
    if (external && (v.constant_index != 0 || v.external_id == XNN_INVALID_VALUE_ID)) {
      ET_LOG(Error, "XnnpackBackend: value %u is external but %s", v.id,
             v.constant_index != 0 ? "constant" : "has no external id");
      return Error::InvalidProgram;
    }
    // An external id on a value that is neither input nor output would be
    // a run-time buffer nobody supplies.
    if (!external && v.external_id != XNN_INVALID_VALUE_ID) {
      ET_LOG(Error, "XnnpackBackend: value %u has external id %u but is no input or output", v.id,
             v.external_id);
      return Error::InvalidProgram;
    }
    uint32_t id = XNN_INVALID_VALUE_ID;
    const void* scales = nullptr;
    const Error e = prepare_scales(v, data, out.constants, scales);
    if (e != Error::Ok) {
      return e;
    }
    const xnn_status s = define_value(sg, v, data[v.constant_index], scales, id);
    if (s != xnn_status_success) {
      ET_LOG(Error, "XnnpackBackend: XNNPACK refused value %u: %s", v.id, status_name(s));
      return Error::InvalidProgram;
    }
    ids.emplace_back(v.id, id);
    if ((v.flags & XNN_VALUE_FLAG_EXTERNAL_INPUT) != 0) {
      out.input_ids.push_back(v.external_id);
    }
    if ((v.flags & XNN_VALUE_FLAG_EXTERNAL_OUTPUT) != 0) {
      out.output_ids.push_back(v.external_id);
    }
  }
  std::sort(ids.begin(), ids.end());
  std::sort(out.input_ids.begin(), out.input_ids.end());
  std::sort(out.output_ids.begin(), out.output_ids.end());
  // One value per external id (a value both input and output counts once).
  std::vector<uint32_t> all;
  for (const Value& v : p.values) {
    if (v.external_id != XNN_INVALID_VALUE_ID) {
      all.push_back(v.external_id);
    }
  }
  std::sort(all.begin(), all.end());
  const auto dup = std::adjacent_find(all.begin(), all.end());
  if (dup != all.end()) {
    ET_LOG(Error, "XnnpackBackend: two values have external id %u", *dup);
    return Error::InvalidProgram;
  }
  return Error::Ok;
}

xnn_status define_conv(xnn_subgraph_t sg, const Node& n, bool depthwise, uint32_t in, uint32_t w,
                       uint32_t b, uint32_t o) {
  const auto& c = n.conv;
  if (depthwise) {
    return xnn_define_depthwise_convolution_2d(
        sg, c.padding_top, c.padding_right, c.padding_bottom, c.padding_left, c.kernel_height,
        c.kernel_width, c.stride_height, c.stride_width, c.dilation_height, c.dilation_width,
        c.group_output_channels, c.groups, n.output_min, n.output_max, in, w, b, o, n.flags);
  }
  return xnn_define_convolution_2d(sg, c.padding_top, c.padding_right, c.padding_bottom,
                                   c.padding_left, c.kernel_height, c.kernel_width, c.stride_height,
                                   c.stride_width, c.dilation_height, c.dilation_width, c.groups,
                                   c.group_input_channels, c.group_output_channels, n.output_min,
                                   n.output_max, in, w, b, o, n.flags);
}

// Upstream's exporter sets KEEP_DIMS on pooling nodes, where it means
// nothing; XNNPACK's pooling nodes know only SAME padding.
constexpr uint32_t kPoolFlags = XNN_FLAG_TENSORFLOW_SAME_PADDING;

xnn_status define_pool(xnn_subgraph_t sg, const Node& n, bool max_pool, uint32_t in, uint32_t o) {
  const auto& w = n.pool;
  if (max_pool) {
    return xnn_define_max_pooling_2d(
        sg, w.padding_top, w.padding_right, w.padding_bottom, w.padding_left, w.pooling_height,
        w.pooling_width, w.stride_height, w.stride_width, w.dilation_height, w.dilation_width,
        n.output_min, n.output_max, in, o, n.flags & kPoolFlags);
  }
  return xnn_define_average_pooling_2d(sg, w.padding_top, w.padding_right, w.padding_bottom,
                                       w.padding_left, w.pooling_height, w.pooling_width,
                                       w.stride_height, w.stride_width, n.output_min, n.output_max,
                                       in, o, n.flags & kPoolFlags);
}

// Deprecated in this XNNPACK in favour of static_mean, but it is the node
// upstream's runtime defines (and the only one that takes an output clamp).
xnn_status define_global_pool(xnn_subgraph_t sg, const Node& n, uint32_t in, uint32_t o) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  return xnn_define_global_average_pooling_2d(sg, n.output_min, n.output_max, in, o, n.flags);
#pragma GCC diagnostic pop
}

xnn_status define_concat(xnn_subgraph_t sg, const Node& n, const IdMap& ids, uint32_t o) {
  uint32_t in[5];
  for (size_t i = 0; i < 5; ++i) {
    in[i] = i < n.inputs.size() ? remap(ids, n.inputs[i]) : XNN_INVALID_VALUE_ID;
  }
  // check_params has shown that the axis is below the rank (<= 6).
  const auto axis = static_cast<int32_t>(n.axis);
  switch (n.inputs.size()) {
    case 2:
      return xnn_define_concatenate2(sg, axis, in[0], in[1], o, n.flags);
    case 3:
      return xnn_define_concatenate3(sg, axis, in[0], in[1], in[2], o, n.flags);
    case 4:
      return xnn_define_concatenate4(sg, axis, in[0], in[1], in[2], in[3], o, n.flags);
    default:
      return xnn_define_concatenate5(sg, axis, in[0], in[1], in[2], in[3], in[4], o, n.flags);
  }
}

xnn_status define_reshape(xnn_subgraph_t sg, const Node& n, uint32_t in, uint32_t o) {
  size_t shape[xnnpack_payload::kMaxDims];
  std::copy(n.new_shape.begin(), n.new_shape.end(), shape);
  return xnn_define_static_reshape(sg, n.new_shape.size(), shape, in, o, n.flags);
}

xnn_status define_pad(xnn_subgraph_t sg, const Node& n, uint32_t in, uint32_t o) {
  size_t pre[xnnpack_payload::kMaxDims] = {};
  size_t post[xnnpack_payload::kMaxDims] = {};
  std::copy(n.pre_paddings.begin(), n.pre_paddings.end(), pre);
  std::copy(n.post_paddings.begin(), n.post_paddings.end(), post);
  return xnn_define_static_constant_pad(sg, pre, post, n.padding_value, in, o, n.flags);
}

// The nodes of one input and one output that take no weights.
xnn_status define_one_to_one(xnn_subgraph_t sg, const Node& n, uint32_t in, uint32_t o) {
  switch (static_cast<XNodeUnion>(n.type)) {
    case XNodeUnion::XNNClamp: {
      xnn_unary_params params;
      params.clamp.min = n.output_min;
      params.clamp.max = n.output_max;
      return xnn_define_unary(sg, xnn_unary_clamp, &params, in, o, n.flags);
    }
    // As upstream's runtime does, an output clamp on these is not applied.
    case XNodeUnion::XNNHardswish:
      return xnn_define_unary(sg, xnn_unary_hardswish, nullptr, in, o, n.flags);
    case XNodeUnion::XNNSigmoid:
      return xnn_define_unary(sg, xnn_unary_sigmoid, nullptr, in, o, n.flags);
    case XNodeUnion::XNNSoftmax:
      return xnn_define_softmax(sg, in, o, n.flags);
    case XNodeUnion::XNNStaticTranspose: {
      size_t perm[xnnpack_payload::kMaxDims];
      std::copy(n.perm.begin(), n.perm.end(), perm);
      return xnn_define_static_transpose(sg, n.perm.size(), perm, in, o, n.flags);
    }
    case XNodeUnion::XNNGlobalAvgPooling2d:
      return define_global_pool(sg, n, in, o);
    case XNodeUnion::XNNAvgPooling2d:
    case XNodeUnion::XNNMaxPooling2d:
      return define_pool(sg, n, n.type == static_cast<uint8_t>(XNodeUnion::XNNMaxPooling2d), in, o);
    case XNodeUnion::XNNStaticReshape:
      return define_reshape(sg, n, in, o);
    case XNodeUnion::XNNStaticConstantPad:
      return define_pad(sg, n, in, o);
    default:
      return xnn_status_unsupported_parameter; // check_supported has ruled this out
  }
}

xnn_status define_node(xnn_subgraph_t sg, const Node& n, const IdMap& ids) {
  const auto t = static_cast<XNodeUnion>(n.type);
  const uint32_t in = remap(ids, n.inputs.at(0));
  const uint32_t o = remap(ids, n.outputs.at(0));
  const uint32_t second = n.inputs.size() > 1 ? remap(ids, n.inputs[1]) : XNN_INVALID_VALUE_ID;
  const uint32_t bias = n.has_bias ? remap(ids, n.inputs.at(2)) : XNN_INVALID_VALUE_ID;
  xnn_binary_operator op;
  switch (t) {
    case XNodeUnion::XNNFullyConnected:
      return xnn_define_fully_connected(sg, n.output_min, n.output_max, in, second, bias, o,
                                        n.flags);
    case XNodeUnion::XNNConvert: // check_supported: fp32 -> qdint8 or qint8, qint8 -> fp32
      return xnn_define_unary(sg, xnn_unary_convert, nullptr, in, o, n.flags);
    case XNodeUnion::XNNConv2d:
    case XNodeUnion::XNNDepthwiseConv2d:
      return define_conv(sg, n, t == XNodeUnion::XNNDepthwiseConv2d, in, second, bias, o);
    case XNodeUnion::XNNConcatenate2:
    case XNodeUnion::XNNConcatenate3:
    case XNodeUnion::XNNConcatenate4:
    case XNodeUnion::XNNConcatenate5:
      return define_concat(sg, n, ids, o);
    default:
      if (is_binary(t, op)) {
        // No clamp: no parameters (XNNPACK then runs the plain operator).
        const bool clamped = !std::isinf(n.output_min) || !std::isinf(n.output_max);
        const xnn_binary_params params{n.output_min, n.output_max};
        return xnn_define_binary(sg, op, clamped ? &params : nullptr, in, second, o, n.flags);
      }
      return define_one_to_one(sg, n, in, o);
  }
}

// The bytes of constant `idx` (0: none), which value `id` uses.
Error resolve_constant(const Payload& p, uint32_t idx, uint32_t id, const NamedDataMap* named_data,
                       ConstantStore& store, std::vector<const void*>& data) {
  if (idx == 0 || data[idx] != nullptr) {
    return Error::Ok;
  }
  const Constant& c = p.constants[idx];
  if (c.source != ConstantSource::kNamed) {
    // A copy: the processed bytes may be freed once init returns.
    auto copy = std::make_unique<uint64_t[]>(c.size / 8 + 1);
    if (c.size != 0) {
      std::memcpy(copy.get(), c.data, c.size);
    }
    data[idx] = copy.get();
    store.copies.push_back(std::move(copy));
    return Error::Ok;
  }
  if (named_data == nullptr) {
    ET_LOG(Error, "XnnpackBackend: value %u's constant is named data, but the program has none",
           id);
    return Error::InvalidProgram;
  }
  Result<FreeableBuffer> buf = named_data->get_data(c.named_key);
  if (!buf.ok()) {
    ET_LOG(Error, "XnnpackBackend: value %u's constant '%s' is not in the named data", id,
           c.named_key.c_str());
    return buf.error();
  }
  if (buf->size() != c.size || (c.size != 0 && buf->data() == nullptr)) {
    ET_LOG(Error, "XnnpackBackend: named data '%s' has %zu bytes; value %u needs %llu",
           c.named_key.c_str(), buf->size(), id, static_cast<unsigned long long>(c.size));
    return Error::InvalidProgram;
  }
  data[idx] = buf->data();
  store.named.push_back(std::move(*buf));
  return Error::Ok;
}

// The bytes of each constant a value uses (its data or its scales), by
// constant index (0: none).
Error resolve_constants(const Payload& p, const NamedDataMap* named_data, ConstantStore& store,
                        std::vector<const void*>& data) {
  data.assign(p.constants.size() + 1, nullptr);
  for (const Value& v : p.values) {
    for (const uint32_t idx : {v.constant_index, v.scale_constant}) {
      const Error e = resolve_constant(p, idx, v.id, named_data, store, data);
      if (e != Error::Ok) {
        return e;
      }
    }
  }
  return Error::Ok;
}

} // namespace

const char* status_name(xnn_status status) {
  switch (status) {
    case xnn_status_success:
      return "success";
    case xnn_status_uninitialized:
      return "uninitialized";
    case xnn_status_invalid_parameter:
      return "invalid parameter";
    case xnn_status_invalid_state:
      return "invalid state";
    case xnn_status_unsupported_parameter:
      return "unsupported parameter";
    case xnn_status_unsupported_hardware:
      return "unsupported hardware";
    case xnn_status_out_of_memory:
      return "out of memory";
    default:
      return "unknown status";
  }
}

Error check_supported(const Payload& p) {
  for (const Value& v : p.values) {
    if (operand_of(v) == Operand::kUnsupported) {
      ET_LOG(Error, "XnnpackBackend: value %u (%s) is %s; not supported yet", v.id,
             xnnpack_payload::fb::EnumNameXNNDatatype(static_cast<XNNDatatype>(v.datatype)),
             unsupported_why(v));
      return Error::NotSupported;
    }
  }
  const ValueIndex index = xnnpack_payload::index_values(p);
  for (size_t i = 0; i < p.nodes.size(); ++i) {
    const Node& n = p.nodes[i];
    const bool kind = node_supported(static_cast<XNodeUnion>(n.type));
    if (!kind || !operands_supported(index, n)) {
      ET_LOG(Error, "XnnpackBackend: node %zu (%s, debug handle %u) is not supported yet%s", i,
             n.type_name, n.debug_handle, kind ? " on these operand types" : "");
      return Error::NotSupported;
    }
    const Error e = check_static_params(index, n, i);
    if (e != Error::Ok) {
      return e;
    }
  }
  return Error::Ok;
}

Result<Compiled> compile(const Payload& p, const NamedDataMap* named_data,
                         pthreadpool_t threadpool) {
  Error e = check_supported(p);
  if (e != Error::Ok) {
    return e;
  }
  Compiled out;
  std::vector<const void*> data;
  e = resolve_constants(p, named_data, out.constants, data);
  if (e != Error::Ok) {
    return e;
  }
  xnn_subgraph_t raw = nullptr;
  xnn_status s = xnn_create_subgraph(p.num_externs, 0, &raw);
  if (s != xnn_status_success) {
    ET_LOG(Error, "XnnpackBackend: xnn_create_subgraph: %s", status_name(s));
    return Error::Internal;
  }
  SubgraphPtr sg(raw);
  IdMap ids;
  e = define_values(sg.get(), p, data, ids, out);
  if (e != Error::Ok) {
    return e;
  }
  for (size_t i = 0; i < p.nodes.size(); ++i) {
    s = define_node(sg.get(), p.nodes[i], ids);
    if (s != xnn_status_success) {
      ET_LOG(Error, "XnnpackBackend: XNNPACK refused node %zu (%s, debug handle %u): %s", i,
             p.nodes[i].type_name, p.nodes[i].debug_handle, status_name(s));
      return Error::InvalidProgram;
    }
  }
  xnn_runtime_t rt = nullptr;
  s = xnn_create_runtime_v3(sg.get(), nullptr, threadpool, 0, &rt);
  if (s != xnn_status_success) {
    ET_LOG(Error, "XnnpackBackend: xnn_create_runtime: %s", status_name(s));
    return Error::Internal;
  }
  out.runtime.reset(rt);
  return out;
}

} // namespace xnnpack_backend
