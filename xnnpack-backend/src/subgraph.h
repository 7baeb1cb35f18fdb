// Builds an XNNPACK runtime from a checked payload (payload.h): one
// xnn_define_tensor_value per value, with its constant's bytes, and one
// xnn_define_* per node. Phase 2 defines fp32 graphs of fully connected,
// convolution (plain and depthwise), the binary elementwise operators,
// clamp and static transpose; anything else fails before XNNPACK is called,
// with an Error that names the node or value.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <xnnpack.h>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/core/result.h>

#include "payload.h"

namespace xnnpack_backend {

struct RuntimeDeleter {
  void operator()(xnn_runtime_t r) const { xnn_delete_runtime(r); }
};
using RuntimePtr = std::unique_ptr<xnn_runtime, RuntimeDeleter>;

// The constants' bytes, kept for the runtime's lifetime: XNNPACK packs the
// weights of fully connected and convolution nodes at runtime creation but
// reads other static values in place at every run.
struct ConstantStore {
  std::vector<executorch::runtime::FreeableBuffer> named;
  std::vector<std::unique_ptr<uint64_t[]>> copies; // of constants in the blob
};

struct Compiled {
  RuntimePtr runtime;
  std::vector<uint32_t> input_ids;  // external ids, sorted
  std::vector<uint32_t> output_ids; // external ids, sorted
  ConstantStore constants;
};

// NotSupported: a node or value this build cannot define (logged with its
// index and type). InvalidProgram: a constant missing or of the wrong size,
// a constant flagged external, an external id on a value that is neither
// input nor output, or a value or node XNNPACK refused (its status is
// logged). Internal: XNNPACK could not create the subgraph or runtime.
executorch::runtime::Error check_supported(const xnnpack_payload::Payload& payload);

executorch::runtime::Result<Compiled> compile(const xnnpack_payload::Payload& payload,
                                              const executorch::runtime::NamedDataMap* named_data,
                                              pthreadpool_t threadpool);

// A readable name for an xnn_status.
const char* status_name(xnn_status status);

} // namespace xnnpack_backend
