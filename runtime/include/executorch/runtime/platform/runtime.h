#pragma once

#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace runtime {

// Initializes the platform layer (log level from the environment, clock).
// Safe to call more than once and from several threads.
EXECUTORCH_API void runtime_init();

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::runtime_init;
} // namespace executor
} // namespace torch
