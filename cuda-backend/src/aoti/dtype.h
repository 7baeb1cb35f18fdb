// c10 scalar-type and device-type codes as AOTInductor models pass them
// through the C shim, and their element sizes. No CUDA needed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

enum : int32_t {
  kDtU8 = 0,
  kDtI8 = 1,
  kDtI16 = 2,
  kDtI32 = 3,
  kDtI64 = 4,
  kDtF16 = 5,
  kDtF32 = 6,
  kDtF64 = 7,
  kDtBool = 11,
  kDtBF16 = 15,
  kDtF8E5M2 = 23,
  kDtF8E4M3 = 24,
  kDtU16 = 27,
  kDtU32 = 28,
  kDtU64 = 29,
};
enum : int32_t { kDevCpu = 0, kDevCuda = 1 };

// Bytes per element for a c10 dtype code; 0 when the shim does not know it.
constexpr size_t dtype_size(int32_t dtype) {
  switch (dtype) {
    case kDtU8:
    case kDtI8:
    case kDtBool:
    case kDtF8E5M2:
    case kDtF8E4M3:
      return 1;
    case kDtI16:
    case kDtF16:
    case kDtBF16:
    case kDtU16:
      return 2;
    case kDtI32:
    case kDtF32:
    case kDtU32:
      return 4;
    case kDtI64:
    case kDtF64:
    case kDtU64:
      return 8;
    default:
      return 0;
  }
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
