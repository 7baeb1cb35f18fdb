// The graph's values: tensor descriptions, quantization kinds and the
// constant each one points at.
#pragma once

#include <executorch/runtime/core/error.h>

#include "payload.h"
#include "xnnpack_graph_generated.h"

namespace xnnpack_payload {

// Fills `out` from a verified value; checks the datatypes, the dims and the
// quantization parameters' constant indices (against `num_constants`).
executorch::runtime::Error read_value(const fb::XValue& value, size_t num_constants, Value& out);

// The bytes a constant of `value`'s type and dims must have (`exact`), or at
// least have (4-bit types; packed types give 0); false when the count
// overflows.
bool constant_bytes(const Value& value, uint64_t& bytes, bool& exact);

} // namespace xnnpack_payload
