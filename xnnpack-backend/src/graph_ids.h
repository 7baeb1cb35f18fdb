// Cross-checks of the ids a graph uses: every id a node, the input list or
// the output list names is the id of one (and only one) value; the nodes,
// in order, read only what is an input, a constant or already written,
// and write every external output that is not an input.
#pragma once

#include <executorch/runtime/core/error.h>

#include "payload.h"

namespace xnnpack_payload {

executorch::runtime::Error check_ids(const Payload& payload);

} // namespace xnnpack_payload
