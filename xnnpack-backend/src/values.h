// The graph's values: tensor descriptions, quantization kinds and the
// constant each one points at.
#pragma once

#include <executorch/runtime/core/error.h>

#include "payload.h"
#include "xnnpack_graph_generated.h"

namespace xnnpack_payload {

// Fills `out` from a verified value, its quantization parameters included;
// checks the datatypes, the dims, that channel dims, group sizes and
// num_nonbatch_dims are not negative, and the scales' constant indices
// (against `num_constants`). quant.h checks the parameters against the dims.
executorch::runtime::Error read_value(const fb::XValue& value, size_t num_constants, Value& out);

// The bytes a constant of `value`'s type and dims must have (`exact`), or at
// least have (4-bit types, each row of the innermost dim starting on a byte;
// packed types give 0); false when the count overflows.
bool constant_bytes(const Value& value, uint64_t& bytes, bool& exact);

} // namespace xnnpack_payload
