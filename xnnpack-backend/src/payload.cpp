#include "payload.h"

#include <cstring>

#include <executorch/runtime/platform/log.h>

#include "constants.h"
#include "graph_ids.h"
#include "header.h"
#include "nodes.h"
#include "params.h"
#include "quant.h"
#include "values.h"
#include "xnnpack_graph_generated.h"

namespace xnnpack_payload {

using executorch::runtime::Error;
using executorch::runtime::Result;

namespace {

// Bounds for the Verifier: nesting is shallow in this schema (graph, node,
// table, vector), and no sane graph has a million tables.
constexpr flatbuffers::uoffset_t kMaxDepth = 16;
constexpr flatbuffers::uoffset_t kMaxTables = 1u << 20;

// The FlatBuffer, 8-byte aligned (its 64-bit fields are read in place).
ByteSpan aligned(ByteSpan fb, Payload& payload) {
  if (reinterpret_cast<uintptr_t>(fb.data) % alignof(uint64_t) == 0) {
    return fb;
  }
  payload.aligned_copy.resize((fb.size + 7) / 8);
  std::memcpy(payload.aligned_copy.data(), fb.data, fb.size);
  return {reinterpret_cast<const uint8_t*>(payload.aligned_copy.data()), fb.size};
}

// The identifier is checked here rather than by the Verifier: payloads carry
// XN00 or XN01 and both are read with the one schema.
Result<const fb::XNNGraph*> verify(ByteSpan fb, Payload& payload) {
  if (fb.size < 8 || fb.size >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    ET_LOG(Error, "XNNPACK payload: FlatBuffer of %zu bytes", fb.size);
    return Error::InvalidProgram;
  }
  const char* id = reinterpret_cast<const char*>(fb.data) + 4;
  if (std::memcmp(id, "XN00", 4) != 0 && std::memcmp(id, "XN01", 4) != 0) {
    ET_LOG(Error, "XNNPACK payload: identifier is not XN00 or XN01");
    return Error::InvalidProgram;
  }
  payload.identifier.assign(id, 4);
  flatbuffers::Verifier verifier(fb.data, fb.size, kMaxDepth, kMaxTables);
  if (!verifier.VerifyBuffer<fb::XNNGraph>(nullptr)) {
    ET_LOG(Error, "XNNPACK payload: the FlatBuffer does not verify");
    return Error::InvalidProgram;
  }
  return fb::GetXNNGraph(fb.data);
}

void read_id_list(const flatbuffers::Vector<uint32_t>* v, std::vector<uint32_t>& out) {
  if (v != nullptr) {
    out.assign(v->begin(), v->end());
  }
}

Error read_values(const fb::XNNGraph& graph, Payload& payload) {
  const auto* values = graph.xvalues();
  const uint32_t n = values == nullptr ? 0 : values->size();
  payload.values.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const Error e = read_value(*values->Get(i), payload.constants.size(), payload.values[i]);
    if (e != Error::Ok) {
      return e;
    }
  }
  const Error e = check_constant_values(payload.values, payload.constants);
  return e != Error::Ok ? e : check_quant_values(payload.values, payload.constants);
}

Error read_nodes(const fb::XNNGraph& graph, Payload& payload) {
  const auto* nodes = graph.xnodes();
  const uint32_t n = nodes == nullptr ? 0 : nodes->size();
  payload.nodes.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const Error e = read_node(*nodes->Get(i), payload.nodes[i]);
    if (e != Error::Ok) {
      return e;
    }
  }
  return Error::Ok;
}

Error read_graph(const fb::XNNGraph& graph, ByteSpan region, Payload& payload) {
  payload.num_externs = graph.num_externs();
  read_id_list(graph.input_ids(), payload.input_ids);
  read_id_list(graph.output_ids(), payload.output_ids);
  Error e = read_constants(graph, region, payload.constants);
  if (e == Error::Ok) {
    e = read_values(graph, payload);
  }
  if (e == Error::Ok) {
    e = read_nodes(graph, payload);
  }
  if (e == Error::Ok) {
    e = check_ids(payload);
  }
  return e == Error::Ok ? check_params(payload) : e;
}

} // namespace

Result<Payload> parse_payload(const void* data, size_t size) {
  auto layout = split_payload(static_cast<const uint8_t*>(data), size);
  if (!layout.ok()) {
    return layout.error();
  }
  Payload payload;
  payload.has_header = layout->has_header;
  auto graph = verify(aligned(layout->flatbuffer, payload), payload);
  if (!graph.ok()) {
    return graph.error();
  }
  const Error e = read_graph(**graph, layout->constants, payload);
  if (e != Error::Ok) {
    return e;
  }
  return payload;
}

} // namespace xnnpack_payload
