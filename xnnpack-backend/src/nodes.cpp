#include "nodes.h"

#include <executorch/runtime/platform/log.h>

#include "params.h"

namespace xnnpack_payload {

using executorch::runtime::Error;
using fb::XNodeUnion;

namespace {

template <typename T>
const T* as(const fb::XNode& node) {
  return static_cast<const T*>(node.xnode_union());
}

// The tables whose operands are input_id -> output_id.
template <typename T>
void unary(const T& t, Node& out) {
  out.inputs = {t.input_id()};
  out.outputs = {t.output_id()};
}

void binary(const fb::_XNNNode2x1& t, Node& out) {
  out.inputs = {t.input1_id(), t.input2_id()};
  out.outputs = {t.output_id()};
}

// Fully connected and the convolutions: the bias may be absent.
template <typename T>
void weighted(const T& t, Node& out) {
  out.inputs = {t.input1_id(), t.filter_id()};
  if (t.bias_id() != kInvalidValueId) {
    out.inputs.push_back(t.bias_id());
  }
  out.outputs = {t.output_id()};
}

void concat(const fb::_XNNCat& t, size_t n, Node& out) {
  const uint32_t ids[] = {t.input1_id(), t.input2_id(), t.input3_id(), t.input4_id(),
                          t.input5_id()};
  out.inputs.assign(ids, ids + n);
  out.outputs = {t.output_id()};
}

void attention(const fb::XNNScaledDotProductAttention& t, Node& out) {
  out.inputs = {t.query_id(), t.key_id(), t.value_id(), t.scale_id(), t.mask_id()};
  out.outputs = {t.output_id()};
}

void argmax(const fb::XNNArgMaxPooling2d& t, Node& out) {
  out.inputs = {t.input_id()};
  out.outputs = {t.output_value_id(), t.output_index_id()};
}

// A per-dimension list must hold at most kMaxDims entries and, where the
// table has num_dims, exactly that many.
bool dims_ok(const flatbuffers::Vector<uint32_t>* v, uint32_t num_dims) {
  const uint32_t n = v == nullptr ? 0 : v->size();
  return n <= kMaxDims && n == num_dims;
}

bool shapes_ok(const fb::XNode& node) {
  switch (node.xnode_union_type()) {
    case XNodeUnion::XNNStaticTranspose: {
      const auto* t = as<fb::XNNStaticTranspose>(node);
      return dims_ok(t->perm(), t->num_dims());
    }
    case XNodeUnion::XNNStaticReshape: {
      const auto* t = as<fb::XNNStaticReshape>(node);
      return dims_ok(t->new_shape(), t->num_dims());
    }
    case XNodeUnion::XNNStaticSlice: {
      const auto* t = as<fb::XNNStaticSlice>(node);
      return dims_ok(t->offsets(), t->num_dims()) && dims_ok(t->sizes(), t->num_dims());
    }
    case XNodeUnion::XNNStaticConstantPad: {
      const auto* t = as<fb::XNNStaticConstantPad>(node);
      const uint32_t n = t->pre_paddings() == nullptr ? 0 : t->pre_paddings()->size();
      return n <= kMaxDims && dims_ok(t->post_paddings(), n);
    }
    default:
      return true;
  }
}

// The members whose tables have one input_id and one output_id.
void read_unary(const fb::XNode& node, Node& out) {
  switch (node.xnode_union_type()) {
    case XNodeUnion::XNNStaticTranspose:
      unary(*as<fb::XNNStaticTranspose>(node), out);
      return;
    case XNodeUnion::XNNStaticResizeBilinear2D:
      unary(*as<fb::XNNStaticResizeBilinear2D>(node), out);
      return;
    case XNodeUnion::XNNStaticConstantPad:
      unary(*as<fb::XNNStaticConstantPad>(node), out);
      return;
    case XNodeUnion::XNNAvgPooling2d:
    case XNodeUnion::XNNMaxPooling2d:
      unary(*as<fb::_XNNPooling2D>(node), out);
      return;
    case XNodeUnion::XNNStaticReshape:
      unary(*as<fb::XNNStaticReshape>(node), out);
      return;
    case XNodeUnion::XNNStaticSlice:
      unary(*as<fb::XNNStaticSlice>(node), out);
      return;
    case XNodeUnion::XNNLeakyReLU:
      unary(*as<fb::XNNLeakyReLU>(node), out);
      return;
    case XNodeUnion::XNNELU:
      unary(*as<fb::XNNELU>(node), out);
      return;
    default:
      // Every other member of the union is a _XNNNode1x1.
      unary(*as<fb::_XNNNode1x1>(node), out);
      return;
  }
}

void read_operands(const fb::XNode& node, Node& out) {
  switch (node.xnode_union_type()) {
    case XNodeUnion::XNNAdd:
    case XNodeUnion::XNNDiv:
    case XNodeUnion::XNNMinimum:
    case XNodeUnion::XNNMaximum:
    case XNodeUnion::XNNMultiply:
    case XNodeUnion::XNNSubtract:
    case XNodeUnion::XNNPReLU:
    case XNodeUnion::XNNBatchMatrixMultiply:
      binary(*as<fb::_XNNNode2x1>(node), out);
      return;
    case XNodeUnion::XNNFullyConnected:
      weighted(*as<fb::XNNFullyConnected>(node), out);
      return;
    case XNodeUnion::XNNConv2d:
    case XNodeUnion::XNNDepthwiseConv2d:
    case XNodeUnion::XNNConvTranspose2d:
      weighted(*as<fb::_XNNNodeConv>(node), out);
      return;
    case XNodeUnion::XNNConcatenate2:
      concat(*as<fb::_XNNCat>(node), 2, out);
      return;
    case XNodeUnion::XNNConcatenate3:
      concat(*as<fb::_XNNCat>(node), 3, out);
      return;
    case XNodeUnion::XNNConcatenate4:
      concat(*as<fb::_XNNCat>(node), 4, out);
      return;
    case XNodeUnion::XNNConcatenate5:
      concat(*as<fb::_XNNCat>(node), 5, out);
      return;
    case XNodeUnion::XNNScaledDotProductAttention:
      attention(*as<fb::XNNScaledDotProductAttention>(node), out);
      return;
    case XNodeUnion::XNNArgMaxPooling2d:
      argmax(*as<fb::XNNArgMaxPooling2d>(node), out);
      return;
    default:
      read_unary(node, out);
      return;
  }
}

} // namespace

Error read_node(const fb::XNode& node, Node& out) {
  const XNodeUnion type = node.xnode_union_type();
  out.type = static_cast<uint8_t>(type);
  out.type_name = fb::EnumNameXNodeUnion(type);
  out.debug_handle = node.debug_handle();
  if (type == XNodeUnion::NONE || type > XNodeUnion::MAX) {
    ET_LOG(Error, "XNNPACK payload: node of unknown type %u", static_cast<unsigned>(out.type));
    return Error::NotSupported;
  }
  if (node.xnode_union() == nullptr) {
    ET_LOG(Error, "XNNPACK payload: %s node without its table", out.type_name);
    return Error::InvalidProgram;
  }
  if (!shapes_ok(node)) {
    ET_LOG(Error, "XNNPACK payload: %s node with a bad shape list", out.type_name);
    return Error::InvalidProgram;
  }
  read_operands(node, out);
  return read_params(node, out);
}

} // namespace xnnpack_payload
