// Builds an XNNPACK runtime from a checked payload (payload.h): one
// xnn_define_tensor_value per value, with its constant's bytes, and one
// xnn_define_* per node: fp32 graphs of the node kinds docs/xnnpack.md
// lists, and dynamically quantized fully connected nodes (an fp32 input
// converted to qdint8, a qcint8, qcint4 or qbint4 filter, an fp32 output);
// anything else fails before XNNPACK is called, with an Error that names
// the node or value.
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
  std::vector<std::vector<float>> scales;          // per-channel scales, aligned
  std::vector<std::vector<uint16_t>> bf16_scales;  // blockwise scales, aligned
};

struct Compiled {
  RuntimePtr runtime;
  std::vector<uint32_t> input_ids;  // external ids, sorted
  std::vector<uint32_t> output_ids; // external ids, sorted
  ConstantStore constants;
};

// NotSupported: a node or value this build cannot define (logged with its
// index and type). InvalidProgram: static int8 parameters XNNPACK would
// refuse or assert on (check_supported), a constant missing or of the wrong size,
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
