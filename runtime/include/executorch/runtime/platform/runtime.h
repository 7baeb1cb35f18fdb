#pragma once

#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

// Initializes the platform layer: calls the PAL's et_pal_init() (every
// call, as upstream does) and, once, takes the log level from
// EXECUTORCH_LOG_LEVEL. Safe to call more than once and from several threads.
EXECUTORCH_API void runtime_init();

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::runtime_init;
} // namespace executor
} // namespace torch
