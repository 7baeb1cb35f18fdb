#pragma once

#include <cstdint>

namespace executorch {
namespace runtime {

// STATIC: sizes never change. DYNAMIC_BOUND: may shrink within the planned
// capacity. DYNAMIC_UNBOUND: may also grow (not supported for planned memory).
enum class TensorShapeDynamism : uint8_t {
  STATIC = 0,
  DYNAMIC_BOUND = 1,
  DYNAMIC_UNBOUND = 2,
};

} // namespace runtime
} // namespace executorch
