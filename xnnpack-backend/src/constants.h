// The graph's constant table: inline buffers (no header) or entries that
// point into the header's constant region or at named data.
#pragma once

#include <vector>

#include <executorch/runtime/core/error.h>

#include "header.h"
#include "payload.h"
#include "xnnpack_graph_generated.h"

namespace xnnpack_payload {

// Fills `out` from `graph`: constant_data when present, else the inline
// constant_buffer; every region entry must lie inside `region`.
executorch::runtime::Error read_constants(const fb::XNNGraph& graph, ByteSpan region,
                                          std::vector<Constant>& out);

// Checks that each constant value's index is in range and that its constant
// has the size the value's type and dims imply.
executorch::runtime::Error check_constant_values(const std::vector<Value>& values,
                                                 const std::vector<Constant>& constants);

} // namespace xnnpack_payload
