// The value ids each kind of XNNPACK node reads and writes.
#pragma once

#include <executorch/runtime/core/error.h>

#include "payload.h"
#include "xnnpack_graph_generated.h"

namespace xnnpack_payload {

// Fills `out` (type, name, inputs, outputs) from a verified node; fails on an
// unknown or empty union member or a shape list longer than kMaxDims. The
// ids are not yet checked against the values.
executorch::runtime::Error read_node(const fb::XNode& node, Node& out);

} // namespace xnnpack_payload
