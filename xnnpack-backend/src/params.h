// The parameters of the nodes the backend defines: output clamps, flags,
// convolution geometry and transpose permutations, each checked as read
// (read_params) and against the values the node uses (check_params).
#pragma once

#include <executorch/runtime/core/error.h>

#include "payload.h"
#include "xnnpack_graph_generated.h"

namespace xnnpack_payload {

// XNNPACK's node flags that payloads carry (xnnpack.h's values).
constexpr uint32_t kFlagTransposeWeights = 0x1;      // XNN_FLAG_TRANSPOSE_WEIGHTS
constexpr uint32_t kFlagTensorflowSamePadding = 0x4; // XNN_FLAG_TENSORFLOW_SAME_PADDING
constexpr uint32_t kFlagKeepDims = 0x40;             // XNN_FLAG_KEEP_DIMS

// Fills the parameter fields of `out` (whose type and operands read_node
// has set) from a verified node: the output clamp (no NaN, min <= max) and,
// for the kinds the backend defines, their flags (only those the kind
// knows) and geometry (no zero kernel, stride, dilation, group or channel
// count; pooling windows of more than one element; sizes that fit in 32
// bits; a permutation that is one; at most one inferred reshape dim).
executorch::runtime::Error read_params(const fb::XNode& node, Node& out);

// Checks the shapes of the values each such node uses against its
// parameters (ranks, channel counts, kernel sizes, permuted dims, pooled,
// padded, concatenated and reshaped dims, element-wise operands of one
// shape). Needs check_ids to have passed.
executorch::runtime::Error check_params(const Payload& payload);

} // namespace xnnpack_payload
