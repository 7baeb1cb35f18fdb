// The graph's values: tensor descriptions, quantization kinds and the
// constant each one points at.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

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

// Whether `value` is of datatype `type`.
inline bool is_type(const Value& value, fb::XNNDatatype type) {
  return value.datatype == static_cast<int16_t>(type);
}

// The values by id, sorted, for value_of.
using ValueIndex = std::vector<std::pair<uint32_t, const Value*>>;

ValueIndex index_values(const Payload& payload);

// Value `id` (check_ids has shown that it exists, once).
const Value& value_of(const ValueIndex& index, uint32_t id);

} // namespace xnnpack_payload
