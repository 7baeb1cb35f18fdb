#include "graph_ids.h"

#include <algorithm>

#include <executorch/runtime/platform/log.h>

namespace xnnpack_payload {

using executorch::runtime::Error;

namespace {

// The values' ids, sorted; fails on a repeated id.
Error sorted_ids(const std::vector<Value>& values, std::vector<uint32_t>& ids) {
  ids.clear();
  ids.reserve(values.size());
  for (const Value& v : values) {
    ids.push_back(v.id);
  }
  std::sort(ids.begin(), ids.end());
  const auto dup = std::adjacent_find(ids.begin(), ids.end());
  if (dup != ids.end()) {
    ET_LOG(Error, "XNNPACK payload: two values have id %u", *dup);
    return Error::InvalidProgram;
  }
  return Error::Ok;
}

Error check_list(const std::vector<uint32_t>& ids, const std::vector<uint32_t>& list,
                 const char* what) {
  for (uint32_t id : list) {
    if (!std::binary_search(ids.begin(), ids.end(), id)) {
      ET_LOG(Error, "XNNPACK payload: %s names value %u, which does not exist", what, id);
      return Error::InvalidProgram;
    }
  }
  return Error::Ok;
}

Error check_externs(const Payload& payload) {
  // Each external id names one value; XNNPACK allocates num_externs slots
  // up front, so an unbounded count is an allocation the file chooses.
  if (payload.num_externs > payload.values.size()) {
    ET_LOG(Error, "XNNPACK payload: %u external values, but only %zu values", payload.num_externs,
           payload.values.size());
    return Error::InvalidProgram;
  }
  for (const Value& v : payload.values) {
    if (v.external_id != kInvalidValueId && v.external_id >= payload.num_externs) {
      ET_LOG(Error, "XNNPACK payload: value %u has external id %u of %u", v.id, v.external_id,
             payload.num_externs);
      return Error::InvalidProgram;
    }
  }
  return Error::Ok;
}

// XNNPACK's value flags (xnnpack.h's XNN_VALUE_FLAG_EXTERNAL_*).
constexpr uint32_t kExternalInput = 0x1;
constexpr uint32_t kExternalOutput = 0x2;

// Where value `id` is in the sorted ids (check_list has shown it is there):
// per-value flags are kept in vectors indexed by it.
size_t slot(const std::vector<uint32_t>& ids, uint32_t id) {
  return static_cast<size_t>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
}

// Every value a node writes is read by a node or is an external output.
// XNNPACK's subgraph optimizer aborts on some graphs with a node whose
// result nothing uses; exporters write none.
Error check_all_used(const Payload& payload, const std::vector<uint32_t>& ids) {
  std::vector<bool> used(ids.size(), false);
  for (const Value& v : payload.values) {
    if ((v.flags & kExternalOutput) != 0) {
      used[slot(ids, v.id)] = true;
    }
  }
  for (const Node& n : payload.nodes) {
    for (uint32_t id : n.inputs) {
      used[slot(ids, id)] = true;
    }
  }
  for (const Node& n : payload.nodes) {
    for (uint32_t id : n.outputs) {
      if (!used[slot(ids, id)]) {
        ET_LOG(Error, "XNNPACK payload: %s node %u writes value %u, which nothing uses",
               n.type_name, n.debug_handle, id);
        return Error::InvalidProgram;
      }
    }
  }
  return Error::Ok;
}

// Nodes in order: each reads only values that are inputs, constants or
// written by an earlier node; every external output is written or is an
// input. XNNPACK runs the nodes in this order and aborts on a graph output
// nothing produces.
Error check_dataflow(const Payload& payload, const std::vector<uint32_t>& ids) {
  std::vector<bool> ready(ids.size(), false);
  for (const Value& v : payload.values) {
    if ((v.flags & kExternalInput) != 0 || v.constant_index != 0) {
      ready[slot(ids, v.id)] = true;
    }
  }
  for (const Node& n : payload.nodes) {
    for (uint32_t id : n.inputs) {
      if (!ready[slot(ids, id)]) {
        ET_LOG(Error, "XNNPACK payload: %s node %u reads value %u before anything writes it",
               n.type_name, n.debug_handle, id);
        return Error::InvalidProgram;
      }
    }
    for (uint32_t id : n.outputs) {
      ready[slot(ids, id)] = true;
    }
  }
  for (const Value& v : payload.values) {
    if ((v.flags & kExternalOutput) != 0 && !ready[slot(ids, v.id)]) {
      ET_LOG(Error, "XNNPACK payload: output value %u is never written", v.id);
      return Error::InvalidProgram;
    }
  }
  return check_all_used(payload, ids);
}

} // namespace

Error check_ids(const Payload& payload) {
  std::vector<uint32_t> ids;
  Error e = sorted_ids(payload.values, ids);
  for (size_t i = 0; e == Error::Ok && i < payload.nodes.size(); ++i) {
    const Node& n = payload.nodes[i];
    e = check_list(ids, n.inputs, n.type_name);
    if (e == Error::Ok) {
      e = check_list(ids, n.outputs, n.type_name);
    }
  }
  if (e == Error::Ok) {
    e = check_list(ids, payload.input_ids, "the input list");
  }
  if (e == Error::Ok) {
    e = check_list(ids, payload.output_ids, "the output list");
  }
  if (e == Error::Ok) {
    e = check_externs(payload);
  }
  return e == Error::Ok ? check_dataflow(payload, ids) : e;
}

} // namespace xnnpack_payload
