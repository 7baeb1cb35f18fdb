// What a loaded Program keeps: the loader, the verified FlatBuffer and the
// loaded constant segment.
#pragma once

#include <cstddef>
#include <cstdint>

#include <executorch/runtime/core/data_loader.h>
#include <executorch/runtime/core/freeable_buffer.h>

#include "executor/program_named_data.h"
#include "program_generated.h"

namespace executorch {
namespace runtime {
namespace internal {

struct ProgramState {
  DataLoader* loader = nullptr;
  size_t file_size = 0;
  FreeableBuffer program_data; // the FlatBuffer, aligned
  const executorch_flatbuffer::Program* fb = nullptr;
  bool has_segments = false; // an extended header was present
  uint64_t segment_base_offset = 0;
  uint64_t segment_data_size = 0;
  // The constant segment, loaded whole; empty when the file uses the
  // deprecated constant_buffer (or has no constants).
  bool uses_constant_segment = false;
  FreeableBuffer constant_segment_data;
  ProgramNamedDataMap named_data{this};
};

} // namespace internal
} // namespace runtime
} // namespace executorch
