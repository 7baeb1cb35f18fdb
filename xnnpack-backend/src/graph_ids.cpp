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
  for (const Value& v : payload.values) {
    if (v.external_id != kInvalidValueId && v.external_id >= payload.num_externs) {
      ET_LOG(Error, "XNNPACK payload: value %u has external id %u of %u", v.id, v.external_id,
             payload.num_externs);
      return Error::InvalidProgram;
    }
  }
  return Error::Ok;
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
  return e == Error::Ok ? check_externs(payload) : e;
}

} // namespace xnnpack_payload
