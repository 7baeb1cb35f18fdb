#include "params.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <executorch/runtime/platform/log.h>

#include "values.h"

namespace xnnpack_payload {

using executorch::runtime::Error;
using fb::XNodeUnion;

namespace {

template <typename T>
const T* as(const fb::XNode& node) {
  return static_cast<const T*>(node.xnode_union());
}

Error read_min_max(const fb::XNode& node, Node& out) {
  out.output_min = -std::numeric_limits<float>::infinity();
  out.output_max = std::numeric_limits<float>::infinity();
  const auto* mm = node.output_min_max();
  if (mm == nullptr) {
    return Error::Ok;
  }
  out.output_min = mm->output_min();
  out.output_max = mm->output_max();
  if (std::isnan(out.output_min) || std::isnan(out.output_max) ||
      !(out.output_min <= out.output_max)) {
    ET_LOG(Error, "XNNPACK payload: %s node %u has output range [%g, %g]", out.type_name,
           out.debug_handle, static_cast<double>(out.output_min),
           static_cast<double>(out.output_max));
    return Error::InvalidProgram;
  }
  return Error::Ok;
}

Error check_flags(const Node& out, uint32_t known) {
  if ((out.flags & ~known) != 0) {
    ET_LOG(Error, "XNNPACK payload: %s node %u has unknown flags 0x%x", out.type_name,
           out.debug_handle, out.flags & ~known);
    return Error::InvalidProgram;
  }
  return Error::Ok;
}

Error bad_conv(const Node& out, const char* what) {
  ET_LOG(Error, "XNNPACK payload: %s node %u has %s", out.type_name, out.debug_handle, what);
  return Error::InvalidProgram;
}

// The input extent a dilated window (kernel, dilation) spans.
uint64_t window_extent(uint32_t kernel, uint32_t dilation) {
  return static_cast<uint64_t>(dilation) * (kernel - 1) + 1;
}

// The window checks convolutions and pooling share (W: ConvParams or
// PoolParams; height and width the kernel's or the pooling window's): no
// zero size, stride or dilation, a dilated extent that fits in 32 bits, and
// never explicit padding with TensorFlow SAME padding.
template <typename W>
Error check_window(const Node& out, const W& w, uint32_t height, uint32_t width, const char* zero,
                   const char* overflow) {
  if (height == 0 || width == 0) {
    return bad_conv(out, zero);
  }
  if (w.stride_height == 0 || w.stride_width == 0) {
    return bad_conv(out, "a zero stride");
  }
  if (w.dilation_height == 0 || w.dilation_width == 0) {
    return bad_conv(out, "a zero dilation");
  }
  constexpr uint64_t kMax = std::numeric_limits<uint32_t>::max();
  if (window_extent(height, w.dilation_height) > kMax ||
      window_extent(width, w.dilation_width) > kMax) {
    return bad_conv(out, overflow);
  }
  if ((out.flags & kFlagTensorflowSamePadding) != 0 &&
      (w.padding_top | w.padding_right | w.padding_bottom | w.padding_left) != 0) {
    return bad_conv(out, "both explicit and TensorFlow SAME padding");
  }
  return Error::Ok;
}

// A flatbuffer list of uint32 (absent: empty) as a vector.
void copy_list(const flatbuffers::Vector<uint32_t>* v, std::vector<uint32_t>& to) {
  to.assign(v == nullptr ? nullptr : v->data(), v == nullptr ? nullptr : v->data() + v->size());
}

Error read_conv(const fb::_XNNNodeConv& t, bool transposed, Node& out) {
  ConvParams& c = out.conv;
  c = {t.padding_top(),
       t.padding_right(),
       t.padding_bottom(),
       t.padding_left(),
       t.kernel_height(),
       t.kernel_width(),
       t.subsampling_height(),
       t.subsampling_width(),
       t.dilation_height(),
       t.dilation_width(),
       t.groups(),
       t.group_input_channels(),
       t.group_output_channels(),
       t.adjustment_height(),
       t.adjustment_width()};
  out.flags = t.flags();
  out.has_bias = t.bias_id() != kInvalidValueId;
  const Error window = check_window(out, c, c.kernel_height, c.kernel_width, "a zero kernel size",
                                    "a dilated kernel that overflows");
  if (window != Error::Ok) {
    return window;
  }
  if (c.groups == 0 || c.group_input_channels == 0 || c.group_output_channels == 0) {
    return bad_conv(out, "a zero group or channel count");
  }
  uint32_t channels = 0;
  if (__builtin_mul_overflow(c.groups, c.group_input_channels, &channels) ||
      __builtin_mul_overflow(c.groups, c.group_output_channels, &channels)) {
    return bad_conv(out, "channel counts that overflow");
  }
  if (transposed ? (c.adjustment_height >= c.stride_height || c.adjustment_width >= c.stride_width)
                 : (c.adjustment_height != 0 || c.adjustment_width != 0)) {
    return bad_conv(out, "an output adjustment it cannot have");
  }
  return check_flags(out, transposed ? 0 : kFlagTensorflowSamePadding);
}

Error read_transpose(const fb::XNNStaticTranspose& t, Node& out) {
  out.flags = t.flags();
  // read_node has checked that perm holds num_dims (<= kMaxDims) entries.
  copy_list(t.perm(), out.perm);
  bool seen[kMaxDims] = {};
  for (uint32_t p : out.perm) {
    if (p >= out.perm.size() || seen[p]) {
      ET_LOG(Error, "XNNPACK payload: %s node %u: perm is not a permutation", out.type_name,
             out.debug_handle);
      return Error::InvalidProgram;
    }
    seen[p] = true;
  }
  return check_flags(out, 0);
}

Error read_pool(const fb::_XNNPooling2D& t, bool max_pool, Node& out) {
  PoolParams& w = out.pool;
  w = {t.padding_top(),
       t.padding_right(),
       t.padding_bottom(),
       t.padding_left(),
       t.pooling_height(),
       t.pooling_width(),
       t.stride_height(),
       t.stride_width(),
       1,
       1};
  if (max_pool) {
    w.dilation_height = t.dilation_height();
    w.dilation_width = t.dilation_width();
  }
  out.flags = t.flags();
  const Error window = check_window(out, w, w.pooling_height, w.pooling_width,
                                    "a zero pooling size", "a dilated window that overflows");
  if (window != Error::Ok) {
    return window;
  }
  // XNNPACK refuses a one-element window (it would be a copy).
  if (w.pooling_height == 1 && w.pooling_width == 1) {
    return bad_conv(out, "a 1x1 pooling window");
  }
  // Upstream's exporter sets KEEP_DIMS on pooling nodes; it changes nothing.
  return check_flags(out, kFlagTensorflowSamePadding | kFlagKeepDims);
}

Error read_reshape(const fb::XNNStaticReshape& t, Node& out) {
  out.flags = t.flags();
  // read_node has checked that new_shape holds num_dims (<= kMaxDims) entries.
  copy_list(t.new_shape(), out.new_shape);
  if (std::count(out.new_shape.begin(), out.new_shape.end(), 0u) > 1) {
    return bad_conv(out, "more than one dim to infer (0) in new_shape");
  }
  return check_flags(out, 0);
}

Error read_pad(const fb::XNNStaticConstantPad& t, Node& out) {
  out.flags = t.flags();
  // read_node has checked that both lists have one (<= kMaxDims) length.
  copy_list(t.pre_paddings(), out.pre_paddings);
  copy_list(t.post_paddings(), out.post_paddings);
  out.padding_value = t.padding_value();
  return check_flags(out, 0);
}

Error bad_shape(const Node& n, const char* what) {
  ET_LOG(Error, "XNNPACK payload: %s node %u: %s", n.type_name, n.debug_handle, what);
  return Error::InvalidProgram;
}

// The rank-1 bias of `channels` entries, when the node has one.
Error check_bias(const ValueIndex& p, const Node& n, uint32_t channels) {
  if (!n.has_bias) {
    return Error::Ok;
  }
  const Value& b = value_of(p, n.inputs.at(2));
  if (b.dims.size() != 1 || b.dims[0] != channels) {
    return bad_shape(n, "the bias does not have one entry per output channel");
  }
  return Error::Ok;
}

// A per-channel or blockwise filter has its scales along the output
// channels: dim 0, or 1 with transposed weights (XNNPACK's blockwise
// filters are never transposed).
Error check_quantized_filter(const Node& n, const Value& w, bool transposed) {
  if (w.quant != QuantKind::kPerChannel && w.quant != QuantKind::kPerChannelGroup) {
    return Error::Ok;
  }
  if (w.quant == QuantKind::kPerChannelGroup && transposed) {
    return bad_shape(n, "a blockwise filter with transposed weights");
  }
  if (w.channel_dim != (transposed ? 1u : 0u)) {
    return bad_shape(n, "the filter's scales are not along its output channels");
  }
  return Error::Ok;
}

Error check_fully_connected(const ValueIndex& p, const Node& n) {
  const Value& in = value_of(p, n.inputs[0]);
  const Value& w = value_of(p, n.inputs[1]);
  const Value& o = value_of(p, n.outputs[0]);
  if (w.dims.size() != 2 || in.dims.empty() || o.dims.empty()) {
    return bad_shape(n, "the filter is not 2-d or an operand is a scalar");
  }
  const bool t = (n.flags & kFlagTransposeWeights) != 0;
  const uint32_t in_ch = t ? w.dims[0] : w.dims[1];
  const uint32_t out_ch = t ? w.dims[1] : w.dims[0];
  if (in.dims.back() != in_ch || o.dims.back() != out_ch) {
    return bad_shape(n, "the filter's channels do not match the input or the output");
  }
  const Error e = check_quantized_filter(n, w, t);
  return e != Error::Ok ? e : check_bias(p, n, out_ch);
}

Error check_conv(const ValueIndex& p, const Node& n, bool depthwise) {
  const Value& in = value_of(p, n.inputs[0]);
  const Value& w = value_of(p, n.inputs[1]);
  const Value& o = value_of(p, n.outputs[0]);
  const ConvParams& c = n.conv;
  if (in.dims.size() != 4 || w.dims.size() != 4 || o.dims.size() != 4) {
    return bad_shape(n, "the input, filter and output are not all 4-d (NHWC)");
  }
  if (depthwise && c.group_input_channels != 1) {
    return bad_shape(n, "a depthwise convolution with more than one input channel per group");
  }
  // read_params has shown that these products fit.
  const uint32_t out_ch = c.groups * c.group_output_channels;
  const uint32_t in_ch = c.groups * c.group_input_channels;
  // Depthwise: filter [1, kh, kw, channels * multiplier], the input's
  // channels are the groups; else [out_ch, kh, kw, group_input_channels].
  const uint32_t expect[4] = {depthwise ? 1u : out_ch, c.kernel_height, c.kernel_width,
                              depthwise ? out_ch : c.group_input_channels};
  if (!std::equal(w.dims.begin(), w.dims.end(), expect)) {
    return bad_shape(n, "the filter's shape does not match the kernel and channels");
  }
  if (in.dims[3] != (depthwise ? c.groups : in_ch) || o.dims[3] != out_ch) {
    return bad_shape(n, "the input's or output's channels do not match the groups");
  }
  return check_bias(p, n, out_ch);
}

Error check_transpose(const ValueIndex& p, const Node& n) {
  const Value& in = value_of(p, n.inputs[0]);
  const Value& o = value_of(p, n.outputs[0]);
  if (in.dims.size() != n.perm.size() || o.dims.size() != n.perm.size()) {
    return bad_shape(n, "perm's length is not the input's and output's rank");
  }
  for (size_t i = 0; i < n.perm.size(); ++i) {
    if (o.dims[i] != in.dims[n.perm[i]]) {
      return bad_shape(n, "the output is not the input permuted");
    }
  }
  return Error::Ok;
}

Error check_pool(const ValueIndex& p, const Node& n) {
  const Value& in = value_of(p, n.inputs[0]);
  const Value& o = value_of(p, n.outputs[0]);
  if (in.dims.size() != 4 || o.dims.size() != 4) {
    return bad_shape(n, "the input and output are not both 4-d (NHWC)");
  }
  if (in.dims[0] != o.dims[0] || in.dims[3] != o.dims[3]) {
    return bad_shape(n, "the output's batch or channels differ from the input's");
  }
  const PoolParams& w = n.pool;
  const uint64_t kh = window_extent(w.pooling_height, w.dilation_height);
  const uint64_t kw = window_extent(w.pooling_width, w.dilation_width);
  // A window wholly in the padding would pool nothing.
  if (w.padding_top >= kh || w.padding_bottom >= kh || w.padding_left >= kw ||
      w.padding_right >= kw) {
    return bad_shape(n, "padding as large as the pooling window");
  }
  if ((n.flags & kFlagTensorflowSamePadding) == 0 &&
      (uint64_t{in.dims[1]} + w.padding_top + w.padding_bottom < kh ||
       uint64_t{in.dims[2]} + w.padding_left + w.padding_right < kw)) {
    return bad_shape(n, "the padded input is smaller than the pooling window");
  }
  return Error::Ok;
}

// Averages over the second- and third-innermost dims, which the output
// keeps as 1 (KEEP_DIMS) or drops.
Error check_global_pool(const ValueIndex& p, const Node& n) {
  const Value& in = value_of(p, n.inputs[0]);
  const Value& o = value_of(p, n.outputs[0]);
  const size_t r = in.dims.size();
  if (r < 3) {
    return bad_shape(n, "the input has fewer than 3 dims");
  }
  std::vector<uint32_t> expect(in.dims);
  if ((n.flags & kFlagKeepDims) != 0) {
    expect[r - 3] = expect[r - 2] = 1;
  } else {
    expect.erase(expect.begin() + (r - 3), expect.begin() + (r - 1));
  }
  if (o.dims != expect) {
    return bad_shape(n, "the output is not the input with its spatial dims pooled");
  }
  return Error::Ok;
}

Error check_concat(const ValueIndex& p, const Node& n) {
  const Value& o = value_of(p, n.outputs[0]);
  if (n.axis >= o.dims.size()) {
    return bad_shape(n, "the axis is not below the output's rank");
  }
  uint64_t along = 0;
  for (uint32_t id : n.inputs) {
    const Value& in = value_of(p, id);
    if (in.dims.size() != o.dims.size()) {
      return bad_shape(n, "an input's rank is not the output's");
    }
    for (size_t d = 0; d < o.dims.size(); ++d) {
      if (d != n.axis && in.dims[d] != o.dims[d]) {
        return bad_shape(n, "an input differs from the output off the axis");
      }
    }
    along += in.dims[n.axis]; // at most 5 * 2^32: no overflow
  }
  if (along != o.dims[n.axis]) {
    return bad_shape(n, "the inputs' sizes along the axis do not add up to the output's");
  }
  return Error::Ok;
}

// The product of `dims`, false if it overflows.
bool element_count(const std::vector<uint32_t>& dims, uint64_t& count) {
  count = 1;
  for (uint32_t d : dims) {
    if (__builtin_mul_overflow(count, uint64_t{d}, &count)) {
      return false;
    }
  }
  return true;
}

Error check_reshape(const ValueIndex& p, const Node& n) {
  const Value& in = value_of(p, n.inputs[0]);
  const Value& o = value_of(p, n.outputs[0]);
  uint64_t count = 0;
  uint64_t known = 0;
  std::vector<uint32_t> zero_free(n.new_shape);
  zero_free.erase(std::remove(zero_free.begin(), zero_free.end(), 0u), zero_free.end());
  if (!element_count(in.dims, count) || !element_count(zero_free, known)) {
    return bad_shape(n, "an element count overflows");
  }
  std::vector<uint32_t> expect(n.new_shape);
  const auto inferred = std::find(expect.begin(), expect.end(), 0u);
  if (inferred != expect.end()) {
    if (known == 0 || count % known != 0 || count / known > std::numeric_limits<uint32_t>::max()) {
      return bad_shape(n, "no whole dim can be inferred for new_shape");
    }
    *inferred = static_cast<uint32_t>(count / known);
  } else if (known != count) {
    return bad_shape(n, "new_shape does not have the input's element count");
  }
  if (o.dims != expect) {
    return bad_shape(n, "the output's dims are not new_shape");
  }
  return Error::Ok;
}

Error check_pad(const ValueIndex& p, const Node& n) {
  const Value& in = value_of(p, n.inputs[0]);
  const Value& o = value_of(p, n.outputs[0]);
  const size_t r = n.pre_paddings.size();
  if (in.dims.size() != r || o.dims.size() != r) {
    return bad_shape(n, "the paddings' length is not the input's and output's rank");
  }
  for (size_t d = 0; d < r; ++d) {
    if (uint64_t{n.pre_paddings[d]} + in.dims[d] + n.post_paddings[d] != o.dims[d]) {
      return bad_shape(n, "the output is not the input padded");
    }
  }
  return Error::Ok;
}

// Element-wise unary operators: the output has the input's shape.
Error check_same_shape(const ValueIndex& p, const Node& n, size_t min_rank) {
  const Value& in = value_of(p, n.inputs[0]);
  const Value& o = value_of(p, n.outputs[0]);
  if (in.dims != o.dims || in.dims.size() < min_rank) {
    return bad_shape(n, min_rank == 0 ? "the output's shape is not the input's"
                                      : "the output's shape is not the input's, or a scalar");
  }
  return Error::Ok;
}

} // namespace

Error read_params(const fb::XNode& node, Node& out) {
  const Error e = read_min_max(node, out);
  if (e != Error::Ok) {
    return e;
  }
  switch (node.xnode_union_type()) {
    case XNodeUnion::XNNFullyConnected: {
      const auto* t = as<fb::XNNFullyConnected>(node);
      out.flags = t->flags();
      out.has_bias = t->bias_id() != kInvalidValueId;
      return check_flags(out, kFlagTransposeWeights);
    }
    case XNodeUnion::XNNConv2d:
    case XNodeUnion::XNNDepthwiseConv2d:
      return read_conv(*as<fb::_XNNNodeConv>(node), false, out);
    case XNodeUnion::XNNConvTranspose2d:
      return read_conv(*as<fb::_XNNNodeConv>(node), true, out);
    case XNodeUnion::XNNStaticTranspose:
      return read_transpose(*as<fb::XNNStaticTranspose>(node), out);
    case XNodeUnion::XNNAdd:
      out.flags = as<fb::_XNNNode2x1>(node)->flags();
      return check_flags(out, 0);
    case XNodeUnion::XNNClamp:
    case XNodeUnion::XNNHardswish:
    case XNodeUnion::XNNSigmoid:
    case XNodeUnion::XNNSoftmax:
    case XNodeUnion::XNNConvert:
      out.flags = as<fb::_XNNNode1x1>(node)->flags();
      return check_flags(out, 0);
    case XNodeUnion::XNNGlobalAvgPooling2d:
      out.flags = as<fb::_XNNNode1x1>(node)->flags();
      return check_flags(out, kFlagKeepDims);
    case XNodeUnion::XNNAvgPooling2d:
      return read_pool(*as<fb::_XNNPooling2D>(node), false, out);
    case XNodeUnion::XNNMaxPooling2d:
      return read_pool(*as<fb::_XNNPooling2D>(node), true, out);
    case XNodeUnion::XNNConcatenate2:
    case XNodeUnion::XNNConcatenate3:
    case XNodeUnion::XNNConcatenate4:
    case XNodeUnion::XNNConcatenate5: {
      const auto* t = as<fb::_XNNCat>(node);
      out.flags = t->flags();
      out.axis = t->axis();
      return check_flags(out, 0);
    }
    case XNodeUnion::XNNStaticReshape:
      return read_reshape(*as<fb::XNNStaticReshape>(node), out);
    case XNodeUnion::XNNStaticConstantPad:
      return read_pad(*as<fb::XNNStaticConstantPad>(node), out);
    default:
      // Kinds the backend does not define yet: their flags are not read.
      return Error::Ok;
  }
}

Error check_params(const Payload& payload) {
  const ValueIndex index = index_values(payload);
  for (const Node& n : payload.nodes) {
    Error e = Error::Ok;
    switch (static_cast<XNodeUnion>(n.type)) {
      case XNodeUnion::XNNFullyConnected:
        e = check_fully_connected(index, n);
        break;
      case XNodeUnion::XNNConv2d:
        e = check_conv(index, n, false);
        break;
      case XNodeUnion::XNNDepthwiseConv2d:
        e = check_conv(index, n, true);
        break;
      case XNodeUnion::XNNStaticTranspose:
        e = check_transpose(index, n);
        break;
      case XNodeUnion::XNNAvgPooling2d:
      case XNodeUnion::XNNMaxPooling2d:
        e = check_pool(index, n);
        break;
      case XNodeUnion::XNNGlobalAvgPooling2d:
        e = check_global_pool(index, n);
        break;
      case XNodeUnion::XNNConcatenate2:
      case XNodeUnion::XNNConcatenate3:
      case XNodeUnion::XNNConcatenate4:
      case XNodeUnion::XNNConcatenate5:
        e = check_concat(index, n);
        break;
      case XNodeUnion::XNNStaticReshape:
        e = check_reshape(index, n);
        break;
      case XNodeUnion::XNNStaticConstantPad:
        e = check_pad(index, n);
        break;
      case XNodeUnion::XNNHardswish:
      case XNodeUnion::XNNSigmoid:
      case XNodeUnion::XNNConvert:
        e = check_same_shape(index, n, 0);
        break;
      case XNodeUnion::XNNSoftmax:
        e = check_same_shape(index, n, 1);
        break;
      default:
        break;
    }
    if (e != Error::Ok) {
      return e;
    }
  }
  return Error::Ok;
}

} // namespace xnnpack_payload
